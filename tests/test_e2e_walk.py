"""A reviewer's walk through a 100,000-step case in real Chromium at 1440×900: Load → Faults
→ Graph → Plan → Replay → Compare → Approve. On each page the primary action is on the
first screen when the page opens (its box inside the viewport, the page not scrolled), and
the walk ends with an approval that is in the approvals database; a reload (F5) then
brings the uploaded case back with its plan edit. The same upload is first walked through
every page after Load with no exception and one decision legend everywhere, and at the end
the Trace page's server-side search finds s9999 among every step: one 100k upload serves
both walks (an upload of the case is the longest step of the walk)."""

from __future__ import annotations

import os
import re
import shutil
import time

import pytest
from dashboard_server import (
    BROWSER_MARKS,
    GRAPH_READY,
    ROOT,
    goto_page,
    idle,
    open_page,
    running_dashboard,
    upload_case,
)
from test_e2e_journeys import _no_exception, _walk

pytestmark = BROWSER_MARKS
WIDTH, HEIGHT = 1440, 900
ARTIFACTS = ROOT / "test-artifacts"
TIMES: dict[str, float] = {}


@pytest.fixture
def server(tmp_path):
    db = tmp_path / "approvals.db"
    env = {"DGRR_DB": str(db), "HOME": str(tmp_path),
           "DGRR_CASES_DIR": str(tmp_path / "cases"),
           "DGRR_BENCH_OUT": str(tmp_path / "bench-out")}
    with running_dashboard(tmp_path, env) as url:
        yield url, db


SCROLLED = """() => Math.max(window.scrollY, ...[...document.querySelectorAll(
    '[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main')]
    .map(e => e.scrollTop))"""


def on_first_screen(page, locator, what: str, *, at_least: float | None = None) -> None:
    """`locator` (its first match) is visible when the page opens: the page is not
    scrolled and its box lies inside the viewport (`at_least`: only its top that many
    pixels need be, for a picture taller than the screen)."""
    target = locator.first
    target.wait_for(state="visible")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"walk-100k-{what.lower()}.png"))
    assert page.evaluate(SCROLLED) == 0, (what, "the page was scrolled")
    box = target.bounding_box()
    assert box is not None, what
    bottom = box["y"] + (min(box["height"], at_least) if at_least else box["height"])
    assert box["y"] >= 0 and bottom <= HEIGHT, (what, box)
    assert box["x"] >= 0 and box["x"] + min(box["width"], WIDTH) <= WIDTH, (what, box)


def _arrive(page, label: str) -> None:
    goto_page(page, label)
    idle(page)
    _no_exception(page, label)


