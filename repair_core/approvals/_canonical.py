"""Canonical JSON of large data in small pieces, so hashing a 130k-node case never holds
the interpreter lock for long.

`json.dumps` and pydantic's `model_dump` are single C/Rust calls: on a 130k-node case
each ran for about a second without letting another thread run, so in the dashboard
server every other reviewer's session stood still meanwhile (docs/performance.md, "Two
reviewers on one dashboard server"). Here the same text is produced item by item: the
pieces joined are exactly `json.dumps(data, sort_keys=True, separators=(",", ":"),
ensure_ascii=False, default=str)`, and :func:`model_json` is exactly
`model.model_dump(mode="json")`, so every digest stays what it was.

Plain JSON data (what `model_dump(mode="json")` and `json.loads` give) is written by
msgspec, five times faster than `json.dumps`, but only where msgspec's text is provably
`json.dumps`' text: dicts, lists, tuples, strings, integers, booleans, None and floats
that both write in positional notation (see `_plain`); anything else takes `json.dumps`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import msgspec
from pydantic import BaseModel, TypeAdapter

__all__ = ["canonical_chunks", "canonical_pieces", "model_json"]

SMALL = 2000
"""Values with at most this many containers and items are written by one `json.dumps`
call; larger ones are split into their items."""
CHUNK = 1000
"""Items of a large list or dict field dumped per pydantic call."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def _small(value: Any, budget: int | None = None) -> bool:
    """Whether `value` has at most `budget` (SMALL) containers and items (counted until
    over)."""
    budget = SMALL if budget is None else budget
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            budget -= len(v) + 1
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            budget -= len(v) + 1
            stack.extend(v)
        if budget < 0:
            return False
    return True


def _size(value: Any) -> int:
    """Containers and items of `value`, counted two levels deep (cheap; a large value
    hidden deeper makes one json.dumps call longer, never the text different)."""
    if isinstance(value, dict):
        inner: Any = value.values()
    elif isinstance(value, list | tuple):
        inner = value
    else:
        return 1
    return len(value) + 1 + sum(len(v) for v in inner if isinstance(v, dict | list | tuple))


FAST_ITEMS = 1000
"""Items of a long list (keys of a long dict) msgspec writes per call (about 1.5 ms of
a 130k-node case's steps)."""
FAST_BUDGET = 20_000
"""A value of a short container with more containers and items than this is written
in pieces of its own."""
_SHORT = 64  # containers up to this long have their values weighed in depth
_ENCODER = msgspec.json.Encoder(order="sorted")


def _plain(data: Any) -> bool:
    """Whether msgspec writes `data` exactly as `json.dumps` (sorted keys, no spaces,
    non-ASCII kept) does: only dicts, lists, tuples, strings, integers, booleans, None
    and floats; a float only if it is 0 or 1e-4 <= |x| < 1e16, where both write the
    shortest round-trip digits positionally (outside that range Python writes `1e+16`,
    msgspec `1e16`; NaN and infinities are `NaN`/`Infinity` in Python, `null` in msgspec).
    Exact types only (a subclass may be written differently). Keys are left to msgspec,
    which refuses anything but strings when sorting them; it also refuses lone
    surrogates, which `json.dumps` writes but UTF-8 cannot encode (the hash fails on
    them either way)."""
    stack = [data]
    pop, extend = stack.pop, stack.extend
    while stack:
        x = pop()
        t = type(x)
        if t is str or t is int or t is bool or x is None:
            continue
        if t is dict:
            extend(x.values())
        elif t is list or t is tuple:
            extend(x)
        elif t is float:
            if not (x == 0.0 or 1e-4 <= abs(x) < 1e16):
                return False
        else:
            return False
    return True


def _heavy(value: Any) -> bool:
    """More than FAST_BUDGET containers and items in `value` (counted until over)."""
    t = type(value)
    return (t is dict or t is list or t is tuple) and not _small(value, FAST_BUDGET)


def _fast_chunks(data: Any) -> Iterator[bytes]:
    """msgspec's canonical text of plain `data` in bounded calls: a long list (or dict)
    is written FAST_ITEMS items (keys, in sorted order) per call, a short one whole
    unless a value of it is heavy, which is then written in pieces of its own."""
    t = type(data)
    if t is dict:
        keys: Any = sorted(data)
        open_, close = b"{", b"}"
    elif t is list or t is tuple:
        keys = None
        open_, close = b"[", b"]"
    else:
        yield _ENCODER.encode(data)
        return
    n = len(data)
    if n > _SHORT:  # items of long containers are not weighed one by one (cheap)
        yield open_
        for start in range(0, n, FAST_ITEMS):
            part = ({k: data[k] for k in keys[start:start + FAST_ITEMS]} if keys is not None
                    else list(data[start:start + FAST_ITEMS]))
            yield (b"," if start else b"") + _ENCODER.encode(part)[1:-1]
        yield close
        return
    values = [data[k] for k in keys] if keys is not None else list(data)
    heavy = [_heavy(v) for v in values]
    if not any(heavy):
        yield _ENCODER.encode(data)
        return
    yield open_
    for i, (value, big) in enumerate(zip(values, heavy, strict=True)):
        head = (b"," if i else b"") + (_ENCODER.encode(keys[i]) + b":" if keys is not None
                                       else b"")
        if big:
            yield head
            yield from _fast_chunks(value)
        else:
            yield head + _ENCODER.encode(value)
    yield close


