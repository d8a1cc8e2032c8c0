"""The review queue end to end, in real Chromium with sign-in: a LangGraph agent process
(tests/queue_agent.py: the real graph on LangGraph's SqliteStore, traced, imported) submits
its poisoned record; a reviewer signs in to a dashboard configured for OpenID Connect
(Streamlit's st.login against a local provider on loopback), claims and approves it;
`dgrr worker` writes the repair back; the agent's next turn, through its own store search,
never sees the quarantined text; the approvals log names the provider's identity, never a
typed name. External requests are blocked."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from dashboard_server import (
    BROWSER_MARKS,
    ROOT,
    goto_page,
    idle,
    oidc_secrets,
    open_page,
    running_dashboard,
)

pytestmark = BROWSER_MARKS

USERS = {"ana": {"sub": "u-ana-0001", "email": "ana@example.org"},
         "bo": {"sub": "u-bo-0002", "email": "bo@example.org"}}


@pytest.fixture
def signed_in_dashboard(tmp_path):
    pytest.importorskip("authlib", reason="needs the 'auth' extra")
    from oidc_provider import running_oidc_provider

    pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")
    db = tmp_path / "approvals.db"
    agent_store = tmp_path / "agent-store.db"
    # the agent, in its own process, runs and submits what its detector flagged
    out = _agent("run", str(agent_store), str(tmp_path / "trace"), str(db))
    assert out.strip() == "1"
    with running_oidc_provider(USERS) as provider:
        from lg_sqlite_case import trust_key

        from repair_core.queue import reviewer_label

        # a team dashboard signs every row: the server's key for each subject
        for user in USERS.values():
            trust_key(reviewer_label(issuer=provider.issuer, subject=user["sub"],
                                     email=user["email"]),
                      tmp_path / ".dgrr" / "keys", tmp_path / ".dgrr" / "trusted_keys.json")
        conf = oidc_secrets(tmp_path / "secrets.toml", provider)
        with running_dashboard(tmp_path, {"DGRR_DB": str(db), "HOME": str(tmp_path)},
                               {"secrets.files": str(conf)}) as url:
            yield url, db, provider, agent_store


def _env(agent_store: Path) -> dict[str, str]:
    return {**os.environ, "DGRR_AGENT_STORE": str(agent_store),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}


def _agent(*args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "queue_agent.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env=_env(Path(args[1])))
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_signed_in_reviewer_claims_and_approves(signed_in_dashboard):
    from playwright.sync_api import expect, sync_playwright

    from repair_core.queue import RepairQueue

    sys.path.insert(0, str(ROOT / "scripts"))
    url, db, provider, agent_store = signed_in_dashboard
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
        expect(page.get_by_text(re.compile("Reviewer: ana\u2060?@example.org .*u-ana-0001.* \\(signed in\\)"))
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

    # the worker writes the approved repair back to the agent's store
    worker = subprocess.run([sys.executable, "-m", "repair_core", "worker", "--once",
                             "--db", str(db), "--name", "worker-1"], capture_output=True,
                            text=True, timeout=300, cwd=ROOT, env=_env(agent_store))
    assert worker.returncode == 0, worker.stderr[-3000:]
    assert "request #1: applied" in worker.stdout
    request = q.get(1)
    assert (request.status, request.worker) == ("applied", "worker-1")
    # newest first: the apply's end, the intent the worker recorded before its first
    # write (a journal is used once), the reviewer's decision
    applied, intent, decision = q.approvals.history()
    assert decision.reviewer == label and decision.decision == "approve"
    assert intent.kind == "intent"
    assert (applied.kind, applied.refers_to, applied.reviewer) == ("applied", decision.id,
                                                                   "worker-1")
    assert q.approvals.verify().ok
    q.close()

    # the agent's next turn reads its store through its own searches
    from langgraph_travel_run import LEARNED, STORE

    seen = json.loads(_agent("next-turn", str(agent_store)))
    for texts in (seen["recall"], seen["prefix"]):
        assert STORE["seat"] not in texts  # the poisoned record is gone
        assert LEARNED not in texts  # quarantined: derived from it
        assert "Lin flies economy, window seat." not in texts  # the poisoned update
        assert STORE["cabin"] in texts  # restored to its value before the poison
    anywhere = "\n".join(seen["root"])  # search(()) and list_namespaces(): nowhere either
    assert STORE["cabin"] in anywhere
    for hidden in (STORE["seat"], LEARNED, "Lin flies economy, window seat."):
        assert hidden not in anywhere
        assert STORE["home"] in texts and STORE["meal"] in texts
