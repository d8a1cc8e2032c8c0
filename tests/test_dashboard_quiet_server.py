"""An idle dashboard, started as the README says (`streamlit run app.py`, the project's
`.streamlit/config.toml`) from a clone with a `.venv` inside it, uses next to no CPU.

With Streamlit's default watcher (watchdog) the folder of app.py is watched recursively,
`.venv` included: reading the venv (as the interpreter's imports do) overflowed the kernel's
inotify queue, and each re-walk of the tree that follows an overflow overflowed it again, so
the idle server used 4 CPU seconds every 10 s. The server here is stopped while the venv is
read, so the queue overflows whatever the machine's speed, as it did during a first page's
imports."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from dashboard_server import free_port  # noqa: E402

pytestmark = pytest.mark.slow


def _tree(where: Path) -> Path:
    """The dashboard's files, and a `.venv` of 8,000 folders and 32,000 files."""
    where.mkdir()
    for name in ("app.py", "pages", "dgrr_dashboard", ".streamlit"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, where / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, where / name)
    packages = where / ".venv" / "lib" / "python3" / "site-packages"
    for i in range(8000):
        folder = packages / f"package_{i}"
        folder.mkdir(parents=True)
        for j in range(4):
            (folder / f"module_{j}.py").write_bytes(b"x = 1\n")
    return where


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _idle_session(url: str, pid: int, venv: Path) -> float:
    """CPU seconds the server used in 10 s while one session, its page shown, stayed idle
    after the venv was read once."""
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.typing import Origin, Subprotocol

    async def drain(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.recv(), 0.5)

    async with websockets.connect(url.replace("http", "ws", 1) + "/_stcore/stream",
                                  subprotocols=[Subprotocol("streamlit")], origin=Origin(url),
                                  max_size=None) as ws:
        rerun = BackMsg()
        rerun.rerun_script.query_string = ""
        await ws.send(rerun.SerializeToString())
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(await asyncio.wait_for(ws.recv(), 120))
            if msg.WhichOneof("type") == "script_finished":
                break
        os.kill(pid, signal.SIGSTOP)
        try:
            for folder in sorted(venv.rglob("*")):
                if folder.is_file():
                    folder.read_bytes()
        finally:
            os.kill(pid, signal.SIGCONT)
        await drain(3)
        before = _cpu_seconds(pid)
        await drain(10)
        return _cpu_seconds(pid) - before


def test_an_idle_dashboard_with_a_venv_in_the_clone_uses_no_cpu(tmp_path):
    tree = _tree(tmp_path / "clone")
    port = free_port()
    log_path = tmp_path / "streamlit.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)],
            cwd=tree, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log,
            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"the dashboard did not start: {log_path.read_text()[-2000:]}")
                time.sleep(0.5)
        used = asyncio.run(_idle_session(url, server.pid, tree / ".venv"))
    finally:
        server.terminate()
        server.wait(timeout=30)
    log_text = log_path.read_text()
    assert "Inotify" not in log_text, log_text[-1000:]
    assert used < 0.5, f"{used:.2f} CPU s in 10 s idle"