def canonical_chunks(data: Any) -> Iterator[bytes]:
    """UTF-8 pieces whose concatenation is the canonical JSON text of `data` (sorted
    keys, no spaces, non-ASCII kept, `str()` for what JSON cannot hold): msgspec's for
    plain JSON data, `json.dumps`' otherwise (and whenever msgspec refuses)."""
    if _plain(data):
        try:
            chunks = list(_fast_chunks(data))
        except (TypeError, ValueError, UnicodeEncodeError, OverflowError):
            pass  # non-string keys, a lone surrogate: json.dumps decides, as before
        else:
            yield from chunks
            return
    for piece in canonical_pieces(data, fast=False):
        yield piece.encode("utf-8")


def canonical_pieces(data: Any, *, fast: bool = True) -> Iterator[str]:
    """Pieces whose concatenation is the canonical JSON text of `data` (sorted keys, no
    spaces, non-ASCII kept, `str()` for what JSON cannot hold). `fast=False`: written
    by `json.dumps` only (the reference the fast path is tested against)."""
    if fast:
        for chunk in canonical_chunks(data):
            yield chunk.decode("utf-8")
        return
    if _small(data):
        yield _dumps(data)
    elif isinstance(data, dict) and all(isinstance(k, str) for k in data):
        # Batched like lists below: consecutive keys (in sorted order) with modest values
        # are one json.dumps call of a dict holding just them.
        yield "{"
        part: dict[str, Any] = {}
        room = SMALL
        lead = ""
        for key in sorted(data):
            value = data[key]
            size = _size(value)
            if size > SMALL:
                if part:
                    yield lead + _dumps(part)[1:-1]
                    lead, part, room = ",", {}, SMALL
                yield lead + _dumps(key) + ":"
                lead = ","
                yield from canonical_pieces(value, fast=False)
                continue
            if size > room and part:
                yield lead + _dumps(part)[1:-1]
                lead, part, room = ",", {}, SMALL
            part[key] = value
            room -= size
        if part:
            yield lead + _dumps(part)[1:-1]
        yield "}"
    elif isinstance(data, list | tuple):
        # Consecutive items of modest size are written by one json.dumps call (its text
        # without the brackets is exactly the items joined by commas): one call per item
        # cost a second per 100k items. Sizes are counted two levels deep (_size).
        yield "["
        batch: list[Any] = []
        budget = SMALL
        first = True
        for item in data:
            size = _size(item)
            if size > SMALL:
                if batch:
                    yield ("" if first else ",") + _dumps(batch)[1:-1]
                    first, batch, budget = False, [], SMALL
                if not first:
                    yield ","
                first = False
                yield from canonical_pieces(item, fast=False)
                continue
            if size > budget and batch:
                yield ("" if first else ",") + _dumps(batch)[1:-1]
                first, batch, budget = False, [], SMALL
            batch.append(item)
            budget -= size
        if batch:
            yield ("" if first else ",") + _dumps(batch)[1:-1]
        yield "]"
    else:  # a dict with keys json.dumps converts: left to it
        yield _dumps(data)


@functools.cache
def _adapter(model: type[BaseModel], field: str) -> TypeAdapter[Any]:
    return TypeAdapter(model.model_fields[field].annotation)


def model_json(model: BaseModel, chunk: int = CHUNK) -> dict[str, Any]:
    """`model.model_dump(mode="json")`, its large list and dict fields dumped `chunk`
    items per call (plain-typed fields only; anything else is dumped in one call)."""
    cls = type(model)
    big = []
    for name, info in cls.model_fields.items():
        value = getattr(model, name)
        if (isinstance(value, list | dict) and len(value) > chunk and not info.metadata
                and getattr(info.annotation, "__origin__", None) in (list, dict)):
            big.append(name)
    out = dict(model.model_dump(mode="json", exclude=set(big)))
    for name in big:
        value = getattr(model, name)
        adapter = _adapter(cls, name)
        if isinstance(value, list):
            items: list[Any] = []
            for start in range(0, len(value), chunk):
                items.extend(adapter.dump_python(value[start:start + chunk], mode="json"))
            out[name] = items
        else:
            keys = list(value)
            mapping: dict[Any, Any] = {}
            for start in range(0, len(keys), chunk):
                part = {k: value[k] for k in keys[start:start + chunk]}
                mapping.update(adapter.dump_python(part, mode="json"))
            out[name] = mapping
    return out
