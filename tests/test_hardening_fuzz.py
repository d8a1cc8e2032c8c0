"""Issue 12, fuzzing: valid cases mutated field by field (and byte by byte) never make the
loader or the planner raise anything but dgrr's own errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repair_core import DgrrError, case_from_data, parse_case, plan_case

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [json.loads((ROOT / "sample_traces" / f"{n}.json").read_text())
           for n in ("figure1-travel", "travel-two-faults", "cs-stale-address",
                     "shop-summary-drift")]


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


PATHS = [_paths(d) for d in SAMPLES]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.builds(pow, st.just(10), st.just(5000)), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20), st.sampled_from(["\ud800", "s1", "m3", "u1", "answer", "cite",
                                           "delete", "produce", "", "2", "keep"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8)


def _mutate(data: Any, path: tuple, how: str, value: Any) -> Any:
    data = copy.deepcopy(data)
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif how == "nest":
        deep: Any = parent[last]
        for _ in range(3000):
            deep = [deep]
        parent[last] = deep
    else:
        parent[last] = value
    return data


def mutated_text(data: st.DataObject) -> str | None:
    """The JSON text of a sample case with one field replaced (twice as often), deleted or
    duplicated, drawn from `data`; None when the mutated case has no JSON text."""
    which = data.draw(st.integers(0, len(SAMPLES) - 1))
    path = data.draw(st.sampled_from(PATHS[which]))
    how = data.draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
    mutated = _mutate(SAMPLES[which], path, how, data.draw(values))
    try:
        return json.dumps(mutated)
    except (ValueError, RecursionError):
        return None


def _check(data: Any) -> None:
    try:
        case = case_from_data(data)
    except DgrrError:
        return
    plan_case(case)  # a valid case plans without error


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_field_mutations_raise_only_dgrr_errors(data):
    which = data.draw(st.integers(0, len(SAMPLES) - 1))
    path = data.draw(st.sampled_from(PATHS[which]))
    how = data.draw(st.sampled_from(["replace", "replace", "replace", "delete", "duplicate",
                                     "nest"]))
    value = data.draw(values)
    mutated = _mutate(SAMPLES[which], path, how, value)
    _check(mutated)
    try:
        text = json.dumps(mutated)
    except (ValueError, RecursionError):
        return
    try:
        case = parse_case(text)
    except DgrrError:
        return
    plan_case(case)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_byte_mutations_raise_only_dgrr_errors(data):
    which = data.draw(st.integers(0, len(SAMPLES) - 1))
    raw = bytearray(json.dumps(SAMPLES[which]).encode())
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["set", "insert", "delete"]))
        byte = data.draw(st.sampled_from(list(b'{}[]",:0\\u9eE-.ntf') + [0, 0xff, 0xc3]))
        if op == "set":
            raw[pos] = byte
        elif op == "insert":
            raw.insert(pos, byte)
        else:
            del raw[pos]
    try:
        case = parse_case(bytes(raw))
    except DgrrError:
        return
    plan_case(case)
