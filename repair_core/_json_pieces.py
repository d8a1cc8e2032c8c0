"""A pydantic model's indented JSON text made a few hundred list items at a time.

`model.model_dump(mode="json")` of a 300k-step repair result builds a dict for every
step, record and decision before the first byte is written: half a gigabyte that lives
only to be encoded. :func:`model_members` gives the same members' JSON text (the text
:func:`repair_core._io.json_bytes` makes of the whole dump, member by member) with the
long lists dumped and encoded a chunk of items at a time, so only one chunk's dicts exist
at once; :func:`object_pieces` lays the members out as an object. Given a file to keep
them in, a long list's text is made as it is first written and read back from that file
when it is written again (`KeptOnDisk`), instead of being held in memory between.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, BinaryIO, Union

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from ._io import LaidOut, _may_differ, json_bytes, object_json_pieces

__all__ = ["model_members", "object_pieces", "Members", "Streamed", "KeptOnDisk",
           "CHUNK_ITEMS"]

CHUNK_ITEMS = 512
"""List items dumped and encoded together: enough that a call's overhead is spread thin,
few enough that a chunk's dicts stay small."""

Streamed = Mapping[str, Union["Streamed", None]]
"""Which members of a model are made in pieces: a list member's name -> None (its items a
chunk at a time), a model member's name -> the same description of that model."""

READ_BYTES = 1 << 20
"""Bytes read back from a `KeptOnDisk` file at a time."""


class KeptOnDisk:
    """The pieces of one text, made as they are first iterated and appended to `file`
    as they go; iterated again, they are read back from there (a megabyte at a time), so
    a text written to two files is made once and not held in memory between. Several
    texts may share one file, made one after another: each knows its own span of it."""

    def __init__(self, pieces: Iterable[bytes], file: BinaryIO) -> None:
        self._pieces: Iterable[bytes] | None = pieces
        self._fd = file.fileno()
        self._span: tuple[int, int] | None = None

    def __iter__(self) -> Iterator[bytes]:
        if self._pieces is not None:
            pieces, self._pieces = self._pieces, None
            return self._made(pieces)
        if self._span is None:
            raise RuntimeError("a text kept on disk was read back before it was made whole")
        return self._read_back(*self._span)

    def _made(self, pieces: Iterable[bytes]) -> Iterator[bytes]:
        start = end = os.fstat(self._fd).st_size
        for piece in pieces:
            written = 0
            while written < len(piece):  # pwrite may write less than asked
                written += os.pwrite(self._fd, piece[written:], end + written)
            end += len(piece)
            yield piece
        self._span = (start, end)

    def _read_back(self, start: int, end: int) -> Iterator[bytes]:
        while start < end:
            block = os.pread(self._fd, min(READ_BYTES, end - start), start)
            if not block:
                raise OSError(f"a text kept on disk ended {end - start} bytes early")
            start += len(block)
            yield block


Members = dict[str, Union[bytes, list[bytes], KeptOnDisk, "Members"]]
"""A model's JSON members in order: each one text, a list's pieces, or a model's members."""


def model_members(model: BaseModel, streamed: Streamed, keep_in: BinaryIO | None = None
                  ) -> Members:
    """Each member of `model`'s JSON object, in the order `model_dump(mode="json")` gives
    them, as its indented JSON text: a list named in `streamed` as its pieces (its
    opening, its chunks of items, its close), a model named there as its own members, the
    others as one text each. Laid out by :func:`object_pieces`, the text is
    `json_bytes(model.model_dump(mode="json"))`'s (tests/test_json_pieces.py).

    With `keep_in` (a file open for reading and writing), each list's pieces are made
    only as they are first iterated and kept in that file for later passes
    (`KeptOnDisk`); without it, they are made now and held as a list."""
    rest = model.model_dump(mode="json", exclude=set(streamed))
    out: Members = {}
    for name in _member_order(model):
        if name in streamed:
            inner = streamed[name]
            value = getattr(model, name)
            if inner is not None:
                out[name] = model_members(value, inner, keep_in)
            elif keep_in is not None:
                out[name] = KeptOnDisk(_list_pieces(model, name, value), keep_in)
            else:
                out[name] = list(_list_pieces(model, name, value))
        elif name in rest:
            out[name] = json_bytes(rest[name])
    return out


def object_pieces(members: Members, depth: int = 0) -> Iterator[bytes]:
    """The JSON text of the object of `members` (`model_members`), in pieces, without a
    final newline, standing `depth` levels inside another object (`object_json_pieces`);
    the members' texts are shared, not copied whole."""
    return object_json_pieces({k: LaidOut(object_pieces(v, depth + 1)) if isinstance(v, dict)
                               else v for k, v in members.items()}, depth=depth)


def _member_order(model: BaseModel) -> list[str]:
    """The names of `model`'s members in the order pydantic writes them: its fields as
    they are stored, then the extra members, then the computed fields."""
    fields = [n for n in model.__dict__ if n in type(model).model_fields]
    return [*fields, *(model.__pydantic_extra__ or {}), *type(model).model_computed_fields]


def _list_pieces(model: BaseModel, name: str, items: list[Any]) -> Iterator[bytes]:
    """The JSON text of the list member `name` of `model` (whose value is `items`), in
    pieces: each chunk is dumped through the member's own serializer (a shallow copy of
    `model` holding just that chunk), so every item is written as the whole dump writes it.
    Items kept as rows (a repair's decisions and step outcomes) that have a method
    `dumped(start, stop)` give that slice's JSON data themselves, without a model made
    for each."""
    if not items:
        yield b"[]"
        return
    head = b"[\n"
    dumped = getattr(items, "dumped", None)  # rows that make their items' JSON data
    opening = len(json.dumps(name, ensure_ascii=False).encode("utf-8")) + 2  # {"name":
    for at in range(0, len(items), CHUNK_ITEMS):
        if dumped is not None:
            text = json_bytes(dumped(at, at + CHUNK_ITEMS))
        else:
            chunk = model.model_copy(update={name: items[at:at + CHUNK_ITEMS]})
            text = _chunk_text(chunk, name, opening)
        yield head + text[2:-2]  # the items, without this chunk's own "[\n" and "\n]"
        head = b",\n"
    yield b"\n]"


def _chunk_text(chunk: BaseModel, name: str, opening: int) -> bytes:
    """`json_bytes(chunk.model_dump(mode="json", include={name})[name])`, the same text.

    Pydantic's own JSON writer makes the compact text from the models without the dicts
    of the dump (about half the time of dumping and encoding a chunk of steps). It writes
    everything as the standard library does (`ensure_ascii=False`: the same escapes, keys
    and integers; tests/test_json_pieces.py) but some floats (`1e-7` for `1e-07`, `0.00001`
    for `1e-05`): a text in which `_may_differ` finds such a number, or one the writer
    refuses (a lone surrogate), is made by the dump as before."""
    import msgspec  # as json_bytes does: most commands write no indented JSON

    try:
        compact = chunk.__pydantic_serializer__.to_json(chunk, include={name})
    except (PydanticSerializationError, ValueError):
        compact = None
    if compact is None or _may_differ(compact):
        return json_bytes(chunk.model_dump(mode="json", include={name})[name])
    return msgspec.json.format(compact[opening:-1], indent=1)
