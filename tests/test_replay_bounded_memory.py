"""The repair's shortcuts at scale give what the plain forms give.

A kept step's repair mark is made without pydantic's `model_copy`, and the final content
check takes the fault signatures the replay worked out instead of making them again:
both are compared with the plain form here, on the committed samples and a synthetic case.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repair_core import load_case
from repair_core._synth import synth_case_data
from repair_core.case._case import Case
from repair_core.replay import _executor, repair
from repair_core.replay._executor import _marked
from repair_core.verification import FaultSignatures, verify_result

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p for p in (ROOT / "sample_traces").glob("*.json")
                 if not p.name.endswith(".plan.json"))


def _cases() -> list[Case]:
    return [*(load_case(p) for p in SAMPLES),
            Case.model_validate(synth_case_data(steps=400, memories=80, faults=3, seed=5))]


@pytest.mark.parametrize("mark", ["kept", "invalidated"])
def test_marked_is_model_copy(mark):
    case = Case.model_validate({**synth_case_data(steps=60, memories=12, faults=1, seed=3)})
    steps = list(case.trajectory)
    steps[0] = steps[0].model_copy(update={"repair": "replayed", "note": "x"})  # extras kept
    for s in steps:
        before = dict(s.__pydantic_extra__ or {})
        new, plain = _marked(s, mark), s.model_copy(update={"repair": mark})
        assert type(new) is type(plain) and new == plain
        assert new.__pydantic_extra__ == plain.__pydantic_extra__
        assert list(new.__pydantic_extra__) == list(plain.__pydantic_extra__)
        assert new.__pydantic_fields_set__ == plain.__pydantic_fields_set__
        assert new.model_dump_json() == plain.model_dump_json()
        assert new.__dict__ is not s.__dict__ and new.__dict__ == s.__dict__
        assert (s.__pydantic_extra__ or {}) == before  # the case's own step is not marked


def test_signatures_are_worked_out_once_and_check_the_same(monkeypatch):
    made: list[FaultSignatures] = []
    real = FaultSignatures.__init__

    def counted(self, *args, **kwargs):
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(FaultSignatures, "__init__", counted)
    once = 0
    for case in _cases():
        made.clear()
        result = repair(case)
        assert len(made) <= 1
        once += len(made) == 1
        # the plain form: the final check's own signatures
        result.verification = None
        plain = verify_result(case, result, sources=_revoked(case))
        assert result.model_copy(update={"verification": plain}).model_dump(mode="json") \
            == repair(case).model_dump(mode="json")
    assert once >= 2  # cases with replayed writes share them


def _revoked(case: Case) -> list[str]:
    from repair_core.plan._plan import plan_case
    from repair_core.plan._plan_ops import ops_inputs, plan_ops

    plan = plan_case(case)
    return list(ops_inputs(plan.case, plan_ops(plan)).revoked)


def test_signatures_of_another_case_or_nodes_are_not_taken():
    a, b = _cases()[:2]
    sigs = FaultSignatures(a, [])
    assert sigs.of(a, []) and sigs.of(a, list(a.faults))
    assert not sigs.of(b, [])
    other = next(m.id for m in a.memory if m.id not in a.faults)
    assert not sigs.of(a, [other])
    assert FaultSignatures(a, [other]).of(a, [other, *a.faults])


def test_the_run_hands_over_what_it_made():
    case = _cases()[-1]
    run = _executor._run(case, {}, [s.id for s in case.trajectory if s.type == "memory_write"])
    run.execute()
    assert isinstance(run.__dict__.get("_carriers"), FaultSignatures)
