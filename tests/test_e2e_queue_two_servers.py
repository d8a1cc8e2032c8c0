"""Two dashboard servers on one PostgreSQL behave as one queue (real Chromium): a request
claimed through one server is held on the other too, the other reviewer is handed the next
one, and a decision made on one server shows on the other."""

from __future__ import annotations

from dashboard_server import BROWSER_MARKS, goto_page, idle, open_page, running_dashboard
from postgres_server import POSTGRES_MARKS

pytestmark = [*BROWSER_MARKS, *POSTGRES_MARKS]


def _inbox_as(page, url: str, name: str) -> None:
    page.goto(url)
    goto_page(page, "Inbox")
    field = page.get_by_role("textbox", name="Your name (reviewer)")
    field.fill(name)
    field.press("Enter")
    idle(page)


def test_two_servers_one_queue(postgres_db, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from repair_core import load_example
    from repair_core.queue import RepairQueue

    q = RepairQueue(postgres_db)
    q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="bot-a")
    q.submit(load_example(), ["m6"], diagnosed_by="detector", agent="bot-b")
    q.close()
    env = {"DGRR_DB": postgres_db, "HOME": str(tmp_path)}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with running_dashboard(tmp_path / "a", env) as url_a, \
            running_dashboard(tmp_path / "b", env) as url_b, sync_playwright() as p:
        external: list[str] = []
        browser_a, page_a = open_page(p, url_a, external)
        browser_b, page_b = open_page(p, url_b, external)
        _inbox_as(page_a, url_a, "ana")
        _inbox_as(page_b, url_b, "bo")
        page_a.get_by_role("button", name="Claim", exact=True).click()
        expect(page_a.get_by_text("You hold request #1")).to_be_visible()
        # server B, its page drawn before A's claim: "the oldest pending" hands it #2 (a
        # rerun lists #1 as claimed, no longer pending; the race itself is settled in the
        # database: tests/test_queue_postgres.py)
        page_b.get_by_role("button", name="Claim", exact=True).click()
        expect(page_b.get_by_text("You hold request #2")).to_be_visible()
        browser_a.close()
        browser_b.close()
    assert external == []
    q = RepairQueue(postgres_db)
    held = {r.id: r.claimed_by for r in q.requests(status=["claimed"])}
    q.close()
    assert held == {1: "ana", 2: "bo"}
