"""Loading a case's long lists a chunk of items at a time from its text.

:func:`parse_case <._load.parse_case>` parses the whole text into dicts first and
validates them after, so the whole JSON tree and the whole case coexist: at 300k steps
the read's high-water mark was 1,494 MiB against 1,335 once the dicts were gone, and the
holes they left in the heap stayed for the rest of a repair. :func:`parse_case_in_chunks`
parses the items of `session`, `memory` and `trajectory` one at a time from the text
(`json.JSONDecoder.raw_decode`, as `_stream` does for `dgrr validate`) and validates
each :data:`VALIDATE_CHUNK <._load.VALIDATE_CHUNK>` of them as soon as they are parsed,
so only one chunk's dicts are alive beside the models made so far.

Only a case that is plain to read is read this way: the first sign of anything the
strict loader reports (invalid JSON, a duplicate key, a non-finite number, an integer too
long, an escaped surrogate, a validation error, a broken reference) sends the whole text
to `parse_case`, which words every problem as it always has. So a valid case gives the
models `parse_case` gives, and an invalid one the same `CaseError`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jiter
import msgspec
from pydantic import ValidationError

from .._perf import without_gc
from ._case import Case
from ._json import _SURROGATE_ESCAPE, _encodes, _Parse
from ._load import (
    RECORD_TYPES,
    VALIDATE_CHUNK,
    _check_references,
    _list_adapters,
    parse_case,
)
from ._shared import SharedFieldNames, share_field_names, share_ids

__all__ = ["parse_case_in_chunks"]

_WS = re.compile(r"[ \t\n\r]*")
_LISTS = ("session", "memory", "trajectory")


class _NotPlain(Exception):
    """The text has something the strict loader reports: it reads the text instead."""


@without_gc
def parse_case_in_chunks(text: str | bytes, source: str | None = None,
                         chunk: int = VALIDATE_CHUNK, *, references_checked: bool = False
                         ) -> Case:
    """The case `parse_case(text, source)` gives, its long lists validated `chunk` items
    at a time as they are parsed; any problem is reported by `parse_case` itself.

    `references_checked`: the columnar reader (`read_columns`) has accepted these same
    bytes, and it declines every case whose ids, seqs, deps, turns, returned or target
    records, answer or faults the loader's reference check would fault
    (tests/test_case_chunked_read.py), so that pass over every item is not made again
    (1.9 CPU s of a 300k-step repair), and the items are parsed and validated from the
    bytes by pydantic (`_read_accepted`). The items are validated as always."""
    if references_checked and isinstance(text, bytes):
        try:
            return _read_accepted(text, chunk)
        except (_NotPlain, ValidationError, RecursionError, ValueError):
            pass  # the reading below finds whatever it was, or words it
    try:
        return _read(text, chunk, references_checked)
    except (_NotPlain, ValidationError, RecursionError, ValueError):
        # json.JSONDecodeError and UnicodeDecodeError are ValueErrors too
        pass
    return parse_case(text, source=source)


_TOP = msgspec.json.Decoder(dict[str, msgspec.Raw])
_ITEMS = msgspec.json.Decoder(list[msgspec.Raw])


def _read_accepted(raw: bytes, chunk: int) -> Case:
    """`_read(raw, chunk, references_checked=True)`'s case, for bytes the columnar reader
    accepted, with each chunk of items parsed and validated by pydantic from its text
    (`validate_json`) instead of parsed into dicts by the standard library's decoder
    with a Python hook on every object and then validated (at 300k steps the items are
    1.1M objects; the whole read, one process, under load: 7.2-7.8 -> 6.3-6.6 CPU s,
    docs/performance.md).

    What the columnar reader's acceptance already says of every item, as `_read`'s
    hooks would find it: the JSON is valid UTF-8 with every item's fields decoded by
    msgspec, so no NaN or Infinity and no number out of a float's or a 64-bit integer's
    range (tests/test_case_chunked_read.py checks the reader declines them). What it
    cannot see is checked here: a key repeated in an object (jiter's check, on each
    chunk; the top level's by the standard library's strict hooks on the text with the
    three lists cut out). An escaped lone surrogate anywhere fails msgspec's decode of
    the file into its top level's values (and jiter's); a valid pair, as `json.dumps`
    escapes an emoji, is read here, to the whole read's models. Anything found sends
    the text to `_read`, which finds it again or words it."""
    try:
        top_values = _TOP.decode(raw)
    except msgspec.MsgspecError:
        raise _NotPlain from None
    start = _address(raw)
    whole = memoryview(raw)
    cuts: list[tuple[int, int]] = []
    lists: dict[str, list[Any]] = {}
    shared: dict[frozenset[str], SharedFieldNames] = {}
    for key in _LISTS:
        value = top_values.get(key)
        if value is None:
            continue
        # where the list's text is in `raw` (msgspec's Raw is a slice of it, not a copy;
        # checked byte for byte), so the top level can be read without it
        at, size = _address(value) - start, len(memoryview(value))
        if at < 0 or whole[at:at + size] != memoryview(value):
            raise _NotPlain
        try:
            items = _ITEMS.decode(value)
        except msgspec.MsgspecError:
            raise _NotPlain from None
        lists[key] = _validated_json(key, items, chunk, shared)
        cuts.append((at, size))
    del top_values
    # the top level, the lists left out (`[]`), read as `_read` reads it: a key given
    # twice (one of the lists' included) or anything else it flags sends it there
    pieces: list[bytes] = []
    done = 0
    for at, size in sorted(cuts):
        pieces += (raw[done:at], b"[]")
        done = at + size
    pieces.append(raw[done:])
    shell = b"".join(pieces).decode("utf-8")
    state = _Parse()
    try:
        top = json.JSONDecoder(object_pairs_hook=state.pairs, parse_constant=state.constant,
                               parse_float=state.number).decode(shell)
    except ValueError:
        raise _NotPlain from None
    if state.duplicates or state.bad or not isinstance(top, dict) \
            or any(top.get(key) != [] for key in lists):
        raise _NotPlain
    case = Case.model_validate(top, strict=True)
    for key, models in lists.items():
        case.__dict__[key] = models
    share_ids(case.session, case.memory, case.trajectory)
    return case


def _address(buffer: Any) -> int:
    """Where the bytes of `buffer` start in memory."""
    import numpy as np  # only here: every command reads its case through this module

    return int(np.frombuffer(buffer, np.uint8).ctypes.data)


def _validated_json(key: str, items: list[msgspec.Raw], chunk: int,
                    shared: dict[frozenset[str], SharedFieldNames]) -> list[Any]:
    """The models of `items`, the texts of one list's items, `chunk` at a time."""
    adapter = _list_adapters()[key]
    models: list[Any] = []
    for i in range(0, len(items), chunk):
        text = b"".join((b"[", b",".join(items[i:i + chunk]), b"]"))
        # the standard library's decoder would flag a repeated key (`_Parse.pairs`);
        # NaN, integers too long to print and a lone surrogate fail here as there
        jiter.from_json(text, allow_inf_nan=False, catch_duplicate_keys=True,
                        cache_mode="keys")
        part = adapter.validate_json(text, strict=True)
        share_field_names(part, shared)
        models += part
    return models


