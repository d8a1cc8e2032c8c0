"""One test per malformed-input class of the format spec: every message names path and value."""

from __future__ import annotations

import copy
import json

import pytest
from casebuild import case_data, rec, step, turn

from repair_core import CaseError, case_from_data, load_case, load_example, parse_case


def good() -> dict:
    return json.loads(load_example().model_dump_json(exclude_none=False))


def problems_of(data) -> list[str]:
    with pytest.raises(CaseError) as err:
        case_from_data(data)
    return err.value.problems


def test_valid_case_loads_and_round_trips():
    data = good()
    case = case_from_data(data)
    assert case.case_id == "fig1-travel"
    assert case_from_data(json.loads(case.model_dump_json())) == case


def test_unknown_format():
    data = good()
    data["format"] = "dgrr.case/v2"
    assert problems_of(data) == ["format: unknown format 'dgrr.case/v2' (expected 'dgrr.case/v1')"]


@pytest.mark.parametrize("field", ["format", "case_id", "user_id", "session", "memory",
                                   "trajectory", "faults"])
def test_missing_required_top_level_field(field):
    data = good()
    del data[field]
    assert f"{field}: missing required field" in problems_of(data)


def test_missing_field_inside_a_step_names_its_path():
    data = good()
    del data["trajectory"][2]["seq"]
    del data["memory"][0]["user_id"]
    probs = problems_of(data)
    assert "trajectory[2].seq: missing required field" in probs
    assert "memory[0].user_id: missing required field" in probs


def test_duplicate_ids_across_sections():
    data = good()
    data["memory"][1]["id"] = "s3"
    data["trajectory"][4]["id"] = "s2"
    probs = problems_of(data)
    assert "trajectory[4].id: duplicate id 's2' (first at trajectory[1])" in probs
    assert "memory[1].id: duplicate id 's3' (first at trajectory[2])" in probs


def test_duplicate_seq_between_a_turn_and_a_step():
    data = good()
    data["trajectory"][3]["seq"] = 1
    assert "trajectory[3].seq: duplicate seq 1 (also 'u1')" in problems_of(data)


def test_unknown_step_type():
    data = good()
    data["trajectory"][0]["type"] = "thought"
    probs = problems_of(data)
    assert any(p.startswith("trajectory[0].type: unknown step type 'thought'") for p in probs)


def test_unknown_label():
    data = good()
    data["trajectory"][1]["deps"][0]["label"] = "causes"
    probs = problems_of(data)
    assert any(p.startswith("trajectory[1].deps[0].label: unknown label 'causes'") for p in probs)


def test_unknown_op():
    data = good()
    data["trajectory"][10]["op"] = "merge"
    probs = problems_of(data)
    assert any(p.startswith("trajectory[10].op: unknown op 'merge'") for p in probs)


def test_unknown_effect():
    data = good()
    data["tools"][0]["effect"] = "magic"
    probs = problems_of(data)
    assert any(p.startswith("tools[0].effect: unknown effect 'magic'") for p in probs)


def test_dependency_on_unknown_id_matches_the_spec_wording():
    data = good()
    data["trajectory"][4]["deps"][1]["id"] = "s99"
    assert "trajectory[4].deps[1]: unknown id 's99'" in problems_of(data)


def test_step_depending_on_a_later_step():
    data = good()
    data["trajectory"][1]["deps"].append({"id": "s10", "label": "cite"})
    probs = problems_of(data)
    assert ("trajectory[1].deps[2]: depends on 's10' (seq 11), which comes after it (seq 3)"
            in probs)


def test_fault_that_is_not_a_memory_record():
    data = good()
    data["faults"] = ["m3", "s3", "m42"]
    probs = problems_of(data)
    assert "faults[1]: not a memory record, tool observation or user turn 's3'" in probs
    assert "faults[2]: unknown id 'm42'" in probs


def test_no_answer_step():
    data = good()
    data["trajectory"] = [s for s in data["trajectory"] if s["type"] != "answer"]
    for s in data["trajectory"]:
        s["deps"] = [d for d in s["deps"] if d["id"] != "s10"]
    assert problems_of(data) == ["trajectory: no answer step (repair needs one)"]


def test_json_syntax_error_gives_line_and_column():
    text = '{\n  "format": "dgrr.case/v1",\n  "case_id": oops\n}'
    with pytest.raises(CaseError) as err:
        parse_case(text)
    assert err.value.problems == ["line 3, column 14: invalid JSON: Expecting value"]


def test_not_an_object():
    with pytest.raises(CaseError) as err:
        parse_case("[1, 2]")
    assert err.value.problems == ["(root): expected a JSON object, got [1, 2]"]


def test_wrong_type_names_value():
    data = good()
    data["trajectory"][0]["seq"] = "two"
    probs = problems_of(data)
    assert any(p.startswith("trajectory[0].seq:") and "'two'" in p for p in probs)


def test_every_problem_is_reported_at_once():
    data = good()
    data["format"] = "x"
    data["trajectory"][4]["deps"][1]["id"] = "s99"
    data["faults"] = ["nope"]
    del data["user_id"]
    assert len(problems_of(data)) == 4


