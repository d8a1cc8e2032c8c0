"""What a new operator sees in Chromium: no *Deploy* button in the toolbar (it offers to
publish the app to Streamlit Community Cloud, from a dashboard that is local by default
and reads private cases) while the viewer's menu stays; and no checkbox label cut short
with an ellipsis, at 1280 px as at 1440 px: the Approve page's warning a reviewer ticks to
acknowledge, the Graph page's filters. External requests are blocked."""

from __future__ import annotations

from dashboard_server import BROWSER_MARKS, goto_page, idle, open_page, running_dashboard

pytestmark = BROWSER_MARKS

CUT_LABELS = """() => [...document.querySelectorAll(
  '[data-testid="stMain"] [data-testid="stCheckbox"] .stMarkdownEllipsis')]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""
"""The checkbox labels of the page whose text is wider than their box (drawn cut)."""


def test_no_deploy_button_and_no_checkbox_label_cut_short(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    external: list[str] = []
    with running_dashboard(tmp_path, {"DGRR_DB": str(tmp_path / "approvals.db"),
                                      "HOME": str(tmp_path)}) as url, sync_playwright() as p:
        browser, page = open_page(p, url, external, width=1280, height=900)
        page.goto(url)
        expect(page.get_by_role("heading", name="dgrr — dependency-guided rollback repair")
               ).to_be_visible()
        idle(page)
        expect(page.get_by_test_id("stMainMenu")).to_be_visible()  # the viewer's menu
        expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
        expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)

        page.goto(f"{url}/Load")
        page.get_by_role("button", name="Load sample").click()
        expect(page.get_by_text("Loaded case fig1-travel")).to_be_visible()
        for name, label in (("Approve", "This plan has not been replayed"),
                            ("Graph", "Affected subgraph only")):
            goto_page(page, name)
            expect(page.get_by_test_id("stCheckbox").filter(has_text=label)).to_be_visible()
            idle(page)
            for width in (1280, 1440):
                page.set_viewport_size({"width": width, "height": 900})
                page.wait_for_timeout(300)
                assert page.evaluate(CUT_LABELS) == [], (name, width)
        browser.close()
    assert external == []
