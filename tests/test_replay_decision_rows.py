"""A plan's decisions kept as rows (`replay._decision_rows.DecisionRows`) read, compare and
are written as the list of models they stand for."""

from __future__ import annotations

import pickle
import tracemalloc

import pytest

from repair_core._synth import synth_case_data
from repair_core.case._load import case_from_data
from repair_core.replay import repair
from repair_core.replay._decision_rows import DecisionRows
from repair_core.replay._models import Decision, RepairReport

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
