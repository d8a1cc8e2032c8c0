"""Issue 12, writes: no `--out` clobbers a special file, an output set is swapped in whole,
temporary files never stay behind, a failed repair writes only failure.json."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repair_core import _io
from repair_core.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIG1 = str(ROOT / "sample_traces" / "figure1-travel.json")
OUTPUT_SET = ["answer.txt", "report.json", "result.json", "store.json", "trajectory.json"]


def _special_targets(tmp_path: Path) -> list[tuple[str, Path]]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere" / "x.html")
    folder = tmp_path / "folder"
    folder.mkdir()
    targets = [("fifo", fifo), ("dangling symlink", dangling), ("directory", folder)]
    if os.geteuid() == 0:  # a character device like /dev/null (only root may make one)
        null = tmp_path / "null"
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        targets.append(("character device", null))
    return targets


def _kind(p: Path) -> str:
    st = p.lstat()
    return stat.filemode(st.st_mode)[0]


@pytest.mark.parametrize("command", ["graph", "synth"])
def test_out_refuses_special_files_and_leaves_them_alone(tmp_path, capsys, command):
    for what, target in _special_targets(tmp_path):
        before = _kind(target)
        argv = (["graph", FIG1, "--out", str(target)] if command == "graph" else
                ["synth", "--steps", "20", "--out", str(target)])
        assert main(argv) == 2, what
        err = capsys.readouterr().err
        assert "--out" in err and "Traceback" not in err, (what, err)
        assert _kind(target) == before, what
        assert sorted(p.name for p in target.parent.iterdir() if p.name.startswith(".")) == []


def test_empty_out_is_refused(capsys):
    assert main(["graph", FIG1, "--out", ""]) == 2
    assert "--out: an empty path" in capsys.readouterr().err


def test_unwritable_out_is_one_line_exit_2(capsys):
    assert main(["graph", FIG1, "--out", "/sys/dgrr-test-graph.html"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dgrr graph: --out: cannot write '/sys/dgrr-test-graph.html'")
    assert len(err.strip().splitlines()) == 1
    assert not Path("/sys/dgrr-test-graph.html").exists()


def test_out_over_a_symlink_to_a_file_is_refused(tmp_path, capsys):
    real = tmp_path / "real.html"
    real.write_text("keep")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    assert main(["graph", FIG1, "--out", str(link)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert link.is_symlink() and real.read_text() == "keep"


def test_repair_out_refuses_a_folder_that_holds_other_files(tmp_path, capsys):
    out = tmp_path / "res"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(["repair", FIG1, "--out", str(out)]) == 2
    assert "not a dgrr output folder" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_repair_out_replaces_an_earlier_set_and_leaves_no_temporaries(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["repair", FIG1, "--out", str(out)]) == 0
    first = (out / "result.json").read_text()
    assert main(["repair", FIG1, "--faults", "m6", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == OUTPUT_SET
    assert (out / "result.json").read_text() != first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]


def test_failed_repair_writes_only_failure_json_and_exits_1(tmp_path, capsys):
    from repair_core.model import register_provider

    register_provider("brokenwrites", lambda messages: "nope")
    out = tmp_path / "res"
    assert main(["repair", FIG1, "--out", str(out)]) == 0
    assert main(["repair", FIG1, "--model", "brokenwrites/x", "--out", str(out)]) == 1
    assert sorted(p.name for p in out.iterdir()) == ["failure.json"]
    failure = json.loads((out / "failure.json").read_text())
    assert failure["failed"] is True and failure["answer"] is None
    assert {f["step"] for f in failure["failures"]} == {"s3", "s5", "s10"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]
    assert "repair failed" in capsys.readouterr().err


def test_failed_block_leaves_the_old_set_and_no_temporaries(tmp_path):
    out = tmp_path / "res"
    _io.write_output_set(out, {"a.txt": "old\n"}, allowed={"a.txt"})
    with pytest.raises(RuntimeError):
        _io.write_output_set(out, {"a.txt": "new\n", "b.txt": RuntimeError}, allowed={"a.txt", "b.txt"})
    assert [p.name for p in out.iterdir()] == ["a.txt"] and (out / "a.txt").read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]


_WRITER = """
import os, sys, time
sys.path.insert(0, {root!r})
from repair_core import _io
real_fsync = os.fsync
def slow_fsync(fd):
    time.sleep(0.01)
    real_fsync(fd)
os.fsync = slow_fsync
tag = sys.argv[1]
files = {{f"f{{i}}.txt": f"{{tag}} {{i}}\\n" for i in range(8)}}
_io.write_output_set({out!r}, files, allowed=set(files))
"""


@pytest.mark.slow
def test_kill_9_during_a_set_write_leaves_the_old_set_or_the_new_one(tmp_path):
    out = tmp_path / "res"
    script = _WRITER.format(root=str(ROOT), out=str(out))
    subprocess.run([sys.executable, "-c", script, "A"], check=True)
    expected = {tag: {f"f{i}.txt": f"{tag} {i}\n" for i in range(8)} for tag in "AB"}
    rng = random.Random(12)
    for round_ in range(12):
        tag = "B" if round_ % 2 == 0 else "A"
        proc = subprocess.Popen([sys.executable, "-c", script, tag])
        time.sleep(0.15 + rng.random() * 0.25)  # imports take ~0.1 s, the writes ~0.1 s
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = {p.name: p.read_text() for p in out.iterdir()}
        assert now in (expected["A"], expected["B"]), sorted(now.items())
    # a later write sweeps what killed writers left behind
    subprocess.run([sys.executable, "-c", script, "A"], check=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res"]


def test_atomic_write_sweeps_nothing_of_a_live_writer(tmp_path):
    live = tmp_path / f".out.txt.dgrr-{os.getpid()}-abc.tmp"
    live.write_text("in progress")
    _io.atomic_write_text(tmp_path / "out.txt", "x")
    assert live.exists()
