"""One memory read that returns many records imports in time linear in their number:
the ids a read returned are kept in order and once each without a list scan per record."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _write_one_read(path: Path, records: int) -> None:
    spec = importlib.util.spec_from_file_location("import_scale",
                                                  ROOT / "benchmarks" / "import_scale.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.write_one_read(path, records)


def test_one_read_of_forty_thousand_records_imports_in_a_few_cpu_seconds(tmp_path):
    from repair_core.importers import import_trace

    trace = tmp_path / "one-read.otlp.json"
    _write_one_read(trace, 40_000)
    start = time.process_time()
    imported = import_trace([trace])
    spent = time.process_time() - start
    read = next(s for s in imported.case.trajectory if s.type == "memory_read")
    assert imported.summary.records == 40_000
    assert read.returned[:3] == ["m0", "m1", "m2"] and len(read.returned) == 40_000
    # about 1 CPU s; a scan of the ids returned so far per record took 15-20 s
    assert spent < 6, f"importing one read of 40,000 records took {spent:.1f} CPU s"


def test_an_id_a_read_returns_twice_is_listed_once(tmp_path):
    from repair_core.importers import import_trace

    trace = tmp_path / "one-read.otlp.json"
    _write_one_read(trace, 3)
    text = trace.read_text()
    trace.write_text(text.replace('{\\"id\\": \\"m2\\"', '{\\"id\\": \\"m0\\"'))
    read = next(s for s in import_trace([trace]).case.trajectory if s.type == "memory_read")
    assert read.returned == ["m0", "m1"]
