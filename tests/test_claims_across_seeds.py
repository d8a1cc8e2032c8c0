"""benchmarks/claims_across_seeds.py: its statistics on known inputs, and its resume."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from script_module import load_script

claims = load_script("benchmarks/claims_across_seeds.py")


@pytest.mark.parametrize("by_hand", [False, True])
def test_exact_mcnemar_on_known_tables(monkeypatch, by_hand):
    if by_hand:  # the path taken when scipy is not installed
        real_import = builtins.__import__

        def no_scipy(name: str, *args: Any, **kw: Any) -> Any:
            if name.startswith("scipy"):
                raise ImportError(name)
            return real_import(name, *args, **kw)

        monkeypatch.setattr(builtins, "__import__", no_scipy)
    assert claims.mcnemar_exact(2, 0) == pytest.approx(0.5)  # 2-0 discordant: p = 1/2
    assert claims.mcnemar_exact(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    assert claims.mcnemar_exact(2, 10) == claims.mcnemar_exact(10, 2)
    assert claims.mcnemar_exact(7, 7) == pytest.approx(1.0)
    assert claims.mcnemar_exact(0, 0) == 1.0
    assert claims.mcnemar_exact(0, 20) == pytest.approx(2 / 2 ** 20)
    with pytest.raises(ValueError):
        claims.mcnemar_exact(-1, 3)


def test_bootstrap_interval_on_known_samples():
    assert claims.bootstrap_interval([0.7] * 20) == (pytest.approx(0.7), pytest.approx(0.7))
    sample = [0.0, 1.0] * 10  # mean 0.5, standard error of the mean about 0.11
    lo, hi = claims.bootstrap_interval(sample)
    assert 0.25 < lo < 0.5 < hi < 0.75
    assert claims.bootstrap_interval(sample) == (lo, hi)  # fixed seed: reproducible
    shifted = claims.bootstrap_interval([v + 0.2 for v in sample])
    assert shifted == (pytest.approx(lo + 0.2), pytest.approx(hi + 0.2))
    with pytest.raises(ValueError):
        claims.bootstrap_interval([])


def test_compare_counts_runs_and_pools_discordant_cases():
    units = [
        {"ours": {"a": True, "b": True}, "x": {"a": False, "b": True}},   # ahead, 1-0
        {"ours": {"a": True, "b": False}, "x": {"a": False, "b": True}},  # tied, 1-1
        {"ours": {"a": False, "b": False}, "x": {"a": True, "b": False}},  # behind, 0-1
    ]
    c = claims.compare(units, "ours", "x")
    assert (c["ahead"], c["tied"], c["behind"]) == (1, 1, 1)
    assert (c["only_a"], c["only_b"]) == (2, 2) and c["p"] == pytest.approx(1.0)


def _fake_results(calls: list[str]):
    def run_bench(paths, methods, out, **kw):
        calls.append(kw["model"])
        return [SimpleNamespace(method=m, case_id=f"c{i}", recovered=(i % 2 == 0),
                                error=None) for m in methods for i in range(4)]
    return run_bench


def test_a_unit_is_stored_atomically_and_skipped_when_present(tmp_path, monkeypatch):
    import repair_core.bench as bench

    calls: list[str] = []
    monkeypatch.setattr(bench, "run_bench", _fake_results(calls))
    first = claims.run_unit(str(tmp_path), "controlled-noisy", 42, 3, ["ours", "full_rerun"])
    assert calls == ["dgrr/reference/noise=0.1/salt=3"]
    path = claims.unit_path(tmp_path, "controlled-noisy", 42, 3)
    stored = json.loads(path.read_text())
    assert stored == first and stored["recovered"]["ours"] == {
        "c0": True, "c1": False, "c2": True, "c3": False}
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
    # resumed: a stored unit is not run again, even by a fresh process's call
    again = claims.run_unit(str(tmp_path), "controlled-noisy", 42, 3, ["ours"])
    assert calls == ["dgrr/reference/noise=0.1/salt=3"] and again == first
    # a unit stored without a requested method is run again (the runner resumes it)
    claims.run_unit(str(tmp_path), "controlled-noisy", 42, 3, ["ours", "llm_judge"])
    assert len(calls) == 2
    # the report reads the stored units
    text = claims.report(claims.stored_units(tmp_path), ["ours", "llm_judge"])
    assert "1 runs (generation seed, cases, noise salts: 42, 50 cases, salts 3)" in text
    assert claims._ranges([1, 2, 3, 5, 7, 8]) == "1–3, 5, 7–8"
    assert "| Ours | 0.500 [0.500, 0.500] |" in text
    assert ("| LLM-judge repair (scripted) | 0.500 [0.500, 0.500] | 42: 0.500 | 0 / 1 / 0 | "
            "0 / 0 | 1 |") in text


def test_bad_arguments_exit_2_with_the_field_named(capsys):
    for argv, why in ([["--families", "nope"], "--families: unknown 'nope'"],
                      [["--seeds", "4x"], "--seeds: not a comma-separated"],
                      [["--methods", "full_rerun"], "--methods: must include ours"],
                      [["--salts", "0"], "--salts: must be at least 1"]):
        with pytest.raises(SystemExit) as exc:
            claims.main([*argv, "--out", str(Path("/nonexistent-claims")), "--report-only"])
        assert exc.value.code == 2 and why in capsys.readouterr().err
