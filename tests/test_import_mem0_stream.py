"""A Mem0 history imported alone (`dgrr import --store HISTORY --out CASE`) is streamed:
records come from the database one memory at a time and go straight into the case file,
which is the file the in-memory import writes, byte for byte; a problem leaves no file
behind (benchmarks/import_scale.py --mem0-history measures the 1M-row history)."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

from repair_core._io import to_json
from repair_core.cli import main
from repair_core.importers import import_trace
from repair_core.importers._mem0 import iter_mem0_history

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from import_scale import write_mem0_history  # noqa: E402

FAULT = "00000003-0000-4000-8000-000000000000"


def test_the_streamed_case_file_is_the_in_memory_imports(tmp_path, capsys):
    db = tmp_path / "history.db"
    write_mem0_history(db, 3000)
    case = import_trace([], store=db, user="lin", faults=[FAULT]).case
    out = tmp_path / "case.json"
    assert main(["import", "--store", str(db), "--user", "lin", "--faults", FAULT,
                 "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == to_json(
        case.model_dump(mode="json", exclude_none=True), 1)
    said = capsys.readouterr().out
    assert f"case '{case.case_id}' (1 fault)" in said and "made 2700 records" in said


def test_a_problem_leaves_no_file(tmp_path, capsys):
    db = tmp_path / "history.db"
    write_mem0_history(db, 300)
    out = tmp_path / "case.json"
    assert main(["import", "--store", str(db), "--faults", "no-such-record",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no-such-record" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.db"]


def test_the_records_come_one_memory_at_a_time(tmp_path):
    """Reading the records one by one holds a few memories' rows, not the history: its
    peak is a small part of what holding every record takes."""
    db = tmp_path / "history.db"
    write_mem0_history(db, 15_000)
    tracemalloc.start()
    try:
        n = sum(1 for _ in iter_mem0_history(db, user="lin"))
        _, streamed = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        held = list(iter_mem0_history(db, user="lin"))
        _, holding = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == len(held) == 13_500
    assert streamed * 20 < holding, (streamed, holding)
