"""The forked `dgrr` of tests/forked_dgrr.py gives what a fresh `dgrr` process gives: its
exit status, its output, SIGKILL as -9, and a stop at its time limit."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from forked_dgrr import run_dgrr

import repair_core.cli


def test_a_forked_dgrr_gives_its_status_and_output(tmp_path: Path):
    done = run_dgrr(["verify", str(tmp_path / "no-such.json"), "--case",
                     str(tmp_path / "no-such-case.json")], {}, tmp_path, [], fork=True)
    assert done.returncode == 2 and "no-such.json" in done.stderr, done
    assert "Traceback" not in done.stderr


def test_a_forked_dgrr_killed_is_minus_nine_and_one_stuck_is_stopped(tmp_path: Path,
                                                                   monkeypatch):
    monkeypatch.setattr(repair_core.cli, "main",
                        lambda args: os.kill(os.getpid(), signal.SIGKILL))
    assert run_dgrr(["verify"], {}, tmp_path, [], timeout=60, fork=True).returncode == -9
    monkeypatch.setattr(repair_core.cli, "main", lambda args: time.sleep(600))
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run_dgrr(["verify"], {}, tmp_path, [], timeout=1, fork=True)
    assert time.monotonic() - start < 30
