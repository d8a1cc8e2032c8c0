"""Two repair results of one plan compared: the answers, where each record ends and each
step's outcome and new output."""

from __future__ import annotations

import pytest

from repair_core import load_example, plan_case, repair
from repair_core.model import ModelClient
from repair_core.result_compare import compare_results


@pytest.fixture(scope="module")
def replays():
    case = load_example()
    plan = plan_case(case, objective="both")
    return {m: repair(case, plan, client=ModelClient(m))
            for m in ("dgrr/reference", "dgrr/rolling", "dgrr/reference/noise=0.5")}


def test_a_result_against_itself_differs_nowhere(replays):
    res = replays["dgrr/reference"]
    same = compare_results(res, res)
    assert same.same and same.answers_agree
    assert same.records == [] and same.steps == []
    assert same.records_compared == len(res.store.active) + len(res.store.quarantine)
    assert same.steps_compared == len(res.report.steps)


def test_another_policy_differs_in_answer_steps_and_store(replays):
    a, b = replays["dgrr/reference"], replays["dgrr/rolling"]
    diff = compare_results(a, b)
    assert (diff.model_a, diff.model_b) == ("dgrr/reference", "dgrr/rolling")
    assert not diff.answers_agree and diff.answer_b == b.answer
    by_id = {s.id: s for s in diff.steps}
    new_a = {s.id: s.text for s in a.trajectory.trajectory}
    new_b = {s.id: s.text for s in b.trajectory.trajectory}
    assert by_id and all(new_a[i] != new_b[i] or s.outcome_a != s.outcome_b
                         for i, s in by_id.items())
    # every step left out agrees in outcome and text
    outcome_a = {o.id: o.outcome for o in a.report.steps}
    outcome_b = {o.id: o.outcome for o in b.report.steps}
    for sid in outcome_a.keys() - by_id.keys():
        assert outcome_a[sid] == outcome_b[sid] and new_a[sid] == new_b[sid]
    # a record only one replay wrote is in one store and gone from the other
    active_a = {m.id for m in a.store.active}
    active_b = {m.id for m in b.store.active}
    assert {r.id for r in diff.records} == active_a ^ active_b
    for r in diff.records:
        assert {r.placement_a, r.placement_b} == {"active", "gone"}
        assert (r.text_a == "") == (r.placement_a == "gone")


def test_a_punctuation_change_in_the_answer_alone_is_one_step_and_no_record(replays):
    diff = compare_results(replays["dgrr/reference"], replays["dgrr/reference/noise=0.5"])
    assert not diff.answers_agree and not diff.same
    assert diff.records == []
    assert [(s.type, s.outcome_a, s.outcome_b) for s in diff.steps] == [
        ("answer", "replayed", "replayed")]


def test_answers_differing_only_in_white_space_agree(replays):
    a = replays["dgrr/reference"]
    spaced = a.model_copy(update={"answer": "  " + (a.answer or "").replace(" ", "\n  ")})
    assert compare_results(a, spaced).answers_agree
    failed = a.model_copy(update={"answer": None})
    assert not compare_results(a, failed).answers_agree


def test_a_record_quarantined_in_one_and_active_in_the_other_is_listed_once(replays):
    a = replays["dgrr/reference"]
    moved = a.store.active[0]
    other = a.model_copy(update={"store": a.store.model_copy(update={
        "active": a.store.active[1:], "quarantine": [*a.store.quarantine, moved]})})
    diff = compare_results(a, other)
    assert [(r.id, r.placement_a, r.placement_b, r.text_a == r.text_b)
            for r in diff.records] == [(moved.id, "active", "quarantine", True)]
