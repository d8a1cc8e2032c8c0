"""benchmarks/paper_gap.py: its figures are counted from the committed cases and results,
and docs/results.md shows what it prints."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
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


def test_step_types_and_session_lengths_over_seeds() -> None:
    """The per-type and per-length totals of two committed cases are the committed
    section's counts, and each row over seeds is the mean of the seeds' shares with a t
    interval (0.5 and 0.75: 0.625 ± 12.706 * 0.1768 / sqrt 2); a length one seed lacks
    is shown as '–'."""
    from collections import Counter

    cases = _first_cases("controlled", 2)
    total = gap.planned_totals(cases)
    measured = gap.measure("controlled", limit=2)
    for k in gap.KINDS:
        assert total[f"steps:{k}"] == measured.steps[k]
        assert total[f"affected:{k}"] == measured.affected[k]
        assert total[f"replayed:{k}"] == measured.replayed[k]
    for b, _ in gap.LENGTHS:
        for key in ("cases", "steps", "affected", "replayed", "earlier", "earlier_affected"):
            assert total[f"{b}:{key}"] == measured.by_length[b][key]
    per_seed = {"controlled": {
        42: Counter({"cases": 1, "steps": 20, "replayed": 8, "steps:claim": 10,
                     "affected:claim": 5, "replayed:claim": 4, "8-19:cases": 1,
                     "8-19:steps": 20, "8-19:affected": 10, "8-19:replayed": 8,
                     "8-19:earlier": 10, "8-19:earlier_affected": 5}),
        43: Counter({"cases": 1, "steps": 40, "replayed": 10, "steps:claim": 20,
                     "affected:claim": 15, "replayed:claim": 5, "40+:cases": 1,
                     "40+:steps": 40, "40+:affected": 20, "40+:replayed": 10,
                     "40+:earlier": 30, "40+:earlier_affected": 15})}}
    text = gap.seeds_report(per_seed)
    lo, hi = load_script("benchmarks/claims_across_seeds.py").seed_interval([0.5, 0.75])
    assert lo == pytest.approx(0.625 - 12.706205 * 0.1767767 / 2 ** 0.5)
    # claim: affected 0.5 / 0.75, replayed 0.4 / 0.25, share of Ours' replay 0.5 / 0.5
    share = load_script("benchmarks/claims_across_seeds.py").seed_interval([0.5, 0.5])
    assert lo < 0 and hi > 1  # two seeds: t = 12.7, so the share's interval is cut
    assert "| controlled | claim | 10 / 20 | 0.625 [0.000, 1.000] | 0.325 [" in text
    assert f"| 0.500 [{share[0]:.3f}, {share[1]:.3f}] |" in text
    assert "| controlled | plan | 0 / 0 | – | – | 0.000 [0.000, 0.000] |" in text
    assert "| controlled | 8-19 | 1 / 0 | – | – | – |" in text
    assert "| controlled | 40+ | 0 / 1 | – | – | – |" in text
    assert "20-39" not in text.split("By session length")[1]


def test_a_share_over_seeds_is_cut_to_zero_and_one() -> None:
    from collections import Counter

    def seed(affected: int) -> Counter[str]:
        return Counter({"cases": 1, "steps": 10, "replayed": 1, "steps:claim": 10,
                        "affected:claim": affected, "replayed:claim": 1})

    text = gap.seeds_report({"controlled": {42: seed(10), 43: seed(6)}})
    lo, hi = load_script("benchmarks/claims_across_seeds.py").seed_interval([1.0, 0.6])
    assert hi > 1 and lo < 0.8
    assert f"| controlled | claim | 10 / 10 | 0.800 [{max(0.0, lo):.3f}, 1.000] |" in text