def test_a_100k_step_case_is_walked_to_an_approval_with_each_action_on_the_first_screen(
        server, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from repair_core.approvals import ApprovalStore
    from repair_core.cli import main

    url, db = server
    path = tmp_path / "synth-100000.json"
    assert main(["synth", "--steps", "100000", "--seed", "2", "--out", str(path)]) == 0
    external: list[str] = []
    start = time.monotonic()
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, width=WIDTH, height=HEIGHT)
        page.set_default_timeout(300_000)
        page.goto(url)

        t = time.monotonic()
        goto_page(page, "Load")
        page.get_by_role("tab", name="Upload a case").click()
        idle(page)
        on_first_screen(page, page.get_by_role("button", name="Load uploaded case"), "Load")
        upload_case(page, "Upload a case", "Load uploaded case", path)
        TIMES["load"] = time.monotonic() - t

        # every page after Load: no exception, one decision legend
        t = time.monotonic()
        legends = _walk(page)
        assert len(set(legends.values())) == 1, legends
        TIMES["every page"] = time.monotonic() - t

        t = time.monotonic()
        _arrive(page, "Faults")
        on_first_screen(page, page.get_by_role("button", name="Apply fault marks"), "Faults")
        page.get_by_text("3 fault(s) marked").first.wait_for()
        TIMES["faults"] = time.monotonic() - t

        t = time.monotonic()
        _arrive(page, "Graph")
        page.wait_for_function(GRAPH_READY, timeout=300_000)
        on_first_screen(page, page.locator("iframe").first, "Graph", at_least=400)
        TIMES["graph"] = time.monotonic() - t

        t = time.monotonic()
        _arrive(page, "Plan")
        apply = page.get_by_role("button", name="Apply edit")
        on_first_screen(page, apply, "Plan")
        # a quarantined record deleted instead: the replay set stays the same
        page.get_by_role("textbox", name="…or type an id (exact match)").fill("m2")
        page.keyboard.press("Enter")
        idle(page)
        box = page.locator('[data-testid="stSelectbox"]').filter(has_text="New decision")
        box.locator("input").click()
        page.locator('[role="option"]').filter(has_text="delete").first.click()
        page.get_by_role("textbox", name="Comment (why)").fill("stale meal preference")
        idle(page)
        apply.click()
        expect(page.get_by_text("Applied 1 edit(s): m2 → delete")).to_be_visible()
        TIMES["plan"] = time.monotonic() - t

        t = time.monotonic()
        _arrive(page, "Replay")
        run = page.get_by_role("button", name="Run replay")
        on_first_screen(page, run, "Replay")
        run.click()
        page.get_by_text("Replay finished").first.wait_for(timeout=600_000)
        idle(page)
        _no_exception(page, "Replay finished")
        TIMES["replay"] = time.monotonic() - t

        t = time.monotonic()
        _arrive(page, "Compare")
        on_first_screen(page, page.locator("#dgrr-answer-after"), "Compare")
        TIMES["compare"] = time.monotonic() - t

        t = time.monotonic()
        _arrive(page, "Approve")
        record = page.get_by_role("button", name="Record decision")
        on_first_screen(page, record, "Approve")
        boxes = page.locator('[data-testid="stCheckbox"]')
        assert boxes.count() <= 30, "one acknowledgement per group, not one per item"
        for i in range(boxes.count()):
            boxes.nth(i).locator("label").click()
            idle(page)
        page.get_by_label("Reviewer").fill("Ana Reviewer")
        page.get_by_label("Comment (a rejection needs a reason)").fill("walked at 100k steps")
        record.click()
        # recording checks the result again in the worker (the replay made again at 100k
        # steps: as long as the replay above, which a loaded machine stretched past 30 s)
        expect(page.get_by_text("Recorded #1: approve by Ana Reviewer")).to_be_visible(
            timeout=300_000)
        _no_exception(page, "Approve recorded")
        TIMES["approve"] = time.monotonic() - t

        # F5: the uploaded case comes back (kept under its sha256, named in the address)
        # with the plan edit
        t = time.monotonic()
        assert "case=" in page.url, page.url
        page.reload()
        expect(page.get_by_text("Reloaded the uploaded or imported case")).to_be_visible(
            timeout=300_000)
        idle(page)
        _no_exception(page, "reload")
        side = page.locator('[data-testid="stSidebar"]')
        expect(side.get_by_text("synth-100000s-20000m-seed2")).to_be_visible()
        expect(side.get_by_text(re.compile(r"plan: 1 reviewer edit"))).to_be_visible()
        page.get_by_role("heading", level=1).filter(has_text="Approve").wait_for()
        TIMES["reload"] = time.monotonic() - t

        # server-side search over every step: s9999 is found
        t = time.monotonic()
        goto_page(page, "Trace")
        search = page.get_by_label("Search id or text (every step and record)")
        search.fill("s9999")
        search.press("Enter")
        idle(page)
        page.wait_for_function("""() => { for (const f of document.querySelectorAll('iframe')) {
            try { const r = f.contentDocument.querySelector('.row[data-id="s9999"]');
                  if (r) return true; } catch (e) {} }
            return false; }""", timeout=120_000)
        _no_exception(page, "Trace search")
        TIMES["trace search"] = time.monotonic() - t
        browser.close()
    TIMES["walk"] = time.monotonic() - start

    if os.environ.get("DGRR_UPDATE_SCREENSHOT") == "1":
        shutil.copy(ARTIFACTS / "walk-100k-approve.png", ROOT / "docs" / "dashboard-approve-100k.png")
    [rec] = ApprovalStore(str(db)).history()
    assert rec.reviewer == "Ana Reviewer" and rec.decision == "approve"
    assert [(e["node"], e["action"]) for e in rec.plan_edits] == [("m2", "delete")]
    assert external == [], external


def teardown_module() -> None:
    if TIMES:
        print("\n100k walk (s): " + ", ".join(f"{k} {v:.1f}" for k, v in TIMES.items()))
