"""benchmarks/policy_agreement.py over generation seeds: its arithmetic on known
agreements, and its resume."""

from __future__ import annotations

import math
import statistics

import pytest
from script_module import load_script

agreement = load_script("benchmarks/policy_agreement.py")
STAGES = agreement.STAGES


def _result(seed: int, claim: float, write: float) -> dict:
    row = {s: 1.0 for s in STAGES} | {"claim": claim, "memory_write": write, "judge": None}
    return {"seed": seed, "count": 2, "distinct_prompts": 100 + seed,
            "prompts": {s: 10 for s in STAGES} | {"judge": 0},
            "pairs": {"a / b": row | {"cross_model": claim < 0.8 and write < 0.8}}}


def test_mean_and_t_interval_over_the_seeds_and_the_cross_model_count():
    results = [_result(43, 0.70, 0.10), _result(42, 0.90, 0.10)]
    text = agreement.seeds_table(results)
    # claims: 0.9 and 0.7, mean 0.8, half-width t(0.975, 1 df) * stdev / sqrt(2)
    half = 12.706 * statistics.stdev([0.9, 0.7]) / math.sqrt(2)
    assert half == pytest.approx(1.2706, abs=1e-3)  # wider than the share: cut to [0, 1]
    assert "| a / b | 80.0% [0.0%, 100.0%] | 10.0% [10.0%, 10.0%] |" in text
    assert "| – | on some seeds (1 of 2 seeds) |" in text  # judge: no prompts on any seed
    assert "claim (n=10, 10)" in text and text.startswith("Seeds 42, 43 ")
    assert "Distinct prompts per seed: 42: 142, 43: 143." in text
    close = agreement.seeds_table([_result(42, 0.5, 0.1), _result(43, 0.52, 0.1),
                                   _result(44, 0.54, 0.1)])
    lo, hi = 0.52 - 4.303 * 0.02 / math.sqrt(3), 0.52 + 4.303 * 0.02 / math.sqrt(3)
    assert f"| a / b | 52.0% [{lo:.1%}, {hi:.1%}] |" in close
    assert "yes (3 of 3 seeds)" in close


def test_a_stored_seed_is_not_collected_again(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(agreement.claims_across_seeds, "ensure_suite",
                        lambda out, family, seed: tmp_path / f"suite-{seed}")
    monkeypatch.setattr(agreement, "collect", lambda count, suite: calls.append(suite) or [])
    first = agreement.run_seed(str(tmp_path), 43, 2)
    assert first["seed"] == 43 and first["distinct_prompts"] == 0 and len(calls) == 1
    assert agreement.run_seed(str(tmp_path), 43, 2) == first and len(calls) == 1
    agreement.run_seed(str(tmp_path), 43, 3)  # another --count is another set of prompts
    assert len(calls) == 2
