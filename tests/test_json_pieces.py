"""A repair result written a chunk of items at a time is the text of its whole dump.

`dgrr repair --out` no longer dumps the whole result to dicts before writing it
(`repair_core._json_pieces`); the definition it must match is
``json_bytes(result.model_dump(mode="json"))``, compared here on repairs of committed and
synthetic cases with chunks of one item, a few, and the default, and on models with empty
lists, extra members and computed fields, and with the lists' text kept in a file between
the two passes `dgrr repair --out` makes (its part files, then result.json holding them
again). The CLI's files are checked against the same definition, and the model client that keeps no log counts calls and tokens as one that does.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import _json_pieces, load_case
from repair_core._io import json_bytes
from repair_core._json_pieces import KeptOnDisk, model_members, object_pieces
from repair_core._synth import synth_case_data
from repair_core.case._case import Case, MemoryRecord
from repair_core.cli import main
from repair_core.commands.repair import STREAMED
from repair_core.model import ModelClient
from repair_core.replay import repair
from repair_core.replay._models import RepairedStore

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p for p in (ROOT / "sample_traces").glob("*.json")
                 if not p.name.endswith(".plan.json"))


def _whole(model) -> bytes:
    return json_bytes(model.model_dump(mode="json"))


def _pieced(model, streamed) -> bytes:
    return b"".join(object_pieces(model_members(model, streamed)))


@pytest.fixture(scope="module")
def results():
    cases = [load_case(p) for p in SAMPLES]
    cases.append(Case.model_validate(synth_case_data(steps=400, memories=80, faults=3, seed=5)))
    return [repair(c) for c in cases]


@pytest.mark.parametrize("chunk", [1, 2, 7, _json_pieces.CHUNK_ITEMS])
def test_result_in_chunks_is_its_whole_dump(results, chunk, monkeypatch):
    monkeypatch.setattr(_json_pieces, "CHUNK_ITEMS", chunk)
    for result in results:
        assert _pieced(result, STREAMED) == _whole(result)


@pytest.mark.parametrize("read_bytes", [1, 5, _json_pieces.READ_BYTES])
def test_result_kept_on_disk_is_its_whole_dump_on_every_pass(results, read_bytes,
                                                             monkeypatch):
    monkeypatch.setattr(_json_pieces, "CHUNK_ITEMS", 7)
    monkeypatch.setattr(_json_pieces, "READ_BYTES", read_bytes)
    for result in results[-2:] if read_bytes == 1 else results:
        with tempfile.TemporaryFile(buffering=0) as kept:
            members = model_members(result, STREAMED, keep_in=kept)
            # as `dgrr repair --out` writes them: a part alone, then the whole result
            parts = {name: b"".join(object_pieces(members[name])) for name in ("trajectory",
                                                                               "store")}
            assert b"".join(object_pieces(members)) == _whole(result)
            assert b"".join(object_pieces(members)) == _whole(result)
            assert parts == {name: json_bytes(getattr(result, name).model_dump(mode="json"))
                             for name in parts}
            assert kept.seek(0, 2) > 0  # the lists' text is in the file


def test_a_text_kept_on_disk_is_read_back_only_once_made_whole():
    with tempfile.TemporaryFile(buffering=0) as kept:
        first = KeptOnDisk(iter([b"ab", b"", b"c\nd"]), kept)
        second = KeptOnDisk(iter([b"xyz"]), kept)
        made = iter(first)
        assert next(made) == b"ab"
        with pytest.raises(RuntimeError, match="before it was made whole"):
            list(first)
        assert b"".join(made) == b"c\nd"
        assert list(second) == [b"xyz"]
        assert b"".join(first) == b"ab" + b"c\nd" and b"".join(second) == b"xyz"


def test_empty_lists_extra_members_and_computed_fields():
    store = RepairedStore(active=[], quarantine=[MemoryRecord(
        id="m1", user_id="u", text="é \n \"x\"", status="active", note="an extra member")])
    assert store.quarantine[0].model_extra == {"note": "an extra member"}
    assert _pieced(store, {"active": None, "quarantine": None}) == _whole(store)
    # a member left out when empty, and an extra member of the model itself
    case = Case.model_validate({**synth_case_data(steps=30, memories=6, faults=1, seed=2),
                                "zz_extra": {"kept": [1, 2.5, None]}})
    assert list(json.loads(_pieced(case, {"trajectory": None, "memory": None}))) == list(
        json.loads(_whole(case)))
    assert _pieced(case, {"trajectory": None, "memory": None, "session": None}) == _whole(case)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=8), max_size=9), st.integers(1, 4))
def test_any_records_in_any_chunks(texts, chunk):
    _json_pieces.CHUNK_ITEMS, old = chunk, _json_pieces.CHUNK_ITEMS
    try:
        store = RepairedStore(active=[MemoryRecord(id=f"m{i}", user_id="u", text=t,
                                                   status="active") for i, t in enumerate(texts)],
                              quarantine=[])
        assert _pieced(store, {"active": None, "quarantine": None}) == _whole(store)
    finally:
        _json_pieces.CHUNK_ITEMS = old


def test_cli_files_are_the_whole_dump(tmp_path, monkeypatch, capsys):
    """The files of `--out`, written in chunks of three items, against the whole dump
    `--json` prints."""
    monkeypatch.setattr(_json_pieces, "CHUNK_ITEMS", 3)
    case = ROOT / "sample_traces" / "figure1-travel.json"
    out = tmp_path / "out"
    assert main(["repair", str(case), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["repair", str(case), "--json"]) == 0
    printed = capsys.readouterr().out
    assert (out / "result.json").read_text(encoding="utf-8") == printed
    data = json.loads(printed)
    report = {**data["report"], "cost": data["cost"]}
    for name, value in (("trajectory.json", data["trajectory"]), ("store.json", data["store"]),
                        ("report.json", report)):
        assert (out / name).read_bytes() == json_bytes(value) + b"\n", name
    assert (out / "answer.txt").read_text(encoding="utf-8") == data["answer"] + "\n"


def test_a_client_without_a_log_counts_the_same():
    case = load_case(SAMPLES[0])
    logged, unlogged = ModelClient(), ModelClient(keep_log=False)
    a, b = repair(case, client=logged), repair(case, client=unlogged)
    assert logged.calls > 0 and len(logged.log) >= logged.calls
    assert unlogged.log == []
    assert (unlogged.calls, unlogged.tokens) == (logged.calls, logged.tokens)
    assert a.model_dump(mode="json") == b.model_dump(mode="json")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=12), _JSON_VALUES), min_size=1, max_size=6),
       st.integers(1, 3))
def test_any_values_written_by_pydantic_are_the_whole_dump(records, chunk):
    """A chunk's compact text comes from pydantic's JSON writer unless it may differ from
    the standard library's (`_chunk_text`): values of every JSON kind, floats of every
    size, non-finite ones and any text, against the whole dump."""
    _json_pieces.CHUNK_ITEMS, old = chunk, _json_pieces.CHUNK_ITEMS
    try:
        store = RepairedStore(active=[MemoryRecord(id=f"m{i}", user_id="u", text=t, value=v,
                                                   status="active", extra_member=v)
                                      for i, (t, v) in enumerate(records)], quarantine=[])
        assert _pieced(store, {"active": None, "quarantine": None}) == _whole(store)
    finally:
        _json_pieces.CHUNK_ITEMS = old


@pytest.mark.parametrize("value", [1e-7, 1e-05, 1.2345e-5, 0.0001, 1e16, 1.5e16, 1e20, 1e22,
                                   5e-324, 1.7976931348623157e308, -0.0, 0.1, float("nan"),
                                   float("inf"), 2**70, -(2**64), "\x00\x1f\x7f\u2028\U0001F600",
                                   {"1e-07": [1e-07]}])
def test_numbers_pydantic_writes_its_own_way_are_written_as_before(value):
    store = RepairedStore(active=[MemoryRecord(id="m1", user_id="u", text="t", value=value,
                                               status="active")], quarantine=[])
    assert _pieced(store, {"active": None, "quarantine": None}) == _whole(store)


def test_a_lone_surrogate_is_refused_as_before():
    store = RepairedStore(active=[MemoryRecord(id="m1", user_id="u", text="\udc80",
                                               status="active")], quarantine=[])
    with pytest.raises(UnicodeEncodeError):
        _whole(store)
    with pytest.raises(UnicodeEncodeError):
        _pieced(store, {"active": None, "quarantine": None})


_FINITE_VALUES = st.recursive(  # what `json_bytes` writes: no NaN or infinity
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(), lambda inner: st.lists(inner, max_size=3), max_leaves=6)
_OBJECTS = st.recursive(
    st.dictionaries(st.text(max_size=5), _FINITE_VALUES, max_size=3),
    lambda inner: st.dictionaries(st.text(max_size=5), inner | _FINITE_VALUES, max_size=3),
    max_leaves=8)


def _members(value: dict) -> dict:
    return {k: _members(v) if isinstance(v, dict) else json_bytes(v) for k, v in value.items()}


@settings(max_examples=200, deadline=None)
@given(_OBJECTS)
def test_objects_inside_objects_at_any_depth_are_the_whole_dump(value):
    """Each object inside another is laid out at its own depth (`LaidOut`), not indented
    again by every object around it: at any depth, with empty objects, keys of any text
    and values holding new lines, the pieces are the whole text."""
    assert b"".join(object_pieces(_members(value))) == json_bytes(value)
