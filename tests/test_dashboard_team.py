"""A dashboard shared by a team (AppTest): with sign-in configured, a visitor who never
signed in records, applies and spends nothing; the approvals database, the models and the
fleet folder are the operator's settings, never typed by a visitor; the server sends its
own API key to no address a visitor typed; a signed-in reviewer is the provider's subject,
compared case-folded."""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_example  # noqa: E402
from repair_core.queue import RepairQueue  # noqa: E402

APP = str(ROOT / "app.py")
SERVER_KEY = "sk-server-own-secret-0123456789"
AUTH = {"redirect_uri": "http://127.0.0.1:8501/oauth2callback", "cookie_secret": "x" * 32,
        "client_id": "dgrr-dashboard", "client_secret": "s" * 24,
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration"}
ANA = {"is_logged_in": True, "email": "ana@example.org", "sub": "u-ana-0001",
       "iss": "https://id.example"}
VISITOR = {"is_logged_in": False}


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _app(user: dict[str, Any], dgrr: dict[str, Any] | None = None,
         signin: bool = True) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    if signin:
        at.secrets["auth"] = AUTH
    if dgrr is not None:
        at.secrets["dgrr"] = dgrr
    at.user = dict(user)
    return _ok(at.run())


def _page(at: AppTest, page: str) -> AppTest:
    return _ok(at.switch_page(f"pages/{page}.py").run())


def _load_sample(at: AppTest) -> AppTest:
    _page(at, "1_Load")
    return _ok(at.button(key="dgrr_w_load_sample").click().run())


def _tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as con:
        return sorted(r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')"))


def _victim(tmp_path: Path) -> Path:
    """A SQLite file of someone else's the server process can write."""
    victim = tmp_path / "victim.db"
    with sqlite3.connect(victim) as con:
        con.execute("CREATE TABLE notes (body TEXT)")
    return victim


def _record_approval(at: AppTest) -> AppTest:
    for box in at.checkbox:
        if box.key and box.key.startswith("dgrr_w_ack_"):
            box.check()
    _ok(at.run())
    return _ok(at.button(key="FormSubmitter:dgrr_w_approve_form-Record decision").click().run())


@pytest.fixture()
def operator_db(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "operator.db"
    monkeypatch.setenv("DGRR_DB", str(path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("OPENAI_API_KEY", SERVER_KEY)
    return path


# --- the approvals database is the operator's ------------------------------------------

def test_a_visitor_cannot_point_approve_at_a_sqlite_file(operator_db, tmp_path):
    victim = _victim(tmp_path)
    at = _load_sample(_app(VISITOR))
    _page(at, "7_Approve")
    # nothing to type the database into, and the page asks to sign in before anything
    assert not [t for t in at.text_input if t.key == "dgrr_w_db"]
    assert any("Sign in" in b.label for b in at.button)
    # a session value set by any other means is not honoured either
    at.session_state["dgrr_db"] = str(victim)
    _ok(at.run())
    assert _tables(victim) == ["notes"]
    assert not operator_db.exists()


def test_the_inbox_reads_the_operators_database_only(operator_db, tmp_path):
    victim = _victim(tmp_path)
    q = RepairQueue(str(operator_db))
    q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot")
    q.close()
    at = _page(_app(ANA), "0_Inbox")
    assert not [t for t in at.text_input if t.key == "dgrr_w_inbox_db"]
    at.session_state["dgrr_db"] = str(victim)
    _ok(at.run())
    table = next(d.value for d in at.dataframe if "diagnosed by" in d.value.columns)
    assert list(table["agent"]) == ["travel-bot"]
    assert _tables(victim) == ["notes"]


def test_the_database_shown_to_a_reviewer_hides_its_password(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    at = _app(ANA, {"db": "postgresql://dgrr:hunter2secret@127.0.0.1:9/dgrr"})
    _page(at, "0_Inbox")
    shown = " ".join(c.value for c in at.caption)
    assert "127.0.0.1:9/dgrr" in shown
    assert "hunter2secret" not in shown


def test_a_signed_in_reviewer_records_in_the_operators_database(operator_db, tmp_path):
    from lg_sqlite_case import trust_key

    # a team dashboard records only signed rows: the server's key for ana's subject
    label = "ana@example.org <oidc:https://id.example#u-ana-0001>"
    trust_key(label, tmp_path / ".dgrr" / "keys", tmp_path / ".dgrr" / "trusted_keys.json")
    at = _load_sample(_app(ANA))
    _record_approval(_page(at, "7_Approve"))
    assert any("Recorded #1" in s.value for s in at.success), [e.value for e in at.error]
    q = RepairQueue(str(operator_db))
    (rec,) = q.approvals.history()
    assert rec.reviewer == label and rec.key_id and rec.signature
    q.close()


def test_a_changed_key_folder_counts_without_a_restart(operator_db, tmp_path):
    """The Approve page keeps the approvals database it opened; the operator moving the key
    folder takes effect on the next run, not once the server restarts."""
    from lg_sqlite_case import trust_key

    label = "ana@example.org <oidc:https://id.example#u-ana-0001>"
    keys, trust = tmp_path / "team-keys", tmp_path / "team-trust.json"
    trust_key(label, keys, trust)
    (tmp_path / "no-keys").mkdir()
    at = _load_sample(_app(ANA, {"keys": str(tmp_path / "no-keys"), "trust": str(trust)}))
    _page(at, "7_Approve")
    _record_approval(at)  # no key of ana's in that folder: refused, the database opened
    assert not at.success and operator_db.exists()
    at.secrets["dgrr"] = {"keys": str(keys), "trust": str(trust)}
    _record_approval(_ok(at.run()))
    assert any("Recorded #1" in s.value for s in at.success), [e.value for e in at.error]
    q = RepairQueue(str(operator_db))
    (rec,) = q.approvals.history()
    assert rec.reviewer == label and rec.signature
    q.close()


# --- models are the operator's; the server's key goes nowhere a visitor typed ----------

class _Capture(BaseHTTPRequestHandler):
    seen: list[dict[str, str]]

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - the server's API
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.seen.append({k.lower(): v for k, v in self.headers.items()})
        body = json.dumps({"error": {"message": "captured"}}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture()
def capture():
    """An address on loopback that records the headers of every request it gets."""
    handler = type("Capture", (_Capture,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler.seen
    finally:
        server.shutdown()
        server.server_close()


def _keys_sent(seen: list[dict[str, str]]) -> list[str]:
    return [h.get("authorization", "") + h.get("api-key", "") for h in seen]


@pytest.mark.slow
def test_a_visitor_cannot_send_the_servers_key_to_their_address(operator_db, capture):
    base, seen = capture
    at = _load_sample(_app(VISITOR))
    _page(at, "5_Replay")
    # no address to type, no model but the operator's
    assert not [t for t in at.text_input if t.key in ("dgrr_w_api_base", "dgrr_w_model")]
    picker = at.selectbox(key="dgrr_w_model_pick")
    assert picker.options == ["dgrr/reference"]
    # a value set by any other means is not honoured either
    at.session_state["dgrr_w_model"] = "openai/gpt-4o-mini"
    at.session_state["dgrr_w_api_base"] = base
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert seen == []
    assert any("Replay finished" in s.value for s in at.success)  # the reference model ran


@pytest.mark.slow
def test_an_operator_model_needs_a_signed_in_reviewer(operator_db, capture, monkeypatch):
    base, seen = capture
    monkeypatch.setenv("TEAM_MODEL_KEY", "sk-team-model-key")
    models = [{"model": "openai/team-model", "api_base": base, "api_key_env": "TEAM_MODEL_KEY"}]
    at = _load_sample(_app(VISITOR, {"models": models}))
    _page(at, "5_Replay")
    picker = at.selectbox(key="dgrr_w_model_pick")
    assert len(picker.options) == 2
    _ok(picker.select_index(1).run())
    assert not [b for b in at.button if b.key == "dgrr_w_run_replay"]
    assert any("Sign in" in b.label for b in at.button)
    assert seen == []

    at = _load_sample(_app(ANA, {"models": models}))
    _page(at, "5_Replay")
    _ok(at.selectbox(key="dgrr_w_model_pick").select_index(1).run())
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert seen, "the operator's model was called"
    # the key the operator named for that address, never the server's OpenAI key
    assert set(_keys_sent(seen)) == {"Bearer sk-team-model-key"}


@pytest.mark.slow
def test_without_sign_in_a_typed_address_gets_no_server_key(operator_db, capture):
    base, seen = capture
    at = _load_sample(_app({}, signin=False))
    _page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value("openai/gpt-4o-mini")
    at.text_input(key="dgrr_w_api_base").set_value(base)
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert seen, "the typed address was called"
    assert not any(SERVER_KEY in k for k in _keys_sent(seen))


# --- fleet results are the operator's folder ---------------------------------------------

def test_a_visitor_cannot_read_a_folder_of_the_server_on_fleet(operator_db, tmp_path):
    at = _page(_app(VISITOR), "9_Fleet")
    assert not [t for t in at.text_input if t.key == "dgrr_w_fleet_dir"]
    assert any("Sign in" in b.label for b in at.button)
    at = _page(_app(ANA), "9_Fleet")
    assert not [t for t in at.text_input if t.key == "dgrr_w_fleet_dir"]


# --- who the reviewer is -----------------------------------------------------------------

def test_only_a_signed_in_reviewer_claims_from_the_cases_list(operator_db):
    q = RepairQueue(str(operator_db))
    q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot")
    q.close()
    visitor = _page(_app(VISITOR), "0_Cases")
    _ok(visitor.radio(key="dgrr_w_cases_source").set_value("the repair queue").run())
    assert list(visitor.dataframe[0].value["status"]) == ["pending"]
    assert any("Sign in" in b.label for b in visitor.button)
    assert not [b for b in visitor.button if b.key == "dgrr_w_cases_claim"]
    ana = _page(_app(ANA), "0_Cases")
    _ok(ana.radio(key="dgrr_w_cases_source").set_value("the repair queue").run())
    _ok(ana.button(key="dgrr_w_cases_claim").click().run())
    assert any("You hold request #1" in i.value for i in ana.info)
    q = RepairQueue(str(operator_db))
    assert q.get(1).status == "claimed" and "ana" in str(q.get(1).claimed_by).lower()
    q.close()


def test_a_claim_stays_the_reviewers_when_the_provider_changes_the_emails_case(operator_db):
    q = RepairQueue(str(operator_db))
    q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot")
    q.close()
    at = _page(_app({**ANA, "email": "Ana@Example.org"}), "0_Inbox")
    _ok(at.button(key="dgrr_w_inbox_claim").click().run())
    assert any("You hold request #1" in i.value for i in at.info)
    at.user = {**ANA, "email": "ana@example.org"}
    _ok(at.run())
    assert any("You hold request #1" in i.value for i in at.info)


def test_the_signed_in_identity_is_shown_whole(operator_db):
    long_mail = "a" * 170 + "@example.org"
    at = _page(_app({**ANA, "email": long_mail, "sub": "u-ana-" + "7" * 40}), "0_Inbox")
    shown = " ".join(c.value for c in at.sidebar.caption)
    assert "u\\-ana\\-" + "7" * 40 in shown or "u-ana-" + "7" * 40 in shown


def test_a_visitor_names_no_benchmark_folder_and_runs_nothing(operator_db, tmp_path):
    at = _page(_app(VISITOR), "8_Benchmark")
    assert not [t for t in at.text_input if t.key == "dgrr_w_bench_out"]
    assert at.button(key="dgrr_w_b_run").disabled
    at = _page(_app(ANA), "8_Benchmark")
    assert not [t for t in at.text_input if t.key == "dgrr_w_bench_out"]
    assert not at.button(key="dgrr_w_b_run").disabled



def _edit_s2(at: AppTest) -> AppTest:
    _page(at, "4_Plan")
    at.text_input(key="dgrr_w_edit_typed").set_value("s2").run()
    at.selectbox(key="dgrr_w_edit_action").set_value("invalidate")
    return _ok(at.button(key="dgrr_w_edit_apply").click().run())


def test_a_visitors_plan_edits_stay_in_their_session(operator_db, tmp_path, monkeypatch):
    cases = tmp_path / "cases"
    monkeypatch.setenv("DGRR_CASES_DIR", str(cases))
    at = _edit_s2(_load_sample(_app(VISITOR)))
    assert [(e.node, e.action) for e in at.session_state["dgrr_plan"].edits] == \
        [("s2", "invalidate")]
    _page(at, "3_Graph")  # other pages keep the edit, from the session's memory
    assert [e.node for e in at.session_state["dgrr_plan"].edits] == ["s2"]
    assert "edits" not in at.query_params
    assert not cases.exists() or not list(cases.iterdir())
    signed_in = _edit_s2(_load_sample(_app(ANA)))  # a reviewer's edits are kept for a reload
    assert "edits" in signed_in.query_params
    assert [f.name for f in cases.iterdir() if f.name.startswith("edits-")]

def test_a_visitors_replay_stays_in_their_session(operator_db, tmp_path, monkeypatch):
    cases = tmp_path / "cases"
    monkeypatch.setenv("DGRR_CASES_DIR", str(cases))
    at = _page(_load_sample(_app(VISITOR)), "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert at.session_state["dgrr_result"] is not None
    _page(at, "6_Compare")  # other pages show it, from the session's memory
    assert "replay" not in at.query_params
    assert not cases.exists() or not [f for f in cases.iterdir()
                                      if f.name.startswith("replay-")]
    signed_in = _page(_load_sample(_app(ANA)), "5_Replay")  # a reviewer's is kept
    _ok(signed_in.button(key="dgrr_w_run_replay").click().run())
    assert "replay" in signed_in.query_params
    assert [f.name for f in cases.iterdir() if f.name.startswith("replay-")]


# --- work started by a session ends with it --------------------------------------------

def test_a_background_replay_stops_when_its_session_ends():
    from dgrr_dashboard.replay_job import ReplayJob
    from repair_core import plan_case
    from repair_core.model import ModelClient

    case = load_example()
    plan = plan_case(case)

    def ended() -> bool:  # the tab closes once the first step is replayed
        return job.done >= 1

    job = ReplayJob(case, plan, client=ModelClient(), session_ended=ended)
    assert job.start().wait(120)
    assert job.cancelled and job.result is None
    assert job.done < job.total  # stopped after the step being replayed
    live = ReplayJob(case, plan, client=ModelClient(), session_ended=lambda: False).start()
    assert live.wait(120) and not live.cancelled and live.result is not None
