"""The store-level metric "store carries a fault": an active record of the repaired store,
not one of the world's true records, that matches a fault's content signature or that
the suite's judge of the world flags (a stated forbidden fact in the controlled suite)."""

from __future__ import annotations

from pathlib import Path

from repair_core import load_case
from repair_core.bench._carriers import states_forbidden_fact, store_carriers
from repair_core.bench._metrics import CaseResult, summarise
from repair_core.bench._runner import evaluate

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "sample_traces" / "controlled" / "ctl-001-travel-wrong-user.json"


def test_no_repair_leaves_a_carrier_and_ours_leaves_none():
    case = load_case(CASE)
    no = evaluate(case, "no_repair")
    ours = evaluate(case, "ours")
    assert no.store_carries_fault is True and set(case.faults) <= set(no.store_carriers)
    assert ours.store_carries_fault is False and ours.store_carriers == []
    s = summarise([no, ours])
    assert s.store_carries_fault == 0.5


def test_a_copy_of_a_fault_or_a_stated_forbidden_fact_carries_it_a_true_record_never():
    case = load_case(CASE)
    fault = next(m for m in case.memory if m.id == case.faults[0])
    copy = fault.model_copy(update={"id": "m_copy"})
    said = fault.model_copy(update={"id": "m_said", "key": "note", "value": None,
                                    "text": f"Noted: {case.eval.forbidden_facts[0]}."})
    benign = next(m for m in case.memory if m.id in case.eval.benign)
    planted = benign.model_copy(update={"text": f"{benign.text} {fault.text}"})
    judge = states_forbidden_fact(case.eval.forbidden_facts)
    assert store_carriers(case, [copy, benign]) == ["m_copy"]
    assert store_carriers(case, [said], judge) == ["m_said"]
    assert store_carriers(case, [planted], judge) == []  # a true record by the world


def test_a_crashed_result_carries_a_fault():
    ok = CaseResult(case_id="a", method="ours", store_carries_fault=False)
    crash = CaseResult(case_id="b", method="ours", error="ValueError: x")
    assert summarise([ok, crash]).store_carries_fault == 0.5
