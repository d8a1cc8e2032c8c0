"""The Inbox page (AppTest): a reviewer claims a queued request, its case becomes the
working case, the decision on Approve moves the request; another reviewer's session never
gets the same request."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_example  # noqa: E402
from repair_core.queue import RepairQueue  # noqa: E402

APP = str(ROOT / "app.py")


@pytest.fixture()
def db(tmp_path, monkeypatch) -> str:
    path = str(tmp_path / "approvals.db")
    monkeypatch.setenv("DGRR_DB", path)
    q = RepairQueue(path)
    q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot")
    q.submit(load_example(), ["m6"], diagnosed_by="detector", agent="other-bot")
    q.close()
    return path


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def inbox(name: str | None) -> AppTest:
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    _ok(at.switch_page("pages/0_Inbox.py").run())
    if name is not None:
        at.sidebar.text_input(key="dgrr_w_reviewer_name").set_value(name)
        _ok(at.run())
    return at


def test_no_claim_without_a_reviewer(db):
    at = inbox(None)
    assert any("Type your name" in i.value for i in at.info)
    assert not [b for b in at.button if b.key == "dgrr_w_inbox_claim"]


def test_claim_review_and_approve_moves_the_request(db):
    at = inbox("ana")
    table = next(d.value for d in at.dataframe if "diagnosed by" in d.value.columns)
    assert list(table["#"]) == [1, 2] and list(table["agent"]) == ["travel-bot", "other-bot"]
    assert table.loc[0, "faults"] == "m3 (memory_record)"
    _ok(at.button(key="dgrr_w_inbox_claim").click().run())
    assert any("You hold request #1" in i.value for i in at.info)
    # the request's case is the working case
    assert at.session_state["dgrr_case"].faults == ["m3"]
    assert RepairQueue(db).get(1).claimed_by == "ana"

    # another reviewer's session: #1 is held, so "the oldest pending" is #2
    other = inbox("bo")
    options = other.selectbox(key="dgrr_w_inbox_pick").options
    assert options == ["the oldest pending", "#2"]
    _ok(other.button(key="dgrr_w_inbox_claim").click().run())
    assert any("You hold request #2" in i.value for i in other.info)

    _ok(at.switch_page("pages/7_Approve.py").run())
    assert any("queue request #1" in i.value for i in at.info)
    assert not [t for t in at.text_input if t.key == "dgrr_w_reviewer"]  # the Inbox's name
    at.radio(key="dgrr_w_decision").set_value("approve")
    for box in at.checkbox:
        box.check()
    _ok([b for b in at.button if b.label == "Record decision"][0].click().run())
    assert any("Request #1 is now approved" in s.value for s in at.success)
    q = RepairQueue(db)
    request = q.get(1)
    assert (request.status, request.decided_by) == ("approved", "ana")
    assert q.approvals.find(id=request.decision_id, kind=None)[0].reviewer == "ana"
    assert q.result(1) is not None  # replayed before approval: the worker has what to write
    assert q.get(2).claimed_by == "bo"
    q.close()


def test_a_claimed_request_is_planned_for_its_objective(tmp_path, monkeypatch):
    # the plan the reviewer edits and approves is the one the worker writes back: for a
    # request made for the store it must not be the answer-only default
    from dgrr_dashboard import state

    path = str(tmp_path / "approvals.db")
    monkeypatch.setenv("DGRR_DB", path)
    q = RepairQueue(path)
    q.submit(load_example(), ["m3"], diagnosed_by="detector", objective="store")
    q.close()
    at = inbox("ana")
    _ok(at.button(key="dgrr_w_inbox_claim").click().run())
    assert at.session_state[state.OBJECTIVE] == "store"


def test_a_new_session_finds_the_request_its_reviewer_holds(db):
    """A reload starts a new session: it offers to resume or release the request the
    reviewer claimed before, and claims no second one meanwhile."""
    first = inbox("ana")
    _ok(first.button(key="dgrr_w_inbox_claim").click().run())
    assert RepairQueue(db).get(1).claimed_by == "ana"

    again = inbox("ana")  # the same reviewer after a reload
    assert any("You hold request #1" in w.value and "earlier session" in w.value
               for w in again.warning)
    assert again.button(key="dgrr_w_inbox_claim").disabled
    _ok(again.button(key="dgrr_w_inbox_resume").click().run())
    assert any("You hold request #1" in i.value for i in again.info)
    assert again.session_state["dgrr_case"].faults == ["m3"]
    assert not again.warning

    # another session of hers releases it instead: #1 is pending again, nothing held
    third = inbox("ana")
    _ok(third.button(key="dgrr_w_inbox_release_earlier").click().run())
    assert RepairQueue(db).get(1).status == "pending"
    assert not third.warning and not third.button(key="dgrr_w_inbox_claim").disabled
    # someone else is never offered ana's request
    _ok(first.run())
    _ok(first.button(key="dgrr_w_inbox_claim").click().run())
    assert RepairQueue(db).get(1).claimed_by == "ana"
    assert not inbox("bo").warning


def test_an_empty_filter_says_where_the_other_requests_are(db):
    # after an approval the default filter (pending, claimed) can match nothing: the page
    # says what the other statuses hold instead of leaving the reviewer to guess
    at = inbox("ana")
    _ok(at.multiselect(key="dgrr_w_inbox_status").set_value(["approved", "failed"]).run())
    [caption] = [c.value for c in at.caption if c.value.startswith("No request matches")]
    assert "Under the other statuses: 2 pending" in caption
    _ok(at.text_input(key="dgrr_w_inbox_agent").set_value("travel-bot").run())
    [caption] = [c.value for c in at.caption if c.value.startswith("No request matches")]
    assert "1 pending" in caption and "2 pending" not in caption  # the other filters hold
    _ok(at.text_input(key="dgrr_w_inbox_agent").set_value("nobody").run())
    assert "No request matches." in [c.value for c in at.caption]


def test_releasing_the_working_request_puts_it_back_and_the_session_holds_nothing(db):
    from dgrr_dashboard import state

    at = inbox("ana")
    _ok(at.button(key="dgrr_w_inbox_claim").click().run())
    assert RepairQueue(db).get(1).claimed_by == "ana"
    _ok(at.button(key="dgrr_w_inbox_release").click().run())
    request = RepairQueue(db).get(1)
    assert (request.status, request.claimed_by) == ("pending", None)
    assert state.REQUEST not in at.session_state
    assert not any("You hold request" in i.value for i in at.info)
