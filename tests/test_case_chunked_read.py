"""Reading a case's long lists a chunk of items at a time (`case._chunked`) gives the case
the whole read (`parse_case`) gives, and an invalid case the same problems."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening_fuzz import PATHS, SAMPLES, _mutate, values

from repair_core import CaseError
from repair_core._synth import synth_case_data
from repair_core.case import _chunked
from repair_core.case._case import STEP_TYPES
from repair_core.case._chunked import parse_case_in_chunks
from repair_core.case._load import parse_case
from repair_core.case._shared import SharedFieldNames

ROOT = Path(__file__).resolve().parent.parent
EVERY_KIND = ROOT / "repair_core" / "fixtures" / "figure1-travel.json"


def _outcome(read, text, **kw):
    try:
        case = read(text, source="case.json", **kw)
    except CaseError as exc:
        return ("invalid", exc.problems)
    return ("valid", case.model_dump_json(), case.model_dump_json(exclude_unset=True),
            case.model_dump_json(exclude_unset=True, exclude_defaults=True))


def _no_whole_read(monkeypatch):
    """A valid case is read in chunks, never handed to the whole read."""
    def refused(*args, **kwargs):
        raise AssertionError("read whole")
    monkeypatch.setattr(_chunked, "parse_case", refused)


def _same_models(text: str | bytes, chunk: int) -> None:
    whole = parse_case(text)
    chunked = parse_case_in_chunks(text, chunk=chunk)
    assert chunked.model_dump_json() == whole.model_dump_json()
    assert chunked.model_dump_json(exclude_unset=True) == whole.model_dump_json(exclude_unset=True)
    for name in ("session", "memory", "trajectory"):
        for a, b in zip(getattr(chunked, name), getattr(whole, name), strict=True):
            assert type(a) is type(b)
            assert a.__pydantic_extra__ == b.__pydantic_extra__
            # the items share their sets of field names, as the whole read's do
            assert type(a.__pydantic_fields_set__) is SharedFieldNames
            assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__
    # references hold the named item's own id string (`share_ids`)
    own = {m.id: m.id for m in chunked.memory}
    for step in chunked.trajectory:
        for rid in getattr(step, "returned", ()):
            assert rid is own.get(rid, rid)


@pytest.mark.parametrize("chunk", [1, 2, 7, 2000])
def test_synthetic_case_read_in_chunks_is_the_whole_read(monkeypatch, chunk):
    text = json.dumps(synth_case_data(steps=3000, memories=600, faults=3, seed=5))
    _no_whole_read(monkeypatch)
    _same_models(text.encode(), chunk)


@pytest.mark.parametrize("chunk", [1, 3, 2000])
def test_committed_case_of_every_item_kind_read_in_chunks(monkeypatch, chunk):
    raw = EVERY_KIND.read_bytes()
    data = json.loads(raw)
    assert {s["type"] for s in data["trajectory"]} == set(STEP_TYPES)
    assert data["memory"] and data["session"] and data["tools"] and data["eval"]
    # an extra member on a step and on a dependency
    data["trajectory"][0]["note"] = {"by": "reviewer"}
    data["trajectory"][-1]["deps"][0]["weight"] = 2
    _no_whole_read(monkeypatch)
    for text in (raw, json.dumps(data, indent=2)):
        _same_models(text, chunk)


@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_mutated_case_gets_the_whole_reads_outcome(data):
    which = data.draw(st.integers(0, len(SAMPLES) - 1))
    path = data.draw(st.sampled_from(PATHS[which]))
    how = data.draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
    mutated = _mutate(SAMPLES[which], path, how, data.draw(values))
    try:
        text = json.dumps(mutated)
    except (ValueError, RecursionError):
        return
    chunk = data.draw(st.sampled_from([1, 2, 2000]))
    assert _outcome(parse_case_in_chunks, text, chunk=chunk) == _outcome(parse_case, text)


@pytest.mark.parametrize("edit", [
    lambda t: t[: len(t) // 2],  # truncated
    lambda t: t.replace('"case_id"', '"case_id": "x", "case_id"', 1),
    lambda t: t.replace('"text": "', '"text": "x", "text": "', 1),
    lambda t: t.replace('"trust": 0.9', '"trust": NaN', 1),
    lambda t: t.replace('"text": "', '"text": "\\ud800', 1),
    lambda t: t.replace('"seq": 2,', '"seq": ' + "9" * 5000 + ",", 1),
    lambda t: t + " x",
    lambda t: "[" + t + "]",
    lambda t: t.replace('"memory": [', '"memory": 5, "x": [', 1),
    lambda t: t.replace('"turn": "u1"', '"turn": "u404"', 1),
    lambda t: t.replace('"label": "cite"', '"label": "cite"}, {"id": "nowhere", "label": "cite"', 1),
    lambda t: t.replace('"type": "claim"', '"type": "claim", "returned": ["m404"]', 1),
    lambda t: t.replace('"seq": 2,', '"seq": "2",', 1),
])
def test_a_broken_case_gets_the_whole_reads_problems(edit):
    text = edit(EVERY_KIND.read_text(encoding="utf-8"))
    whole = _outcome(parse_case, text)
    assert whole[0] == "invalid"
    for chunk in (1, 2000):
        assert _outcome(parse_case_in_chunks, text, chunk=chunk) == whole


def test_only_one_chunk_of_dicts_is_alive_at_a_time():
    text = json.dumps(synth_case_data(steps=6000, memories=1200, faults=3, seed=5))
    peaks = []
    for read in (parse_case, lambda t: parse_case_in_chunks(t, chunk=200)):
        tracemalloc.start()
        case = read(text)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        del case
    whole, chunked = peaks
    assert chunked < 0.8 * whole, peaks
