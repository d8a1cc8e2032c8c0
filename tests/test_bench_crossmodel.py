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


def test_bootstrap_interval_brackets_the_mean():
    grid = _grid_module()
    lo, hi = grid.bootstrap_ci([0.2, 0.4, 0.6, 0.8, 1.0])
    assert 0.2 <= lo < 0.6 < hi <= 1.0
    assert grid.bootstrap_ci([0.5] * 5) == (0.5, 0.5)


def test_grid_table_leaves_out_methods_that_keep_the_answer():
    """Ours (store) leaves the user's answer as it was: scored on answers it is 0 by
    construction, so the grid, which scores answers, neither runs nor shows it."""
    grid = _grid_module()
    cell = {"mean": 0.5, "lo": 0.4, "hi": 0.6, "seeds": 2, "per_seed": [0.4, 0.6]}
    md = grid.table({"reference -> rolling @ 0": {"ours": cell, "ours_store": cell}},
                    ["ours", "ours_store"])
    assert "| Ours |" in md and "Ours (store)" not in md
    assert "ours_store" in grid.STORE_OBJECTIVE


def test_the_goal_names_each_baseline_ours_does_not_match_at_lower_cost():
    grid = _grid_module()

    def cell(mean, calls):
        return {"mean": mean, "lo": mean, "hi": mean, "seeds": 1, "per_seed": [mean],
                "calls": calls}

    summary = {"a -> b @ 0": {"ours": cell(0.8, 6.0), "redo_first_exposure": cell(0.8, 16.0),
                              "llm_judge": cell(0.9, 17.0), "no_repair": cell(0.0, 0.0)},
               "a -> b @ 0.1": {"ours": cell(0.7, 6.0), "delete_faults_rerun": cell(0.5, 5.0),
                                "redo_first_exposure": cell(0.6, 16.0)}}
    lines = grid.against_the_goal(summary)
    assert "LLM-judge repair (scripted) (recovery 0.900, 17.00 calls)" in lines[0]
    assert "Redo" not in lines[0] and "No repair" not in lines[0]
    assert "Delete faults, re-run turn (recovery 0.500, 5.00 calls)" in lines[1]
    assert "Redo" not in lines[1]


@pytest.mark.slow
def test_grid_is_resumable_and_writes_each_cell(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# Title\n\nprose kept\n\n<!-- grid:begin -->\nold\n<!-- grid:end -->\n")
    argv = ["--out", str(tmp_path / "g"), "--seeds", "1,2", "--noise", "0,0.1",
            "--policies", "reference,reference-b", "--count", "1", "--methods", "ours",
            "--workers", "1", "--doc", str(doc)]
    script = [sys.executable, str(ROOT / "benchmarks" / "cross_model_grid.py")]
    assert subprocess.run([*script, *argv], capture_output=True, timeout=600).returncode == 0
    data = json.loads((tmp_path / "g" / "grid.json").read_text())
    assert len(data["summary"]) == 8  # 2 generators x 2 repairers x 2 rates
    for cell in data["summary"].values():
        s = cell["ours"]
        assert s["seeds"] == 2 and s["lo"] <= s["mean"] <= s["hi"]
    manifests = {p: p.stat().st_mtime_ns for p in (tmp_path / "g").glob("suites/*/manifest.json")}
    results = {p: p.stat().st_mtime_ns for p in (tmp_path / "g").glob("runs/*/results/*/*.json")}
    assert len(manifests) == 8 and results
    # resumed (now two processes at once): nothing generated or repaired again
    again = subprocess.run([*script, *argv[:-4], "--workers", "2", "--doc", str(doc)],
                           capture_output=True, timeout=600)
    assert again.returncode == 0
    assert {p: p.stat().st_mtime_ns for p in manifests} == manifests
    assert {p: p.stat().st_mtime_ns for p in results} == results
    text = doc.read_text()
    assert "prose kept" in text and "old" not in text and "reference → reference-b @ 0.1" in text


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
