"""Issue 9, item 3: `dgrr bench generate|run` with any model string (built-in policies with
noise, or an OpenAI-compatible server), litellm's disk cache making a re-run free, and the
resumable cross-model grid."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from script_module import load_script

from repair_core.cli import main
from repair_core.model import _server

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("suite")
    assert main(["bench", "generate", "--suite", "controlled", "--seed", "3", "--count", "2",
                 "--model", "dgrr/reference", "--noise", "0.1", "--out", str(out)]) == 0
    return out


def test_generate_takes_model_noise_and_count(suite, tmp_path):
    manifest = json.loads((suite / "manifest.json").read_text())
    assert manifest["cases"] == 2 and manifest["model"] == "dgrr/reference/noise=0.1"
    assert manifest["noise"] == 0.1  # the rate the runs were made with, not the default 0
    again = tmp_path / "again"
    assert main(["bench", "generate", "--suite", "controlled", "--seed", "3", "--count", "2",
                 "--model", "dgrr/reference/noise=0.1", "--out", str(again)]) == 0
    for f in manifest["files"]:  # the noise is seeded: the same suite, byte for byte
        assert (again / f).read_bytes() == (suite / f).read_bytes()
    assert (again / "manifest.json").read_bytes() == (suite / "manifest.json").read_bytes()


def test_generate_without_noise_records_zero(tmp_path):
    assert main(["bench", "generate", "--suite", "controlled", "--seed", "3", "--count", "1",
                 "--model", "dgrr/reference-b", "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert (manifest["model"], manifest["noise"]) == ("dgrr/reference-b", 0.0)


def test_committed_noisy_suite_manifest_names_its_noise():
    """The manifest's noise is the one its model string (the model that made the runs) says."""
    from repair_core.model import parse_builtin

    manifest = json.loads((ROOT / "sample_traces" / "controlled-noisy" / "manifest.json")
                          .read_text())
    assert manifest["model"] == "dgrr/rolling/noise=0.1"
    assert parse_builtin(manifest["model"]) == ("rolling", manifest["noise"]) == ("rolling", 0.1)


def test_run_with_another_policy_and_noise(suite, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["bench", "run", "--suite", str(suite), "--model", "dgrr/reference-b",
                 "--noise", "0.1", "--methods", "ours,full_reset", "--out", str(out),
                 "--no-progress", "--no-cache"]) == 0
    meta = json.loads((out / "run.json").read_text())
    assert meta["model"] == "dgrr/reference-b/noise=0.1"
    assert len(list((out / "results").glob("*/*.json"))) == 4
    assert not (out / ".litellm-cache").exists()


@pytest.mark.parametrize(("argv", "needle"), [
    (["--model", "dgrr/reference", "--noise", "2"], "--noise: must be a rate"),
    (["--model", "openai/x", "--noise", "0.1"], "only the built-in"),
    (["--model", "dgrr/nope"], "unknown built-in policy"),
    (["--model", "dgrr/reference/noise=0.1", "--noise", "0.1"], "already names"),
])
def test_bad_model_or_noise_exits_2(suite, tmp_path, capsys, argv, needle):
    code = main(["bench", "run", "--suite", str(suite), "--out", str(tmp_path / "r"),
                 "--no-progress", *argv])
    assert code == 2 and needle in capsys.readouterr().err
    assert not (tmp_path / "r").exists()  # nothing half-written
    with pytest.raises(SystemExit) as exit_:  # argparse refuses it before any work
        main(["bench", "generate", "--suite", "controlled", "--count", "0",
              "--out", str(tmp_path / "g")])
    assert exit_.value.code == 2
    assert "--count: '0' is not a whole number >= 1" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


@pytest.fixture()
def counting_server(monkeypatch):
    """`dgrr serve-model`'s server on 127.0.0.1 in a thread, counting the requests it
    answers; stopped after the test."""
    calls: list[int] = []
    real = _server.reference_reply

    def counted(messages):
        calls.append(1)
        return real(messages)

    monkeypatch.setattr(_server, "reference_reply", counted)
    server, api_base = _server.serve_in_thread()
    try:
        yield api_base, calls
    finally:
        server.shutdown()
        server.server_close()


