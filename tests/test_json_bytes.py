"""`json_bytes` writes what the standard library writes, taking msgspec's faster encoder
wherever the two agree: the floats Python writes with an exponent, and keys msgspec cannot
write, go the standard library's way (the property over any JSON data is
tests/test_replay_scale.py's `test_json_bytes_is_to_json_encoded`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import _io
from repair_core._io import json_bytes


def _standard(value) -> bytes:
    return json.dumps(value, indent=1, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("value", [
    1e-07, 2.5e-05, 9.99e-05, 1e-4, 0.000123, 1e16, 1.2345e16, -3e300, 9999999999999998.0,
    5e-324, {"k": [1e-7, 0.5]}, {1e-7: 1, 2.5: 2}, {True: 1, None: 2, 3: "x"},
    "1e5 and 0.00001 in a text", [0.1, 1e22, -0.0], "é \u2028 \x7f \x00 \n\"\\",
    10 ** 40,
])
def test_floats_keys_and_texts_as_the_standard_library_writes_them(value):
    assert json_bytes(value) == _standard(value)


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_float(x):
    assert json_bytes([x, {"v": x}]) == _standard([x, {"v": x}])


def test_msgspec_writes_what_it_writes_alike(monkeypatch):
    value = {"id": "s1", "ratio": 0.042573, "n": 12, "big": 123456789.25, "ok": True,
             "none": None, "text": "Hauptstraße 5, \u00e9t\u00e9 \U0001f600",
             "deps": [{"id": "r1", "label": "cite"}], "empty": {}, "list": []}
    expected = _standard(value)

    def refused(*args, **kwargs):
        raise AssertionError("the standard library's encoder was asked")

    monkeypatch.setattr(_io.json, "dumps", refused)
    assert json_bytes(value) == expected


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=64) | st.text(alphabet="0123456789eE.x -\"", max_size=40).map(
    str.encode))
def test_a_text_that_may_differ_is_found_as_the_pattern_finds_it(text):
    """The two plain searches standing for `_MAY_DIFFER` find what its search finds."""
    assert _io._may_differ(text) == (_io._MAY_DIFFER.search(text) is not None)


@pytest.mark.parametrize("text,found", [
    (b"1e", True), (b"9E", True), (b"e1", False), (b"0.0000", True), (b"0.000", False),
    (b'"m12" "eve"', False), (b'"m12e"', True), (b"", False)])
def test_the_texts_that_may_differ(text, found):
    assert _io._may_differ(text) is found
