"""The repair's shortcuts at scale give what the plain forms give.

A kept step's repair mark is made without pydantic's `model_copy`, the final content
check takes the fault signatures the replay worked out instead of making them again, and
`dgrr repair` takes what the replay needs of the columnar plan report (`take_plan`) and
lets the report go before it reads the case: each is compared with the plain form here,
on the committed samples and a synthetic case.
"""

from __future__ import annotations

import json
import weakref
from pathlib import Path
from typing import Any

import pytest

from repair_core import DgrrError, load_case, parse_case
from repair_core._synth import synth_case_data
from repair_core.case._case import Case
from repair_core.cli import main
from repair_core.commands import repair as repair_command
from repair_core.plan._plan import plan_case
from repair_core.plan._plan_ops import ops_inputs, read_ops
from repair_core.plan._planner import columnar_plan_report_of
from repair_core.replay import _executor, repair, take_plan
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


def test_a_written_record_carries_what_each_signature_matches():
    """The check of a record before it is applied, screened by the signatures' clues,
    finds what matching it against every signature finds: the cases' own records, the
    faults' own texts and slots, a record copying half a fault, and a text with NUL."""
    from types import SimpleNamespace

    from repair_core.content import match, node_content

    found = 0
    for case in _cases():
        sigs = FaultSignatures(case, [m.id for m in case.memory[:2]])
        faults = {m.id: m for m in case.memory if m.id in sigs.signatures}
        records = [(m.key, m.value, m.text) for m in case.memory]
        records += [(m.key, m.value, "Noted: " + m.text[: len(m.text) // 2])
                    for m in faults.values()]
        records += [(None, None, m.text) for m in faults.values()]
        records += [(m.key, m.value, "x\0" + m.text) for m in faults.values()]
        for key, value, text in records:
            content = node_content(SimpleNamespace(text=text, value=value))
            every = [m for sig in sigs.signatures.values()
                     if (m := match(sig, content, slot=(key, value))) is not None]
            assert sigs.record(key, value, text) == every
            assert sigs.record(key, value, text) == every  # remembered, the same
            found += bool(every)
    assert found >= 10


def test_a_record_remembered_is_told_apart_by_its_values_types():
    """`record` remembers what a record of plain values carries; True and 1 (equal in
    Python, written apart in a record's content) are remembered apart."""
    from types import SimpleNamespace

    from repair_core.content import match, node_content

    case = _cases()[0]
    sigs = FaultSignatures(case, [])
    fault = next(m for m in case.memory if m.id in sigs.signatures)
    for value in (1, True, 1.0, "1", None, fault.value):
        for text in (fault.text, "nothing of it"):
            content = node_content(SimpleNamespace(text=text, value=value))
            every = [m for sig in sigs.signatures.values()
                     if (m := match(sig, content, slot=(fault.key, value))) is not None]
            assert sigs.record(fault.key, value, text) == every, (value, text)
    assert len(sigs._scored) >= 10


def test_the_run_hands_over_what_it_made():
    case = _cases()[-1]
    run = _executor._run(case, {}, [s.id for s in case.trajectory if s.type == "memory_write"])
    run.execute()
    assert isinstance(run.__dict__.get("_carriers"), FaultSignatures)


def _raw_cases() -> list[bytes]:
    return [*(p.read_bytes() for p in SAMPLES),
            *(json.dumps(synth_case_data(steps=n, memories=n // 5, faults=3, seed=s)).encode()
              for n, s in ((400, 5), (2_000, 11)))]


@pytest.mark.parametrize("raw", _raw_cases(), ids=lambda raw: str(len(raw)))
def test_a_taken_plan_repairs_as_the_report_and_the_networkx_plan(raw):
    case = parse_case(raw)
    report = columnar_plan_report_of(raw, objective="both")
    if report is None:  # declined by the columnar reader: nothing to take
        pytest.skip("the columnar planner declines this case")
    taken = repair(case, take_plan(report)).model_dump(mode="json")
    assert taken == repair(case, report).model_dump(mode="json")
    assert taken == repair(case, plan_case(case, objective="both")).model_dump(mode="json")
    with pytest.raises(DgrrError, match="plan is for case 'another'"):
        repair(case, take_plan({**report, "case_id": "another"}))


class _Report(dict[str, Any]):
    """A plan report that can be watched going (a plain dict takes no weak reference)."""


def test_the_cli_lets_the_report_go_before_it_reads_the_case(tmp_path, monkeypatch):
    raw = json.dumps(synth_case_data(steps=600, memories=120, faults=3, seed=5)).encode()
    path = tmp_path / "case.json"
    path.write_bytes(raw)
    made: list[weakref.ref[_Report]] = []
    alive_at_read: list[bool] = []
    columnar_report, read_case = repair_command._columnar_report, repair_command.read_case

    def watched_report(args, data):
        report = _Report(columnar_report(args, data))
        made.append(weakref.ref(report))
        return report

    def watched_read(args, data, **kw):
        alive_at_read.append(made[0]() is not None)
        return read_case(args, data, **kw)

    monkeypatch.setattr(repair_command, "_columnar_report", watched_report)
    monkeypatch.setattr(repair_command, "read_case", watched_read)
    out = tmp_path / "out"
    assert main(["repair", str(path), "--planner", "columnar", "--out", str(out)]) == 0
    assert alive_at_read == [False]
    assert (out / "result.json").exists()


def test_operations_read_without_the_case_are_refused_as_before():
    case = load_case(SAMPLES[0])
    step, record = case.trajectory[0].id, case.memory[0].id
    ops = [{"op": "replay", "step": "nope"},
           {"op": "restore", "record": "gone", "version": "other"},
           {"op": "restore", "record": record, "version": "other"},
           {"op": "revoke", "id": "x", "kind": "turn"},
           {"op": "suspect", "id": "y", "kind": "record", "role": "source", "fault": "f",
            "action": "flag"},
           {"op": "invalidate", "step": step}]
    unchecked = read_ops(ops)  # nothing that needs the case is checked yet
    message = ("invalid operations: ops[0].step: unknown step 'nope'; "
               "ops[1].record: unknown record 'gone'; "
               "ops[1].version: only the record's own version 'gone' can be restored, not "
               "'other'; "
               f"ops[2].version: only the record's own version '{record}' can be restored, "
               "not 'other'; "
               "ops[3].id: not a turn of the case 'x'; "
               "ops[4].id: not a record of the case 'y'")
    for check in (lambda: unchecked.checked(case), lambda: ops_inputs(case, ops)):
        with pytest.raises(DgrrError) as err:
            check()
        assert str(err.value) == message