def _read(raw: str | bytes, chunk: int, references_checked: bool = False) -> Case:
    if isinstance(raw, (bytes, bytearray)):
        text = bytes(raw).decode(json.detect_encoding(raw))
    else:
        text = raw
        if not _encodes(text):
            raise _NotPlain
    if _SURROGATE_ESCAPE.search(text) is not None:
        raise _NotPlain
    state = _Parse()
    decode = json.JSONDecoder(object_pairs_hook=state.pairs, parse_constant=state.constant,
                              parse_float=state.number).raw_decode
    ws = _WS.match

    def value_at(idx: int) -> tuple[Any, int]:
        value, end = decode(text, idx)
        if state.duplicates or state.bad:
            raise _NotPlain
        return value, end

    idx = ws(text, 0).end()  # type: ignore[union-attr]
    if text[idx:idx + 1] != "{":
        raise _NotPlain
    top: dict[str, Any] = {}
    lists: dict[str, list[Any]] = {}
    shared: dict[frozenset[str], SharedFieldNames] = {}  # one set of field names per shape
    idx = ws(text, idx + 1).end()  # type: ignore[union-attr]
    if text[idx:idx + 1] == "}":
        idx += 1
    else:
        while True:
            if text[idx:idx + 1] != '"':
                raise _NotPlain
            key, idx = value_at(idx)
            if key in top:
                raise _NotPlain  # a duplicate key
            idx = ws(text, idx).end()  # type: ignore[union-attr]
            if text[idx:idx + 1] != ":":
                raise _NotPlain
            idx = ws(text, idx + 1).end()  # type: ignore[union-attr]
            if key in _LISTS and text[idx:idx + 1] == "[":
                lists[key], idx = _items(text, idx + 1, key, value_at, chunk, shared)
                top[key] = []
            else:
                top[key], idx = value_at(idx)
            idx = ws(text, idx).end()  # type: ignore[union-attr]
            if text[idx:idx + 1] == ",":
                idx = ws(text, idx + 1).end()  # type: ignore[union-attr]
                continue
            if text[idx:idx + 1] != "}":
                raise _NotPlain
            idx += 1
            break
    if ws(text, idx).end() != len(text):  # type: ignore[union-attr]
        raise _NotPlain
    case = Case.model_validate(top, strict=True)
    for key, models in lists.items():
        case.__dict__[key] = models
    if not references_checked and _check_references(
            {key: [_Fields(m) for m in case.__dict__[key]] for key in _LISTS}
            | {"faults": case.faults}):
        raise _NotPlain
    share_ids(case.session, case.memory, case.trajectory)
    return case


