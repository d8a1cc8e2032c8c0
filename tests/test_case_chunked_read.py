"""Reading a case's long lists a chunk of items at a time (`case._chunked`) gives the case
the whole read (`parse_case`) gives, and an invalid case the same problems."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening_fuzz import mutated_text

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


def _same_models(text: str | bytes, chunk: int, read=parse_case_in_chunks) -> None:
    whole = parse_case(text)
    chunked = read(text, chunk=chunk)
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
    text = mutated_text(data)
    if text is None:
        return
    chunk = data.draw(st.sampled_from([1, 2, 2000]))
    assert _outcome(parse_case_in_chunks, text, chunk=chunk) == _outcome(parse_case, text)


@pytest.mark.parametrize("edit", [
    lambda t: t[: len(t) // 2],  # truncated
    lambda t: t.replace('"case_id"', '"case_id": "x", "case_id"', 1),
    lambda t: t.replace('"text": "', '"text": "x", "text": "', 1),
    lambda t: t.replace('"trust": 0.9', '"trust": NaN', 1),
    lambda t: t.replace('"text": "', '"text": "\\ud800', 1),
    lambda t: t.replace('"case_id": "', '"case_id": "\\udc00', 1),
    lambda t: t.replace('"case_id": "', '"note": "\\udc00", "case_id": "', 1),
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


def _columnar_accepts(text: str) -> bool:
    from repair_core.case._columns import read_columns

    return read_columns(text.encode("utf-8")) is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_what_the_columnar_reader_accepts_needs_no_reference_check(data):
    # `dgrr repair` reads a case the columnar planner accepted without the loader's
    # reference pass: whatever that reader accepts, the loader finds valid as it is
    text = mutated_text(data)
    if text is None:
        return
    if not _columnar_accepts(text):
        return
    whole = _outcome(parse_case, text)
    assert whole[0] == "valid"
    assert _outcome(parse_case_in_chunks, text, references_checked=True) == whole
    # bytes, as `dgrr repair` hands them over, are parsed by pydantic (`_read_accepted`)
    assert _outcome(parse_case_in_chunks, text.encode("utf-8"), references_checked=True) == whole
    # by that read itself, not by the hooked read it falls back on: a valid case the
    # columnar reader accepted is never sent back
    assert _chunked._read_accepted(text.encode("utf-8"), 3).model_dump_json() == \
        parse_case(text).model_dump_json()


@pytest.mark.parametrize("edit", [
    lambda t: t.replace('"turn": "u1"', '"turn": "u404"', 1),
    lambda t: t.replace('"label": "cite"', '"label": "cite"}, {"id": "nowhere", "label": "cite"', 1),
    lambda t: t.replace('"type": "claim"', '"type": "claim", "returned": ["m404"]', 1),
    lambda t: t.replace('"returned": [', '"returned": ["m404", ', 1),
    lambda t: t.replace('"target": [', '"target": ["m404", ', 1),
    lambda t: t.replace('"faults": [', '"faults": ["s1", ', 1),
    lambda t: t.replace('"faults": [', '"faults": ["nowhere", ', 1),
    lambda t: t.replace('"type": "answer"', '"type": "claim"', 1),
])
def test_the_columnar_reader_declines_what_the_reference_check_refuses(edit):
    _refused_and_declined(edit)


def _refused_and_declined(edit):
    """The committed case of every item kind edited by `edit`: the loader refuses it and
    the columnar reader declines it."""
    text = edit(EVERY_KIND.read_text(encoding="utf-8"))
    assert text != EVERY_KIND.read_text(encoding="utf-8")
    assert _outcome(parse_case, text)[0] == "invalid"
    assert not _columnar_accepts(text)


def _json_edit(change):
    """An edit of the case's JSON data by `change(data)`, given its step and record by id."""
    def edit(text):
        data = json.loads(text)
        items = {item["id"]: item for key in ("trajectory", "memory") for item in data[key]}
        change(data, items.__getitem__)
        return json.dumps(data, indent=1)
    return edit


@pytest.mark.parametrize("edit", [
    _json_edit(lambda d, at: at("s9").update(id="s8")),  # a duplicate id
    _json_edit(lambda d, at: at("s9").update(id="u1")),  # a step named as a turn
    _json_edit(lambda d, at: at("m8").update(id="m1")),  # a duplicate record id
    _json_edit(lambda d, at: at("s9").update(seq=9)),  # a duplicate seq
    _json_edit(lambda d, at: at("s9")["deps"].append({"id": "s9", "label": "cite"})),
    _json_edit(lambda d, at: at("m8")["deps"].append({"id": "m8", "label": "cite"})),
    # a premise later than its dependent
    _json_edit(lambda d, at: at("s2")["deps"].append({"id": "s5", "label": "cite"})),
    # a cycle through a record (m3 -> s1 -> s3 -> s11 -> m6 -> m3), and among records
    _json_edit(lambda d, at: at("m3")["deps"].append({"id": "m6", "label": "derive"})),
    _json_edit(lambda d, at: (at("m1")["deps"].append({"id": "m8", "label": "cite"}),
                              at("m8")["deps"].append({"id": "m1", "label": "cite"}))),
    _json_edit(lambda d, at: d["faults"].append("m3")),  # a duplicate fault
    _json_edit(lambda d, at: d["faults"].append("s9")),  # a fault no input can be
])
def test_the_columnar_reader_declines_every_other_reference_problem(edit):
    # the rest of what `_check_references` refuses: ids, seqs, deps, cycles and faults
    _refused_and_declined(edit)