def test_served_model_and_disk_cache_make_a_rerun_free(suite, tmp_path, counting_server):
    api_base, calls = counting_server
    cache = tmp_path / "cache"
    argv = ["bench", "run", "--suite", str(suite), "--model", "openai/dgrr-reference",
            "--api-base", api_base, "--methods", "ours,llm_judge", "--no-progress"]
    assert main([*argv, "--out", str(tmp_path / "one"), "--cache", str(cache)]) == 0
    first = len(calls)
    assert first > 0 and any(cache.iterdir())
    assert main([*argv, "--out", str(tmp_path / "two"), "--cache", str(cache)]) == 0
    assert len(calls) == first  # the second run made 0 server requests

    def answers(out: str) -> dict[str, str]:
        return {f.name + f.parent.name: json.loads(f.read_text())["answer"]
                for f in (tmp_path / out / "results").glob("*/*.json")}

    assert answers("one") == answers("two") and len(answers("one")) == 4
    assert main([*argv, "--out", str(tmp_path / "three"), "--no-cache"]) == 0
    # without the cache every request is made again (and repeats within a run too, which
    # the cache had answered: the recurrence probe re-asks some of the replay's prompts)
    assert len(calls) - first >= first
    assert answers("three") == answers("one")
    local = tmp_path / "local"
    assert main(["bench", "run", "--suite", str(suite), "--model", "dgrr/reference",
                 "--methods", "ours,llm_judge", "--no-progress", "--out", str(local)]) == 0
    assert answers("local") == answers("one")  # the served model is the same policy
    assert (local / ".litellm-cache").is_dir()  # the default cache: in the results folder
    from repair_core.model import import_litellm

    assert import_litellm().cache is None  # a process setting: off again after the run


def _grid_module():
    return load_script("benchmarks/cross_model_grid.py")


def _unit(rep, noise, seed, salt, ours, other, calls=(4, 8)):
    """A stored run of the grid: per method, case -> recovered, and model calls."""
    cases = [f"c{i}" for i in range(len(ours))]
    return {"gen": "reference", "rep": rep, "noise": noise, "seed": seed, "salt": salt,
            "recovered": {"ours": dict(zip(cases, ours, strict=True)),
                          "redo_first_exposure": dict(zip(cases, other, strict=True))},
            "calls": {"ours": calls[0] * len(cases), "redo_first_exposure": calls[1] * len(cases)},
            "errors": {"ours": 0, "redo_first_exposure": 0}}


def test_grid_pairs_ours_with_a_method_case_by_case_over_seeds_and_salts():
    """Two seeds x two salts of three cases: the discordant cases pooled over the four
    runs (4 only Ours, 0 only the method) give the exact McNemar p = 2 / 2**4, and the
    recovery is the mean of the four runs' shares."""
    grid = _grid_module()
    units = [_unit("rolling", 0.1, 1, 1, [1, 1, 0], [0, 1, 0]),   # ahead 1-0
             _unit("rolling", 0.1, 1, 2, [1, 1, 1], [0, 0, 1]),   # ahead 2-0
             _unit("rolling", 0.1, 2, 1, [0, 1, 0], [0, 1, 0]),   # tied
             _unit("rolling", 0.1, 2, 2, [1, 1, 0], [1, 0, 0])]   # ahead 1-0
    s = grid.summarise(units, ["ours", "redo_first_exposure"])["reference -> rolling @ 0.1"]
    redo, ours = s["redo_first_exposure"], s["ours"]
    assert (redo["only_a"], redo["only_b"]) == (4, 0)
    assert (redo["ahead"], redo["tied"], redo["behind"]) == (3, 1, 0)
    assert redo["p"] == pytest.approx(2 / 2 ** 4)  # 4-0: both tails of 1/16
    assert ours["mean"] == pytest.approx((2 + 3 + 1 + 2) / 12)
    assert ours["runs"] == 4 and ours["seeds"] == 2 and ours["interval"] == "bootstrap"
    assert ours["lo"] <= ours["mean"] <= ours["hi"]
    assert ours["calls"] == pytest.approx(4.0) and redo["calls"] == pytest.approx(8.0)
    assert grid.verdict(redo) == "not shown to differ"  # p = 0.125 is not below 0.05
    units.append(_unit("rolling", 0.1, 1, 3, [1, 0, 1], [0, 0, 0]))  # 2-0 more: 6-0
    again = grid.summarise(units, ["ours", "redo_first_exposure"])
    redo = again["reference -> rolling @ 0.1"]["redo_first_exposure"]
    assert redo["p"] == pytest.approx(2 / 2 ** 6) and grid.verdict(redo) == "ahead"


