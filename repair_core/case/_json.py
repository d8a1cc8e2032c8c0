"""Strict JSON reading: what `json.loads` lets through or crashes on, as problems with paths.

`json.loads` keeps the last of duplicate keys, accepts `NaN`/`Infinity` (and turns
`1e999` into infinity), passes lone surrogates (`"\\ud800"`) into strings that cannot be
written back as UTF-8, raises `RecursionError` on deep nesting and `ValueError` on an
integer of more than 4300 digits. :func:`loads_strict` parses once, at C speed, and
reports each of these as a :class:`Problem` naming its path (`trajectory[3].text:
duplicate key`). The path is found by a walk over the parsed data that runs only when
the parse flagged something, so valid input costs one `json.loads` with a cheap hook.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .._errors import Problem

__all__ = ["loads_strict", "data_problems", "json_or_text", "MAX_INT_DIGITS", "MAX_NESTING"]

MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300
MAX_NESTING = 500
"""Deepest nesting of lists and objects accepted in data given as Python objects (JSON
text is limited by the parser itself, at a similar depth)."""
_MAX_INT = 10 ** MAX_INT_DIGITS
_MAX_INT_BITS = _MAX_INT.bit_length() - 1
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _Bad:
    """Stands in for a value the parser must not produce (kept to find its path)."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


class _Parse:
    """One strict parse: flags set by the parser hooks."""

    def __init__(self) -> None:
        self.duplicates: dict[int, list[str]] = {}
        self.bad = False

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(pairs)
        if len(d) != len(pairs):
            seen: set[str] = set()
            dups = []
            for k, _ in pairs:
                if k in seen and k not in dups:
                    dups.append(k)
                seen.add(k)
            self.duplicates[id(d)] = dups
        return d

    def constant(self, name: str) -> _Bad:
        self.bad = True
        return _Bad(f"not a finite number ({name})")

    def number(self, text: str) -> float | _Bad:
        value = float(text)
        if math.isfinite(value):
            return value
        self.bad = True
        return _Bad(f"not a finite number ({text})")

    def integer(self, text: str) -> int | _Bad:
        if len(text.lstrip("-")) > MAX_INT_DIGITS:
            self.bad = True
            return _Bad(f"integer with more than {MAX_INT_DIGITS} digits")
        return int(text)


def loads_strict(raw: str | bytes) -> tuple[Any, list[Problem]]:
    """Parse JSON text strictly: (data, []) or (None, problems)."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            text = bytes(raw).decode(json.detect_encoding(raw))
        except UnicodeDecodeError as exc:
            return None, [Problem(f"not UTF-8 text (byte {exc.start})")]
        check_text = _SURROGATE_ESCAPE.search(text) is not None
    else:
        text = raw
        check_text = _SURROGATE_ESCAPE.search(text) is not None or not _encodes(text)
    state = _Parse()
    decoder = json.JSONDecoder(object_pairs_hook=state.pairs, parse_constant=state.constant,
                               parse_float=state.number)
    try:
        data = decoder.decode(text)
    except json.JSONDecodeError as exc:
        return None, [Problem(f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}")]
    except RecursionError:
        return None, [Problem("nested too deeply: more levels of [ ] and { } than the JSON "
                              "parser can follow")]
    except ValueError:  # an integer beyond the int conversion limit: parse again to find it
        state = _Parse()
        decoder = json.JSONDecoder(object_pairs_hook=state.pairs,
                                   parse_constant=state.constant, parse_float=state.number,
                                   parse_int=state.integer)
        try:
            data = decoder.decode(text)
        except (ValueError, RecursionError) as exc:
            return None, [Problem(f"invalid JSON: {exc}")]
    if not (state.duplicates or state.bad or check_text):
        return data, []
    problems = list(_walk(data, state.duplicates, check_strings=check_text,
                          check_floats=False))
    return (None, problems) if problems else (data, [])


def data_problems(data: Any, tick: Callable[[], None] | None = None) -> list[Problem]:
    """Problems of already-parsed data that JSON text could not hold: non-finite floats,
    lone surrogates and integers too long to print (for data that did not come through
    :func:`loads_strict`). `tick` is called every :data:`TICK_EVERY` values (it may raise
    to stop a long walk)."""
    if tick is None and _plain(data):  # the usual answer, without a path for each value
        return []
    try:
        return list(_walk(data, {}, check_strings=True, check_floats=True, tick=tick))
    except RecursionError:
        return [Problem("nested too deeply")]


def _plain(data: Any) -> bool:
    """Whether `_walk` (checking strings and floats) finds nothing in `data`: the same
    values asked the same questions, with no path made for each (a repair's replayed
    steps and added records are some 700k values at 300k steps). False at the first
    doubt; the walk then says what and where."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_NESTING:
                return False
            for k in value:
                if isinstance(k, str) and not k.isascii() and not _encodes(k):
                    return False
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            if depth > MAX_NESTING:
                return False
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str):
            if not value.isascii() and not _encodes(value):
                return False
        elif isinstance(value, _Bad):
            return False
        elif isinstance(value, float):
            if not math.isfinite(value):
                return False
        elif isinstance(value, int) and value.bit_length() > _MAX_INT_BITS \
                and abs(value) >= _MAX_INT:
            return False
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate(path: str, text: str) -> Problem | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return Problem.at(path, f"lone surrogate \\u{ord(text[exc.start]):04x} "
                                "(not valid Unicode text)")
    return None


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


TICK_EVERY = 1 << 16


def _walk(data: Any, duplicates: dict[int, list[str]], *, check_strings: bool,
          check_floats: bool, root: str = "",
          tick: Callable[[], None] | None = None) -> Iterator[Problem]:
    stack: list[tuple[Any, str, int]] = [(data, root, 0)]
    n = 0
    while stack:
        value, path, depth = stack.pop()
        if tick is not None:
            n += 1
            if n % TICK_EVERY == 0:
                tick()
        if check_floats and depth > MAX_NESTING and isinstance(value, (dict, list)):
            yield Problem.at(path, f"nested too deeply (more than {MAX_NESTING} levels)")
            continue
        if isinstance(value, dict):
            for k in duplicates.get(id(value), ()):
                yield Problem.at(_join(path, k), "duplicate key")
            items: list[tuple[Any, str, int]] = []
            for k, v in value.items():
                sub = _join(path, k)
                if check_strings and isinstance(k, str):
                    p = _surrogate(sub, k)
                    if p is not None:
                        yield Problem.at(sub, "key: " + p.split(": ", 1)[1])
                items.append((v, sub, depth + 1))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            stack.extend((v, _join(path, i), depth + 1)
                         for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, _Bad):
            yield Problem.at(path or "(root)", value.message)
        elif check_strings and isinstance(value, str):
            p = _surrogate(path or "(root)", value)
            if p is not None:
                yield p
        elif check_floats and isinstance(value, float) and not math.isfinite(value):
            yield Problem.at(path or "(root)", f"not a finite number ({value})")
        elif (check_floats and isinstance(value, int)
                and value.bit_length() > _MAX_INT_BITS and abs(value) >= _MAX_INT):
            yield Problem.at(path or "(root)", f"integer with more than {MAX_INT_DIGITS} digits")


def json_or_text(value: Any) -> Any:
    """`value` parsed as JSON when it is JSON text; anything else as it is.

    >>> json_or_text('{"a": 1}'), json_or_text("5 Quay Ln"), json_or_text(3)
    ({'a': 1}, '5 Quay Ln', 3)
    """
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