def _items(text: str, idx: int, key: str, value_at: Any, chunk: int,
           shared: dict[frozenset[str], SharedFieldNames]) -> tuple[list[Any], int]:
    """The models of the list whose items start at `idx`, and where the list ends; each
    `chunk` items parsed are validated and their dicts let go."""
    adapter = _list_adapters()[key]
    ws = _WS.match
    models: list[Any] = []
    pending: list[Any] = []
    idx = ws(text, idx).end()  # type: ignore[union-attr]
    if text[idx:idx + 1] != "]":
        while True:
            item, idx = value_at(idx)
            pending.append(item)
            if len(pending) == chunk:
                models += _validated(adapter, pending, shared)
                pending = []
            idx = ws(text, idx).end()  # type: ignore[union-attr]
            if text[idx:idx + 1] == ",":
                idx = ws(text, idx + 1).end()  # type: ignore[union-attr]
                continue
            if text[idx:idx + 1] != "]":
                raise _NotPlain
            break
    if pending:
        models += _validated(adapter, pending, shared)
    return models, idx + 1


def _validated(adapter: Any, items: list[Any],
               shared: dict[frozenset[str], SharedFieldNames]) -> list[Any]:
    models = adapter.validate_python(items, strict=True)
    share_field_names(models, shared)
    return models  # type: ignore[no-any-return]


class _Fields:
    """What the reference checks read of a validated item, read from the model: its
    fields, then its extra members (a claim's `returned` is one), and its dependencies
    as their dicts of values."""

    __slots__ = ("model",)

    def __init__(self, model: Any) -> None:
        self.model = model

    def get(self, key: str, default: Any = None) -> Any:
        model = self.model
        values = model.__dict__
        if key in values:
            value = values[key]
            if key == "deps":
                return [dep.__dict__ for dep in value]
            return value
        extra = model.__pydantic_extra__
        return extra.get(key, default) if extra else default


RECORD_TYPES.add(_Fields)

