"""`dgrr repair`: text and JSON output, --out files, edited plans, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from repair_core import case_from_data, load_case
from repair_core.cli import main

SAMPLES = Path(__file__).resolve().parent.parent / "sample_traces"
FIG1 = str(SAMPLES / "figure1-travel.json")


def test_text_output_shows_both_answers_store_changes_and_cost(capsys):
    assert main(["repair", FIG1, "--objective", "answer"]) == 0  # the paper's numbers
    out = capsys.readouterr().out
    assert "original answer:  Booked JL1 SFO to NRT next Friday, economy, window seat 31A" in out
    assert "corrected answer: JL1 SFO to NRT" in out and "aisle seat 31C" in out
    assert "deleted      m3" in out and "quarantined  m6" in out
    assert "Cost: 3 LLM calls" in out and "replay ratio 0.545" in out


def test_json_is_one_object_with_the_issue_fields(capsys):
    assert main(["repair", FIG1, "--json", "--objective", "answer"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"answer", "original_answer", "store", "trajectory", "report", "cost",
                         "needs_human", "verification"}
    assert data["verification"]["clean"] is True
    assert data["needs_human"] == data["report"]["irreversible_effects"] == []
    assert set(data["store"]) == {"active", "quarantine"}
    assert set(data["cost"]) == {"llm_calls", "connection_failures", "tokens", "replay_ratio"}
    assert data["cost"]["llm_calls"] == 3
    assert [r["id"] for r in data["store"]["quarantine"]] == ["m6"]
    assert "m3" not in {r["id"] for r in data["store"]["active"]}
    case_from_data(data["trajectory"])
    for fact in load_case(FIG1).eval.required_facts:
        assert fact in data["answer"]


def test_out_writes_every_part(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["repair", FIG1, "--out", str(out), "--objective", "answer"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["answer.txt", "report.json", "result.json", "store.json", "trajectory.json"]
    assert "31C" in (out / "answer.txt").read_text()
    case_from_data(json.loads((out / "trajectory.json").read_text()))
    assert json.loads((out / "report.json").read_text())["cost"]["llm_calls"] == 3


def _plan_json(capsys) -> dict:
    assert main(["plan", FIG1, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_edit_that_keeps_a_fault_is_refused_even_forced(tmp_path, capsys):
    report = _plan_json(capsys)
    report["memory"]["m3"] = "keep"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report))
    assert main(["repair", FIG1, "--plan", str(edited)]) == 2
    err = capsys.readouterr().err
    assert "m3" in err and "Traceback" not in err
    assert main(["repair", FIG1, "--plan", str(edited), "--force", "--comment", "sure",
                 "--json"]) == 2
    assert "unmark the fault instead" in capsys.readouterr().err


def test_valid_edit_changes_the_replay(tmp_path, capsys):
    report = _plan_json(capsys)
    report["steps"]["s11"] = "replay"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report))
    assert main(["repair", FIG1, "--plan", str(edited), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    outcomes = {o["id"]: o["outcome"] for o in data["report"]["steps"]}
    assert outcomes["s11"] in ("replayed", "skipped")
    assert data["cost"]["replay_ratio"] == pytest.approx(7 / 11, abs=1e-6)


@pytest.mark.parametrize("argv, needle", [
    (["repair", "missing.json"], "file not found"),
    (["repair", FIG1, "--plan", "missing-plan.json"], "no such file"),
    (["repair", FIG1, "--observation", "nonsense"], "STEP=VALUE"),
])
def test_bad_input_exits_2_with_a_message(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_bad_plan_json_names_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{\n  \"memory\": }")
    assert main(["repair", FIG1, "--plan", str(bad)]) == 2
    assert "line 2 column" in capsys.readouterr().err


def test_out_over_a_file_is_refused_and_writes_nothing(tmp_path, capsys):
    target = tmp_path / "taken"
    target.write_text("keep me")
    assert main(["repair", FIG1, "--out", str(target)]) == 2
    assert target.read_text() == "keep me"


def test_progress_goes_to_stderr(capsys):
    assert main(["repair", FIG1, "--progress", "--json", "--objective", "answer"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)
    lines = captured.err.strip().splitlines()
    assert lines[0].startswith("[1/6] s1: 0 LLM calls")
    assert lines[-1].startswith("[6/6] s10: 3 LLM calls")


def test_a_failing_model_exits_1_with_the_failures_in_the_report(capsys):
    from repair_core.model import register_provider

    register_provider("clibroken", lambda messages: "nope")
    assert main(["repair", FIG1, "--model", "clibroken/x", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] is None and {f["step"] for f in data["report"]["failures"]} == {
        "s3", "s5", "s10"}


def test_observation_for_a_step_that_is_not_an_action_is_refused(capsys):
    assert main(["repair", FIG1, "--observation", 's7={"flight": "JL1"}']) == 2
    assert "not tool_action steps" in capsys.readouterr().err


def test_default_objective_is_both_and_rederives_the_quarantined_record(capsys):
    # objective both: the corrected answer as with answer, and m6 (which s11 wrote from the
    # fault's claim) is re-derived by replaying s11 on cleaned inputs
    assert main(["repair", FIG1, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "31C" in data["answer"]
    outcomes = {o["id"]: o["outcome"] for o in data["report"]["steps"]}
    assert outcomes["s11"] == "replayed" and outcomes["s10"] == "replayed"
    assert data["report"]["no_longer_sees"] == {"s1": ["m3"], "s3": ["m3"]}
    assert data["cost"]["llm_calls"] == 4
    decisions = {d["id"]: d["reason"] for d in data["report"]["decisions"]}
    assert decisions["s11"].startswith("objective store:")
    assert decisions["s10"].startswith("objective answer:")


def test_objective_store_leaves_the_past_answer(capsys):
    assert main(["repair", FIG1, "--json", "--objective", "store"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] is None
    outcomes = {o["id"]: o["outcome"] for o in data["report"]["steps"]}
    assert outcomes["s10"] == "invalidated" and outcomes["s11"] == "replayed"
    assert data["cost"]["llm_calls"] == 2
    assert main(["repair", FIG1, "--objective", "store"]) == 0
    assert "not regenerated: objective store" in capsys.readouterr().out


def test_repair_summary_is_bounded_at_scale_and_full_on_request(tmp_path, capsys):
    from repair_core.cli import main

    case = tmp_path / "case.json"
    assert main(["synth", "--steps", "3000", "--faults", "40", "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--objective", "answer"]) == 0
    short = capsys.readouterr().out
    assert main(["repair", str(case), "--objective", "answer", "--full"]) == 0
    full = capsys.readouterr().out
    invalidated = [ln for ln in full.splitlines() if ln.startswith("  invalidated ")]
    assert len(invalidated) > 100
    shown = [ln for ln in short.splitlines() if ln.startswith("  invalidated ")]
    assert len(shown) == 10
    assert f"… {len(invalidated) - 10} more invalidated (--full lists every one)" in short
    assert re.search(rf"^Replay: {len(invalidated)} invalidated, ", short, re.M)
    assert len(short.splitlines()) < 200 < len(full.splitlines())
    assert "more" not in "".join(ln for ln in full.splitlines() if ln.startswith("  … "))
