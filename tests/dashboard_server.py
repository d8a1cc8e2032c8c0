"""`streamlit run app.py` on a free loopback port for browser tests, stopped afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_dashboard(tmp_path: Path, env: dict[str, str],
                      options: dict[str, str] | None = None) -> Iterator[str]:
    """The dashboard's URL while it runs with `env` added to this process's environment
    and `options` as `--name value` flags (they override .streamlit/config.toml); its log
    is `tmp_path/streamlit.log` (its tail is in the error if it does not start)."""
    port = free_port()
    log_path = tmp_path / "streamlit.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed after the server stops
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
         *(arg for name, value in (options or {}).items() for arg in (f"--{name}", value))],
        cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError("streamlit did not start:\n" + log_path.read_text()[-3000:])
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