def test_other_reference_checks():
    data = case_data(turn("u1", 1), rec("m1"),
                     step("s2", 2, "memory_read", "u1:initiate", returned=["m9"]),
                     step("s3", 3, "answer", "s3:cite", turn_id="u7"))
    probs = problems_of(data)
    assert "trajectory[0].returned[0]: unknown memory record 'm9'" in probs
    assert "trajectory[1].turn: unknown turn 'u7'" in probs
    assert "trajectory[1].deps[0]: 's3' depends on itself" in probs


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(CaseError, match="file not found"):
        load_case(tmp_path / "nope.json")
    with pytest.raises(CaseError, match="is a directory"):
        load_case(tmp_path)


def test_loading_does_not_mutate_input():
    data = good()
    data["trajectory"][4]["deps"][1]["id"] = "s99"
    before = copy.deepcopy(data)
    problems_of(data)
    assert data == before


def test_case_from_two_files_trajectory_and_memory(tmp_path):
    from repair_core import load_case_parts
    from repair_core.cli import main

    data = good()
    memory = data.pop("memory")
    (tmp_path / "t.json").write_text(json.dumps(data))
    (tmp_path / "m.json").write_text(json.dumps({"memory": memory}))
    (tmp_path / "m2.json").write_text(json.dumps(memory))
    assert load_case_parts(tmp_path / "t.json", tmp_path / "m.json") == load_example()
    assert load_case_parts(tmp_path / "t.json", tmp_path / "m2.json") == load_example()
    assert main(["plan", str(tmp_path / "t.json"), "--memory", str(tmp_path / "m.json")]) == 0


def test_two_files_with_problems_name_the_file(tmp_path):
    from repair_core import load_case_parts

    (tmp_path / "t.json").write_text("{oops")
    (tmp_path / "m.json").write_text('"not a list"')
    with pytest.raises(CaseError) as err:
        load_case_parts(tmp_path / "t.json", tmp_path / "m.json")
    assert err.value.problems[0].startswith("trajectory file: line 1, column 2: invalid JSON")
    (tmp_path / "t.json").write_text(json.dumps({"case_id": "x"}))
    with pytest.raises(CaseError) as err:
        load_case_parts(tmp_path / "t.json", tmp_path / "m.json")
    assert err.value.problems == [
        "memory file: expected a list of records or {\"memory\": [...]}, got 'not a list'"]
    with pytest.raises(CaseError, match="memory file: cannot read"):
        load_case_parts(tmp_path / "t.json", tmp_path / "missing.json")


# -- a long case is validated a chunk at a time (the interpreter lock is released between) --

def test_chunked_validation_gives_the_one_call_case(monkeypatch: pytest.MonkeyPatch):
    from pydantic import TypeAdapter

    from repair_core._synth import synth_case_data
    from repair_core.case import _load
    from repair_core.case._case import Case

    calls = []
    validate = TypeAdapter.validate_python
    monkeypatch.setattr(TypeAdapter, "validate_python",
                        lambda self, items, **kw: calls.append(len(items))
                        or validate(self, items, **kw))
    monkeypatch.setattr(_load, "VALIDATE_CHUNK", 50)
    data = synth_case_data(300, 60, 3, 1)
    data["extra_field"] = {"kept": [1, 2]}  # extra fields are kept either way
    data["trajectory"][7]["note"] = "an extra field of a step"
    case = case_from_data(data)
    assert max(calls) == 50 and sum(calls) == 300 + 60 + len(data["session"])
    one_call = Case.model_validate(data, strict=True)
    assert case == one_call and case.model_fields_set == one_call.model_fields_set
    assert case.model_dump() == one_call.model_dump()
    assert case.model_extra == {"extra_field": {"kept": [1, 2]}}


@pytest.mark.parametrize("where", ["trajectory", "memory", "case_id"])
def test_chunked_validation_reports_the_one_call_problems(monkeypatch: pytest.MonkeyPatch,
                                                          where: str):
    from repair_core._synth import synth_case_data
    from repair_core.case import _load

    data = synth_case_data(300, 60, 3, 1)
    if where == "case_id":
        data["case_id"] = 7
    else:
        data[where][-3]["text"] = 5  # in the last chunk
        data[where][1]["id"] = None  # and in the first
    expected = problems_of(data)  # one call: the chunk is larger than the case
    monkeypatch.setattr(_load, "VALIDATE_CHUNK", 50)
    assert problems_of(data) == expected and len(expected) >= 1


def test_chunked_validation_assumes_no_validator_across_fields():
    """`_load._model_validate` validates a case's lists apart from the rest, which gives the
    one-call result only while no validator of the case looks across its fields: one
    added to `Case` must come with a change there (or this test's removal, deliberately)."""
    from repair_core.case._case import Case

    decorators = Case.__pydantic_decorators__
    assert not decorators.model_validators
    assert not decorators.field_validators and not decorators.root_validators
