"""Canonical JSON of large data in small pieces, so hashing a 130k-node case never holds
the interpreter lock for long.

`json.dumps` and pydantic's `model_dump` are single C/Rust calls: on a 130k-node case
each ran for about a second without letting another thread run, so in the dashboard
server every other reviewer's session stood still meanwhile (docs/performance.md, "Two
reviewers on one dashboard server"). Here the same text is produced item by item: the
pieces joined are exactly `json.dumps(data, sort_keys=True, separators=(",", ":"),
ensure_ascii=False, default=str)`, and :func:`model_json` is exactly
`model.model_dump(mode="json")`, so every digest stays what it was.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, TypeAdapter

__all__ = ["canonical_pieces", "model_json"]

SMALL = 2000
"""Values with at most this many containers and items are written by one `json.dumps`
call; larger ones are split into their items."""
CHUNK = 1000
"""Items of a large list or dict field dumped per pydantic call."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def _small(value: Any) -> bool:
    """Whether `value` has at most SMALL containers and items (counted until over)."""
    budget = SMALL
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


def canonical_pieces(data: Any) -> Iterator[str]:
    """Pieces whose concatenation is the canonical JSON text of `data` (sorted keys, no
    spaces, non-ASCII kept, `str()` for what JSON cannot hold)."""
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
                yield from canonical_pieces(value)
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
                yield from canonical_pieces(item)
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
