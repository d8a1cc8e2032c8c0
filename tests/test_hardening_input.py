"""Issue 12, strict input: no type coercion, no cycles, no NaN, no duplicate keys, no lone
surrogates, limits reported as problems, at most 100 problems printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from casebuild import case_data, rec, step

from repair_core import CaseError, case_from_data, load_example, parse_case
from repair_core.cli import main

FIG1 = "repair_core/fixtures/figure1-travel.json"


def good() -> dict:
    return json.loads(load_example().model_dump_json(exclude_none=False))


def problems(text_or_data) -> list[str]:
    with pytest.raises(CaseError) as err:
        if isinstance(text_or_data, (str, bytes)):
            parse_case(text_or_data)
        else:
            case_from_data(text_or_data)
    return err.value.problems


@pytest.mark.parametrize("bad", ["2", 2.0, True])
def test_seq_is_never_coerced(bad):
    data = good()
    data["trajectory"][1]["seq"] = bad
    shown = repr(bad) if isinstance(bad, str) else json.dumps(bad)
    assert f"trajectory[1].seq: input should be a valid integer, got {shown}" in problems(data)


def test_string_seq_with_a_forward_dependency_is_refused():
    data = good()
    # s2 (seq 3) gets seq "20": it would then depend on nothing later, but s5 depends on it
    data["trajectory"][1]["seq"] = "20"
    assert any(p.startswith("trajectory[1].seq:") for p in problems(data))


def test_strict_types_elsewhere():
    data = good()
    data["memory"][0]["trust"] = "0.5"
    data["memory"][1]["created_seq"] = 3.0
    data["trajectory"][2]["verified"] = 1
    found = problems(data)
    assert "memory[0].trust: input should be a valid number, got '0.5'" in found
    assert "memory[1].created_seq: input should be a valid integer, got 3.0" in found
    assert "trajectory[2].verified: input should be a valid boolean, got 1" in found


def test_record_cycle_is_refused_and_named():
    data = case_data(rec("m1", "m2:consolidate"), rec("m2", "m1:consolidate"),
                     step("s1", 1, "answer", "m1:cite"))
    assert any("dependency cycle m1 → m2 → m1" in p or "dependency cycle m2 → m1 → m2" in p
               for p in problems(data)), problems(data)


def test_step_record_step_cycle_is_refused_and_named():
    data = case_data(rec("m1", "s2:produce"), step("s1", 1, "memory_read", "m1:cite"),
                     step("s2", 2, "memory_write", "s1:cite", target=["m1"]),
                     step("s3", 3, "answer", "s2:cite"))
    found = problems(data)
    assert any("dependency cycle" in p and "m1" in p and "s1" in p and "s2" in p
               for p in found), found


def test_lifecycle_edges_back_to_a_record_are_not_cycles():
    # s2 deletes m1 after s1 read it: m1 lists its deleting write, which read it
    data = case_data(rec("m1", "s2:delete", status="deleted"),
                     step("s1", 1, "memory_read", "m1:cite", returned=["m1"]),
                     step("s2", 2, "memory_write", "s1:cite", op="delete", target=["m1"]),
                     step("s3", 3, "answer", "s2:cite"))
    case_from_data(data)


def test_sample_traces_have_no_refused_cycles():
    root = Path(__file__).resolve().parent.parent / "sample_traces"
    from repair_core import load_case

    paths = [p for p in root.rglob("*.json") if not p.name.endswith(".plan.json")
             and p.name != "manifest.json"]
    assert len(paths) > 50
    for p in paths:
        load_case(p)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_refused(literal):
    text = json.dumps(good()).replace('"trust": 0.9', f'"trust": {literal}', 1)
    assert literal in text
    found = problems(text)
    assert any("not a finite number" in p and "memory[0].trust" in p for p in found), found


def test_non_finite_numbers_in_free_values_are_refused():
    data = good()
    data["trajectory"][6]["output"] = {"price": "X"}
    text = json.dumps(data).replace('"price": "X"', '"price": NaN')
    assert "trajectory[6].output.price: not a finite number (NaN)" in problems(text)


def test_duplicate_keys_are_refused_with_their_path():
    text = json.dumps(good())
    text = text.replace('"case_id": "fig1-travel"', '"case_id": "a", "case_id": "fig1-travel"')
    text = text.replace('"text": "Booked JL1', '"text": "x", "text": "Booked JL1', 1)
    found = problems(text)
    assert "case_id: duplicate key" in found
    assert any(p.startswith("trajectory[") and p.endswith(".text: duplicate key")
               for p in found), found


def test_lone_surrogates_are_refused():
    text = json.dumps(good()).replace('"case_id": "fig1-travel"',
                                      '"case_id": "fig1-travel\\ud800"')
    assert "case_id: lone surrogate \\ud800 (not valid Unicode text)" in problems(text)
    # a proper surrogate pair is an ordinary character
    ok = json.dumps(good()).replace('"case_id": "fig1-travel"',
                                    '"case_id": "fig1-travel\\ud83d\\ude00"')
    assert parse_case(ok).case_id == "fig1-travel\U0001F600"


def test_lone_surrogate_in_python_data_is_refused():
    data = good()
    data["trajectory"][0]["text"] = "abc\udc80"
    assert "trajectory[0].text: lone surrogate \\udc80 (not valid Unicode text)" \
        in problems(data)


def test_deep_nesting_is_a_problem_not_a_traceback():
    text = '{"format": "dgrr.case/v1", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    [p] = problems(text)
    assert "nested too deeply" in p


def test_huge_integer_is_a_problem_not_a_traceback():
    text = json.dumps(good()).replace('"seq": 2,', '"seq": ' + "9" * 5000 + ",", 1)
    found = problems(text)
    assert any("integer with more than 4300 digits" in p for p in found), found


@pytest.mark.parametrize("flag", ["case", "--memory", "--plan", "--result"])
def test_cli_deep_and_huge_inputs_exit_2_without_traceback(tmp_path, capsys, flag):
    for bad in ("[" * 100_000 + "]" * 100_000, "9" * 5000):
        f = tmp_path / "bad.json"
        f.write_text(bad)
        if flag == "case":
            argv = ["validate", str(f)]
        elif flag == "--memory":
            traj = tmp_path / "traj.json"
            traj.write_text(json.dumps({k: v for k, v in good().items() if k != "memory"}))
            argv = ["validate", str(traj), "--memory", str(f)]
        elif flag == "--plan":
            argv = ["repair", FIG1, "--plan", str(f)]
        else:
            argv = ["approve", FIG1, "--reviewer", "a", "--decision", "approve",
                    "--result", str(f), "--db", str(tmp_path / "a.db")]
        assert main(argv) == 2, (flag, bad[:5])
        err = capsys.readouterr().err
        assert "Traceback" not in err and ("nested too deeply" in err or "4300 digits" in err), err


def test_at_most_100_problems_are_printed_with_a_count(tmp_path, capsys):
    data = good()
    data["trajectory"][0]["deps"] = [{"id": f"x{i}", "label": "cite"} for i in range(600)]
    f = tmp_path / "many.json"
    f.write_text(json.dumps(data))
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("unknown id 'x") == 100
    assert "... and 500 more problems (600 in all)" in err
    with pytest.raises(CaseError) as exc:
        case_from_data(data)
    assert len(exc.value.problems) == 600
