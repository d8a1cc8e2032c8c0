"""The generated suites: the committed files match the Table 1 distribution, every case
is valid with labels, and regeneration with the same seed is byte-identical."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from repair_core import load_case
from repair_core.bench import generate_suite
from repair_core.bench._controlled import (
    CONTROLLED_COUNTS,
    build_controlled_case,
    controlled_slots,
)
from repair_core.bench._suites import _write

ROOT = Path(__file__).resolve().parent.parent
CONTROLLED = ROOT / "sample_traces" / "controlled"
ADAPTED = ROOT / "sample_traces" / "adapted"


def _cases(folder: Path):
    manifest = json.loads((folder / "manifest.json").read_text())
    return manifest, [load_case(folder / name) for name in manifest["files"]]


def test_slots_have_exactly_the_table1_counts():
    slots = controlled_slots(42)
    assert len(slots) == 150
    assert Counter(s.domain for s in slots) == CONTROLLED_COUNTS["domain"]
    assert Counter(s.fault_type for s in slots) == CONTROLLED_COUNTS["fault_type"]
    assert Counter(s.n_faults for s in slots) == CONTROLLED_COUNTS["n_faults"]
    assert {s.n_benign for s in slots} == set(range(6, 15))
    assert {s.n_turns for s in slots} == {1, 2, 3, 4, 5}
    assert all(s.n_turns > 1 for s in slots if s.fault_type in ("stale", "summary-drift"))
    assert controlled_slots(7) != slots  # the seed matters


def test_committed_controlled_suite_matches_the_distribution():
    manifest, cases = _cases(CONTROLLED)
    assert manifest["cases"] == len(cases) == 150 and manifest["seed"] == 42
    assert Counter(c.domain for c in cases) == {"shopping": 48, "travel": 49,
                                                "customer_service": 53}
    primary = Counter(c.eval.fault_types[c.faults[0]] for c in cases)
    assert primary == {"poisoned": 42, "stale": 34, "wrong-user": 34, "summary-drift": 40}
    assert Counter(len(c.faults) for c in cases) == {1: 128, 2: 17, 3: 5}
    benign = [len(c.eval.benign) for c in cases]
    assert min(benign) == 6 and max(benign) == 14 and len(set(benign)) == 9
    from repair_core.bench import is_recovered

    for c in cases:
        ev = c.eval
        assert ev.required_facts and ev.forbidden_facts and ev.clean_answer
        assert set(ev.fault_types) == set(c.faults)
        assert not set(ev.benign) & set(c.faults)
        # the injection made the run fail: the failed answer fails the oracle
        assert not is_recovered(c.final_answer().text, ev.required_facts, ev.forbidden_facts)


def test_fault_types_are_injected_as_they_happen():
    _, cases = _cases(CONTROLLED)
    by_type = {}
    for c in cases:
        by_type.setdefault(c.eval.fault_types[c.faults[0]], c)
    stale = by_type["stale"]
    failed = [s for s in stale.trajectory if s.type == "memory_write" and s.status == "failed"]
    assert failed and failed[0].op == "update" and stale.faults[0] in failed[0].target
    drift = by_type["summary-drift"]
    summary = next(m for m in drift.memory if m.id == drift.faults[0])
    assert any(d.label == "consolidate" for d in summary.deps)
    assert any(d.label == "produce" for d in summary.deps)
    wrong = by_type["wrong-user"]
    rec = next(m for m in wrong.memory if m.id == wrong.faults[0])
    assert rec.user_id == wrong.user_id and not rec.text.startswith(
        wrong.user_id.split("-")[0].title())


def test_regenerating_some_slots_is_byte_identical(tmp_path):
    slots = controlled_slots(42)[:8]
    cases = [build_controlled_case(s, 42)[0] for s in slots]
    _write(tmp_path, "controlled", 42, cases)
    for c in cases:
        name = f"{c.case_id}.json"
        assert (tmp_path / name).read_bytes() == (CONTROLLED / name).read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("suite,folder", [("controlled", CONTROLLED), ("adapted", ADAPTED)])
def test_regenerating_the_whole_suite_is_byte_identical(tmp_path, suite, folder):
    out = tmp_path / suite
    generate_suite(suite, out, seed=42)
    committed = sorted(p.name for p in folder.glob("*.json"))
    assert sorted(p.name for p in out.glob("*.json")) == committed
    for name in committed:
        assert (out / name).read_bytes() == (folder / name).read_bytes(), name


def test_committed_adapted_suite_matches_the_issue():
    manifest, cases = _cases(ADAPTED)
    assert len(cases) == 50
    assert Counter(len(c.faults) for c in cases) == {1: 5, 2: 15, 3: 15, 4: 15}
    assert all(set(c.eval.fault_types.values()) == {"poisoned"} for c in cases)
    assert all(len(c.eval.required_facts) == 1 for c in cases)


def test_longmemeval_fixture_becomes_cases(tmp_path):
    from repair_core.bench import is_recovered, longmemeval_fixture_path

    manifest = generate_suite("adapted", tmp_path, seed=3,
                              longmemeval=str(longmemeval_fixture_path()))
    assert manifest["cases"] == 11 and "fixture.json" in manifest["source"]
    case = load_case(tmp_path / manifest["files"][0])
    assert case.eval.required_facts == ["Priya"]  # fx_0002 (fx_0001's poison is not read)
    assert "Priya" in case.eval.clean_answer
    assert not is_recovered(case.final_answer().text, ["Priya"], case.eval.forbidden_facts)


@pytest.mark.slow
def test_regenerating_the_noisy_suite_is_byte_identical(tmp_path):
    """sample_traces/controlled-noisy is `dgrr bench generate --suite controlled --seed 42
    --model dgrr/rolling --noise 0.1 --count 50`, as docs/benchmark.md says."""
    folder = CONTROLLED.parent / "controlled-noisy"
    # as the CLI calls it: the noise travels in the model string
    generate_suite("controlled", tmp_path, seed=42, model="dgrr/rolling/noise=0.1", count=50)
    committed = sorted(p.name for p in folder.glob("*.json"))
    assert sorted(p.name for p in tmp_path.glob("*.json")) == committed
    for name in committed:
        assert (tmp_path / name).read_bytes() == (folder / name).read_bytes(), name