def test_references_checked_skips_only_the_reference_pass(monkeypatch):
    text = json.dumps(synth_case_data(steps=3000, memories=600, faults=3, seed=5))
    whole = _outcome(parse_case, text)
    _no_whole_read(monkeypatch)
    passes = []
    real = _chunked._check_references
    monkeypatch.setattr(_chunked, "_check_references",
                        lambda *a, **k: passes.append(1) or real(*a, **k))
    assert _outcome(parse_case_in_chunks, text, references_checked=True) == whole
    assert passes == []
    assert _outcome(parse_case_in_chunks, text) == whole
    assert passes == [1]


def _no_hooked_read(monkeypatch):
    """A valid case the columnar reader accepted is read from its bytes by pydantic,
    never by the standard library's decoder with hooks, nor whole."""
    _no_whole_read(monkeypatch)

    def refused(*args, **kwargs):
        raise AssertionError("read with the hooks")
    monkeypatch.setattr(_chunked, "_read", refused)


@pytest.mark.parametrize("chunk", [1, 7, 2000])
def test_accepted_bytes_parsed_by_pydantic_are_the_whole_read(monkeypatch, chunk):
    data = synth_case_data(steps=3000, memories=600, faults=3, seed=5)
    data["memory"][0]["trust"] = 1  # an integer where a float is kept
    data["memory"][1]["value"] = {"amount": 1e-07, "big": 2 ** 63, "neg": -0.0, "s": "é\u2028"}
    expected = parse_case(json.dumps(data))
    _no_hooked_read(monkeypatch)
    for text in (json.dumps(data), json.dumps(data, indent=1, ensure_ascii=False)):
        raw = text.encode("utf-8")
        assert _columnar_accepts(text)
        case = parse_case_in_chunks(raw, chunk=chunk, references_checked=True)
        assert case.model_dump_json() == expected.model_dump_json()
        _same_models(raw, chunk, read=lambda t, chunk: parse_case_in_chunks(
            t, chunk=chunk, references_checked=True))


@pytest.mark.parametrize("chunk", [1, 3, 2000])
def test_accepted_bytes_of_every_item_kind_parsed_by_pydantic(monkeypatch, chunk):
    data = json.loads(EVERY_KIND.read_bytes())
    _no_hooked_read(monkeypatch)
    for text in (EVERY_KIND.read_text(encoding="utf-8"), json.dumps(data, indent=2)):
        assert _columnar_accepts(text)
        _same_models(text.encode("utf-8"), chunk, read=lambda t, chunk: parse_case_in_chunks(
            t, chunk=chunk, references_checked=True))


def test_accepted_bytes_with_escaped_surrogate_pairs_are_parsed_by_pydantic(monkeypatch):
    # a character beyond the BMP (an emoji) that `json.dumps` escapes as a surrogate pair
    # is valid: only a lone surrogate sends the bytes back to the hooked read
    data = json.loads(EVERY_KIND.read_bytes())
    data["memory"][0]["text"] += " \U0001f600"
    data["domain"] = "\U0001f4e6 parcels"
    text = json.dumps(data)
    assert "\\ud83d\\ude00" in text and "\\ud83d\\udce6" in text
    assert _columnar_accepts(text)
    expected = parse_case(text)
    _no_hooked_read(monkeypatch)
    for chunk in (1, 2000):
        case = parse_case_in_chunks(text.encode("utf-8"), chunk=chunk, references_checked=True)
        assert case.model_dump_json() == expected.model_dump_json()


@pytest.mark.parametrize("edit", [
    # what the columnar reader accepts (a repeated key: it keeps the last) or never sees
    lambda t: t.replace('"text": "', '"text": "x", "text": "', 1),
    lambda t: t.replace('"label": "cite"', '"label": "cite", "label": "cite"', 1),
    lambda t: t.replace('"case_id"', '"case_id": "x", "case_id"', 1),
    lambda t: t.replace('"memory": [', '"memory": [], "memory": [', 1),
    lambda t: t.replace('"trajectory": [', '"trajectory": [], "trajectory": [', 1),
    lambda t: t.replace('"faults": [', '"tools": [], "faults": [', 1),
    lambda t: t.replace('"text": "', '"text": "\\ud800', 1),
    lambda t: t.replace('"case_id": "', '"case_id": "\\udc00', 1),
    lambda t: t.replace('"case_id": "', '"note": "\\udc00", "case_id": "', 1),
    lambda t: t.replace('"trust": 0.9', '"trust": NaN', 1),
])
def test_accepted_bytes_with_what_the_columns_cannot_see_get_the_whole_reads_problems(edit):
    text = edit(EVERY_KIND.read_text(encoding="utf-8"))
    whole = _outcome(parse_case, text)
    assert whole[0] == "invalid"
    for chunk in (1, 2000):
        assert _outcome(parse_case_in_chunks, text.encode("utf-8"), chunk=chunk,
                        references_checked=True) == whole


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1.8e308", "1" + "0" * 400 + ".0",
                                    "9" * 5000])
@pytest.mark.parametrize("where", ["trust", "value", "args", "output", "created_seq"])
def test_the_columnar_reader_declines_numbers_a_float_or_its_integers_cannot_hold(number, where):
    # `_read_accepted` parses a float out of range without a flag (1e999 as inf): it
    # relies on the columnar reader, which decodes every item's fields, declining the case
    data = json.loads(EVERY_KIND.read_bytes())
    record = data["memory"][0]
    if where in ("trust", "value", "created_seq"):
        record[where] = 0
        text = json.dumps(data).replace(f'"{where}": 0', f'"{where}": {number}', 1)
    else:
        kind = "tool_action" if where == "args" else "tool_observation"
        step = next(s for s in data["trajectory"] if s["type"] == kind)
        step[where] = {"n": "NUMBER"}
        text = json.dumps(data).replace('"NUMBER"', number, 1)
    assert number in text
    assert not _columnar_accepts(text)
