"""The review queue in real Chromium with sign-in: a dashboard configured for OpenID Connect
(Streamlit's st.login against a local provider on loopback); a queued request is claimed
and approved by a signed-in reviewer; the approvals log names the provider's identity,
never a typed name. External requests are blocked."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest
from dashboard_server import BROWSER_MARKS, goto_page, idle, open_page, running_dashboard

pytestmark = BROWSER_MARKS

USERS = {"ana": {"sub": "u-ana-0001", "email": "ana@example.org"},
         "bo": {"sub": "u-bo-0002", "email": "bo@example.org"}}


def _secrets(path: Path, provider) -> Path:
    from oidc_provider import CLIENT_ID, CLIENT_SECRET

    path.write_text(
        "[auth]\n"
        'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        f'client_id = "{CLIENT_ID}"\n'
        f'client_secret = "{CLIENT_SECRET}"\n'
        f'server_metadata_url = "{provider.metadata_url}"\n')
    return path


@pytest.fixture
def signed_in_dashboard(tmp_path):
    pytest.importorskip("authlib", reason="needs the 'auth' extra")
    from oidc_provider import running_oidc_provider

    from repair_core import load_example
    from repair_core.queue import RepairQueue

    db = tmp_path / "approvals.db"
    q = RepairQueue(str(db))
    q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot")
    q.close()
    with running_oidc_provider(USERS) as provider:
        conf = _secrets(tmp_path / "secrets.toml", provider)
        with running_dashboard(tmp_path, {"DGRR_DB": str(db), "HOME": str(tmp_path)},
                               {"secrets.files": str(conf)}) as url:
            yield url, db, provider


def test_a_signed_in_reviewer_claims_and_approves(signed_in_dashboard):
    from playwright.sync_api import expect, sync_playwright

    from repair_core.queue import RepairQueue

    url, db, provider = signed_in_dashboard
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, allow=(provider.issuer,))
        page.goto(url)
        goto_page(page, "Inbox")
        # nothing to claim before signing in, and no name field to type into
        expect(page.get_by_text("Sign in to review")).to_be_visible()
        expect(page.get_by_label("Your name (reviewer)")).to_have_count(0)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("button", name="Sign in as ana").click()
        page.wait_for_url(url + "/**", timeout=60_000)
        goto_page(page, "Inbox")
        # the e-mail is shown as text (a word joiner keeps it from becoming a mailto link)
        expect(page.get_by_text(re.compile("Signed in as ana\u2060?@example.org"))
               ).to_be_visible()
        expect(page.locator('a[href^="mailto:"]')).to_have_count(0)
        page.get_by_role("button", name="Claim", exact=True).click()
        expect(page.get_by_text("You hold request #1")).to_be_visible()
        idle(page)

        goto_page(page, "Approve")
        expect(page.get_by_text("queue request #1")).to_be_visible()
        expect(page.get_by_text(re.compile("Reviewer: ana\u2060?@example.org \\(signed in\\)"))
               ).to_be_visible()
        warnings = page.locator('[data-testid="stCheckbox"]')
        warnings.first.wait_for()
        idle(page)
        for box in warnings.all():  # acknowledge warnings
            box.locator("label").click()
            idle(page)
        page.get_by_role("button", name="Record decision").click()
        expect(page.get_by_text("Request #1 is now approved")).to_be_visible(timeout=120_000)
        browser.close()
    assert provider.logins == ["ana"]
    assert external == []
    q = RepairQueue(str(db))
    request = q.get(1)
    label = f"ana@example.org <oidc:{provider.issuer}#u-ana-0001>"
    assert (request.status, request.claimed_by, request.decided_by) == ("approved", label,
                                                                        label)
    [decision] = q.approvals.history()
    assert decision.reviewer == label and decision.decision == "approve"
    q.close()
