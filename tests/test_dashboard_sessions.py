"""Issue 11, point 7: one reviewer's big case must not slow other sessions of the same
dashboard server. By default Streamlit runs a full garbage collection after every script
run of every session; with a 130k-node case in the process that walk takes about a second
with the interpreter lock held, so every page change of every other reviewer waited for it
(benchmarks/dashboard_sessions.py, docs/performance.md). The project's config turns it
off; these tests pin that the server `streamlit run app.py` starts really reads it, and that
the benchmark's websocket client (no browser) really drives a session."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from script_module import load_script

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import json
from streamlit import config
config.get_config_options(force_reparse=True)
print(json.dumps({k: config.get_option(k) for k in
                  ("runner.postScriptGC", "server.address", "server.enableXsrfProtection")}))
"""


def _options_as_served(cwd: Path, home: Path) -> dict[str, object]:
    """The options Streamlit resolves when started in `cwd` (as `streamlit run app.py` is)
    with no per-user config (HOME is an empty folder)."""
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=cwd, capture_output=True,
                         text=True, timeout=120, check=True,
                         env={"HOME": str(home), "PATH": "/usr/bin:/bin",
                              "PYTHONPATH": str(ROOT)})
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_the_served_dashboard_runs_no_full_gc_after_every_script_run(tmp_path):
    served = _options_as_served(ROOT, tmp_path)
    assert served["runner.postScriptGC"] is False, served
    # the same probe elsewhere sees Streamlit's default, so the project's file is what did it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert _options_as_served(elsewhere, tmp_path)["runner.postScriptGC"] is True
    # and the local-by-default settings of the same file still hold
    assert served["server.address"] == "127.0.0.1"
    assert served["server.enableXsrfProtection"] is True


def test_the_config_file_says_why():
    text = (ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert tomllib.loads(text)["runner"]["postScriptGC"] is False
    assert "dashboard_sessions.py" in text


def _benchmark() -> Any:
    return load_script("benchmarks/dashboard_sessions.py")


@pytest.mark.slow
def test_the_benchmarks_websocket_session_sees_what_the_server_sends(tmp_path):
    """`dashboard_sessions.py --b-websocket` times a session driven over Streamlit's own
    protocol: it must really change pages and press Load sample, and notice when the page
    it asked for is not what came back."""
    from dashboard_server import running_dashboard

    bench = _benchmark()

    async def walk(url: str) -> list[str]:
        async with bench.websocket_session(url, time.perf_counter()) as b:
            assert set(bench.TITLES) <= set(b.pages), b.pages
            await b.goto("Faults")
            assert b.shown("No case is loaded yet")  # nothing loaded in this session yet
            await bench.b_round(b, "test")
            assert b.shown(bench.TITLES["Compare"], "Working case")
            assert not b.shown("No case is loaded yet")
            with pytest.raises(RuntimeError, match="did not send"):
                await b.timed("open Plan", "Plan", (), "text no page shows")
            return [t["what"] for t in b.timings]

    env = {"DGRR_DB": str(tmp_path / "approvals.db"), "HOME": str(tmp_path)}
    with running_dashboard(tmp_path, env) as url:
        done = asyncio.run(walk(url))
    assert done == ["open Faults", "open Load", "Load sample",
                    *(f"open {p}" for p in bench.B_PAGES)]


@pytest.mark.slow
def test_the_benchmarks_websocket_a_uploads_loads_and_approves(tmp_path):
    """`dashboard_sessions.py --a-websocket` drives A over the same protocol: the case
    must really be uploaded and loaded, every page opened, and the approval recorded."""
    from dashboard_server import running_dashboard

    from repair_core._synth import write_synth_case
    from repair_core.approvals._store import ApprovalStore

    bench = _benchmark()
    case = tmp_path / "big.json"
    write_synth_case(case, 300, 60, 2, 5)

    async def walk(url: str) -> list[str]:
        async with bench.websocket_session(url, time.perf_counter()) as a:
            await bench.a_work_websocket(a, case)
            assert a.shown("synth-300s")  # the uploaded case is the one loaded
            return [t["what"] for t in a.timings]

    db = tmp_path / "approvals.db"
    with running_dashboard(tmp_path, {"DGRR_DB": str(db), "HOME": str(tmp_path)}) as url:
        done = asyncio.run(walk(url))
    assert done[:3] == ["open Load", "upload the case file",
                        "Load uploaded case (parse, validate)"]
    assert done[-1] == "record an approval" and len(done) == 4 + 2 * len(bench.A_PAGES)
    history = ApprovalStore(f"sqlite:///{db}").history()
    assert [(r.reviewer, r.comment) for r in history] == [("bench A", "timed")]
    assert history[0].case_id.startswith("synth-300s")


def _threads_cpus(port: int) -> dict[int, str]:
    """The allowed-CPU list of every thread of the server listening on `port`."""
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(argv) and str(port).encode() in argv:
            cpus = {}
            for task in (proc / "task").iterdir():
                status = (task / "status").read_text()
                cpus[int(task.name)] = next(line.split(":", 1)[1].strip()
                                            for line in status.splitlines()
                                            if line.startswith("Cpus_allowed_list"))
            return cpus
    raise LookupError(f"no streamlit server on port {port}")


@pytest.mark.slow
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning needs two CPUs")
@pytest.mark.parametrize("setting", [None, "off", "nine"])
def test_the_served_dashboard_keeps_its_threads_on_one_cpu(tmp_path, monkeypatch, setting):
    from dashboard_server import running_dashboard

    bench = _benchmark()

    async def first_run(url: str) -> None:
        # the first page run imports the dashboard's state module (which pins); a second
        # run must start no thread that escapes the pin
        async with bench.websocket_session(url, time.perf_counter()) as b:
            await b.goto("Load")

    env = {"DGRR_DB": str(tmp_path / "approvals.db"), "HOME": str(tmp_path)}
    if setting is not None:
        env["DGRR_SERVER_CPU"] = setting
    monkeypatch.delenv("DGRR_SERVER_CPU", raising=False)  # the server inherits os.environ
    with running_dashboard(tmp_path, env) as url:
        asyncio.run(first_run(url))
        cpus = _threads_cpus(int(url.rsplit(":", 1)[1]))
    log = (tmp_path / "streamlit.log").read_text()
    mine = os.sched_getaffinity(0)
    if setting is None:  # auto: every thread on one and the same CPU this process may use
        assert len(set(cpus.values())) == 1, cpus
        assert int(next(iter(cpus.values()))) in mine
        assert len(cpus) > 2  # the main thread, the event loop's, the script threads
    else:  # not pinned: the threads keep what they started with
        assert all("," in v or "-" in v for v in cpus.values()), cpus
    bad = "DGRR_SERVER_CPU='nine': expected auto, off or one of the CPUs"
    assert (bad in log) == (setting == "nine"), log[-2000:]


def test_the_server_cpu_setting_is_checked():
    from dgrr_dashboard.server_cpu import chosen_cpu

    assert chosen_cpu(None, {2}) is None and chosen_cpu("auto", {2}) is None
    assert chosen_cpu(" OFF ", {0, 1}) is None
    assert chosen_cpu("1", {0, 1}) == 1
    assert chosen_cpu("auto", {0, 1}) in {0, 1}
    assert chosen_cpu(None, set(range(64))) in range(64)
    assert chosen_cpu("", {0, 1}) in {0, 1}  # empty is unset: auto
    for bad in ("2", "-1", "1.5", "one"):
        with pytest.raises(ValueError, match=rf"DGRR_SERVER_CPU='{re.escape(bad)}'.*\(0, 1\)"):
            chosen_cpu(bad, {0, 1})
