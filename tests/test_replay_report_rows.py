"""A plan's decisions and the plain step outcomes kept as rows (`replay._decision_rows`,
`replay._outcome_rows`) read, compare and are written as the models they stand for."""

from __future__ import annotations

import pickle
import tracemalloc

import pytest

from repair_core._synth import synth_case_data
from repair_core.case._load import case_from_data
from repair_core.replay import repair
from repair_core.replay._decision_rows import DecisionRows
from repair_core.replay._models import Decision, RepairReport, StepOutcome
from repair_core.replay._outcome_rows import StepOutcomeRows
from repair_core.verification import verify_result

MEMORY = {"m1": "keep", "m2": "quarantine"}
STEPS = {"s1": "keep", "s2": "replay", "s3": "invalidate"}
REASONS = {"m2": "fault", "s2": "reads m2", "s3": "cites m2"}


def _models() -> list[Decision]:
    return ([Decision(id=i, kind="record", action=a, reason=REASONS.get(i, "unaffected: kept"))
             for i, a in MEMORY.items()]
            + [Decision(id=i, kind="step", action=a, reason=REASONS.get(i, "unaffected: kept"))
               for i, a in STEPS.items()])


def test_rows_read_as_the_decisions_they_stand_for():
    rows, models = DecisionRows(MEMORY, STEPS, REASONS), _models()
    assert len(rows) == 5 and list(rows) == models and rows == models and models == rows
    assert rows[0] == models[0] and rows[-1] == models[-1] and rows[3].kind == "step"
    assert rows[1:4] == models[1:4] and rows[::-2] == models[::-2]
    with pytest.raises(IndexError):
        rows[5]
    assert rows != models[:4] and rows != [*models[:4], models[0]]
    assert pickle.loads(pickle.dumps(rows)) == rows
    assert list(rows.id_actions()) == [(d.id, d.action) for d in models]
    # a decision read is the caller's to change: the rows are not
    made = rows[2]
    made.reason = "edited"
    assert rows[2].reason == "unaffected: kept"


def test_a_report_of_rows_is_written_as_one_of_models():
    as_rows = RepairReport(case_id="c", model="m")
    as_rows.decisions = DecisionRows(MEMORY, STEPS, REASONS)
    as_models = RepairReport(case_id="c", model="m", decisions=_models())
    assert as_rows.model_dump() == as_models.model_dump()
    assert as_rows.model_dump_json(indent=1) == as_models.model_dump_json(indent=1)
    assert as_rows == as_models


def test_a_repair_keeps_its_decisions_as_rows_and_writes_them_as_before():
    case = case_from_data(synth_case_data(steps=400, memories=80, faults=2, seed=3))
    result = repair(case)
    decisions = result.report.decisions
    assert isinstance(decisions, DecisionRows)
    assert len(decisions) == len(case.memory) + len(case.trajectory)
    listed = result.model_copy(update={"report": result.report.model_copy(
        update={"decisions": list(decisions)})})
    assert result.model_dump_json() == listed.model_dump_json()
    # the final check read the actions from the rows: the same check as from the models
    assert verify_result(case, listed) == verify_result(case, result)


def test_rows_take_a_fraction_of_the_models_memory():
    ids = [f"s{i}" for i in range(20_000)]
    steps = dict.fromkeys(ids, "keep")
    reasons: dict[str, str] = {}
    sizes = []
    for make in (lambda: DecisionRows({}, steps, reasons),
                 lambda: [Decision(id=i, kind="step", action="keep", reason="unaffected: kept")
                          for i in ids]):
        tracemalloc.start()
        held = make()
        sizes.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
        del held
    rows, models = sizes
    assert rows * 4 < models, sizes


def _outcomes() -> tuple[StepOutcomeRows, list[StepOutcome]]:
    replayed = StepOutcome(id="s2", type="claim", outcome="replayed", detail="new", llm_calls=1)
    rows = StepOutcomeRows()
    rows.add_kept("s1", "memory_read")
    rows.add(replayed)
    rows.add_noted("s3", "claim", "invalidated", "old output no longer evidence")
    return rows, [StepOutcome(id="s1", type="memory_read", outcome="kept"), replayed,
                  StepOutcome(id="s3", type="claim", outcome="invalidated",
                              detail="old output no longer evidence")]


def test_outcome_rows_read_as_the_outcomes_they_stand_for():
    rows, models = _outcomes()
    assert list(rows) == models and rows == models and models == rows and len(rows) == 3
    assert rows[1] is models[1]  # a model the replay made is kept as it is
    assert rows[-1] == models[-1] and rows[::2] == models[::2]
    for made, model in zip(rows, models, strict=True):
        assert made.__pydantic_fields_set__ == model.__pydantic_fields_set__
        assert made.model_dump_json(exclude_unset=True) == model.model_dump_json(
            exclude_unset=True)
    assert pickle.loads(pickle.dumps(rows)) == rows
    assert list(rows.models()) == [models[1]]
    assert list(rows.id_outcomes()) == [(o.id, o.outcome) for o in models]
    report = RepairReport(case_id="c", model="m")
    report.steps = rows
    assert report.model_dump_json() == RepairReport(case_id="c", model="m",
                                                    steps=models).model_dump_json()


def test_a_repair_keeps_its_plain_outcomes_as_rows():
    case = case_from_data(synth_case_data(steps=400, memories=80, faults=2, seed=3))
    result = repair(case)
    steps = result.report.steps
    assert isinstance(steps, StepOutcomeRows) and len(steps) == len(case.trajectory)
    held = list(steps.models())
    assert 0 < len(held) < len(steps) // 2, len(held)
    assert {o.outcome for o in steps} >= {"kept", "invalidated", "replayed"}
    assert list(steps.id_outcomes()) == [(o.id, o.outcome) for o in steps]
    # the final check read the outcomes from the rows: the same check as from the models
    listed_steps = result.model_copy(update={"report": result.report.model_copy(
        update={"steps": list(steps)})})
    assert verify_result(case, listed_steps) == verify_result(case, result)
    listed = result.model_copy(update={"report": result.report.model_copy(
        update={"steps": list(steps)})})
    assert result.model_dump_json() == listed.model_dump_json()


@pytest.mark.parametrize("start,stop", [(0, 5), (1, 4), (3, 99), (4, 2), (0, 0)])
def test_rows_dump_their_slices_as_the_models_dump(start, stop):
    """The JSON data a chunk of rows gives for the written result is each model's dump."""
    decisions, outcomes = DecisionRows(MEMORY, STEPS, REASONS), _outcomes()[0]
    for rows in (decisions, outcomes):
        assert rows.dumped(start, stop) == [m.model_dump(mode="json")
                                            for m in rows[start:stop]]
        assert list(map(list, rows.dumped(0, 9))) == [
            list(m.model_dump(mode="json")) for m in rows]  # the keys in the models' order
