"""benchmarks/paper_gap.py: its figures are counted from the committed cases and results,
and docs/results.md shows what it prints."""

from __future__ import annotations

import csv
from pathlib import Path

from script_module import ROOT, load_script

from repair_core import plan_case
from repair_core.case._load import load_case

gap = load_script("benchmarks/paper_gap.py")


def _first_cases(suite: str, n: int) -> list[Path]:
    return sorted(p for p in (ROOT / "sample_traces" / suite).glob("*.json")
                  if p.name != "manifest.json")[:n]


def test_affected_share_and_replayed_steps_are_counted_from_the_plan_and_the_csv() -> None:
    measured = gap.measure("controlled", limit=3)
    steps = affected = replayed = 0
    for path in _first_cases("controlled", 3):
        case = load_case(path)
        report = plan_case(case).report()
        ids = {s.id for s in case.trajectory}
        steps += len(ids)
        affected += len(ids & set(report.affected))
    with (ROOT / "docs/results/controlled/results.csv").open(newline="") as f:
        wanted = {load_case(p).case_id for p in _first_cases("controlled", 3)}
        replayed = sum(int(r["replayed_steps"]) for r in csv.DictReader(f)
                       if r["method"] == "ours" and r["case_id"] in wanted)
    assert measured.cases == 3
    assert sum(b["cases"] for b in measured.by_length.values()) == 3
    assert sum(b["affected"] for b in measured.by_length.values()) == affected
    assert measured.total(measured.steps) == steps
    assert measured.total(measured.affected) == affected
    assert 0 < affected < steps
    assert measured.committed_replayed == replayed
    assert measured.total(measured.replayed) == replayed and measured.agree == 3
    row = next(line for line in gap.report([measured]).splitlines()
               if line.startswith("| controlled | 3 |"))
    assert f"| {affected / steps:.3f} |" in row


def test_model_facing_steps_are_a_subset_of_the_replayed_ones() -> None:
    measured = gap.measure("controlled", limit=5)
    facing = measured.total(measured.replayed, gap.MODEL_FACING)
    assert 0 < facing < measured.total(measured.replayed)
    assert facing == round(measured.committed_calls)  # Ours' planner calls no model


def test_the_docs_show_what_the_script_prints() -> None:
    text = (ROOT / "docs/results.md").read_text(encoding="utf-8")
    block = text[text.index(gap.BEGIN) + len(gap.BEGIN):text.index(gap.END)]
    assert block == "\n```\n" + gap.report([gap.measure(s) for s in gap.SUITES]) + "```\n"
