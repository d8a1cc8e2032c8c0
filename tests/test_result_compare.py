"""Two repair results of one plan compared: the answers, where each record ends and each
step's outcome and new output."""

from __future__ import annotations

import json

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


def _write(tmp_path, name, res):
    path = tmp_path / name
    path.write_text(res.model_dump_json(), encoding="utf-8")
    return str(path)


def test_the_command_prints_what_differs_and_exits_1(tmp_path, capsys, replays):
    from repair_core.cli import main

    a = _write(tmp_path, "a.json", replays["dgrr/reference"])
    b = _write(tmp_path, "b.json", replays["dgrr/rolling"])
    assert main(["compare", a, b]) == 1
    out = capsys.readouterr().out
    assert "model dgrr/reference" in out and "model dgrr/rolling" in out
    assert "answers differ:" in out
    assert "  s3 (claim): replayed -> replayed (A: Lin prefers aisle seats. | B: Your seat " \
        "pref is aisle.)" in out
    assert main(["compare", a, a]) == 0
    assert "answers: the same" in capsys.readouterr().out
    assert main(["compare", a, b, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["answers_agree"] is False and {s["id"] for s in data["steps"]} >= {"s3"}


def test_the_command_escapes_control_characters_of_the_results(tmp_path, capsys, replays):
    from repair_core.cli import main

    a = replays["dgrr/reference"]
    evil = a.model_copy(update={"answer": "ok\x1b[2J\rgone"})
    assert main(["compare", _write(tmp_path, "a.json", a),
                 _write(tmp_path, "b.json", evil)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\\x1b[2J" in out


def test_a_bad_result_is_named_with_its_field_and_exits_2(tmp_path, capsys, replays):
    from repair_core.cli import main

    a = _write(tmp_path, "a.json", replays["dgrr/reference"])
    data = json.loads(replays["dgrr/rolling"].model_dump_json())
    del data["store"]
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["compare", a, str(bad)]) == 2
    err = capsys.readouterr().err
    assert "RESULT_B: store: Field required" in err and "Traceback" not in err
    bad.write_text("[1]", encoding="utf-8")
    assert main(["compare", a, str(bad)]) == 2
    assert "RESULT_B: expected a JSON object, got list" in capsys.readouterr().err
