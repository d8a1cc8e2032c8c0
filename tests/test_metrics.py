"""Each metric on small cases computed by hand."""

from __future__ import annotations

import pytest

from repair_core.bench import (
    CaseResult,
    benign_preservation,
    claim_counts,
    claim_f1,
    contains_required_facts,
    faulty_removal,
    mean_llm_calls,
    mean_tokens,
    recovery,
    recurrence,
    replay_ratio,
    summarise,
    summarise_by,
)


def R(**kw) -> CaseResult:
    return CaseResult(case_id=kw.pop("case_id", "c"), method="m", **kw)


def test_oracle_needs_every_fact_case_insensitively():
    assert contains_required_facts("Booked JL1,  AISLE seat", ["jl1", "aisle seat"])
    assert not contains_required_facts("Booked JL1, window seat", ["JL1", "aisle"])
    assert not contains_required_facts("anything", [])
    assert contains_required_facts("Size M, 12 Pine St, Seattle.", ["m", "12 pine st, seattle"])
    assert not contains_required_facts("Mike in Seattle", ["m"])


def test_recovery_is_share_of_cases():
    rs = [R(recovered=True), R(recovered=False), R(recovered=True), R(recovered=False)]
    assert recovery(rs) == 0.5
    assert recovery([]) == 0.0


def test_recurrence_counts_recovered_cases_only():
    rs = [R(recovered=True, recurred=True), R(recovered=True, recurred=False),
          R(recovered=True, recurred=False), R(recovered=False, recurred=None)]
    assert recurrence(rs) == pytest.approx(1 / 3)
    assert recurrence([R(recovered=False)]) is None


def test_faulty_removal_and_benign_preservation_are_micro_averaged():
    # case 1: 1 of 1 fault removed, 5 of 5 benign kept; case 2: 1 of 3 removed, 1 of 5 kept
    rs = [R(faults_total=1, faults_removed=1, benign_total=5, benign_kept=5),
          R(faults_total=3, faults_removed=1, benign_total=5, benign_kept=1)]
    assert faulty_removal(rs) == 2 / 4  # micro, not (1 + 1/3) / 2
    assert benign_preservation(rs) == 6 / 10


def test_claim_f1_micro_over_tp_fp_fn():
    assert claim_counts(["s3", "s5"], ["s3", "s9", "s10"]) == (1, 2, 1)
    rs = [R(gold_claims=["s3", "s5"], predicted_claims=["s3", "s9", "s10"]),  # 1, 2, 1
          R(gold_claims=["s4"], predicted_claims=["s4"])]                      # 1, 0, 0
    # tp=2, fp=2, fn=1 -> 4 / (4 + 3)
    assert claim_f1(rs) == pytest.approx(4 / 7)
    assert claim_f1([R(gold_claims=["s3"], predicted_claims=[])]) == 0.0
    assert claim_f1([R()]) == 0.0


def test_replay_ratio_is_micro_and_costs_are_per_case_means():
    rs = [R(replayed_steps=2, trajectory_steps=10, llm_calls=3, tokens=100),
          R(replayed_steps=6, trajectory_steps=30, llm_calls=5, tokens=300)]
    assert replay_ratio(rs) == 8 / 40
    assert mean_llm_calls(rs) == 4.0
    assert mean_tokens(rs) == 200.0


def test_summary_and_groups():
    rs = [R(case_id="a", domain="travel", fault_type="stale", n_faults=1, n_benign=6,
            recovered=True, recurred=False),
          R(case_id="b", domain="travel", fault_type="poisoned", n_faults=2, n_benign=12,
            recovered=False),
          R(case_id="c", domain="shopping", fault_type="stale", n_faults=1, n_benign=10,
            recovered=True, recurred=True)]
    s = summarise(rs)
    assert s.cases == 3 and s.recovery == pytest.approx(2 / 3) and s.recurrence == 0.5
    by_domain = summarise_by(rs, "domain")
    assert list(by_domain) == ["shopping", "travel"]
    assert by_domain["travel"].recovery == 0.5 and by_domain["shopping"].recurrence == 1.0
    assert {k: v.cases for k, v in summarise_by(rs, "n_faults").items()} == {"1": 2, "2": 1}
    assert {k: v.cases for k, v in summarise_by(rs, "n_benign").items()} == {
        "6-8": 1, "9-11": 1, "12-14": 1}
    assert list(summarise_by(rs, "n_benign")) == ["6-8", "9-11", "12-14"]
    assert list(summarise_by([R(n_benign=4)], "n_benign")) == ["0-5"]


def test_results_break_down_by_trajectory_length_in_the_shape_buckets():
    rs = [R(trajectory_steps=n) for n in (8, 10, 15, 16, 49, 50, 64, 65, 80, 81, 5)]
    got = {k: v.cases for k, v in summarise_by(rs, "trajectory_steps").items()}
    assert got == {"8-15": 3, "16-24": 1, "35-49": 1, "50-64": 2, "65-80": 2, ">80": 1,
                   "<8": 1}


def test_trajectory_length_groups_are_the_suite_shape_histogram_bins():
    from repair_core.bench._describe import _histogram
    from repair_core.bench._metrics import STEP_BUCKETS

    lengths = list(range(8, 81))
    hist = _histogram(lengths, STEP_BUCKETS)
    got = {k: v.cases for k, v in summarise_by([R(trajectory_steps=n) for n in lengths],
                                                "trajectory_steps").items()}
    assert got == {k: v for k, v in hist.items() if k != "other"}
    assert hist["other"] == 0
