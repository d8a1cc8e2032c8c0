"""The toolbar a new operator sees in Chromium: no *Deploy* button (it offers to publish the
app to Streamlit Community Cloud, from a dashboard that is local by default and reads
private cases), while the menu a viewer needs stays. External requests are blocked."""

from __future__ import annotations

from dashboard_server import BROWSER_MARKS, idle, open_page, running_dashboard

pytestmark = BROWSER_MARKS


def test_the_toolbar_offers_no_deploy_button(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    external: list[str] = []
    with running_dashboard(tmp_path, {"DGRR_DB": str(tmp_path / "approvals.db"),
                                      "HOME": str(tmp_path)}) as url, sync_playwright() as p:
        browser, page = open_page(p, url, external)
        page.goto(url)
        expect(page.get_by_role("heading", name="dgrr — dependency-guided rollback repair")
               ).to_be_visible()
        idle(page)
        expect(page.get_by_test_id("stMainMenu")).to_be_visible()  # the viewer's menu
        expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
        expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
        browser.close()
    assert external == []
