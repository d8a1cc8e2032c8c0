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
from repair_core.approvals._canonical import (
    FAST_ITEMS,
    SMALL,
    _plain,
    canonical_chunks,
    canonical_pieces,
    model_json,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted(p for p in (ROOT / "sample_traces").glob("*.json")
                 if not p.name.endswith(".plan.json"))


def one_call(data):
    """The digest as it was computed before: one json.dumps, one encode."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# Floats of every size: msgspec writes 1e16 as `1e16` and 1e-5 as `0.00001` where
# json.dumps writes `1e+16` and `1e-05`, NaN as `null`: those must take json.dumps' path.
floats = (st.floats() | st.floats(min_value=1e-4, max_value=1e16)
          | st.floats(min_value=-1e-3, max_value=1e-3) | st.sampled_from(
              [1e16, 9999999999999998.0, 1e-4, 9.999999999999999e-05, -0.0, 1e22, 5e-324]))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | floats
    | st.integers(min_value=2**63 - 2, max_value=2**80) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner,
                                                                  max_size=6)
    | st.tuples(inner, inner),
    max_leaves=40)


def text(data):
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


@settings(max_examples=500, deadline=None)
@given(json_values)
def test_pieces_join_to_the_one_call_text(data):
    old = _canonical.SMALL, _canonical.FAST_BUDGET, _canonical.FAST_ITEMS, _canonical._SHORT
    try:
        for small in (0, 1, 3, 2000):  # every size of piece, down to every item alone
            _canonical.SMALL = small
            _canonical.FAST_BUDGET = small
            _canonical.FAST_ITEMS = max(small, 1)
            _canonical._SHORT = small
            assert "".join(canonical_pieces(data, fast=False)) == text(data)  # json.dumps
            assert "".join(canonical_pieces(data)) == text(data)  # msgspec where plain
            assert b"".join(canonical_chunks(data)) == text(data).encode()
    finally:
        (_canonical.SMALL, _canonical.FAST_BUDGET, _canonical.FAST_ITEMS,
         _canonical._SHORT) = old


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                    | st.floats(min_value=1e-4, max_value=1e16, exclude_max=True)
                    | st.floats(min_value=-1e16, max_value=-1e-4, exclude_min=True),
                    lambda inner: st.lists(inner, max_size=6)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=6), max_leaves=40))
def test_plain_json_takes_msgspecs_path(data):
    """Data as model_dump(mode="json") or json.loads give it (floats of ordinary size)
    is written by msgspec, and the text is json.dumps' to the byte."""
    assert _plain(data)
    assert _canonical._ENCODER.encode(data) == text(data).encode()


def test_what_msgspec_writes_otherwise_takes_json_dumps_path():
    for value in (1e16, 2.5e-05, float("nan"), float("inf"), Path("x"), {1, 2}, (1.0e20,)):
        assert not _plain({"v": [value]}), value
        assert sha256_json({"v": [value]}) == one_call({"v": [value]})
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate: no digest, as before
        sha256_json({"t": "\ud800"})


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
    pieces = list(canonical_pieces(data, fast=False))
    # not one call for everything: records are written a batch (at most SMALL items and
    # containers) per json.dumps call
    assert len(pieces) > 10
    assert max(len(p) for p in pieces) < 100 * SMALL // 3
    assert sha256_json(data) == one_call(data)
    # msgspec's path too: at most FAST_ITEMS records per call
    data = {"case": {"memory": [{"id": f"m{i}", "text": "x"} for i in range(50_000)]}}
    chunks = list(canonical_chunks(data))
    assert len(chunks) >= 50_000 // FAST_ITEMS
    assert max(len(c) for c in chunks) <= len('{"id":"m49999","text":"x"},') * FAST_ITEMS
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
        assert _plain(model_json(case))  # msgspec's path is the one taken
        inputs = one_call({"case": case.model_dump(mode="json"),
                           "edits": [e.model_dump(mode="json") for e in plan.edits]})
        outputs = one_call({"plan": plan.report().model_dump(mode="json"),
                            "result": result_data(None)})
        assert approval_hashes(plan) == (inputs, outputs)


def test_a_hasher_writes_each_case_and_report_once_with_the_same_digests(monkeypatch):
    from repair_core import apply_edits, repair
    from repair_core.approvals import ApprovalHasher

    case = case_from_data(synth_case_data(300, 60, 2, seed=3))
    plan = plan_case(case)
    node = next(s for s, d in plan.steps.items() if d == "invalidate")
    edited = apply_edits(plan, {node: "keep"}, force=True, comment="checked")
    result = repair(case, plan)
    written = []
    real = _canonical.model_json
    monkeypatch.setattr("repair_core.approvals._review.model_json",
                        lambda m, *a, **k: written.append(type(m).__name__) or real(m, *a, **k))
    hasher = ApprovalHasher()
    for p, res in [(plan, None), (plan, result), (edited, None), (plan, result)]:
        want = (one_call({"case": case.model_dump(mode="json"),
                          "edits": [e.model_dump(mode="json") for e in p.edits]}),
                one_call({"plan": p.report().model_dump(mode="json"),
                          "result": None if res is None else res.model_dump(mode="json")}))
        assert hasher(p, res) == want
    # the case once, each plan's report once, the result each time it is hashed
    assert written == ["Case", "PlanReport", "RepairResult", "PlanReport", "RepairResult"]
