"""benchmarks/real_model_grid.py against a scripted OpenAI-compatible server on 127.0.0.1
answering with the reference model's replies (no network): the estimate comes before the
first request and counts the calls the run makes, an interrupted run resumes without
asking again for finished rows, the disk cache answers repeated prompts, --max-cost
refuses, and a refused reply stays in its row."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from judge_server import scripted_server
from script_module import ROOT, load_script

from repair_core.model import reference_reply

pytestmark = pytest.mark.slow

SCRIPT = ROOT / "benchmarks" / "real_model_grid.py"
CASES = ["ctl-001-travel-wrong-user.json", "ctl-002-shopping-stale.json"]


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    for name in CASES:
        shutil.copy(ROOT / "sample_traces" / "controlled" / name, folder / name)
    return folder


@pytest.fixture
def grid() -> Any:
    module = load_script("benchmarks/real_model_grid.py")
    yield module
    from repair_core.bench._cache import use_disk_cache

    use_disk_cache(None)  # the cache is a process setting; later tests run without it


def _args(api_base: str, suite: Path, out: Path, *extra: str) -> list[str]:
    return ["--model", "openai/scripted", "--api-base", api_base, "--suite", str(suite),
            "--methods", "ours", "--out", str(out), "--yes", *extra]


def _estimated_calls(text: str) -> int:
    match = re.search(r"model calls: (\d+) ", text)
    assert match, text
    return int(match.group(1))


def _stored(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns
            for p in out.glob("*/results/*/*.json")}


def test_estimate_first_then_an_interrupted_run_resumes_without_repeating_finished_rows(
        suite: Path, tmp_path: Path) -> None:
    lines: list[str] = []
    seen_at_first_request: list[list[str]] = []
    gate = threading.Event()
    gate.set()

    def reply(messages: list[dict[str, Any]]) -> str:
        if not seen_at_first_request:
            deadline = time.monotonic() + 10  # the reader thread may lag the pipe a little
            while not any("model calls:" in line for line in lines) \
                    and time.monotonic() < deadline:
                time.sleep(0.01)
            seen_at_first_request.append(list(lines))
        gate.wait(30)
        return reference_reply(messages)

    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with scripted_server(reply) as server:
        proc = subprocess.Popen([sys.executable, str(SCRIPT), *_args(server.api_base, suite,
                                                                     out)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=env)
        assert proc.stdout is not None
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout or []), daemon=True)
        reader.start()
        deadline = time.monotonic() + 240
        while not _stored(out) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        gate.clear()  # hold every further request while the run is killed
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        gate.set()
        reader.join(10)
        finished = _stored(out)
        assert len(finished) == 1, (finished, lines)
        # the estimate was printed in full before the first request reached the server
        [before] = seen_at_first_request
        assert any(line.startswith("estimate for 'openai/scripted'") for line in before)
        full = _estimated_calls("".join(before))
        assert "2 case(s) x 1 method(s) = 2; 0 already stored, 2 to run" in "".join(before)

        asked_before = len(server.requests)
        rerun = subprocess.run([sys.executable, str(SCRIPT), *_args(server.api_base, suite,
                                                                    out)],
                               capture_output=True, text=True, env=env, timeout=300)
        assert rerun.returncode == 0, rerun.stderr
        asked = len(server.requests) - asked_before
    assert "1 already stored, 1 to run" in rerun.stdout
    remaining = _estimated_calls(rerun.stdout)
    # the re-run asks exactly what the unfinished row takes, nothing for the finished one
    assert 0 < remaining < full
    assert asked == remaining
    after = _stored(out)
    assert len(after) == 2
    assert all(after[name] == mtime for name, mtime in finished.items())
    assert "[2/2]" in rerun.stdout and "ours: 2/2 recovered" in rerun.stdout


def test_the_cache_serves_repeated_prompts_and_a_rerun_asks_nothing(
        grid: Any, suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache"
    with scripted_server(reference_reply) as server:
        assert grid.main(_args(server.api_base, suite, tmp_path / "plain")) == 0
        plain = list(server.requests)
        estimate = _estimated_calls(capsys.readouterr().out)
        assert len(plain) == estimate  # the dry pass counted what the run asked
        del server.requests[:]
        assert grid.main(_args(server.api_base, suite, tmp_path / "a",
                               "--cache", str(cache))) == 0
        cached = list(server.requests)
        del server.requests[:]
        # another results folder, the same cache: every call is answered from disk
        assert grid.main(_args(server.api_base, suite, tmp_path / "b",
                               "--cache", str(cache))) == 0
        assert server.requests == []
    distinct = {json.dumps(m, sort_keys=True) for m in plain}
    assert len(distinct) < len(plain)  # the grid repeats prompts ...
    assert len(cached) == len(distinct)  # ... and the cache asks each one once
    a = sorted(p.name for p in (tmp_path / "a").glob("*/results/*/*.json"))
    b = sorted(p.name for p in (tmp_path / "b").glob("*/results/*/*.json"))
    assert a == b and len(a) == 2
    assert "ours: 2/2 recovered" in capsys.readouterr().out


def test_max_cost_refuses_before_any_call(grid: Any, suite: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    with scripted_server(reference_reply) as server:
        code = grid.main(["--model", "gpt-4o", "--api-base", server.api_base, "--suite",
                          str(suite), "--methods", "ours", "--out", str(out),
                          "--max-cost", "0.0001"])
        text = capsys.readouterr()
        assert code == 2
        assert re.search(r"cost: \$\d+\.\d{4} at litellm's price", text.out)
        assert "above --max-cost 0.0001" in text.err
        # a model litellm has no price for is refused too, unless --yes
        code = grid.main(["--model", "openai/scripted", "--api-base", server.api_base,
                          "--suite", str(suite), "--methods", "ours", "--out", str(out)])
        text = capsys.readouterr()
        assert code == 2
        assert "price unknown" in text.out and "pass --yes" in text.err
        assert server.requests == []
    assert not out.exists()


def test_a_refused_reply_is_recorded_in_its_row(grid: Any, suite: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    with scripted_server(lambda messages: "not json") as server:
        assert grid.main(_args(server.api_base, suite, out)) == 0
        assert server.requests
    text = capsys.readouterr().out
    assert "ours: 0/2 recovered" in text and "[2/2]" in text
    for path in out.glob("*/results/ours/*.json"):
        notes = json.loads(path.read_text())["notes"]
        assert any("no valid reply" in n for n in notes), notes


def test_bad_input_names_the_flag(grid: Any, suite: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert grid.main(["--model", "x", "--suite", str(suite), "--out", str(tmp_path / "o"),
                      "--workers", "0"]) == 2
    assert "--workers: must be at least 1, got 0" in capsys.readouterr().err
    assert grid.main(["--model", "x", "--suite", str(suite), "--out", str(tmp_path / "o"),
                      "--methods", "nope"]) == 2
    err = capsys.readouterr().err
    assert "--methods: unknown method(s)" in err and "nope" in err
    assert not (tmp_path / "o").exists()


def test_agentdojo_rows_are_summarised_by_utility_and_security() -> None:
    from repair_core.bench._metrics import CaseResult

    grid = load_script(SCRIPT)
    dojo = [CaseResult(case_id="a", method="ours", utility=True, security=True),
            CaseResult(case_id="b", method="ours", utility=False, security=True)]
    assert grid.outcome(dojo) == "utility 1/2, secure 2/2"
    facts = [CaseResult(case_id="c", method="ours", recovered=True),
             CaseResult(case_id="d", method="ours")]
    assert grid.outcome(facts) == "1/2 recovered"