def test_grid_interval_at_noise_zero_is_student_t_over_the_seeds():
    """One deterministic run per seed: mean ± t(0.975, n - 1) * sd / sqrt(n), cut to [0, 1]."""
    grid = _grid_module()
    methods = ["ours", "redo_first_exposure"]

    def ten(k):  # ten cases, the first k recovered
        return [i < k for i in range(10)]

    units = [_unit("reference", 0, s, 0, ten(k), ten(5)) for s, k in ((1, 5), (2, 5), (3, 6))]
    ours = grid.summarise(units, methods)["reference -> reference @ 0"]["ours"]
    half = 4.302653 * 0.057735 / 3 ** 0.5  # rates 0.5, 0.5, 0.6: sd 0.0577
    assert ours["interval"] == "t" and ours["mean"] == pytest.approx(1.6 / 3)
    assert ours["lo"] == pytest.approx(1.6 / 3 - half, abs=1e-4)
    assert ours["hi"] == pytest.approx(1.6 / 3 + half, abs=1e-4)
    units = [_unit("reference", 0, 1, 0, [1, 0], [1, 0]), _unit("reference", 0, 2, 0, [1, 1], [1, 0])]
    cell = grid.summarise(units, methods)["reference -> reference @ 0"]
    # rates 0.5 and 1.0: 0.75 ± 12.7 * 0.25 leaves [0, 1] on both sides
    assert (cell["ours"]["lo"], cell["ours"]["hi"]) == (0.0, 1.0)
    assert cell["redo_first_exposure"]["p"] == pytest.approx(1.0)  # 1-0 discordant


def test_grid_repairs_with_one_salted_model_per_salt_and_none_at_noise_zero():
    grid = _grid_module()
    assert grid.salts_for(0.0, 20) == [0] and grid.salts_for(0.1, 3) == [1, 2, 3]
    assert grid._model("rolling", 0.1, 3) == "dgrr/rolling/noise=0.1/salt=3"
    assert grid._model("reference", 0.0, 0) == "dgrr/reference"
    jobs = grid._jobs_in_order(["a"], [0.0, 0.1], [1, 2], 2)
    # salt by salt: the first salt of every cell and seed before any second one
    assert jobs == [("a", "a", 0.0, 1, 0), ("a", "a", 0.0, 2, 0), ("a", "a", 0.1, 1, 1),
                    ("a", "a", 0.1, 2, 1), ("a", "a", 0.1, 1, 2), ("a", "a", 0.1, 2, 2)]


def test_grid_table_leaves_out_methods_that_keep_the_answer():
    """Ours (store) leaves the user's answer as it was: scored on answers it is 0 by
    construction, so the grid, which scores answers, neither runs nor shows it."""
    grid = _grid_module()
    cell = {"mean": 0.5, "lo": 0.4, "hi": 0.6}
    md = grid.table({"reference -> rolling @ 0": {"ours": cell, "ours_store": cell}},
                    ["ours", "ours_store"])
    assert "| Ours |" in md and "Ours (store)" not in md
    assert "ours_store" in grid.STORE_OBJECTIVE


def test_the_goal_names_each_baseline_ahead_by_the_paired_test_or_cheaper():
    grid = _grid_module()

    def cell(mean, calls, only_a=0, only_b=0):
        p = _grid_module_claims().mcnemar_exact(only_a, only_b)
        return {"mean": mean, "lo": mean, "hi": mean, "calls": calls, "only_a": only_a,
                "only_b": only_b, "p": p}

    summary = {"a -> b @ 0": {"ours": cell(0.8, 6.0), "redo_first_exposure": cell(0.8, 16.0),
                              "llm_judge": cell(0.9, 17.0, 0, 10),
                              "full_rerun": cell(0.85, 17.0, 1, 3),
                              "no_repair": cell(0.0, 0.0, 40, 0)},
               "a -> b @ 0.1": {"ours": cell(0.7, 6.0), "delete_faults_rerun": cell(0.5, 5.0, 20, 0),
                                "redo_first_exposure": cell(0.6, 16.0, 10, 0)}}
    lines = grid.against_the_goal(summary)
    assert "LLM-judge repair (scripted) (recovery 0.900, 17.00 calls)" in lines[0]
    assert "Redo" not in lines[0] and "No repair" not in lines[0]
    assert "full re-run" not in lines[0]  # 1-3 discordant: not shown to be ahead
    assert "Delete faults, re-run turn (recovery 0.500, 5.00 calls)" in lines[1]
    assert "Redo" not in lines[1]
    standing = grid.standings(summary)
    assert "behind LLM-judge repair (scripted)" in standing[0]
    assert "ahead of No repair" in standing[0]
    assert "ahead of every baseline" in standing[1]


