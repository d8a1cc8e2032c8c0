"""`gate.every-result` (docs/rules.md): `record_decision` gates a result model (what a
dashboard's own replay hands it) as it gates a result read as JSON. Each result below is a
real repair made in this process, then edited as a model; on the code before the rule
each was approved (the model path skipped the gate) and recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from repair_core import load_case
from repair_core.approvals import ApprovalStore, record_decision
from repair_core.plan._plan import plan_case
from repair_core.replay import RepairResult, repair, replay_again
from repair_core.verification import InconsistentResult

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_traces" / "figure1-travel.json"  # m3 the fault; m6 re-derived as m6~r1
MEMORY_READ = ROOT / "benchmarks" / "carriers" / "cases" / "cb-09-memory-read.json"
"""Under the answer objective the repair keeps m_contacts, a carrier of the fault m_inst."""

rule = pytest.mark.rule


def _repaired(path: Path, objective: str) -> tuple[object, RepairResult]:
    case = load_case(path)
    plan = plan_case(case, objective=objective)  # type: ignore[arg-type]
    return plan, repair(case, plan)


def _with_changes(result: RepairResult, **changes: list[str]) -> RepairResult:
    report = result.report
    return result.model_copy(update={"report": report.model_copy(update={
        "store_changes": report.store_changes.model_copy(update=changes)})})


def _with_store(result: RepairResult, **parts: list) -> RepairResult:
    return result.model_copy(update={"store": result.store.model_copy(update=parts)})


def _refused(tmp_path: Path, plan: object, result: RepairResult, rule_id: str, record: str,
             acknowledged: tuple[str, ...] = ()) -> None:
    """The approval of `result` (a model) is refused by `rule_id` naming `record`, with
    the recomputation the dashboard passes, and nothing is recorded."""
    store = ApprovalStore(str(tmp_path / "approvals.db"))
    with pytest.raises(InconsistentResult) as refused:
        record_decision(store, plan, reviewer="ana", decision="approve",  # type: ignore[arg-type]
                        result=result, acknowledged=acknowledged, recompute=replay_again)
    assert (refused.value.rule, refused.value.record) == (rule_id, record)
    assert store.history() == []


@rule("gate.every-result")
def test_an_untouched_result_model_is_approved(tmp_path: Path):
    for path, objective, acknowledged in ((FIG1, "both", ()),
                                          (MEMORY_READ, "answer", ("m_contacts:m_inst",))):
        plan, result = _repaired(path, objective)
        store = ApprovalStore(str(tmp_path / f"{path.stem}.db"))
        record = record_decision(store, plan, reviewer="ana", decision="approve",  # type: ignore[arg-type]
                                 result=result, acknowledged=acknowledged,
                                 recompute=replay_again)
        assert record.decision == "approve" and len(store.history()) == 1


@rule("gate.every-result")
def test_a_result_model_leaving_the_fault_out_of_its_store_changes_is_refused(tmp_path: Path):
    plan, result = _repaired(FIG1, "both")
    assert "m3" in result.report.store_changes.deleted
    tampered = _with_changes(result, deleted=[r for r in result.report.store_changes.deleted
                                              if r != "m3"])
    _refused(tmp_path, plan, tampered, "gate.store-changes-match-decisions", "m3")


@rule("gate.every-result")
def test_a_result_model_keeping_an_added_record_in_quarantine_is_refused(tmp_path: Path):
    plan, result = _repaired(FIG1, "both")
    [added] = [m for m in result.store.active if m.id == "m6~r1"]
    tampered = _with_store(
        result, active=[m for m in result.store.active if m.id != "m6~r1"],
        quarantine=[*result.store.quarantine,
                    added.model_copy(update={"text": "Lin prefers window seats."})])
    _refused(tmp_path, plan, tampered, "gate.quarantine-matches-plan", "m6~r1")


@rule("gate.every-result")
def test_a_result_model_omitting_an_active_carrier_is_refused(tmp_path: Path):
    plan, result = _repaired(MEMORY_READ, "answer")
    assert result.verification is not None
    assert "m_contacts:m_inst" in [c.id for c in result.verification.carriers]
    assert "m_contacts" in [m.id for m in result.store.active]
    # the carrier out of the store and out of the verification: nothing left to
    # acknowledge, and the content check of the model reads its own store
    tampered = _with_store(result, active=[m for m in result.store.active
                                           if m.id != "m_contacts"])
    checked = result.verification

    def others(ids: list) -> list:
        return [c for c in ids if not str(getattr(c, "id", c)).startswith("m_contacts:")]

    tampered = tampered.model_copy(update={"verification": checked.model_copy(update={
        "carriers": others(checked.carriers), "uncertain": others(checked.uncertain),
        "faults": [f.model_copy(update={"carriers": others(f.carriers)})
                   for f in checked.faults]})})
    assert tampered.verification is not None and tampered.verification.clean
    _refused(tmp_path, plan, tampered, "gate.active-matches-plan", "m_contacts")
