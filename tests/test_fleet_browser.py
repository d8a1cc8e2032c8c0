"""Fleet triage in real headless Chromium against `streamlit run app.py`: read a fleet
result, open the most severe case, look at its plan, approve it, and find the approval in
the same log. External requests are blocked."""

from __future__ import annotations

import json

import pytest
from dashboard_server import BROWSER_MARKS, ROOT, goto_page, open_page, running_dashboard

pytest.importorskip("pyarrow")

from repair_core.fleet import FleetSpec, run_fleet  # noqa: E402

QUAY = "5 Quay Ln, Dublin"
pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path):
    fleet = tmp_path / "fleet"
    run_fleet([str(ROOT / "sample_traces" / "controlled")], FleetSpec(mode="text", value=QUAY),
              fleet, workers=1, progress=False)
    db = tmp_path / "approvals.db"
    env = {"DGRR_DB": str(db), "HOME": str(tmp_path), "DGRR_FLEET_DIR": str(fleet)}
    with running_dashboard(tmp_path, env) as url:
        yield url, db, fleet


def test_triage_open_and_approve(server):
    from playwright.sync_api import expect, sync_playwright

    url, db, fleet = server
    summary = json.loads((fleet / "summary.json").read_text())
    holders = {}
    for f in sorted((ROOT / "sample_traces" / "controlled").glob("*.json")):
        data = json.loads(f.read_text())
        ids = [m["id"] for m in data.get("memory", []) if QUAY in m["text"]]
        if ids:
            holders[data["case_id"]] = ids
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, url, external)
        page.goto(url)
        goto_page(page, "Fleet")
        matched = page.locator('[data-testid="stMetric"]').filter(has_text="Matched")
        expect(matched).to_contain_text(str(len(holders)))
        assert summary["matched_cases"] == len(holders)
        page.get_by_role("button", name="Open in the workbench").click()
        expect(page.get_by_text("Opened as the working case")).to_be_visible()
        opened = page.locator('[data-testid="stText"]').filter(has_text="faults:").first
        text = opened.inner_text()
        case_id = text.split(" · ")[0].strip()
        assert case_id in holders
        assert text.endswith(", ".join(holders[case_id]))

        page.get_by_role("link", name="Plan").first.click()
        page.get_by_role("heading", level=1).filter(has_text="Plan").first.wait_for()
        goto_page(page, "Approve")
        page.get_by_label("Reviewer").fill("Fleet Reviewer")
        page.get_by_label("Comment (a rejection needs a reason)").fill(
            "triaged from the fleet page")
        for box in page.locator('[data-testid="stCheckbox"]').all():  # acknowledge warnings
            box.locator("label").click()
            page.wait_for_timeout(300)
            page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden")
        page.get_by_role("button", name="Record decision").click()
        expect(page.get_by_text("Recorded #1: approve by Fleet Reviewer")).to_be_visible()
        browser.close()

    from repair_core.approvals import ApprovalStore

    [rec] = ApprovalStore(str(db)).history()
    assert rec.case_id == case_id and rec.reviewer == "Fleet Reviewer"
    assert external == [], external
