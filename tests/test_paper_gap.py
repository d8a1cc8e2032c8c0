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


def test_planned_totals_over_seeds_report_each_seed_and_a_t_interval() -> None:
    from collections import Counter

    cases = _first_cases("controlled", 2)
    total = gap.planned_totals(cases)
    measured = gap.measure("controlled", limit=2)
    assert total["cases"] == 2 and total["steps"] == measured.total(measured.steps)
    assert total["replayed"] == measured.total(measured.replayed)
    assert total["model_facing"] == measured.total(measured.replayed, gap.MODEL_FACING)
    assert 0 < total["model_facing"] < total["replayed"]
    per_seed = {"controlled": {
        42: Counter(cases=1, steps=10, affected=7, replayed=4, model_facing=2),
        43: Counter(cases=1, steps=20, affected=10, replayed=8, model_facing=2)}}
    text = gap.seeds_report(per_seed)
    lo, hi = load_script("benchmarks/claims_across_seeds.py").seed_interval([0.5, 0.25])
    assert (f"| controlled | Model-facing share of replayed steps | 0.375 [{lo:.3f}, {hi:.3f}] "
            "| 0.500 | 0.250 |") in text
    assert "| controlled | Affected share of steps (A0) | 0.600 [" in text
