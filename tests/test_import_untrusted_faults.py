"""`dgrr import --faults` diagnoses a tool observation (a tool result or a retrieved
document) by its span id, as well as a record: faults on any untrusted input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk.trace", reason="needs the 'import' extra")

from repair_core import load_case, plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "sample_imports" / "otlp" / "figure1-travel.otlp.jsonl"


def test_import_faults_takes_an_observation_span(tmp_path, capsys):
    plain = tmp_path / "plain.json"
    assert main(["import", str(TRACE), "--out", str(plain)]) == 0
    case = load_case(plain)
    obs = next(s for s in case.steps_in_order() if s.type == "tool_observation")
    out = tmp_path / "case.json"
    assert main(["import", str(TRACE), "--faults", obs.id, "--out", str(out)]) == 0
    capsys.readouterr()
    diagnosed = load_case(out)
    assert diagnosed.faults == [obs.id]
    plan = plan_case(diagnosed, objective="both")
    assert plan.steps[obs.id] == "invalidate" and obs.id not in plan.replay_set
    assert plan.analysis.seeds == {obs.id: obs.id}
    # the CLI plans it too, and its operations revoke the observation
    assert main(["plan", str(out), "--ops"]) == 0
    ops = json.loads(capsys.readouterr().out)
    assert {"op": "revoke", "id": obs.id, "kind": "step"}.items() <= ops[0].items()


def test_import_faults_refuses_a_step_that_is_not_an_input(tmp_path, capsys):
    plain = tmp_path / "plain.json"
    assert main(["import", str(TRACE), "--out", str(plain)]) == 0
    claim = next(s for s in load_case(plain).trajectory if s.type not in ("tool_observation",))
    out = tmp_path / "case.json"
    assert main(["import", str(TRACE), "--faults", claim.id, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "not a memory record, tool observation or user turn" in err and claim.id in err
    assert "Traceback" not in err and not out.exists()


def test_plan_faults_option_takes_an_observation(capsys):
    case = ROOT / "sample_traces" / "figure1-travel.json"
    assert main(["plan", str(case), "--faults", "s7", "--json", "--objective", "both"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seeds"] == {"s7": "s7"} and report["objective"] == "both"
    assert report["steps"]["s7"] == "invalidate" and report["steps"]["s10"] == "replay"
    assert main(["plan", str(case), "--faults", "s7"]) == 0
    assert "a tool observation: dropped from every replayed" in capsys.readouterr().out
    assert main(["plan", str(case), "--faults", "s5"]) == 2  # a claim is not an input
    assert "not a memory record, tool observation or user turn 's5'" in capsys.readouterr().err
