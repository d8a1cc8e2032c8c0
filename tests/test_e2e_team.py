"""A dashboard shared by a team, end to end: a real `streamlit run app.py` configured for
OpenID Connect (the provider of tests/oidc_provider.py on loopback) and the operator's
`[dgrr]` settings, driven in Chromium. A visitor who never signed in finds no field for a
database or an API base, cannot record, and cannot make the server call a model with its
key; after signing in, the decision lands in the operator's database under the provider's
subject. External requests are blocked."""

from __future__ import annotations

import re
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from dashboard_server import (
    BROWSER_MARKS,
    goto_page,
    idle,
    oidc_secrets,
    open_page,
    running_dashboard,
)

pytestmark = BROWSER_MARKS

USERS = {"ana": {"sub": "u-ana-0001", "email": "Ana@Example.org"}}
SERVER_KEY = "sk-server-own-secret-0123456789"


class _Capture(BaseHTTPRequestHandler):
    seen: list[dict[str, str]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - the server's API
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.seen.append({k.lower(): v for k, v in self.headers.items()})
        self.send_response(400)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def team_dashboard(tmp_path):
    pytest.importorskip("authlib", reason="needs the 'auth' extra")
    from oidc_provider import running_oidc_provider

    handler = type("Capture", (_Capture,), {"seen": []})
    capture = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=capture.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{capture.server_address[1]}/v1"
    db = tmp_path / "operator.db"
    try:
        with running_oidc_provider(USERS) as provider:
            from lg_sqlite_case import trust_key

            from repair_core.queue import reviewer_label

            # a team dashboard signs every row: the server's key for each subject
            for user in USERS.values():
                trust_key(reviewer_label(issuer=provider.issuer, subject=user["sub"],
                                         email=user["email"]),
                          tmp_path / ".dgrr" / "keys", tmp_path / ".dgrr" / "trusted_keys.json")
            conf = oidc_secrets(
                tmp_path / "secrets.toml", provider,
                "[dgrr]\n"
                f'db = "{db}"\n'
                "[[dgrr.models]]\n"
                'model = "openai/team-model"\n'
                f'api_base = "{base}"\n')
            env = {"HOME": str(tmp_path), "OPENAI_API_KEY": SERVER_KEY,
                   "DGRR_DB": str(tmp_path / "not-this.db")}
            with running_dashboard(tmp_path, env, {"secrets.files": str(conf)}) as url:
                yield url, db, provider, handler.seen
    finally:
        capture.shutdown()
        capture.server_close()


def _fresh(page: Any, testid: str) -> Any:
    return page.locator(
        f'[data-testid="stElementContainer"]:not([data-stale="true"]) [data-testid="{testid}"]')


def test_a_visitor_does_nothing_and_a_reviewer_records_in_the_operators_log(team_dashboard):
    from playwright.sync_api import expect, sync_playwright

    url, db, provider, seen = team_dashboard
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, allow=(provider.issuer,))
        page.goto(f"{url}/Load")
        page.get_by_role("button", name="Load sample").click()
        expect(page.get_by_text("Loaded case fig1-travel")).to_be_visible()

        goto_page(page, "Approve")
        expect(page.get_by_text("Sign in to review")).to_be_visible()
        expect(page.get_by_label("Database URL or SQLite file")).to_have_count(0)
        expect(page.get_by_role("button", name="Record decision")).to_have_count(0)

        goto_page(page, "Replay")
        expect(page.get_by_label("API base (optional)")).to_have_count(0)
        box = _fresh(page, "stSelectbox").filter(has_text="Model").first
        box.locator("input").click()
        page.locator('[role="option"]').filter(has_text="openai/team-model").first.click()
        idle(page)
        expect(page.get_by_text("Sign in to review")).to_be_visible()
        expect(page.get_by_role("button", name="Run replay")).to_have_count(0)

        goto_page(page, "Inbox")
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("button", name="Sign in as ana").click()
        page.wait_for_url(url + "/**", timeout=60_000)
        page.goto(f"{url}/Load")
        page.get_by_role("button", name="Load sample").click()
        expect(page.get_by_text("Loaded case fig1-travel")).to_be_visible()
        goto_page(page, "Approve")
        # the whole identity: the e-mail as the log keeps it, and the subject
        expect(page.get_by_text(re.compile("Reviewer: ana\u2060?@example.org .*u-ana-0001"))
               ).to_be_visible()
        expect(page.get_by_label("Database URL or SQLite file")).to_have_count(0)
        warnings = page.locator('[data-testid="stCheckbox"]')
        warnings.first.wait_for()
        idle(page)
        for w in warnings.all():
            w.locator("label").click()
            idle(page)
        page.get_by_role("button", name="Record decision").click()
        expect(page.get_by_text(re.compile("Recorded #1"))).to_be_visible(timeout=120_000)
        browser.close()
    assert external == []
    assert seen == []  # the server called no model for the visitor, least of all with its key
    with sqlite3.connect(db) as con:
        ((reviewer,),) = con.execute("SELECT reviewer FROM dgrr_approvals").fetchall()
    assert reviewer == f"ana@example.org <oidc:{provider.issuer}#u-ana-0001>"
    assert not (Path(db).parent / "not-this.db").exists()
