"""benchmarks/rules_across_seeds.py: the rules' disagreement on known verdicts."""

from __future__ import annotations

import pytest
from script_module import load_script

rules = load_script("benchmarks/rules_across_seeds.py")
claims = load_script("benchmarks/claims_across_seeds.py")


def _v(paper, strict, state):
    return {"paper": paper, "strict": strict, "state": state}


RUNS = [
    {"family": "controlled", "seed": 42, "verdicts": {
        "ours": {"a": _v(True, True, True), "b": _v(True, False, True)},
        "no_repair": {"a": _v(True, False, False), "b": _v(False, False, None)}}},
    {"family": "controlled", "seed": 43, "verdicts": {
        "ours": {"a": _v(True, True, True), "b": _v(True, True, False)},
        "no_repair": {"a": _v(True, False, True), "b": _v(True, False, False)}}},
]


def test_rules_disagree_on_pooled_answers_with_an_exact_test():
    """Paper against strict: seed 42 has 2 of 4 answers only the paper rule passes, seed 43
    2 of 4: 4 / 0 pooled, p = 2 / 2**4, each seed's share 0.5."""
    d = rules.disagreement(RUNS, "paper", "strict")
    assert (d["only_a"], d["only_b"], d["judged"]) == (4, 0, 8)
    assert d["shares"] == [0.5, 0.5] and d["p"] == pytest.approx(2 / 2 ** 4)
    # strict against state: an answer with no state verdict is not judged by both
    s = rules.disagreement(RUNS, "strict", "state")
    assert s["judged"] == 7
    assert (s["only_a"], s["only_b"]) == (1, 2)  # 43/ours/b; 42/ours/b, 43/no_repair/a
    assert s["shares"] == [pytest.approx(1 / 3), pytest.approx(2 / 4)]
    assert s["p"] == pytest.approx(claims.mcnemar_exact(1, 2)) == pytest.approx(1.0)


def test_report_gives_each_rule_a_t_interval_over_the_seeds():
    text = rules.report(RUNS, ["ours", "no_repair"])
    lo, hi = claims.seed_interval([0.5, 1.0])  # Ours under the strict rule: 1/2, 2/2
    assert lo < 0 and hi > 1  # two seeds, t = 12.7: the interval is cut to [0, 1]
    assert "| Ours | 1.000 [1.000, 1.000] | 0.750 [0.000, 1.000] | 0.750 [0.000, 1.000] |" in text
    # no repair: state judged on 1 of 2 answers in seed 42 (0 of 1) and 2 of 2 in 43 (1 of 2)
    assert "| No repair | 0.750 [0.000, 1.000] | 0.000 [0.000, 0.000] | 0.250 [" in text
    assert "| paper / strict | 8 | 4 / 0 | 0.500 [0.500, 0.500] | 42: 0.500, 43: 0.500 | 0.125 |" in text
