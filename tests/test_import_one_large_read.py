"""One memory read that returns many records imports in time linear in their number:
the ids a read returned are kept in order and once each without a list scan per record."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _write_one_read(path: Path, records: int) -> None:
    spec = importlib.util.spec_from_file_location("import_scale",
                                                  ROOT / "benchmarks" / "import_scale.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.write_one_read(path, records)


def test_one_read_of_many_records_imports_in_time_linear_in_them(tmp_path):
    from cpu_time import grows_linearly

    from repair_core.importers import import_trace

    def trace(records: int) -> Path:
        path = tmp_path / f"one-read-{records}.otlp.json"
        _write_one_read(path, records)
        return path

    # a scan of the ids returned so far per record took 15-20 s at 40,000 records
    imported, _, _ = grows_linearly(trace, lambda path: import_trace([path]), 5_000)
    read = next(s for s in imported.case.trajectory if s.type == "memory_read")
    assert imported.summary.records == 40_000
    assert read.returned[:3] == ["m0", "m1", "m2"] and len(read.returned) == 40_000


def test_an_id_a_read_returns_twice_is_listed_once(tmp_path):
    from repair_core.importers import import_trace

    trace = tmp_path / "one-read.otlp.json"
    _write_one_read(trace, 3)
    text = trace.read_text()
    trace.write_text(text.replace('{\\"id\\": \\"m2\\"', '{\\"id\\": \\"m0\\"'))
    read = next(s for s in import_trace([trace]).case.trajectory if s.type == "memory_read")
    assert read.returned == ["m0", "m1"]
