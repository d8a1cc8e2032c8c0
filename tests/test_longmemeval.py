"""The LongMemEval-format reader: our fixture parses; bad files name the field and value."""

from __future__ import annotations

import json

import pytest

from repair_core import CaseError
from repair_core.bench import load_longmemeval, longmemeval_fixture_path, parse_longmemeval


def _fixture() -> list[dict]:
    return json.loads(longmemeval_fixture_path().read_text())


def test_fixture_parses_with_every_field():
    items = load_longmemeval(longmemeval_fixture_path())
    assert len(items) == 14
    first = items[0]
    assert first.question_id == "fx_0001" and first.answer == "Lisbon"
    assert len(first.haystack_sessions) == len(first.haystack_session_ids) == 3
    assert first.answer_session_ids == ["fx_0001_s2"]
    evidence = [t for s in first.haystack_sessions for t in s if t.has_answer]
    assert [t.role for t in evidence] == ["user"] and "Lisbon" in evidence[0].content


def test_missing_and_mistyped_fields_are_all_named():
    data = _fixture()
    del data[0]["question"]
    data[1]["haystack_sessions"][1][0]["role"] = "bot"
    data[2]["answer_session_ids"] = ["nope"]
    data[3]["haystack_dates"] = data[3]["haystack_dates"][:1]
    with pytest.raises(CaseError) as err:
        parse_longmemeval(json.dumps(data), source="lme.json")
    problems = err.value.problems
    assert "[0].question: missing" in problems
    assert "[1].haystack_sessions[1][0].role: must be 'user' or 'assistant', got 'bot'" in problems
    assert any(p.startswith("[2].answer_session_ids[0]: 'nope'") for p in problems)
    assert any(p.startswith("[3].haystack_sessions: 2 sessions but") for p in problems)
    assert "lme.json" in str(err.value)


def test_not_json_gets_line_and_column():
    with pytest.raises(CaseError, match="line 1 column"):
        parse_longmemeval("[{", source="x.json")


def test_duplicate_question_ids_refused():
    data = _fixture()
    data[1]["question_id"] = data[0]["question_id"]
    with pytest.raises(CaseError, match=r"\[1\]\.question_id: duplicate 'fx_0001'"):
        parse_longmemeval(json.dumps(data))


def test_numeric_answers_are_read_as_text():
    data = _fixture()[:1]
    data[0]["answer"] = 3
    assert parse_longmemeval(json.dumps(data))[0].answer == "3"
