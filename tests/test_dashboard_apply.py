"""Applying from the dashboard: the Approve page's dry run and apply go through
`repair_core.integrations.apply_result` (what `dgrr apply` calls) to the store the
operator configured, here a real LangGraph `SqliteStore` file a traced agent run wrote;
each check is shown as plain text, a refusal is the command's; a team dashboard signs
every row it records with the signed-in reviewer's server key, and `dgrr history
--verify` checks those signatures (AppTest and the page's code path)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("langgraph.store.sqlite", reason="needs the 'import' extra (langgraph)")
pytest.importorskip("openinference.instrumentation.langchain", reason="needs the 'import' extra")

from lg_sqlite_case import FACTORY, sqlite_run, store_texts, trust_key  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import DgrrError, plan_case, repair  # noqa: E402
from repair_core.approvals import ApprovalStore, approval_summary, record_decision  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.model import REFERENCE_MODEL  # noqa: E402
from repair_core.replay import replay_again  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
ANA = {"is_logged_in": True, "email": "ana@example.org", "sub": "u-ana-0001",
       "iss": "https://id.example"}
LABEL = "ana@example.org <oidc:https://id.example#u-ana-0001>"
AUTH = {"redirect_uri": "http://127.0.0.1:8501/oauth2callback", "cookie_secret": "x" * 32,
        "client_id": "dgrr-dashboard", "client_secret": "s" * 24,
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration"}
SEAT = (("lin", "prefs"), "seat")
CABIN = (("lin", "prefs"), "cabin")


@pytest.fixture()
def operator(tmp_path, monkeypatch):
    """The traced run on a SqliteStore file and the operator's settings naming it: the
    approvals database, key folder, trust file and journal folder (HOME is the test's)."""
    run = sqlite_run(tmp_path / "agent")
    monkeypatch.syspath_prepend(str(tmp_path / "agent"))
    sys.modules.pop(FACTORY, None)
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = {"db": tmp_path / "approvals.db", "keys": tmp_path / "keys",
                "trust": tmp_path / "trusted_keys.json", "journal": tmp_path / "journal"}
    monkeypatch.setenv("DGRR_DB", str(settings["db"]))
    monkeypatch.setenv("DGRR_KEYS", str(settings["keys"]))
    monkeypatch.setenv("DGRR_TRUST", str(settings["trust"]))
    monkeypatch.setenv("DGRR_APPLY_DIR", str(settings["journal"]))
    monkeypatch.setenv("DGRR_APPLY_TO", "langgraph")
    monkeypatch.setenv("DGRR_APPLY_STORE", f"{FACTORY}:store")
    yield run, settings
    sys.modules.pop(FACTORY, None)


def _verify(settings) -> str:
    return f"{main(['history', '--verify', '--db', str(settings['db']), '--trust', str(settings['trust'])])}"


def test_the_pages_apply_writes_the_sqlite_store_and_signs_every_row(operator, monkeypatch,
                                                                      capsys):
    import dgrr_dashboard.settings as dashboard_settings
    from dgrr_dashboard.apply_panel import run_apply

    run, settings = operator
    monkeypatch.setattr(dashboard_settings, "team_mode", lambda: True)
    plan = plan_case(run.case)
    result = repair(run.case, plan, model=REFERENCE_MODEL)
    before = store_texts(run.store_file)
    url = str(settings["db"])

    summary = approval_summary(plan, result)
    log = dashboard_settings.approvals_log(url)
    # a team dashboard records no unsigned row: without a trust file, and without a key
    # the trust file trusts for the signed-in reviewer, the decision is refused
    with pytest.raises(DgrrError, match="only signed rows and there is no trust file"):
        record_decision(log, plan, reviewer=LABEL, decision="approve", result=result,
                        carrier_ids=summary.carriers, recompute=replay_again)
    trust_key("someone else", settings["keys"], settings["trust"])
    with pytest.raises(DgrrError, match="has no signing key"):
        record_decision(log, plan, reviewer=LABEL, decision="approve", result=result,
                        carrier_ids=summary.carriers, recompute=replay_again)
    assert ApprovalStore(url).history() == []
    # no approval yet: refused with the command's words, nothing written
    refused = run_apply(url, plan, result, write=True, reviewer=LABEL)
    assert refused.refusal == ("refused: this result has no approval in the approvals log; "
                               "nothing written")
    assert "check approval and review rule: failed: no approval in the log stands for this "\
        "result" in refused.lines
    assert store_texts(run.store_file) == before
    trust_key(LABEL, settings["keys"], settings["trust"])
    approval = record_decision(log, plan, reviewer=LABEL, decision="approve", result=result,
                               carrier_ids=summary.carriers, recompute=replay_again)
    assert approval.key_id and approval.signature

    dry = run_apply(url, plan, result, write=False, reviewer=LABEL)
    assert dry.refusal is None, dry.lines
    assert f"approval: #{approval.id} by {LABEL}" in dry.lines
    checks = [line for line in dry.lines if line.startswith("check ")]
    assert [c.split(":")[0] for c in checks] == [
        "check approval and review rule", "check carriers of a fault",
        "check scopes (records of another owner)"]
    assert all(": passed" in c for c in checks), checks
    assert "signatures checked against the trust file" in checks[0]
    assert dry.lines[-1] == "dry run: nothing written (press Apply to write)"
    assert store_texts(run.store_file) == before

    # a setting that does not say where the check runs: no check here in its place
    monkeypatch.setenv("DGRR_UPLOAD_WORKER", "sometimes")
    unsure = run_apply(url, plan, result, write=True, reviewer=LABEL)
    assert unsure.refusal is not None and unsure.refusal.startswith(
        "the upload_worker setting is not usable, so no check ran: "), unsure.refusal
    assert "'sometimes': expected auto, on or off" in unsure.refusal
    assert store_texts(run.store_file) == before
    monkeypatch.delenv("DGRR_UPLOAD_WORKER")

    done = run_apply(url, plan, result, write=True, reviewer=LABEL)
    assert done.refusal is None, done.lines
    assert any(line.startswith("check journal:") for line in done.lines)
    assert any(line.startswith("recorded as #") for line in done.lines)
    after = store_texts(run.store_file)  # a new connection: the writes are in the file
    assert SEAT in before and SEAT not in after
    assert after[CABIN] == "Lin flies economy." != before[CABIN]
    rows = ApprovalStore(url).history()
    assert [r.kind for r in rows] == ["applied", "intent", "decision"]
    assert all(r.key_id and r.signature for r in rows)
    capsys.readouterr()
    assert _verify(settings) == "0"
    out = capsys.readouterr().out
    assert "chain and signatures checked against" in out and "unsigned" not in out

    # the same apply again: the store no longer is what the trace saw; refused, unchanged
    again = run_apply(url, plan, result, write=True, reviewer=LABEL)
    assert again.refusal is not None and "nothing" in again.refusal
    assert store_texts(run.store_file) == after


def _team_app(user: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.secrets["auth"] = AUTH
    at.user = dict(user)
    return _ok(at.run())


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _with_case(at: AppTest, case) -> AppTest:
    _ok(at.switch_page("pages/1_Load.py").run())
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    at.session_state["dgrr_case"] = case
    for key in ("dgrr_computed_plan", "dgrr_plan", "dgrr_plan_keys"):
        if key in at.session_state:
            del at.session_state[key]
    return at


def _texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("success", "info", "warning", "error",
                                                 "caption", "markdown", "code")
                     for e in at.get(kind))


def test_a_signed_in_operator_approves_dry_runs_and_applies_on_the_page(operator):
    run, settings = operator
    trust_key(LABEL, settings["keys"], settings["trust"])
    visitor = _team_app({"is_logged_in": False})
    _ok(visitor.switch_page("pages/7_Approve.py").run())
    assert not [b for b in visitor.button if b.key in ("dgrr_w_apply_dry", "dgrr_w_apply_go")]

    at = _with_case(_team_app(ANA), run.case)
    _ok(at.switch_page("pages/5_Replay.py").run())
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    _ok(at.switch_page("pages/7_Approve.py").run())
    assert at.button(key="dgrr_w_apply_go").disabled  # no dry run yet
    for box in at.checkbox:
        if box.key and box.key.startswith("dgrr_w_ack_"):
            box.check()
    _ok(at.run())
    _ok(at.button(key="FormSubmitter:dgrr_w_approve_form-Record decision").click().run())
    assert any("Recorded #1" in s.value for s in at.success), _texts(at)
    before = store_texts(run.store_file)
    _ok(at.button(key="dgrr_w_apply_dry").click().run())
    [shown] = [c.value for c in at.code if "dry run: nothing written" in c.value]
    assert "check approval and review rule: passed: #1 stands for this case" in shown
    assert any("every check passed" in i.value for i in at.info), _texts(at)
    assert store_texts(run.store_file) == before
    assert not at.button(key="dgrr_w_apply_go").disabled
    _ok(at.button(key="dgrr_w_apply_go").click().run())
    assert any("Applied" in s.value for s in at.success), _texts(at)
    [shown] = [c.value for c in at.code if "applied delete" in c.value]
    assert "check store unchanged since the trace: passed" in shown
    assert SEAT not in store_texts(run.store_file)
    rows = ApprovalStore(str(settings["db"])).history()
    assert {r.reviewer for r in rows} == {LABEL} and all(r.signature for r in rows)
    assert _verify(settings) == "0"


def test_a_team_dashboard_without_a_trusted_key_records_nothing(operator):
    run, settings = operator
    at = _with_case(_team_app(ANA), run.case)
    _ok(at.switch_page("pages/7_Approve.py").run())
    for box in at.checkbox:
        if box.key and box.key.startswith("dgrr_w_ack_"):
            box.check()
    _ok(at.run())
    _ok(at.button(key="FormSubmitter:dgrr_w_approve_form-Record decision").click().run())
    errors = " ".join(e.value for e in at.error)
    assert "Not recorded" in errors and "only signed rows" in errors, _texts(at)
    assert not at.success
    assert ApprovalStore(str(settings["db"])).history() == []


def _decide(at: AppTest, reviewer: str, decision: str, comment: str = "") -> AppTest:
    at.text_input(key="dgrr_w_reviewer").set_value(reviewer)
    at.radio(key="dgrr_w_decision").set_value(decision)
    at.text_area(key="dgrr_w_comment").set_value(comment)
    for box in at.checkbox:
        if box.key and box.key.startswith("dgrr_w_ack_"):
            box.check()
    _ok(at.button(key="FormSubmitter:dgrr_w_approve_form-Record decision").click().run())
    assert any(f"{decision} by {reviewer}" in s.value for s in at.success), _texts(at)
    return at


def test_one_persons_dashboard_shows_the_commands_refusal_then_applies(operator):
    """Without sign-in the reviewer who recorded the decision applies; the dry run says
    which checks failed, and Apply is refused with `dgrr apply`'s own message (a later
    rejection stands); a later approval by another reviewer is applied."""
    run, settings = operator
    at = AppTest.from_file(APP, default_timeout=180)
    at = _with_case(_ok(at.run()), run.case)
    _ok(at.switch_page("pages/5_Replay.py").run())
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    _ok(at.switch_page("pages/7_Approve.py").run())
    before = store_texts(run.store_file)
    _ok(at.button(key="dgrr_w_apply_dry").click().run())
    assert any("1 check(s) failed" in w.value for w in at.warning), _texts(at)
    [shown] = [c.value for c in at.code if "dry run: nothing written" in c.value]
    assert "check approval and review rule: failed" in shown
    assert at.button(key="dgrr_w_apply_go").disabled  # no reviewer yet
    _decide(at, "Ana", "approve")
    _decide(at, "Bo", "reject", "the cabin record is right as it is")
    _ok(at.button(key="dgrr_w_apply_dry").click().run())
    assert any("1 check(s) failed" in w.value for w in at.warning), _texts(at)
    _ok(at.button(key="dgrr_w_apply_go").click().run())
    errors = re.sub(r"\\(.)", r"\1", " ".join(e.value for e in at.error))  # markdown escapes
    assert "Apply: refused, nothing written" in errors
    assert "refused: this result has no approval in the approvals log; nothing written" \
        in errors
    assert store_texts(run.store_file) == before
    assert at.button(key="dgrr_w_apply_go").disabled  # a refused apply is no dry run
    _decide(at, "Cy", "approve")
    _ok(at.button(key="dgrr_w_apply_dry").click().run())
    assert any("every check passed" in i.value for i in at.info), _texts(at)
    _ok(at.button(key="dgrr_w_apply_go").click().run())
    assert any("Applied" in s.value for s in at.success), _texts(at)
    assert SEAT not in store_texts(run.store_file)
    rows = ApprovalStore(str(settings["db"])).history()
    assert [(r.kind, r.reviewer) for r in rows[:2]] == [("applied", "Cy"), ("intent", "Cy")]
