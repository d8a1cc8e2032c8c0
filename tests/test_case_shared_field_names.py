"""A loaded case's items share one set of field names per shape and one empty dict of extra
members (repair_core/case/_shared.py), and read, copy, assign and write as items with their
own do; so do the repaired trajectory's kept steps."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from repair_core._synth import synth_case_data
from repair_core.case._case import Case, Dep
from repair_core.case._load import VALIDATE_CHUNK, case_from_data
from repair_core.case._shared import NO_EXTRA, SharedFieldNames
from repair_core.replay import repair
from repair_core.replay._executor import _marked


def _models(case: Case) -> list:
    out: list = [*case.session]
    for item in [*case.trajectory, *case.memory]:
        out.append(item)
        out.extend(item.deps)
    return out


@pytest.mark.parametrize("steps", [300, VALIDATE_CHUNK + 1000])  # one call, and in chunks
def test_items_of_one_shape_share_one_set_and_write_as_before(steps):
    data = synth_case_data(steps=steps, memories=steps // 5, faults=2, seed=4)
    case = case_from_data(json.loads(json.dumps(data)))
    plain = Case.model_validate(json.loads(json.dumps(data)), strict=True)
    models, plain_models = _models(case), _models(plain)
    assert len(models) == len(plain_models) > steps
    shared = {id(m.__pydantic_fields_set__) for m in models}
    assert len(shared) < 30  # a set per shape, not one per item
    for m, p in zip(models, plain_models, strict=True):
        assert type(m.__pydantic_fields_set__) is SharedFieldNames
        assert m.__pydantic_fields_set__ == p.__pydantic_fields_set__
    assert case.model_dump_json() == plain.model_dump_json()
    assert case.model_dump(exclude_unset=True) == plain.model_dump(exclude_unset=True)


def _two_of_one_shape(case: Case) -> tuple[Dep, Dep, str]:
    """Two dependencies sharing one set of names, and a field neither input set."""
    deps = [d for item in case.trajectory for d in item.deps]
    a = next(d for d in deps if set(Dep.model_fields) - d.__pydantic_fields_set__)
    b = next(d for d in deps if d is not a
             and d.__pydantic_fields_set__ is a.__pydantic_fields_set__)
    return a, b, sorted(set(Dep.model_fields) - a.__pydantic_fields_set__)[0]


def test_assigning_a_field_changes_only_that_item():
    case = case_from_data(synth_case_data(steps=200, memories=40, faults=1, seed=2))
    a, b, name = _two_of_one_shape(case)
    before = b.model_dump(exclude_unset=True)
    setattr(a, name, getattr(a, name))
    assert name in a.__pydantic_fields_set__ and type(a.__pydantic_fields_set__) is set
    assert name not in b.__pydantic_fields_set__
    assert b.model_dump(exclude_unset=True) == before
    a.note = "an extra member"  # extra="allow": an unknown name is kept as extra
    assert "note" in a.__pydantic_fields_set__ and "note" not in b.__pydantic_fields_set__


def test_copies_get_a_set_of_their_own():
    case = case_from_data(synth_case_data(steps=200, memories=40, faults=1, seed=2))
    a, b, name = _two_of_one_shape(case)
    shared = a.__pydantic_fields_set__
    updated = a.model_copy(update={name: getattr(a, name)})
    assert name in updated.__pydantic_fields_set__ and name not in shared
    for other in (copy.copy(a), copy.deepcopy(a)):
        assert type(other.__pydantic_fields_set__) is set
        assert other.__pydantic_fields_set__ == shared and other == a
        setattr(other, name, getattr(a, name))
        assert name not in shared and name not in b.__pydantic_fields_set__


def test_models_unpickled_together_share_again_and_assign_apart():
    case = case_from_data(synth_case_data(steps=200, memories=40, faults=1, seed=2))
    a, b, name = _two_of_one_shape(case)
    at = [(i, j) for i, s in enumerate(case.trajectory) for j, d in enumerate(s.deps)
          if d is a or d is b]
    again = pickle.loads(pickle.dumps(case))
    assert again == case
    a2, b2 = (again.trajectory[i].deps[j] for i, j in at)
    assert type(a2.__pydantic_fields_set__) is SharedFieldNames
    assert a2.__pydantic_fields_set__ is b2.__pydantic_fields_set__
    assert again.trajectory[0].__pydantic_extra__ is again.trajectory[1].__pydantic_extra__
    setattr(a2, name, getattr(a2, name))
    assert name in a2.__pydantic_fields_set__ and name not in b2.__pydantic_fields_set__


def test_a_shared_set_refuses_to_change():
    shared = SharedFieldNames({"id", "label"})
    for change in (lambda: shared.add("x"), lambda: shared.update({"x"}),
                   lambda: shared.discard("id"), shared.clear):
        with pytest.raises(TypeError):
            change()
    assert shared == {"id", "label"}
    assert type(shared | {"x"}) is set  # a new set from it is an ordinary one


def test_items_without_extra_members_share_one_empty_dict():
    case = case_from_data(synth_case_data(steps=200, memories=40, faults=1, seed=2))
    a, b, _ = _two_of_one_shape(case)
    assert a.__pydantic_extra__ is b.__pydantic_extra__ is NO_EXTRA
    a.note = "x"
    assert a.model_extra == {"note": "x"} and b.model_extra == {} and NO_EXTRA == {}
    assert "note" in json.loads(a.model_dump_json()) and "note" not in b.model_dump()
    c = b.model_copy(update={"other": 1})
    assert c.model_extra == {"other": 1} and NO_EXTRA == {}
    for change in (lambda: NO_EXTRA.update(x=1), lambda: NO_EXTRA.setdefault("x", 1),
                   lambda: NO_EXTRA.__setitem__("x", 1)):
        with pytest.raises(TypeError):
            change()
    assert pickle.loads(pickle.dumps(b)) == b and copy.deepcopy(b) == b


@pytest.mark.parametrize("mark", ["kept", "invalidated"])
def test_marked_steps_share_their_names_and_mark(mark):
    case = case_from_data(synth_case_data(steps=200, memories=40, faults=1, seed=2))
    names: dict = {}
    marks: dict = {}
    new = [_marked(s, mark, names, marks) for s in case.trajectory]
    for s, n in zip(case.trajectory, new, strict=True):
        plain = s.model_copy(update={"repair": mark})
        assert n == plain and n.model_dump_json() == plain.model_dump_json()
        assert n.__pydantic_fields_set__ == plain.__pydantic_fields_set__
    assert len({id(n.__pydantic_extra__) for n in new}) == 1
    assert len({id(n.__pydantic_fields_set__) for n in new}) < 10
    new[0].repair = "replayed"  # an assignment changes that step only
    assert new[0].model_extra == {"repair": "replayed"} and new[1].model_extra == {"repair": mark}


def test_a_repairs_decisions_and_step_outcomes_share_their_names():
    case = case_from_data(synth_case_data(steps=300, memories=60, faults=2, seed=6))
    result = repair(case)
    decisions, outcomes = result.report.decisions, result.report.steps
    assert len({id(d.__pydantic_fields_set__) for d in decisions}) == 1
    kept = [o for o in outcomes if o.outcome == "kept"]
    assert len(kept) > 10 and len({id(o.__pydantic_fields_set__) for o in kept}) == 1
    again = repair(case)  # the shared sets change nothing that is written
    assert again.model_dump_json() == result.model_dump_json()
    before = kept[1].model_dump()
    kept[0].detail = "changed"
    assert "detail" in kept[0].__pydantic_fields_set__
    assert "detail" not in kept[1].__pydantic_fields_set__ and kept[1].model_dump() == before


def test_a_marked_step_shares_the_case_steps_values_and_assigns_apart():
    case = case_from_data(synth_case_data(steps=200, memories=40, faults=1, seed=2))
    names: dict = {}
    marks: dict = {}
    steps = list(case.trajectory)
    new = [_marked(s, "kept", names, marks) for s in steps]
    assert all(n.__dict__ is s.__dict__ for s, n in zip(steps, new, strict=True))
    before = [s.model_dump_json() for s in steps]
    # a marked step assigned to takes values of its own: the case's step is unchanged
    new[0].text = "changed in the repair"
    assert new[0].text == "changed in the repair" and steps[0].model_dump_json() == before[0]
    del new[1].repair
    assert steps[1].model_dump_json() == before[1]
    # and the case's step assigned to leaves its marked step as it was
    marked = new[2].model_dump_json()
    steps[2].text = "changed in the case"
    assert new[2].model_dump_json() == marked and steps[2].text == "changed in the case"
    # a step that holds a set of names of its own is copied, as before
    plain = Case.model_validate(synth_case_data(steps=20, memories=4, faults=1, seed=2))
    own = _marked(plain.trajectory[0], "kept", names, marks)
    assert own.__dict__ is not plain.trajectory[0].__dict__
    assert own.__dict__ == plain.trajectory[0].__dict__


def test_a_repaired_trajectorys_new_items_share_their_names_and_write_as_before():
    case = case_from_data(synth_case_data(steps=300, memories=60, faults=2, seed=6))
    result = repair(case)
    trajectory = result.trajectory
    replayed = [s for s in trajectory.trajectory
                if (s.model_extra or {}).get("repair") in ("replayed", "refreshed")]
    assert len(replayed) >= 3
    models = _models(trajectory)
    assert all(type(m.__pydantic_fields_set__) is SharedFieldNames for m in models)
    assert len({id(m.__pydantic_fields_set__) for m in models}) < 40
    # what each input set is kept: the same dump, with and without unset fields
    plain = Case.model_validate(json.loads(trajectory.model_dump_json()), strict=True)
    assert trajectory.model_dump_json() == plain.model_dump_json()
    assert trajectory.model_dump_json(exclude_unset=True) == repair(
        case_from_data(synth_case_data(steps=300, memories=60, faults=2, seed=6))
    ).trajectory.model_dump_json(exclude_unset=True)


@pytest.mark.parametrize("steps", [300, VALIDATE_CHUNK + 1000])  # one call, and in chunks
def test_references_hold_the_named_items_own_id_strings(steps):
    data = synth_case_data(steps=steps, memories=steps // 5, faults=2, seed=4)
    case = case_from_data(json.loads(json.dumps(data)))
    own = {id(x.id) for x in [*case.session, *case.memory, *case.trajectory]}
    named = [d.id for x in [*case.memory, *case.trajectory] for d in x.deps]
    named += [s.turn for s in case.trajectory]
    named += [r for s in case.trajectory for r in getattr(s, "returned", [])]
    named += [r for s in case.trajectory for r in getattr(s, "target", [])]
    assert len(named) > 2 * steps
    assert all(id(x) in own for x in named)
    plain = Case.model_validate(json.loads(json.dumps(data)), strict=True)
    assert case.model_dump_json() == plain.model_dump_json()
