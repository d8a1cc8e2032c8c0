"""Reading LongMemEval-format files: parsing and validation.

A LongMemEval file is a JSON list of instances, each with `question_id`,
`question_type`, `question`, `answer`, `question_date`, `haystack_session_ids`,
`haystack_dates`, `haystack_sessions` (a list of sessions, each a list of turns
`{role, content, has_answer?}`) and `answer_session_ids`. :func:`load_longmemeval`
checks every instance and raises one :class:`~repair_core.CaseError` naming every bad
field with its value (`[2].haystack_sessions[1][0].role: must be 'user' or 'assistant',
got 'bot'`), or returns the instances. No data set ships with dgrr; the fixture in
`repair_core/fixtures/longmemeval/` is written by us in this format for the tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .._errors import CaseError

__all__ = ["LongMemEvalError", "LongMemEvalTurn", "LongMemEvalItem", "load_longmemeval", "parse_longmemeval",
           "longmemeval_fixture_path"]


class LongMemEvalError(CaseError):
    """A LongMemEval-format file could not be read; `problems` lists every problem."""

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        super().__init__(problems, source)
        n = len(self.problems)
        where = f"{source}: " if source else ""
        head = f"{where}invalid LongMemEval file ({n} problem{'s' if n != 1 else ''})"
        self.args = ("\n".join([head, *(f"  - {p}" for p in self.problems)]),)


class LongMemEvalTurn(BaseModel):
    """One chat turn of a haystack session."""

    role: str
    """`user` or `assistant`."""
    content: str
    """What was said."""
    has_answer: bool = False
    """The turn holds evidence for the answer."""


class LongMemEvalItem(BaseModel):
    """One LongMemEval question with its chat-history haystack."""

    question_id: str
    """Identifier of the question."""
    question_type: str
    """E.g. single-session-user, knowledge-update, multi-session, temporal-reasoning."""
    question: str
    """The question asked after the haystack."""
    answer: str
    """The reference answer."""
    question_date: str
    """When the question is asked."""
    haystack_session_ids: list[str]
    """Ids of the history sessions, in order."""
    haystack_dates: list[str]
    """Date of each session."""
    haystack_sessions: list[list[LongMemEvalTurn]]
    """The sessions, each a list of turns."""
    answer_session_ids: list[str] = Field(default_factory=list)
    """Sessions that hold the evidence."""


_STR_FIELDS = ("question_id", "question_type", "question", "question_date")
_LIST_FIELDS = ("haystack_session_ids", "haystack_dates", "haystack_sessions")


def _check_item(raw: Any, at: str) -> list[str]:
    problems: list[str] = []
    if not isinstance(raw, dict):
        return [f"{at}: must be an object, got {type(raw).__name__}"]
    for name in _STR_FIELDS:
        if name not in raw:
            problems.append(f"{at}.{name}: missing")
        elif not isinstance(raw[name], str):
            problems.append(f"{at}.{name}: must be a string, got {raw[name]!r}")
    if "answer" not in raw:
        problems.append(f"{at}.answer: missing")
    elif not isinstance(raw["answer"], (str, int, float)) or isinstance(raw["answer"], bool):
        problems.append(f"{at}.answer: must be a string, got {raw['answer']!r}")
    for name in (*_LIST_FIELDS, "answer_session_ids"):
        if name not in raw:
            if name != "answer_session_ids":
                problems.append(f"{at}.{name}: missing")
        elif not isinstance(raw[name], list):
            problems.append(f"{at}.{name}: must be a list, got {raw[name]!r}")
    if problems:
        return problems
    ids, dates, sessions = (raw[n] for n in _LIST_FIELDS)
    if not (len(ids) == len(dates) == len(sessions)):
        problems.append(f"{at}.haystack_sessions: {len(sessions)} sessions but "
                        f"{len(ids)} haystack_session_ids and {len(dates)} haystack_dates")
    for j, sid in enumerate(ids):
        if not isinstance(sid, str):
            problems.append(f"{at}.haystack_session_ids[{j}]: must be a string, got {sid!r}")
    for j, d in enumerate(dates):
        if not isinstance(d, str):
            problems.append(f"{at}.haystack_dates[{j}]: must be a string, got {d!r}")
    for j, sess in enumerate(sessions):
        if not isinstance(sess, list):
            problems.append(f"{at}.haystack_sessions[{j}]: must be a list of turns, got {sess!r}")
            continue
        for k, turn in enumerate(sess):
            problems.extend(_check_turn(turn, f"{at}.haystack_sessions[{j}][{k}]"))
    known = {s for s in ids if isinstance(s, str)}
    for j, sid in enumerate(raw.get("answer_session_ids", [])):
        if sid not in known:
            problems.append(f"{at}.answer_session_ids[{j}]: {sid!r} is not in "
                            "haystack_session_ids")
    return problems


def _check_turn(turn: Any, at: str) -> list[str]:
    if not isinstance(turn, dict):
        return [f"{at}: must be an object with role and content, got {turn!r}"]
    problems = []
    role = turn.get("role")
    if role not in ("user", "assistant"):
        problems.append(f"{at}.role: must be 'user' or 'assistant', got {role!r}")
    if not isinstance(turn.get("content"), str):
        problems.append(f"{at}.content: must be a string, got {turn.get('content')!r}")
    if "has_answer" in turn and not isinstance(turn["has_answer"], bool):
        problems.append(f"{at}.has_answer: must be true or false, got {turn['has_answer']!r}")
    return problems


def parse_longmemeval(data: bytes | str, source: str | None = None) -> list[LongMemEvalItem]:
    """Parse and validate LongMemEval JSON text; raise `CaseError` listing every problem."""
    try:
        raw = json.loads(data)
    except json.JSONDecodeError as exc:
        raise LongMemEvalError([f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"],
                        source) from None
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise LongMemEvalError(
            [f"must be a list of LongMemEval instances, got {type(raw).__name__}"], source)
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(raw):
        problems.extend(_check_item(item, f"[{i}]"))
        qid = item.get("question_id") if isinstance(item, dict) else None
        if isinstance(qid, str):
            if qid in seen:
                problems.append(f"[{i}].question_id: duplicate {qid!r} (first at [{seen[qid]}])")
            seen.setdefault(qid, i)
    if problems:
        raise LongMemEvalError(problems, source)
    return [LongMemEvalItem.model_validate({**item, "answer": str(item["answer"])})
            for item in raw]


def load_longmemeval(path: str | Path) -> list[LongMemEvalItem]:
    """Read a LongMemEval-format file (see :func:`parse_longmemeval`)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise LongMemEvalError([f"cannot read: {exc.strerror}"], str(p)) from None
    return parse_longmemeval(data, source=str(p))


def longmemeval_fixture_path() -> Path:
    """The small LongMemEval-format fixture we wrote for the adapter's tests."""
    from .._fixtures import fixture_path

    return fixture_path("longmemeval/fixture.json")
