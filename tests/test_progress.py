"""Progress bars: drawn on a terminal after about a second, never into pipes."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from repair_core._progress import Progress, progress


def test_silent_when_stderr_is_not_a_terminal(capsys) -> None:
    with progress("x", total=3) as bar:
        bar.stage("a")
        bar.update(2)
    assert capsys.readouterr().err == ""
    Progress().stage("nothing")  # the silent form accepts the same calls


def _stderr_on_a_terminal(args: list[str], cwd: Path) -> str:
    primary, secondary = pty.openpty()
    # a terminal 100 columns wide (a fresh pty has 0, and tqdm draws nothing in 0 columns)
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.run([sys.executable, "-m", "repair_core", *args], cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=secondary, check=True)
    os.close(secondary)
    out = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(primary)
    assert proc.returncode == 0
    return out.decode(errors="replace")


@pytest.mark.slow
def test_long_synth_shows_a_bar_on_a_terminal_short_one_does_not(tmp_path: Path) -> None:
    short = _stderr_on_a_terminal(["synth", "--steps", "200", "--out", "a.json"], tmp_path)
    assert "dgrr synth" not in short
    long = _stderr_on_a_terminal(["synth", "--steps", "120000", "--out", "b.json"], tmp_path)
    assert "dgrr synth" in long and "step" in long
