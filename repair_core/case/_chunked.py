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
    (1.9 CPU s of a 300k-step repair). The items are still validated as always."""
    try:
        return _read(text, chunk, references_checked)
    except (_NotPlain, ValidationError, RecursionError, ValueError):
        # json.JSONDecodeError and UnicodeDecodeError are ValueErrors too
        pass
    return parse_case(text, source=source)


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

