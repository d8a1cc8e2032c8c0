"""Validating a case file in bounded memory (`dgrr validate`).

:func:`load_case` builds the whole case: every item as a dict, then as a pydantic model,
about 17 times the file's size at 100k steps. To only *check* a file, the items of the
three long lists (`session`, `memory`, `trajectory`) are parsed one at a time from the
text (`json.JSONDecoder.raw_decode` at C speed), validated with the same strict models
and then dropped; only a skeleton of each (id, seq, type, turn, dependencies, returned and
target ids, interned, and a record's created_seq) is kept for the cross-reference checks, which are the loader's own
(`_check_references`). The problems are the loader's, in the same order.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .._errors import CaseError, Problem
from .._io import read_input
from ._case import Case, MemoryRecord, Step, Turn
from ._json import _Parse, _walk
from ._load import RECORD_TYPES, _check_references, _describe, _show, parse_case

__all__ = ["validate_file", "CaseSummary"]

_WS = re.compile(r"[ \t\n\r]*")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SECTIONS: dict[str, TypeAdapter[Any]] = {
    "session": TypeAdapter(Turn), "memory": TypeAdapter(MemoryRecord),
    "trajectory": TypeAdapter(Step)}
_FIELD_ORDER = {name: i for i, name in enumerate(Case.model_fields)}


class CaseSummary(dict):  # type: ignore[type-arg]
    """format, case_id and the counts of a valid case file."""


class _Bad(ValueError):
    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def validate_file(path: str | Path) -> CaseSummary:
    """Check the case file at `path` without building it; a summary when valid,
    :class:`CaseError` with every problem otherwise."""
    p = Path(path)
    raw = read_input(p)
    try:
        text = raw.decode(json.detect_encoding(raw))
    except UnicodeDecodeError as exc:
        raise CaseError([f"not UTF-8 text (byte {exc.start})"], source=str(p)) from None
    del raw
    holder = [text]
    del text  # _validate_text drops the text once every item is parsed
    try:
        return _validate_text(holder, str(p))
    except _Bad as bad:
        raise CaseError([bad.problem], source=str(p)) from None


def _syntax(exc: json.JSONDecodeError) -> _Bad:
    return _Bad(f"line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}")


def _validate_text(holder: list[str], source: str) -> CaseSummary:
    text = holder[0]
    check_strings = _SURROGATE_ESCAPE.search(text) is not None
    decoder_state = _Parse()
    decoder = json.JSONDecoder(object_pairs_hook=decoder_state.pairs,
                               parse_constant=decoder_state.constant,
                               parse_float=decoder_state.number)
    decode = decoder.raw_decode
    json_problems: list[Problem] = []

    def value_at(idx: int, path: str) -> tuple[Any, int]:
        state = decoder_state
        try:
            value, end = decode(text, idx)
        except json.JSONDecodeError as exc:
            raise _syntax(exc) from None
        except RecursionError:
            raise _Bad("nested too deeply: more levels of [ ] and { } than the JSON parser "
                       "can follow") from None
        except ValueError:  # an integer beyond the conversion limit: again, to find it
            state = _Parse()
            value, end = json.JSONDecoder(
                object_pairs_hook=state.pairs, parse_constant=state.constant,
                parse_float=state.number, parse_int=state.integer,
            ).raw_decode(text, idx)
        if state.duplicates or state.bad or check_strings:
            json_problems.extend(_walk(value, state.duplicates, check_strings=check_strings,
                                       check_floats=False, root=path))
            decoder_state.duplicates.clear()
            decoder_state.bad = False
        return value, end

    def expect(idx: int, char: str) -> int:
        idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
        if text[idx:idx + 1] != char:
            message = {":": "Expecting ':' delimiter", "\0": "Extra data"}.get(
                char, "Expecting ',' delimiter")
            if idx >= len(text) and char != "\0":
                message = "Expecting value" if char == "{" else message
            raise _syntax(json.JSONDecodeError(message, text, idx))
        return idx + 1

    start = _WS.match(text, 0).end()  # type: ignore[union-attr]
    if text[start:start + 1] != "{":  # not an object: small or broken, the loader words it
        holder.clear()
        return _summary(parse_case(text, source=source))
    idx = start + 1
    top: dict[str, Any] = {}
    seen_keys: set[str] = set()
    item_problems: dict[str, list[Problem]] = {}
    idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
    if text[idx:idx + 1] == "}":
        idx += 1
    else:
        while True:
            idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
            if text[idx:idx + 1] != '"':
                raise _syntax(json.JSONDecodeError(
                    "Expecting property name enclosed in double quotes", text, idx))
            key, idx = value_at(idx, "")
            if key in seen_keys:
                json_problems.append(Problem.at(key, "duplicate key"))
            seen_keys.add(key)
            idx = expect(idx, ":")
            idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
            if key in _SECTIONS and text[idx:idx + 1] == "[":
                top[key], item_problems[key], idx = _section(text, idx + 1, key, value_at,
                                                             expect)
            else:
                top[key], idx = value_at(idx, key)
            idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
            if text[idx:idx + 1] == ",":
                idx += 1
                continue
            idx = expect(idx, "}")
            break
    end = _WS.match(text, idx).end()  # type: ignore[union-attr]
    if end != len(text):
        raise _syntax(json.JSONDecodeError("Extra data", text, end))
    holder.clear()
    text = ""  # the checks below need only the skeletons
    if json_problems:
        raise CaseError(json_problems, source=source)
    problems = _shape_problems(top, item_problems)
    problems.extend(_check_references(top))
    if problems:
        raise CaseError(problems, source=source)
    return CaseSummary(format=top["format"], case_id=top["case_id"],
                       turns=len(top["session"]), steps=len(top["trajectory"]),
                       records=len(top["memory"]), faults=len(top["faults"]))


def _summary(case: Case) -> CaseSummary:
    return CaseSummary(format=case.format, case_id=case.case_id, turns=len(case.session),
                       steps=len(case.trajectory), records=len(case.memory),
                       faults=len(case.faults))


def _section(text: str, idx: int, key: str, value_at: Any, expect: Any
             ) -> tuple[list[Any], list[Problem], int]:
    adapter = _SECTIONS[key]
    skeletons: list[Any] = []
    problems: list[Problem] = []
    intern = sys.intern
    idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
    if text[idx:idx + 1] == "]":
        return skeletons, problems, idx + 1
    i = 0
    while True:
        item, idx = value_at(idx, f"{key}[{i}]")
        try:
            adapter.validate_python(item, strict=True)
        except ValidationError as exc:
            for err in exc.errors():
                err["loc"] = (key, i, *err["loc"])
                problems.append(_describe(err))
        except RecursionError:
            problems.append(Problem.at(f"{key}[{i}]", "nested too deeply"))
        skeletons.append(_skeleton(item, intern))
        i += 1
        idx = _WS.match(text, idx).end()  # type: ignore[union-attr]
        if text[idx:idx + 1] == ",":
            idx = _WS.match(text, idx + 1).end()  # type: ignore[union-attr]
            continue
        return skeletons, problems, expect(idx, "]")


_ITEM_INDEX = {"id": 0, "seq": 1, "type": 2, "turn": 3, "deps": 4, "returned": 5,
               "target": 6, "created_seq": 7}
_DEP_INDEX = {"id": 0, "label": 1}


class _Item(tuple):  # type: ignore[type-arg]
    """What the reference checks read of an item, as a tuple with `get` (a fifth of a
    dict's memory); absent keys are None, as `dict.get` gives them."""

    __slots__ = ()

    def get(self, key: str, default: Any = None) -> Any:
        i = _ITEM_INDEX.get(key)
        value = tuple.__getitem__(self, i) if i is not None else None
        return default if value is None else value


class _Dep(tuple):  # type: ignore[type-arg]
    """A dependency's id and label, with `get`."""

    __slots__ = ()

    def get(self, key: str, default: Any = None) -> Any:
        i = _DEP_INDEX.get(key)
        value = tuple.__getitem__(self, i) if i is not None else None
        return default if value is None else value


Mapping.register(_Item)
Mapping.register(_Dep)
RECORD_TYPES.update({_Item, _Dep})


def _skeleton(item: Any, intern: Any) -> Any:
    if not isinstance(item, dict):
        return item if not isinstance(item, (list, str, dict)) else None
    get = item.get

    def ids(v: Any) -> Any:
        if isinstance(v, str):
            return intern(v)
        if isinstance(v, list):
            return [intern(x) if isinstance(x, str) else x for x in v]
        return v

    deps = get("deps")
    if isinstance(deps, list):
        deps = [_Dep((intern(d["id"]) if isinstance(d.get("id"), str) else d.get("id"),
                      d.get("label") if isinstance(d.get("label"), str) else None))
                if isinstance(d, dict) else d for d in deps]
    return _Item((ids(get("id")), get("seq"), ids(get("type")), ids(get("turn")), deps,
                  ids(get("returned")), ids(get("target")), get("created_seq")))


def _shape_problems(top: dict[str, Any], items: dict[str, list[Problem]]) -> list[Problem]:
    """The pydantic problems in the order `Case.model_validate` gives them: top-level
    fields in model order, each long list's item problems at its place."""
    shell = {k: ([] if k in items else v) for k, v in top.items()}
    if not isinstance(top, dict):
        return [Problem.at("(root)", f"expected a JSON object, got {_show(top)}")]
    try:
        Case.model_validate(shell, strict=True)
        errors: list[Any] = []
    except ValidationError as exc:
        errors = exc.errors()
    keyed: list[tuple[int, int, Problem]] = []
    for n, err in enumerate(errors):
        field = err["loc"][0] if err["loc"] else ""
        keyed.append((_FIELD_ORDER.get(str(field), len(_FIELD_ORDER)), n, _describe(err)))
    for key, probs in items.items():
        keyed.extend((_FIELD_ORDER[key], n, p) for n, p in enumerate(probs))
    keyed.sort(key=lambda t: (t[0], t[1]))
    return [p for _, _, p in keyed]
