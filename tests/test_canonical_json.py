"""Approval digests of a large case are computed in pieces (so the dashboard server's other
sessions keep running meanwhile), and the pieces give exactly the digests the one-call
form gave: recorded approvals keep matching."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import case_from_data, load_case, load_example, plan_case
from repair_core._synth import synth_case_data
from repair_core.approvals import _canonical, approval_hashes, result_data, sha256_json
from repair_core.approvals._canonical import SMALL, canonical_pieces, model_json

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted(p for p in (ROOT / "sample_traces").glob("*.json")
                 if not p.name.endswith(".plan.json"))


def one_call(data):
    """The digest as it was computed before: one json.dumps, one encode."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner,
                                                                  max_size=6)
    | st.tuples(inner, inner),
    max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_pieces_join_to_the_one_call_text(data):
    old = _canonical.SMALL
    try:
        for small in (0, 1, 3, 2000):  # every size of piece, down to every item alone
            _canonical.SMALL = small
            assert "".join(canonical_pieces(data)) == json.dumps(
                data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    finally:
        _canonical.SMALL = old


def test_keys_json_converts_and_unencodable_values_behave_as_before():
    old = _canonical.SMALL
    try:
        _canonical.SMALL = 0
        for data in ({1: "a", 2: [1, 2]}, {"when": Path("/x"), "n": [Path("y")] * 3}):
            assert sha256_json(data) == one_call(data)
        with pytest.raises(TypeError):  # mixed key types cannot be sorted, as before
            sha256_json({"a": 1, 2: [1, 2, 3]})
    finally:
        _canonical.SMALL = old


def test_large_values_really_are_split():
    data = {"case": {"memory": [{"id": f"m{i}", "text": "x"} for i in range(5000)]}}
    pieces = list(canonical_pieces(data))
    # not one call for everything: records are written a batch (at most SMALL items and
    # containers) per json.dumps call
    assert len(pieces) > 10
    assert max(len(p) for p in pieces) < 100 * SMALL // 3
    assert sha256_json(data) == one_call(data)


@pytest.mark.parametrize("chunk", [1, 7, 1000])
def test_model_json_is_model_dump(chunk):
    cases = [load_example(), *(load_case(p) for p in SAMPLES),
             case_from_data(synth_case_data(300, 60, 2, seed=3))]
    for case in cases:
        assert model_json(case, chunk=chunk) == case.model_dump(mode="json"), case.case_id
        report = plan_case(case).report()
        assert model_json(report, chunk=chunk) == report.model_dump(mode="json")


def test_approval_hashes_are_unchanged():
    for case in [load_example(), case_from_data(synth_case_data(3000, 600, 3, seed=2))]:
        plan = plan_case(case)
        inputs = one_call({"case": case.model_dump(mode="json"),
                           "edits": [e.model_dump(mode="json") for e in plan.edits]})
        outputs = one_call({"plan": plan.report().model_dump(mode="json"),
                            "result": result_data(None)})
        assert approval_hashes(plan) == (inputs, outputs)
