"""A pydantic model's indented JSON text made a few hundred list items at a time.

`model.model_dump(mode="json")` of a 300k-step repair result builds a dict for every
step, record and decision before the first byte is written: half a gigabyte that lives
only to be encoded. :func:`model_members` gives the same members' JSON text (the text
:func:`repair_core._io.json_bytes` makes of the whole dump, member by member) with the
long lists dumped and encoded a chunk of items at a time, so only one chunk's dicts exist
at once; :func:`object_pieces` lays the members out as an object.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Union

from pydantic import BaseModel

from ._io import json_bytes, object_json_pieces

__all__ = ["model_members", "object_pieces", "Members", "Streamed", "CHUNK_ITEMS"]

CHUNK_ITEMS = 512
"""List items dumped and encoded together: enough that a call's overhead is spread thin,
few enough that a chunk's dicts stay small."""

Streamed = Mapping[str, Union["Streamed", None]]
"""Which members of a model are made in pieces: a list member's name -> None (its items a
chunk at a time), a model member's name -> the same description of that model."""

Members = dict[str, Union[bytes, list[bytes], "Members"]]
"""A model's JSON members in order: each one text, a list's pieces, or a model's members."""


def model_members(model: BaseModel, streamed: Streamed) -> Members:
    """Each member of `model`'s JSON object, in the order `model_dump(mode="json")` gives
    them, as its indented JSON text: a list named in `streamed` as its pieces (its
    opening, its chunks of items, its close), a model named there as its own members, the
    others as one text each. Laid out by :func:`object_pieces`, the text is
    `json_bytes(model.model_dump(mode="json"))`'s (tests/test_json_pieces.py)."""
    rest = model.model_dump(mode="json", exclude=set(streamed))
    out: Members = {}
    for name in _member_order(model):
        if name in streamed:
            inner = streamed[name]
            value = getattr(model, name)
            out[name] = (model_members(value, inner) if inner is not None
                         else list(_list_pieces(model, name, value)))
        elif name in rest:
            out[name] = json_bytes(rest[name])
    return out


def object_pieces(members: Members) -> Iterator[bytes]:
    """The JSON text of the object of `members` (`model_members`), in pieces, without a
    final newline; the members' texts are shared, not copied whole."""
    return object_json_pieces({k: object_pieces(v) if isinstance(v, dict) else v
                               for k, v in members.items()})


def _member_order(model: BaseModel) -> list[str]:
    """The names of `model`'s members in the order pydantic writes them: its fields as
    they are stored, then the extra members, then the computed fields."""
    fields = [n for n in model.__dict__ if n in type(model).model_fields]
    return [*fields, *(model.__pydantic_extra__ or {}), *type(model).model_computed_fields]


def _list_pieces(model: BaseModel, name: str, items: list[Any]) -> Iterator[bytes]:
    """The JSON text of the list member `name` of `model` (whose value is `items`), in
    pieces: each chunk is dumped through the member's own serializer (a shallow copy of
    `model` holding just that chunk), so every item is written as the whole dump writes it."""
    if not items:
        yield b"[]"
        return
    head = b"[\n"
    for at in range(0, len(items), CHUNK_ITEMS):
        chunk = model.model_copy(update={name: items[at:at + CHUNK_ITEMS]})
        text = json_bytes(chunk.model_dump(mode="json", include={name})[name])
        yield head + text[2:-2]  # the items, without this chunk's own "[\n" and "\n]"
        head = b",\n"
    yield b"\n]"