def _grid_module_claims():
    return load_script("benchmarks/claims_across_seeds.py")


@pytest.mark.slow
def test_grid_is_resumable_and_writes_each_cell(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# Title\n\nprose kept\n\n<!-- grid:begin -->\nold\n<!-- grid:end -->\n")
    argv = ["--out", str(tmp_path / "g"), "--seeds", "1,2", "--noise", "0,0.1",
            "--policies", "reference,reference-b", "--count", "1", "--salts", "2",
            "--methods", "ours,no_repair", "--workers", "1", "--doc", str(doc)]
    script = [sys.executable, str(ROOT / "benchmarks" / "cross_model_grid.py")]
    assert subprocess.run([*script, *argv], capture_output=True, timeout=600).returncode == 0
    data = json.loads((tmp_path / "g" / "grid.json").read_text())
    assert len(data["summary"]) == 8  # 2 generators x 2 repairers x 2 rates
    for name, cell in data["summary"].items():
        s = cell["ours"]
        assert s["seeds"] == 2 and s["lo"] <= s["mean"] <= s["hi"]
        assert s["runs"] == (2 if name.endswith("@ 0") else 4)  # 2 salts at noise 0.1
        assert cell["no_repair"]["only_b"] == 0 and "p" in cell["no_repair"]
    units = {p: p.stat().st_mtime_ns for p in (tmp_path / "g").glob("units/*.json")}
    assert len(units) == 4 * 2 + 4 * 2 * 2
    stored = json.loads(next(iter(p for p in units if "-k2" in p.name)).read_text())
    assert stored["model"].endswith("/noise=0.1/salt=2")
    manifests = {p: p.stat().st_mtime_ns for p in (tmp_path / "g").glob("suites/*/manifest.json")}
    assert len(manifests) == 8
    # resumed (now two processes at once): nothing generated or repaired again
    again = subprocess.run([*script, *argv[:-4], "--workers", "2", "--doc", str(doc)],
                           capture_output=True, timeout=600)
    assert again.returncode == 0
    assert {p: p.stat().st_mtime_ns for p in manifests} == manifests
    assert {p: p.stat().st_mtime_ns for p in units} == units
    text = doc.read_text()
    assert "prose kept" in text and "old" not in text and "reference → reference-b @ 0.1" in text
    assert "exact McNemar p" in text


def test_grid_refuses_a_bad_option_before_any_work(tmp_path):
    script = [sys.executable, str(ROOT / "benchmarks" / "cross_model_grid.py"),
              "--out", str(tmp_path / "g")]
    for extra, needle in ((["--salts", "0"], "--salts: must be at least 1, got 0"),
                          (["--policies", "reference,nope"], "--policies: unknown nope"),
                          (["--noise", "0,1.5"], "--noise: a slip rate from 0 up to 1, got 1.5")):
        done = subprocess.run([*script, *extra], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and needle in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "g").exists()


def test_generate_against_a_served_model_matches_in_process(tmp_path, counting_server):
    api_base, calls = counting_server
    served, local = tmp_path / "served", tmp_path / "local"
    assert main(["bench", "generate", "--suite", "controlled", "--seed", "3", "--count", "1",
                 "--model", "openai/dgrr-reference", "--api-base", api_base,
                 "--out", str(served)]) == 0
    assert calls  # the agent really called the server
    assert main(["bench", "generate", "--suite", "controlled", "--seed", "3", "--count", "1",
                 "--out", str(local)]) == 0
    files = json.loads((served / "manifest.json").read_text())["files"]
    assert json.loads((served / "manifest.json").read_text())["model"] == "openai/dgrr-reference"
    assert [(served / f).read_bytes() for f in files] == [(local / f).read_bytes() for f in files]
