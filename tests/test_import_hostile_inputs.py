"""Hostile importer inputs end quickly and by name: a Mem0 history database whose `history`
is a view (a 4 KB recursive one ran for over a minute and took gigabytes), a generated
column, more rows than the limit, a read over the time limit or one whose caller gave up;
an OTLP trace whose spans are their own ancestors."""

from __future__ import annotations

import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repair_core import CaseError
from repair_core.importers import import_trace
from repair_core.importers._mem0 import MEM0_COLUMNS, read_mem0_history

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_imports"


def _recursive_view(path: Path) -> Path:
    """A Mem0 history database of a few kilobytes whose `history` never ends."""
    con = sqlite3.connect(path)
    con.execute(
        "CREATE VIEW history AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 "
        "FROM r) SELECT printf('h%d', n) AS id, 'mem-' || (n % 7) AS memory_id, "
        "NULL AS old_memory, printf('%.*c', 1000, 'x') AS new_memory, 'ADD' AS event, "
        "'2026-01-01' AS created_at, NULL AS updated_at, 0 AS is_deleted, NULL AS actor_id, "
        "NULL AS role FROM r")
    con.commit()
    con.close()
    assert path.stat().st_size <= 8192
    return path


def _limit_memory() -> None:  # the child may not take the machine down with it
    resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))


def test_a_recursive_history_view_is_refused_by_name_and_quickly(tmp_path):
    db = _recursive_view(tmp_path / "history.db")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "repair_core", "import", "--store", str(db), "--out",
         str(tmp_path / "case.json")], capture_output=True, text=True, timeout=60,
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=_limit_memory)
    assert time.monotonic() - started < 30
    assert done.returncode == 2, done.stderr
    assert "'history' is a view" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "case.json").exists()


def _history(path: Path, rows: int, *, extra: str = "") -> Path:
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE history ({', '.join(MEM0_COLUMNS)}{extra})")
    con.executemany(f"INSERT INTO history ({', '.join(MEM0_COLUMNS)}) VALUES "
                    "(?, ?, NULL, ?, 'ADD', '2026-01-01', NULL, 0)",
                    ((f"h{i}", f"mem-{i}", f"text {i}") for i in range(rows)))
    con.commit()
    con.close()
    return path


def test_a_generated_column_is_refused_by_name(tmp_path):
    db = _history(tmp_path / "history.db", 3,
                  extra=", big TEXT GENERATED ALWAYS AS (hex(zeroblob(400000000))) VIRTUAL")
    with pytest.raises(CaseError, match="'big' is a generated column"):
        read_mem0_history(db, user="lin")


def test_more_rows_than_the_limit_are_refused_naming_it(tmp_path):
    db = _history(tmp_path / "history.db", 11)
    assert len(read_mem0_history(db, user="lin", max_rows=11)) == 11
    with pytest.raises(CaseError, match="more than 10 rows"):
        read_mem0_history(db, user="lin", max_rows=10)


def test_a_read_over_the_time_limit_is_stopped_naming_it(tmp_path):
    db = _history(tmp_path / "history.db", 200_000)
    with pytest.raises(CaseError, match=r"took longer than 0\.001 s"):
        read_mem0_history(db, user="lin", seconds=0.001)


def test_a_read_whose_caller_gave_up_stops(tmp_path):
    db = _history(tmp_path / "history.db", 50_000)
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return True

    with pytest.raises(CaseError, match="stopped: the import was cancelled"):
        import_trace([], store=db, cancelled=cancelled)
    assert asked


def test_an_import_whose_caller_gives_up_after_the_read_stops_while_the_case_is_checked(
        tmp_path, monkeypatch):
    # a large history is read in seconds and checked as a case for longer: a browser tab
    # closed after the read must still stop the import
    import repair_core.importers as importers

    db = _history(tmp_path / "history.db", 50_000)
    read = importers.read_mem0_history
    state = {"read": False, "asked_after": 0}

    def reading(*args, **kwargs):
        out = read(*args, **kwargs)
        state["read"] = True
        return out

    def cancelled() -> bool:
        if state["read"]:
            state["asked_after"] += 1
        return state["read"]

    monkeypatch.setattr(importers, "read_mem0_history", reading)
    with pytest.raises(CaseError) as raised:
        import_trace([], store=db, cancelled=cancelled)
    assert raised.value.problems == ["stopped: the import was cancelled"]
    assert state["asked_after"] >= 1
    # never asked to stop, the same import finishes
    state["read"] = False
    monkeypatch.setattr(importers, "read_mem0_history", read)
    assert len(import_trace([], store=db, cancelled=lambda: False).case.memory) == 50_000


def _spans(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_parent_span_cycles_are_refused_naming_the_spans(tmp_path):
    src = SAMPLES / "otlp" / "figure1-travel.otlp.jsonl"
    docs = _spans(src)
    spans = [sp for d in docs for rs in d["resourceSpans"] for ss in rs["scopeSpans"]
             for sp in ss["spans"]]
    a, b = spans[1], spans[2]
    a["parentSpanId"], b["parentSpanId"] = b["spanId"], a["spanId"]
    hostile = tmp_path / "cycle.otlp.jsonl"
    hostile.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    assert import_trace([src]).case  # the committed trace imports
    with pytest.raises(CaseError) as err:
        import_trace([hostile])
    text = str(err.value)
    assert "cycle" in text and a["spanId"] in text and b["spanId"] in text


def test_a_span_that_is_its_own_parent_is_refused(tmp_path):
    src = SAMPLES / "otlp" / "figure1-travel.otlp.jsonl"
    docs = _spans(src)
    spans = [sp for d in docs for rs in d["resourceSpans"] for ss in rs["scopeSpans"]
             for sp in ss["spans"]]
    spans[0]["parentSpanId"] = spans[0]["spanId"]
    hostile = tmp_path / "self.otlp.jsonl"
    hostile.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    with pytest.raises(CaseError, match=spans[0]["spanId"]):
        import_trace([hostile])


def test_the_committed_mem0_history_still_imports(tmp_path):
    db = tmp_path / "history.db"
    shutil.copy(SAMPLES / "mem0" / "history.db", db)
    assert read_mem0_history(db, user="lin")
