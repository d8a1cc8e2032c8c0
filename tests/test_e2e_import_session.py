"""An import on the dashboard stops when the browser session that asked for it ends: a real
`streamlit run app.py`, Chromium uploading a trace and a Mem0 history of a million rows
(seconds of reading, then longer checking the case), then closing the tab while the import
runs. Streamlit stops a script only at its next `st` call, which an import reading a file
or checking a case never makes; the import asks whether its session is still there while
it reads and while it checks, and stops."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from dashboard_server import BROWSER_MARKS, ROOT, goto_page, idle, open_page, running_dashboard

from repair_core.importers._mem0 import MEM0_COLUMNS

pytestmark = BROWSER_MARKS

STOPPED = "an import stopped: its browser session ended"


def _big_history(path: Path, rows: int = 1_000_000) -> Path:
    con = sqlite3.connect(path)
    con.execute(f"CREATE TABLE history ({', '.join(MEM0_COLUMNS)})")
    con.executemany(f"INSERT INTO history ({', '.join(MEM0_COLUMNS)}) VALUES "
                    "(?, ?, NULL, ?, 'ADD', '2026-01-01', NULL, 0)",
                    ((f"h{i}", f"m{i % 50_000}", f"text {i}") for i in range(rows)))
    con.commit()
    con.close()
    return path


def test_an_import_stops_when_its_browser_session_ends(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    history = _big_history(tmp_path / "history.db")
    trace = ROOT / "sample_imports" / "mem0" / "mem0-travel.otlp.jsonl"
    env = {"DGRR_DB": str(tmp_path / "approvals.db"), "HOME": str(tmp_path)}
    with running_dashboard(tmp_path, env) as url:
        log = tmp_path / "streamlit.log"
        external: list[str] = []
        with sync_playwright() as p:
            browser, page = open_page(p, url, external)
            page.goto(url)
            goto_page(page, "Load")
            page.get_by_role("tab", name="Trace (OTLP) + Mem0 store").click()
            idle(page)
            panel = page.locator('[role="tabpanel"]:visible')
            inputs = panel.locator('[data-testid="stFileUploaderDropzoneInput"]')
            inputs.nth(1).set_input_files(str(history))
            expect(panel.get_by_text("history.db")).to_be_visible(timeout=180_000)
            idle(page)
            inputs.nth(0).set_input_files(str(trace))
            go = page.get_by_role("button", name="Import trace")
            expect(go).to_be_enabled(timeout=60_000)
            idle(page)
            expect(panel.get_by_text("history.db")).to_be_visible()
            go.click()
            page.locator('[data-testid="stStatusWidget"]').wait_for(timeout=60_000)
            time.sleep(3)  # the import is reading the history now
            browser.close()
        closed = time.monotonic()
        while STOPPED not in log.read_text():
            assert time.monotonic() - closed < 60, log.read_text()[-2000:]
            time.sleep(0.5)
    assert external == []
