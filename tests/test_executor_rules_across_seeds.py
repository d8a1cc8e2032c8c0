"""benchmarks/executor_rules_across_seeds.py: its arithmetic on known verdicts, and on a
tiny grid it runs (two committed noisy cases per seed, two seeds)."""

from __future__ import annotations

import json
import math
import shutil
import statistics
from pathlib import Path
from typing import Any

import pytest
from script_module import load_script

script = load_script("benchmarks/executor_rules_across_seeds.py")
ROOT = Path(__file__).resolve().parent.parent
NOISY = ROOT / "sample_traces" / "controlled-noisy"


def _unit(seed: int, before: dict[str, bool], after: dict[str, bool]) -> dict[str, Any]:
    cost = {"replayed": 10, "steps": 40, "calls": 6, "human": 0}
    return {"family": "controlled", "seed": seed, "salt": 1, "model": "dgrr/reference",
            "cases": len(before),
            "before": {"recovered": {"x": before}, "cost": {"x": cost}},
            "after": {"recovered": {"x": after},
                      "cost": {"x": {**cost, "replayed": 8, "calls": 4}}}}


UNITS = [
    # seed 42: a and b gained, c lost -> 1/4 before, 2/4 after
    _unit(42, {"a": False, "b": False, "c": True, "d": False},
          {"a": True, "b": True, "c": False, "d": False}),
    # seed 43: a gained, nothing lost -> 2/4 before, 3/4 after
    _unit(43, {"a": False, "b": True, "c": True, "d": False},
          {"a": True, "b": True, "c": True, "d": False}),
]


def _t_interval_by_hand(values: list[float]) -> tuple[float, float]:
    half = 12.706 * statistics.stdev(values) / math.sqrt(len(values))  # t(0.975, 1 df)
    mean = sum(values) / len(values)
    return mean - half, mean + half


def test_gained_and_lost_pool_over_seeds_with_an_exact_mcnemar_p():
    d = script.moved(UNITS, "x")
    assert (d["gained"], d["lost"]) == (3, 1)
    # two-sided binomial at 1/2: 2 * P(X <= 1 | n = 4) = 2 * (1 + 4) / 16
    assert d["p"] == pytest.approx(2 * 5 / 16)
    assert d["gained_cases"] == [(42, "a"), (42, "b"), (43, "a")]
    assert d["lost_cases"] == [(42, "c")]
    assert d["before"] == [0.25, 0.5] and d["after"] == [0.5, 0.75]
    assert d["change"] == [0.25, 0.25]


def test_report_gives_a_t_interval_over_the_seeds_and_the_costs():
    text = script.report(UNITS, ["x"])
    lo, hi = _t_interval_by_hand([0.5, 0.75])  # after: 0.625 +- 12.706 * 0.177 / 1.414
    assert (round(lo, 3), round(hi, 3)) == (-0.963, 2.213)  # two seeds: cut to [0, 1]
    assert "| 0.625 [0.000, 1.000] |" in text
    # the same change on both seeds: a zero-width interval
    assert "| +0.250 [+0.250, +0.250] |" in text
    assert "| 42: +0.250, 43: +0.250 | 3 / 1 | 0.625 | 3 / 1 |" in text
    # 20 replayed steps and 12 calls over 8 cases before; 16 and 8 after
    assert "| 2.50 → 2.00 | 1.50 → 1.00 |" in text
    assert "(generation seed, cases: 42, 4 cases; 43, 4 cases)" in text


def test_a_tiny_grid_runs_both_settings_and_resumes(tmp_path, monkeypatch):
    suites = {42: ["ctl-030", "ctl-006"], 43: ["ctl-015", "ctl-019"]}

    def committed_cases(out: Path, family: str, seed: int) -> Path:
        where = tmp_path / "suites" / f"{family}-s{seed}"
        if not where.exists():
            where.mkdir(parents=True)
            for prefix in suites[seed]:
                src = next(NOISY.glob(f"{prefix}-*.json"))
                shutil.copy(src, where / src.name)
        return where

    monkeypatch.setattr(script.claims_across_seeds, "ensure_suite", committed_cases)
    out = tmp_path / "out"
    methods = ["redo_first_exposure", "ours"]
    script.run_all(out, ["controlled-noisy"], [42, 43], [1], methods, workers=1)
    units = script.stored_units(out, ["controlled-noisy"])
    assert [(u["seed"], u["salt"], u["cases"]) for u in units] == [(42, 1, 2), (43, 1, 2)]
    assert units[0]["model"] == "dgrr/reference/noise=0.1/salt=1"
    # each side's verdicts, counted by hand, are what the comparison pools
    gained = lost = 0
    for u in units:
        for s in script.SETTINGS:
            assert sorted(u[s]["recovered"]["ours"]) == sorted(
                json.loads(p.read_text())["case_id"]
                for p in (out / "runs" / f"controlled-noisy-s{u['seed']}-k1-{s}" / "results"
                          / "ours").glob("*.json"))
        before, after = (u[s]["recovered"]["redo_first_exposure"] for s in script.SETTINGS)
        gained += sum(after[c] and not before[c] for c in after)
        lost += sum(before[c] and not after[c] for c in after)
    d = script.moved(units, "redo_first_exposure")
    assert (d["gained"], d["lost"]) == (gained, lost)
    k, n = min(gained, lost), gained + lost
    by_hand = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
    assert d["p"] == pytest.approx(by_hand)
    # a second run finds every unit stored and repairs nothing
    monkeypatch.setattr("repair_core.bench.run_bench",
                        lambda *a, **k: pytest.fail("a stored unit was run again"))
    script.run_all(out, ["controlled-noisy"], [42, 43], [1], methods, workers=1)


def test_bad_arguments_are_refused_with_the_option_named(capsys):
    for argv, word in ((["--families", "nope"], "--families"),
                       (["--seeds", "42,42"], "--seeds"),
                       (["--methods", "no_repair"], "--methods"),
                       (["--workers", "0"], "--workers")):
        with pytest.raises(SystemExit) as e:
            script.main(argv + ["--report-only"])
        assert e.value.code == 2 and word in capsys.readouterr().err
