"""Journeys in real Chromium: an imported trace with no memory records and a case whose
text mentions CSS urls, each walked through every page with no exception and one decision
legend everywhere (tests/test_e2e_walk.py walks a 100k-step case the same way, on the
upload it then repairs and approves); a researcher opening a bench results folder, picking
a case where Ours and a baseline disagree and seeing both repairs side by side."""

from __future__ import annotations

import re
import time

import pytest
from dashboard_server import (
    BROWSER_MARKS,
    ROOT,
    goto_page,
    idle,
    open_page,
    running_dashboard,
    upload_case,
)
from workbench_cases import no_record_otlp, url_text_case

pytestmark = BROWSER_MARKS

PAGES = ["Faults", "Graph", "Trace", "Plan", "Replay", "Compare", "Approve", "Benchmark",
         "Fleet"]
LEGEND_PAGES = {"Graph", "Trace", "Plan", "Compare", "Approve"}
TIMES: dict[str, float] = {}


@pytest.fixture
def server(tmp_path):
    env = {"DGRR_DB": str(tmp_path / "approvals.db"), "HOME": str(tmp_path),
           "DGRR_BENCH_OUT": str(tmp_path / "bench-out")}
    with running_dashboard(tmp_path, env) as url:
        yield url


def _no_exception(page, where: str) -> None:
    shown = page.locator('[data-testid="stException"]')
    assert shown.count() == 0, (where, shown.first.inner_text()[:500])


def _picture_legend(page):
    """The legend in the Graph picture's header (inside the picture's frame)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        for frame in page.frames:
            try:
                legend = frame.locator("#dgrr-legend")
                if legend.count():
                    return legend
            except Exception:  # a frame detached while the page reran
                continue
        page.wait_for_timeout(250)
    raise AssertionError("the Graph picture shows no legend")


def _walk(page) -> dict[str, str]:
    """Every page after Load: no exception; the decision legend's text per page. The Graph
    page shows its legend in the picture's header and the page's full legend (the same
    decision legend, then shapes and edges) in an expander below: the header's colour keys
    must be the decision legend's, and the expander's decision legend the same as every
    other page's."""
    from playwright.sync_api import expect

    legends = {}
    for label in PAGES:
        goto_page(page, label)
        idle(page)
        _no_exception(page, label)
        if label in LEGEND_PAGES:
            if label == "Graph":
                page.get_by_text("Legend: shapes and edges").first.click()
            legend = page.locator(".dgrr-decision-legend").first
            legend.wait_for(timeout=60_000)
            legends[label] = " ".join(legend.inner_text().split())
            if label == "Graph":
                keys = legend.locator("[data-key]").all_inner_texts()
                picture = _picture_legend(page)
                expect(picture).to_be_visible()
                # the header names what the colours show ("Colour = decision:"), then keys
                shown = [k for k in picture.locator(".dgrr-key").all_inner_texts()
                         if not k.strip().startswith("Colour =")]
                assert keys and [k.strip() for k in shown[:len(keys)]] == [
                    k.strip() for k in keys], (shown, keys)
    return legends


def test_unseen_cases_walk_every_page_with_one_legend(server, tmp_path):
    from playwright.sync_api import sync_playwright

    external: list[str] = []
    url_case = tmp_path / "url-case.json"
    url_case.write_text(url_text_case().model_dump_json())
    otlp = no_record_otlp(tmp_path)
    name = tmp_path / "my run (no memory).otlp.json"
    otlp.rename(name)
    seen: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, server, external, width=1440, height=900)
        page.goto(server)
        t = time.monotonic()
        upload_case(page, "Trace (OTLP) + Mem0 store", "Import trace", name)
        # the uploaded file is named as given in the import summary
        page.get_by_text("my run (no memory).otlp.json").first.wait_for()
        assert page.get_by_text("trace-0.json").count() == 0
        legends = _walk(page)
        seen.append(legends["Graph"])
        assert len(set(legends.values())) == 1, legends
        goto_page(page, "Faults")
        page.get_by_text("no memory records").first.wait_for()
        TIMES["no-record trace"] = time.monotonic() - t

        t = time.monotonic()
        upload_case(page, "Upload a case", "Load uploaded case", url_case)
        legends = _walk(page)
        assert len(set(legends.values())) == 1 and set(legends.values()) == set(seen)
        goto_page(page, "Graph")
        page.wait_for_function("""() => { for (const f of document.querySelectorAll('iframe')) {
            try { const g = f.contentDocument.getElementById('dgrr-graph');
                  if (g && g.contentWindow.dgrrReady) return true; } catch (e) {} }
            return false; }""", timeout=60_000)
        TIMES["url( case"] = time.monotonic() - t
        browser.close()
    assert external == [], external


def test_researcher_sees_ours_and_a_baseline_side_by_side(server, tmp_path):
    import shutil

    from playwright.sync_api import expect, sync_playwright

    from dgrr_dashboard.bench_browse import disagreeing, read_folder
    from repair_core.cli import main

    cases = tmp_path / "suite"
    cases.mkdir()
    for stem in ("ctl-002-shopping-stale", "ctl-001-travel-wrong-user"):
        shutil.copy(ROOT / "sample_traces" / "controlled" / f"{stem}.json", cases)
    out = tmp_path / "results-elsewhere"
    assert main(["bench", "run", "--suite", str(cases), "--methods",
                 "ours,delete_faults_rerun", "--out", str(out)]) == 0
    rows = read_folder(out).rows
    differ = disagreeing(rows, "ours", "delete_faults_rerun")
    assert differ
    cid = sorted(differ)[0]
    answers = {str(r["method"]): str(r["answer"]) for r in rows if r["case_id"] == cid}
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, server, external, width=1440, height=900)
        t = time.monotonic()
        page.goto(server)
        goto_page(page, "Benchmark")
        box = page.get_by_label(re.compile("^Results folder"))
        box.fill(str(out))
        box.press("Enter")
        idle(page)
        page.get_by_text("Methods side by side").first.wait_for()
        page.get_by_text(re.compile(r"\d+ case\(s\) where ours and delete_faults_rerun "
                                    r"disagree")).first.wait_for()
        # both repairs, side by side: their answers as text
        for method in ("ours", "delete_faults_rerun"):
            expect(page.get_by_text(answers[method], exact=True).first).to_be_visible()
        _no_exception(page, "Benchmark")
        page.get_by_role("button", name="Open in the workbench").click()
        page.get_by_text("Opened").first.wait_for()
        idle(page)
        goto_page(page, "Plan")
        idle(page)
        page.get_by_text("Difference from the computed plan").first.wait_for()
        _no_exception(page, "Plan after opening")
        TIMES["researcher"] = time.monotonic() - t
        browser.close()
    assert external == [], external


def teardown_module() -> None:
    if TIMES:
        print("\nbrowser journeys (s): " + ", ".join(f"{k} {v:.1f}" for k, v in TIMES.items()))
