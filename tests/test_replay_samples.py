"""Every sample trace repairs correctly through the offline reference model."""

from __future__ import annotations

from pathlib import Path

import pytest

from repair_core import case_from_data, load_case, plan_case
from repair_core.replay import repair

SAMPLES = Path(__file__).resolve().parent.parent / "sample_traces"
CASES = sorted(p for p in SAMPLES.glob("*.json") if not p.name.endswith(".plan.json"))


@pytest.fixture(scope="module", params=CASES, ids=lambda p: p.stem)
def repaired(request):
    case = load_case(request.param)
    plan = plan_case(case.without_eval())
    return case, plan, repair(case.without_eval(), plan)


def test_there_are_sample_traces():
    assert len(CASES) >= 4


def test_answer_contains_every_required_fact(repaired):
    case, _, result = repaired
    assert result.answer is not None
    missing = [f for f in case.eval.required_facts if f not in result.answer]
    assert not missing, f"{case.case_id}: answer {result.answer!r} lacks {missing}"
    assert result.original_answer == case.final_answer().text
    assert not result.report.failures


def test_no_diagnosed_fault_is_active(repaired):
    case, _, result = repaired
    active = {r.id for r in result.store.active}
    assert not active & set(case.faults)
    for r in result.store.active:  # nor was a fault re-admitted under a new id
        for f in (m for m in case.memory if m.id in case.faults):
            assert r.text != f.text
            assert not (r.key == f.key and r.value == f.value and r.key is not None)


def test_records_are_where_the_plan_says(repaired):
    _, plan, result = repaired
    active = {r.id for r in result.store.active}
    quarantine = {r.id for r in result.store.quarantine}
    for rid, action in plan.memory.items():
        if action == "quarantine":
            assert rid in quarantine and rid not in active
        elif action == "delete":
            assert rid not in active and rid not in quarantine
        elif action == "restore":
            if rid not in active:  # its mutation was replayed and retired it again
                _assert_retired_again_by_its_replayed_mutation(result, rid)
        else:
            original = next(m for m in plan.case.memory if m.id == rid)
            assert (rid in active) == (original.status == "active"), rid


def _facts(record) -> set[tuple[str, str]]:
    items = record.value.items() if isinstance(record.value, dict) else [(record.key, record.value)]
    return {(str(k), str(v)) for k, v in items}


def _assert_retired_again_by_its_replayed_mutation(result, rid):
    changes = result.report.store_changes
    assert rid in changes.restored and rid in changes.retired, rid
    records = {m.id: m for m in result.trajectory.memory}
    assert records[rid].model_extra["repair"] == "restored-then-retired"
    retirer = [d.id for d in records[rid].deps if d.label == "delete"][-1]
    steps = {s.id: s for s in result.trajectory.trajectory}
    assert steps[retirer].model_extra["repair"] == "replayed"
    new = [records[t] for t in steps[retirer].target if t in changes.added]
    # the restore made the source's content available to the replayed write
    assert new and any(_facts(records[rid]) <= _facts(n) for n in new), rid
    assert any(n.startswith(f"{rid} restored, then ") and retirer in n
               for n in result.report.notes)


def test_restored_sources_are_consolidated_again_like_the_clean_run():
    case = load_case(SAMPLES / "shop-summary-drift.json")
    result = repair(case.without_eval())
    active = {r.id: r for r in result.store.active}
    # the clean run's shape: the untouched records plus one correct summary, no sources
    assert set(active) == set(case.eval.benign) | {"m5~r1"}
    assert active["m5~r1"].value == {"jacket_size": "L", "jacket_color": "navy"}
    assert result.report.notes == [
        "m1 restored, then consolidated again by replayed s2 into m5~r1",
        "m2 restored, then consolidated again by replayed s2 into m5~r1"]
    assert result.report.store_changes.restored == ["m1", "m2"]
    assert result.report.store_changes.retired == ["m1", "m2"]


def test_no_fact_is_held_by_two_active_records(repaired):
    _, _, result = repaired
    seen: dict[tuple[str, str], str] = {}
    for r in result.store.active:
        for fact in _facts(r):
            assert fact not in seen, (fact, seen.get(fact), r.id)
            seen[fact] = r.id


def test_benign_records_stay_active(repaired):
    case, _, result = repaired
    assert set(case.eval.benign) <= {r.id for r in result.store.active}


def test_repaired_trajectory_is_a_valid_case(repaired):
    case, plan, result = repaired
    again = case_from_data(result.trajectory.model_dump(mode="json"))
    assert [s.id for s in again.steps_in_order()] == [s.id for s in case.steps_in_order()]
    assert again.final_answer().text == result.answer
    marks = {s.id: s.model_extra["repair"] for s in again.trajectory}
    for sid, action in plan.steps.items():
        expected = {"keep": {"kept"}, "invalidate": {"invalidated"}, "replay": {"replayed"},
                    "refresh": {"refreshed"}}[action]
        assert marks[sid] in expected, (sid, action, marks[sid])


def test_replayed_steps_cite_only_valid_evidence(repaired):
    _, plan, result = repaired
    bad = set(plan.case.faults) | {r.id for r in result.store.quarantine}
    for step in result.trajectory.trajectory:
        if step.model_extra.get("repair") in ("replayed", "refreshed"):
            assert not {d.id for d in step.deps} & bad, step.id


def test_cost_counts_calls_tokens_and_replay_ratio(repaired):
    case, plan, result = repaired
    llm_steps = [o for o in result.report.steps if o.llm_calls]
    assert result.cost.llm_calls == sum(o.llm_calls for o in llm_steps) > 0
    assert result.cost.tokens == sum(o.tokens for o in result.report.steps) > 0
    assert result.cost.replay_ratio == pytest.approx(len(plan.replay_set) / len(case.trajectory),
                                                     abs=1e-6)


def test_every_decision_has_a_reason(repaired):
    case, _, result = repaired
    ids = {d.id for d in result.report.decisions}
    assert ids == {m.id for m in case.memory} | {s.id for s in case.trajectory}
    assert all(d.reason for d in result.report.decisions)


def test_eval_labels_change_nothing():
    case = load_case(CASES[0])
    a, b = repair(case), repair(case.without_eval())
    assert a.answer == b.answer and a.cost == b.cost


def test_repaired_trajectory_can_be_planned_again(repaired):
    _, _, result = repaired
    again = plan_case(result.trajectory)
    assert set(again.memory) == {m.id for m in result.trajectory.memory}
