"""Issue 21, item 5: bounded I/O. Inputs must be regular files (a FIFO or a device is
refused before reading, so it can neither hang nor exhaust memory). No output may name an
input. `fleet --out` follows the output rules of every other command. A Mem0 history
database is opened read-only by its own path, never through a URI built from user text."""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "repair_core" / "fixtures" / "figure1-travel.json"


def _dgrr(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`dgrr argv` in a child limited to 2 GB of address space and `timeout` seconds (so
    a regression hangs or fails the test, never the machine)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run([sys.executable, "-m", "repair_core", *argv], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit, cwd=ROOT)


@pytest.mark.parametrize("argv", [["validate", "{}"], ["plan", "{}"],
                                  ["approve", str(FIXTURE), "--reviewer", "a", "--decision",
                                   "approve", "--result", "{}", "--db", "{db}"]])
def test_a_fifo_input_is_refused_without_hanging(tmp_path, argv):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    argv = [a.replace("{}", str(fifo)).replace("{db}", str(tmp_path / "a.db")) for a in argv]
    r = _dgrr(*argv)
    assert r.returncode == 2, r.stderr
    assert "not a regular file" in r.stderr and "Traceback" not in r.stderr


def test_a_device_input_is_refused_before_reading():
    r = _dgrr("validate", "/dev/zero", timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr
    r = _dgrr("import", "/dev/zero", "--out", "/dev/null/x.json", timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr


def test_import_out_may_not_name_an_input(tmp_path, capsys):
    store = tmp_path / "h.db"
    store.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    trace = tmp_path / "t.json"
    trace.write_text('{"resourceSpans": []}')
    for out, given in ((store, ["--store", str(store)]), (trace, [])):
        before = out.read_bytes()
        code = main(["import", str(trace), *given, "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2 and "is also an input" in err, err
        assert out.read_bytes() == before
    # the same file by another path (a hard link) is the same file
    os.link(store, tmp_path / "same.db")
    assert main(["import", str(trace), "--store", str(store), "--out",
                 str(tmp_path / "same.db")]) == 2
    assert "is also an input" in capsys.readouterr().err


def test_graph_out_may_not_name_its_case(tmp_path, capsys):
    case = tmp_path / "c.json"
    case.write_bytes(FIXTURE.read_bytes())
    assert main(["graph", str(case), "--out", str(case)]) == 2
    assert "is also an input" in capsys.readouterr().err
    assert case.read_bytes() == FIXTURE.read_bytes()


def test_fleet_out_follows_the_output_rules(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "summary.json").write_text("my own summary")
    (mine / "notes.txt").write_text("keep me")
    assert main(["fleet", str(FIXTURE), "--faults", "m3", "--out", str(mine)]) == 2
    assert "not a dgrr fleet output folder" in capsys.readouterr().err
    assert (mine / "summary.json").read_text() == "my own summary"
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert main(["fleet", str(FIXTURE), "--faults", "m3", "--out", str(link)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert list(real.iterdir()) == []
    # its own earlier output folder is fine (resumed)
    out = tmp_path / "o"
    assert main(["fleet", str(FIXTURE), "--faults", "m3", "--out", str(out)]) == 0
    assert main(["fleet", str(FIXTURE), "--faults", "m3", "--out", str(out)]) == 0


def test_fleet_exits_non_zero_when_rows_errored(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    src = tmp_path / "src"
    src.mkdir()
    (src / "bad.json").write_text("{ not json")
    assert main(["fleet", str(src), "--faults", "m3", "--out", str(tmp_path / "o")]) == 1
    assert "1 of 1 cases errored" in capsys.readouterr().err
    assert (tmp_path / "o" / "cases.parquet").exists()


def test_a_store_path_with_uri_characters_is_a_path(tmp_path):
    from repair_core.importers._mem0 import MEM0_COLUMNS, read_mem0_history

    odd = tmp_path / "h#frag?mode=rwc.db"
    con = sqlite3.connect(odd)
    con.execute(f"CREATE TABLE history ({', '.join(MEM0_COLUMNS)})")
    con.commit()
    con.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert read_mem0_history(odd, user="lin") == []
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing named 'h' made
