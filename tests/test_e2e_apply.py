"""Apply from the browser, end to end: a real `streamlit run app.py` shared by a team
(OpenID Connect through tests/oidc_provider.py) whose operator configured a LangGraph
`SqliteStore` file a traced agent run wrote, driven in Chromium: a visitor gets no Dry
run or Apply; the signed-in reviewer uploads the imported case, replays it, approves,
dry-runs and applies; the store file then holds the repair, every row of the approvals
log is signed with the server key bound to the reviewer's subject, and `dgrr history
--verify` checks those signatures. External requests are blocked."""

from __future__ import annotations

import os
import re
import sys

import pytest
from dashboard_server import (
    BROWSER_MARKS,
    ROOT,
    goto_page,
    idle,
    oidc_secrets,
    open_page,
    running_dashboard,
    upload_case,
)

pytestmark = BROWSER_MARKS

USERS = {"ana": {"sub": "u-ana-0001", "email": "ana@example.org"}}


@pytest.fixture
def apply_dashboard(tmp_path):
    pytest.importorskip("authlib", reason="needs the 'auth' extra")
    pytest.importorskip("langgraph.store.sqlite", reason="needs the 'import' extra")
    from lg_sqlite_case import FACTORY, sqlite_run, trust_key
    from oidc_provider import running_oidc_provider

    from repair_core.cli import main
    from repair_core.queue import reviewer_label

    run = sqlite_run(tmp_path / "agent")
    case_file = tmp_path / "lg-case.json"
    assert main(["import", str(run.trace), "--faults", run.seat, "--out", str(case_file)]) == 0
    paths = {"db": tmp_path / "operator.db", "keys": tmp_path / "server-keys",
             "trust": tmp_path / "trusted_keys.json", "journal": tmp_path / "journal"}
    with running_oidc_provider(USERS) as provider:
        label = reviewer_label(issuer=provider.issuer, subject=USERS["ana"]["sub"],
                               email=USERS["ana"]["email"])
        trust_key(label, paths["keys"], paths["trust"])  # the server key for ana's subject
        conf = oidc_secrets(
            tmp_path / "secrets.toml", provider,
            "[dgrr]\n"
            f'db = "{paths["db"]}"\n'
            f'keys = "{paths["keys"]}"\n'
            f'trust = "{paths["trust"]}"\n'
            'apply_to = "langgraph"\n'
            f'apply_store = "{FACTORY}:store"\n'
            f'apply_journal = "{paths["journal"]}"\n')
        env = {"HOME": str(tmp_path),
               "PYTHONPATH": os.pathsep.join([str(tmp_path / "agent"), str(ROOT)])}
        with running_dashboard(tmp_path, env, {"secrets.files": str(conf)}) as url:
            yield url, provider, run, case_file, paths, label


def test_sign_in_approve_dry_run_apply_then_the_signatures_verify(apply_dashboard, capsys):
    from lg_sqlite_case import store_texts
    from playwright.sync_api import expect, sync_playwright

    from repair_core.approvals import ApprovalStore
    from repair_core.cli import main

    url, provider, run, case_file, paths, label = apply_dashboard
    sys.path.insert(0, str(ROOT / "scripts"))
    before = store_texts(run.store_file)
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, url, external, allow=(provider.issuer,))
        page.goto(f"{url}/Load")
        page.get_by_role("button", name="Load sample").click()
        expect(page.get_by_text("Loaded case fig1-travel")).to_be_visible()
        goto_page(page, "Approve")
        expect(page.get_by_text("Sign in to review")).to_be_visible()
        expect(page.get_by_role("button", name="Dry run")).to_have_count(0)
        expect(page.get_by_role("button", name="Apply", exact=True)).to_have_count(0)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("button", name="Sign in as ana").click()
        page.wait_for_url(url + "/**", timeout=60_000)

        upload_case(page, "Upload a case", "Load uploaded case", case_file)
        goto_page(page, "Replay")
        page.get_by_role("button", name="Run replay").click()
        # the replay's content check runs in the upload worker in team mode: on a loaded
        # machine the page is idle a while before the replay is done
        expect(page.get_by_text("Replay finished.")).to_be_visible(timeout=120_000)
        idle(page)
        goto_page(page, "Approve")
        expect(page.get_by_text(re.compile("Reviewer: ana\u2060?@example.org .*u-ana-0001"))
               ).to_be_visible()
        warnings = page.locator('[data-testid="stCheckbox"]')
        idle(page)
        for box in warnings.all():
            box.locator("label").click()
            idle(page)
        page.get_by_role("button", name="Record decision").click()
        expect(page.get_by_text(re.compile("Recorded #1"))).to_be_visible(timeout=120_000)
        expect(page.get_by_role("button", name="Apply", exact=True)).to_be_disabled()

        page.get_by_role("button", name="Dry run").click()
        expect(page.get_by_text(re.compile("every check passed"))).to_be_visible(timeout=120_000)
        shown = page.locator('[data-testid="stCode"]').filter(has_text="dry run: nothing written")
        expect(shown).to_contain_text("check approval and review rule: passed: #1")
        expect(shown).to_contain_text("signatures checked against the trust file")
        assert store_texts(run.store_file) == before

        page.get_by_role("button", name="Apply", exact=True).click()
        expect(page.get_by_text(re.compile("Applied: the write-back is recorded"))
               ).to_be_visible(timeout=120_000)
        done = page.locator('[data-testid="stCode"]').filter(has_text="applied delete")
        expect(done).to_contain_text("check store unchanged since the trace: passed")
        browser.close()
    assert external == []
    after = store_texts(run.store_file)
    assert (("lin", "prefs"), "seat") in before and (("lin", "prefs"), "seat") not in after
    assert after[("lin", "prefs"), "cabin"] == "Lin flies economy."
    rows = ApprovalStore(str(paths["db"])).history()
    assert [r.kind for r in rows] == ["applied", "intent", "decision"]
    assert all(r.reviewer == label and r.key_id and r.signature for r in rows)
    capsys.readouterr()
    assert main(["history", "--verify", "--db", str(paths["db"]),
                 "--trust", str(paths["trust"])]) == 0
    out = capsys.readouterr().out
    assert "approvals log intact: 3 rows" in out and "chain and signatures checked" in out
