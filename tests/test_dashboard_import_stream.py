"""A Mem0 history uploaded alone on the Load page is streamed into a case file as
`dgrr import --store` streams it (repair_core/importers/_mem0_case.py), in the upload
worker (team mode) and in the server, never built whole in memory first."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from import_scale import write_mem0_history  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from dgrr_dashboard.upload_client import WorkerLimits, run_job  # noqa: E402
from dgrr_dashboard.worker_messages import WorkerRequest  # noqa: E402
from repair_core.cli import main  # noqa: E402

FAULT = "00000003-0000-4000-8000-000000000000"
ROOMY = WorkerLimits(cpu_seconds=120, memory_mb=2048, wall_seconds=600)


@pytest.fixture()
def history(tmp_path) -> Path:
    db = tmp_path / "history.db"
    write_mem0_history(db, 3000)
    return db


def test_the_worker_sends_back_the_case_file_dgrr_import_writes(history, tmp_path, capsys):
    """The case the worker sends back is the streamed case file itself, byte for byte
    the one `dgrr import --store` writes (a case built in memory came back as its
    compact dump)."""
    out = tmp_path / "case.json"
    assert main(["import", "--store", str(history), "--faults", FAULT, "--out", str(out)]) == 0
    capsys.readouterr()
    request = WorkerRequest(job="import", source="history.db", names=["history.db"],
                            with_store=True, faults=[FAULT])
    answer = run_job(request, [history.read_bytes()], ROOMY)
    assert answer.case_json == out.read_text(encoding="utf-8")
    assert answer.import_summary is not None
    assert "read history.db (Mem0 history)" in answer.import_summary
    assert "made 2700 records" in answer.import_summary


def test_a_bad_fault_is_named_and_the_worker_writes_nothing_behind(history):
    from repair_core import CaseError

    request = WorkerRequest(job="import", source="history.db", names=["history.db"],
                            with_store=True, faults=["no-such-record"])
    with pytest.raises(CaseError) as refused:
        run_job(request, [history.read_bytes()], ROOMY)
    assert "no-such-record" in " ".join(refused.value.problems)


def test_the_streamed_import_holds_less_than_the_whole_case_built_in_memory(history):
    """What the server (or worker) holds while importing a history alone: the streamed
    import's peak is well under the in-memory import's with the dump it sent back."""
    from dgrr_dashboard.imported_upload import import_uploads
    from repair_core.importers import import_trace

    data = history.read_bytes()
    tracemalloc.start()
    try:
        streamed = import_uploads([], ("history.db", data), faults=[FAULT])
        _, streamed_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        whole = import_trace([], store=history, faults=[FAULT])
        whole.case.model_dump_json()
        _, whole_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert streamed.streamed and streamed.case == whole.case
    assert streamed_peak < 0.8 * whole_peak, (streamed_peak, whole_peak)


def test_the_load_page_streams_a_history_alone_without_the_worker(history, monkeypatch):
    """Outside team mode the server imports the upload itself: a history alone goes
    through the streamed import, not `import_trace`."""
    import repair_core.importers as importers
    from dgrr_dashboard import imported_upload, upload_client

    def whole(*args, **kwargs):
        raise AssertionError("a history alone was built whole in memory")

    def no_worker(*args, **kwargs):
        raise AssertionError("a worker was started")

    monkeypatch.setattr(importers, "import_trace", whole)
    monkeypatch.setattr(imported_upload, "import_trace", whole)
    monkeypatch.setattr(upload_client, "run_job", no_worker)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/1_Load.py").run()
    at.file_uploader(key="dgrr_w_upload_store").set_value(
        ("history.db", history.read_bytes(), "application/octet-stream"))
    at.run()
    at.text_input(key="dgrr_w_import_faults").set_value(FAULT)
    at.button(key="dgrr_w_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Loaded case" in s.value for s in at.success), [e.value for e in at.error]
    from dgrr_dashboard import state

    assert len(at.session_state[state.CASE].memory) == 2700
