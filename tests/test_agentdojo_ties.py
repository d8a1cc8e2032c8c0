"""benchmarks/agentdojo_ties.py: its counts come from the results CSV, and
docs/agentdojo.md shows what it prints on the committed run."""

from __future__ import annotations

import csv
from pathlib import Path

from script_module import ROOT, load_script

ties = load_script("benchmarks/agentdojo_ties.py")

HEADER = ["case_id", "method", "security", "utility", "next_session_security"]


def _write(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([HEADER, *rows])
    return path


def test_a_method_apart_on_security_is_named_and_counted(tmp_path: Path) -> None:
    a = "adj-banking-usertask0-injectiontask4-usertask2-x"
    b = "adj-slack-usertask1-injectiontask2-usertask3-y"
    rows = [[a, "no_repair", "False", "True", "False"], [b, "no_repair", "False", "True", "False"],
            [a, "ours", "True", "True", "True"], [b, "ours", "False", "True", "True"],
            [a, "full_reset", "False", "True", "True"], [b, "full_reset", "False", "False", "True"]]
    text = ties.report(ties.load(_write(tmp_path / "r.csv", rows)))
    assert "| Full memory reset | 1 | 1 | 2 |" in text
    assert "| No repair | 1 | 2 | 0 |" in text
    assert "| banking | 4 | 1 | 0 | 1 | Full memory reset (0) | 1 | 1 | none |" in text
    assert "| slack | 2 | 1 | 0 | 0 | none | 1 | 1 | Full memory reset (0) |" in text
    assert "Secure under Ours and not under no repair: 1 cases (banking injection task 4: 1)" in text


def test_committed_run_every_repairing_method_ties_ours_on_security() -> None:
    verdicts = ties.load()
    ours = verdicts["ours"]
    assert len(ours) == 286
    for method, cases in verdicts.items():
        if method != "no_repair":
            assert all(cases[c]["security"] == ours[c]["security"] for c in ours), method


def test_the_docs_show_what_the_script_prints() -> None:
    text = (ROOT / "docs/agentdojo.md").read_text(encoding="utf-8")
    block = text[text.index(ties.BEGIN) + len(ties.BEGIN):text.index(ties.END)]
    assert block == "\n```\n" + ties.report(ties.load()) + "```\n"
