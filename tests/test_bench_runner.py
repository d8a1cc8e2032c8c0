"""The runner: a resumed run gives the same results as an uninterrupted one, finished
results are never redone, and the CLI writes summary.json in the issue's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repair_core.bench import load_results, run_bench, suite_case_paths
from repair_core.cli import main

ROOT = Path(__file__).resolve().parent.parent
PATHS = suite_case_paths("controlled", ROOT)[:4]
METHODS = ["ours", "no_repair", "llm_judge", "agenttrace"]


def _comparable(results):
    return sorted((r.model_dump(exclude={"seconds"}) for r in results),
                  key=lambda d: (d["method"], d["case_id"]))


class Interrupt(Exception):
    pass


def test_resumed_run_equals_uninterrupted(tmp_path):
    whole = run_bench(PATHS, METHODS, tmp_path / "a", progress=False)
    assert len(whole) == len(PATHS) * len(METHODS)

    seen: list[tuple[str, str]] = []

    def stop_after_five(method: str, case_id: str) -> None:
        seen.append((method, case_id))
        if len(seen) == 5:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_bench(PATHS, METHODS, tmp_path / "b", progress=False, on_result=stop_after_five)
    assert len(load_results(tmp_path / "b")) == 5  # what finished is kept

    redone: list[tuple[str, str]] = []
    resumed = run_bench(PATHS, METHODS, tmp_path / "b", progress=False,
                        on_result=lambda m, c: redone.append((m, c)))
    assert len(redone) == len(PATHS) * len(METHODS) - 5
    assert not set(redone) & set(seen)  # nothing finished was run again
    assert _comparable(resumed) == _comparable(whole)

    again: list[tuple[str, str]] = []
    run_bench(PATHS, METHODS, tmp_path / "b", progress=False,
              on_result=lambda m, c: again.append((m, c)))
    assert again == []


def test_parallel_run_equals_serial(tmp_path):
    serial = run_bench(PATHS[:2], ["ours", "full_reset"], tmp_path / "s", progress=False)
    parallel = run_bench(PATHS[:2], ["ours", "full_reset"], tmp_path / "p", workers=2,
                         progress=False)
    assert _comparable(serial) == _comparable(parallel)


def test_crashed_results_are_retried(tmp_path):
    from repair_core.bench import result_path
    from repair_core.bench._metrics import CaseResult

    run_bench(PATHS[:1], ["ours"], tmp_path, progress=False)
    case_id = load_results(tmp_path)[0].case_id
    p = result_path(tmp_path, "ours", case_id)
    crashed = CaseResult.model_validate_json(p.read_bytes()).model_copy(
        update={"error": "RuntimeError: boom", "recovered": False})
    p.write_text(crashed.model_dump_json())
    redone = []
    results = run_bench(PATHS[:1], ["ours"], tmp_path, progress=False,
                        on_result=lambda m, c: redone.append(c))
    assert redone == [case_id] and results[0].error is None and results[0].recovered


def test_cli_writes_summary_csv_and_table(tmp_path, capsys):
    folder = tmp_path / "suite"
    folder.mkdir()
    for p in PATHS[:2]:
        (folder / p.name).write_bytes(p.read_bytes())
    out = tmp_path / "out"
    rc = main(["bench", "run", "--suite", str(folder), "--methods", "ours,no_repair",
               "--out", str(out), "--no-progress"])
    assert rc == 0
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary) == {"ours", "no_repair"}
    assert set(summary["ours"]) == {"recovery", "recovery_paper", "recovery_state",
                                    "utility", "security", "next_session_security",
                                    "needs_human", "recurrence", "faulty_removal",
                                    "benign_preservation", "claim_f1", "replay_ratio",
                                    "llm_calls", "tokens", "cases", "store_carries_fault",
                                    "crashed", "recovery_unsure", "next_session_unsure"}
    assert summary["ours"]["store_carries_fault"] in (0.0, 0.5, 1.0)
    # dgrr's own signature check is a per-case diagnostic, never a summarised metric (the
    # exact key set above keeps it out of summary.json): kept in the run's per-case
    # results (no_repair leaves every fault in the store), in no breakdown
    kept = [r for r in load_results(out) if r.method == "no_repair"]
    assert len(kept) == 2 and all(r.store_signature_matches for r in kept)
    assert "signature" not in (out / "breakdown.json").read_text()
    assert summary["ours"]["cases"] == 2 and summary["no_repair"]["recovery"] == 0.0
    assert summary["ours"]["utility"] is None  # AgentDojo's checks: only on its suite
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("case_id,method") and len(csv_lines) == 5
    table = (out / "table.md").read_text()
    assert "| Ours | 2 |" in table and "| No repair | 2 |" in table
    assert "Ours" in capsys.readouterr().out


@pytest.mark.parametrize("argv,needle", [
    (["--methods", "ours,bogus"], "unknown method"),
    (["--workers", "0"], "--workers: must be at least 1"),
    (["--suite", "/nonexistent/suite"], "neither a known suite"),
])
def test_cli_bad_input_exits_2_with_a_message(tmp_path, capsys, argv, needle):
    rc = main(["bench", "run", "--out", str(tmp_path / "o"), "--no-progress", *argv])
    err = capsys.readouterr().err
    assert rc == 2 and needle in err and "Traceback" not in err


def test_out_folder_refuses_another_model(tmp_path, capsys):
    run_bench(PATHS[:1], ["no_repair"], tmp_path, progress=False)
    rc = main(["bench", "run", "--suite", str(PATHS[0]), "--methods", "no_repair",
               "--model", "openai/other", "--out", str(tmp_path), "--no-progress"])
    assert rc == 2 and "holds results of model 'dgrr/reference'" in capsys.readouterr().err


def test_table_keeps_the_paper_figures_in_their_own_column():
    from repair_core.bench import markdown_table
    from repair_core.bench._metrics import CaseResult

    rs = [CaseResult(case_id="a", method="ours", recovered=True, recurred=False,
                     faults_total=1, faults_removed=1, benign_total=2, benign_kept=2,
                     replayed_steps=3, trajectory_steps=10, llm_calls=4, tokens=100),
          CaseResult(case_id="a", method="no_repair", trajectory_steps=10)]
    table = markdown_table(rs, "controlled")
    head = next(line for line in table.splitlines() if line.startswith("| Method |"))
    assert head.endswith("| Paper's figures (GPT-4o; another model, not comparable cell by "
                         "cell) |")
    ours = next(line for line in table.splitlines() if line.startswith("| Ours |"))
    cells = [c.strip() for c in ours.strip("|").split("|")]
    assert cells[2] == "1.000" and cells[5] == "0.300" and cells[6] == "4.00"
    assert "(" not in "".join(cells[2:-1])  # no paper figure inside a measured cell
    assert cells[-1].startswith("Recovery 0.853, Recurrence 0.266")
    no_repair = next(line for line in table.splitlines() if line.startswith("| No repair |"))
    assert "| – |" in no_repair  # nothing recovered: no recurrence
    assert "0.853" not in markdown_table(rs, "custom")
    assert "met" not in table.split()


def test_agentdojo_table_and_csv_carry_next_session_unsure():
    """The summary counts results whose next-session security rests on the agent's reading
    of a record naming the attack's slot; the table shows that count and results.csv the
    records, beside next-session security."""
    import csv
    import io

    from repair_core.bench import markdown_table
    from repair_core.bench._metrics import CaseResult
    from repair_core.bench._tables import results_csv

    def dojo(case_id: str, unsure: list[str]) -> CaseResult:
        return CaseResult(case_id=case_id, method="ours", utility=True, security=True,
                          next_session_security=True, next_session_unsure=unsure,
                          trajectory_steps=10)

    rs = [dojo("a", ["m_note", "m_warn"]), dojo("b", []), dojo("c", ["m_iban"])]
    table = markdown_table(rs, "agentdojo")
    head = next(line for line in table.splitlines() if line.startswith("| Method |"))
    labels = [c.strip() for c in head.strip("|").split("|")]
    ours = next(line for line in table.splitlines() if line.startswith("| Ours |"))
    cells = dict(zip(labels, [c.strip() for c in ours.strip("|").split("|")], strict=True))
    assert cells["Next-session security"] == "1.000"
    assert cells["Next-session unsure"] == "2"  # results, not records
    assert "next-session unsure:" in table
    rows = {r["case_id"]: r for r in csv.DictReader(io.StringIO(results_csv(rs)))}
    assert rows["a"]["next_session_unsure"] == "m_note m_warn"
    assert rows["b"]["next_session_unsure"] == ""
