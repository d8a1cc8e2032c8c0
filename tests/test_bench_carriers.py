"""The store-level metric "store carries a fault": an active record of the repaired store,
not one of the world's true records, that the suite's world says carries a fault (a fault
record it injected, or a stated forbidden fact in the controlled suite). dgrr's own
content-signature check is only a diagnostic (`store_signature_matches`): it never decides
the metric."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from repair_core import Case, MemoryRecord, load_case
from repair_core.bench._carriers import (
    states_forbidden_fact,
    store_carriers,
    store_signature_matches,
)
from repair_core.bench._metrics import CaseResult, MetricSummary, summarise
from repair_core.bench._runner import evaluate
from repair_core.bench._tables import CSV_FIELDS, markdown_table, results_csv

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "sample_traces" / "controlled" / "ctl-001-travel-wrong-user.json"
UNSTATED = ROOT / "sample_traces" / "controlled" / "ctl-018-travel-poisoned.json"
"""A case whose fault record (m11, "Diego flies economy ...") states none of the case's
forbidden facts (the booking values the fault led to)."""


def copy_of_m11() -> tuple[Case, MemoryRecord, MemoryRecord]:
    """UNSTATED, its fault m11, and a copy of m11 under another key (`m_copy`): dgrr's
    own content check finds the copy, the world's judge does not, nor its fault labels."""
    case = load_case(UNSTATED)
    fault = next(m for m in case.memory if m.id == "m11")
    return case, fault, fault.model_copy(update={"id": "m_copy", "key": "note", "value": None})


def world_without(case: Case, *parts: Literal["judge", "labels"]) -> Case:
    """`case` with parts of its world taken away: its judge (the forbidden facts), its
    fault labels (`eval.fault_types`)."""
    assert case.eval is not None
    update = {"judge": {"forbidden_facts": []}, "labels": {"fault_types": {}}}
    return case.model_copy(update={"eval": case.eval.model_copy(
        update={k: v for part in parts for k, v in update[part].items()})})


def test_no_repair_leaves_a_carrier_and_ours_leaves_none():
    case = load_case(CASE)
    no = evaluate(case, "no_repair")
    ours = evaluate(case, "ours")
    assert no.store_carries_fault is True and set(case.faults) <= set(no.store_carriers)
    assert ours.store_carries_fault is False and ours.store_carriers == []
    s = summarise([no, ours])
    assert s.store_carries_fault == 0.5


def test_a_stated_forbidden_fact_carries_a_fault_a_true_record_never():
    case = load_case(CASE)
    fault = next(m for m in case.memory if m.id == case.faults[0])
    said = fault.model_copy(update={"id": "m_said", "key": "note", "value": None,
                                    "text": f"Noted: {case.eval.forbidden_facts[0]}."})
    benign = next(m for m in case.memory if m.id in case.eval.benign)
    planted = benign.model_copy(update={"text": f"{benign.text} {fault.text}"})
    judge = states_forbidden_fact(case.eval.forbidden_facts)
    assert store_carriers(case, [said, benign], judge) == ["m_said"]
    assert store_carriers(case, [planted], judge) == []  # a true record by the world
    assert store_signature_matches(case, [planted]) == []


def test_a_signature_match_the_world_does_not_judge_is_not_a_carrier():
    case, _, copy = copy_of_m11()
    judge = states_forbidden_fact(case.eval.forbidden_facts)
    assert judge is not None and not judge(copy)
    # dgrr's own check finds it, the world's judge does not: only the world decides
    assert store_signature_matches(case, [copy]) == ["m_copy"]
    assert store_carriers(case, [copy], judge) == []


def test_a_labelled_fault_record_left_active_carries_a_fault_though_it_states_none():
    """ctl-018's injected fault m11 states none of the forbidden facts (the booking values
    it led to), so the judge alone misses it; the world labels it a fault all the same."""
    case, fault, _ = copy_of_m11()
    assert "m11" in case.eval.fault_types
    benign = next(m for m in case.memory if m.id in case.eval.benign)
    judge = states_forbidden_fact(case.eval.forbidden_facts)
    assert judge is not None and not judge(fault)
    assert store_carriers(case, [benign, fault], judge) == ["m11"]
    assert store_carriers(case, [benign, fault], None) == ["m11"]  # the label alone
    r = evaluate(case, "delete_retrieved")  # deletes what was retrieved, keeps m11
    assert r.store_carries_fault is True and r.store_carriers == ["m11"]
    assert evaluate(case, "ours").store_carriers == []


def test_a_true_record_never_carries_a_fault_even_if_labelled_one():
    case = load_case(UNSTATED)
    fault = next(m for m in case.memory if m.id == "m11")
    both = case.model_copy(update={"eval": case.eval.model_copy(
        update={"benign": [*case.eval.benign, "m11"]})})
    assert store_carriers(both, [fault], states_forbidden_fact(case.eval.forbidden_facts)) == []


def test_a_world_without_a_judge_or_fault_labels_gives_no_verdict_not_the_signature():
    case = load_case(CASE)
    fault = next(m for m in case.memory if m.id == case.faults[0])
    assert states_forbidden_fact([]) is None
    blind = world_without(case, "judge", "labels")
    assert store_carriers(blind, [fault], None) is None
    assert store_signature_matches(blind, [fault]) == [fault.id]
    r = evaluate(blind, "no_repair")
    assert r.store_carries_fault is None and r.store_carriers == []
    assert fault.id in r.store_signature_matches
    assert summarise([r]).store_carries_fault is None
    unlabelled = case.model_copy(update={"eval": None})
    assert store_carriers(unlabelled, [fault], None) is None
    labelled = world_without(case, "judge")  # no judge, but the world's fault labels
    r = evaluate(labelled, "no_repair")
    assert r.store_carries_fault is True and set(r.store_carriers) == set(case.faults)


def test_signature_matches_are_no_headline_metric():
    case = load_case(CASE)
    results = [evaluate(case, "no_repair")]
    assert results[0].store_signature_matches  # recorded per case, as a diagnostic
    assert "store_signature_matches" not in MetricSummary.model_fields
    assert "store_signature_matches" not in CSV_FIELDS
    assert "signature" not in results_csv(results).splitlines()[0]
    assert "ignature" not in markdown_table(results)


def test_a_crashed_result_carries_a_fault():
    ok = CaseResult(case_id="a", method="ours", store_carries_fault=False)
    crash = CaseResult(case_id="b", method="ours", error="ValueError: x")
    assert summarise([ok, crash]).store_carries_fault == 0.5
