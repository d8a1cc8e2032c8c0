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
                                error=None, replayed_steps=i + len(m) % 3,
                                trajectory_steps=10, llm_calls=i)
                for m in methods for i in range(4)]
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


def test_the_adapted_family_generates_the_adapted_suite(tmp_path, monkeypatch):
    import repair_core.bench as bench

    made: list[tuple[str, int]] = []

    def generate_suite(suite, out, *, seed, **kw):
        made.append((suite, seed))
        Path(out).mkdir(parents=True)
        (Path(out) / "manifest.json").write_text("{}")

    monkeypatch.setattr(bench, "generate_suite", generate_suite)
    assert claims.ensure_suite(tmp_path, "adapted", 42) == claims.ROOT / "sample_traces/adapted"
    where = claims.ensure_suite(tmp_path, "adapted", 43)
    claims.ensure_suite(tmp_path, "adapted", 43)  # present: not generated again
    assert made == [("adapted", 43)] and where == tmp_path / "suites" / "adapted-s43"


def test_noise_0_runs_the_deterministic_model_with_costs_and_seed_intervals(tmp_path,
                                                                         monkeypatch):
    import repair_core.bench as bench

    calls: list[str] = []
    monkeypatch.setattr(bench, "run_bench", _fake_results(calls))
    monkeypatch.setattr(bench, "suite_case_paths", lambda suite: [f"{suite}/c{i}.json"
                                                                  for i in range(4)])
    for seed in (42, 43, 44):
        claims.run_unit(str(tmp_path), "adapted", seed, 1, ["ours", "full_rerun"], noise=0.0)
    claims.run_unit(str(tmp_path), "adapted", 42, 1, ["ours", "full_rerun"])  # noise 0.1
    assert calls == ["dgrr/reference"] * 3 + ["dgrr/reference/noise=0.1/salt=1"]
    assert claims.unit_path(tmp_path, "adapted", 43, 1, 0.0).name == "adapted-n0-s43-k1.json"
    units = claims.stored_units(tmp_path, 0.0)
    assert len(units) == 3 and len(claims.stored_units(tmp_path)) == 1
    # full_rerun: replayed 1, 2, 3, 4 of 10 steps per case -> 10 of 40; 1.5 calls per case
    assert units[0]["cost"]["full_rerun"] == {"replayed": 10, "steps": 40, "calls": 6}
    text = claims.report(units, ["ours", "full_rerun"])
    assert "#### adapted, repaired by dgrr/reference: 3 runs" in text
    assert "Intervals: 95% Student-t over the seeds" in text
    assert ("| Delete session writes + full re-run | 0.250 [0.250, 0.250] | 1.50 [1.50, 1.50] "
            "| 42: 0.250, 1.50, 43: 0.250, 1.50, 44: 0.250, 1.50 |") in text
    # the default noise's report keeps its earlier form: no cost table
    assert "Replay ratio" not in claims.report(claims.stored_units(tmp_path), ["ours"])


def test_seed_interval_is_student_t():
    lo, hi = claims.seed_interval([0.9, 1.0, 0.8])
    assert (lo, hi) == (pytest.approx(0.9 - 4.302653 * 0.1 / 3 ** 0.5),
                        pytest.approx(0.9 + 4.302653 * 0.1 / 3 ** 0.5))


def test_block_names_the_markers_written(tmp_path, monkeypatch):
    import repair_core.bench as bench

    monkeypatch.setattr(bench, "run_bench", _fake_results([]))
    doc = tmp_path / "doc.md"
    doc.write_text("a\n<!-- claims-x:begin -->\nold\n<!-- claims-x:end -->\nb\n")
    out = tmp_path / "out"
    claims.run_unit(str(out), "adapted", 42, 1, ["ours"], noise=0.0)
    assert claims.main(["--out", str(out), "--families", "adapted", "--noise", "0",
                        "--report-only", "--methods", "ours", "--doc", str(doc),
                        "--block", "claims-x"]) == 0
    text = doc.read_text()
    assert "old" not in text and "| Ours | 0.500 [0.500, 0.500] |" in text
    assert text.startswith("a\n") and text.endswith("<!-- claims-x:end -->\nb\n")


def test_bad_noise_and_block_exit_2_with_the_field_named(capsys):
    for argv, why in ([["--noise", "1.5"], "--noise: a slip rate from 0 up to 1, got 1.5"],
                      [["--block", "../x"], "--block: lower-case letters"]):
        with pytest.raises(SystemExit) as exc:
            claims.main([*argv, "--out", str(Path("/nonexistent-claims")), "--report-only"])
        assert exc.value.code == 2 and why in capsys.readouterr().err


def test_a_p_value_that_underflows_is_not_printed_as_0():
    assert claims.mcnemar_exact(1900, 0) == 0.0  # the float underflow the text must not hide
    assert claims.p_text(0.0) == "< 1e-300"
    assert claims.p_text(2.52e-44) == "2.52e-44" and claims.p_text(0.197) == "0.197"
