"""A list of cases to work through: the library lists a folder's cases with their id,
domain, faults and status from the approvals store (planned, replayed, approved,
rejected, applied), leaves non-cases out and names unreadable ones; the Cases page
filters them and opens one, then the next and the previous."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_example  # noqa: E402
from repair_core.approvals import (  # noqa: E402
    ApprovalRecord,
    ApprovalStore,
    case_files,
    case_statuses,
    list_cases,
)

APP = str(ROOT / "app.py")


def _case(folder: Path, name: str, case_id: str, domain: str = "travel") -> Path:
    data = load_example().model_dump(mode="json")
    data["case_id"], data["domain"] = case_id, domain
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def _row(i: int, case_id: str, kind: str = "decision", decision: str = "approve"):
    return ApprovalRecord(id=i, case_id=case_id, reviewer="ana", decision=decision,
                          inputs_sha256="0" * 64, outputs_sha256="0" * 64,
                          created_at=datetime.now(UTC), kind=kind)


def test_statuses_follow_the_latest_decision_and_the_apply():
    rows = [_row(1, "a"), _row(2, "a", "applied"), _row(3, "b"),
            _row(4, "b", decision="reject"), _row(5, "c", "applied"), _row(6, "c", "rolled-back"),
            _row(7, "d", "rule")]
    assert case_statuses(reversed(rows)) == {"a": "applied", "b": "rejected", "c": "approved"}


def test_a_folder_lists_its_cases_with_status_and_names_what_it_cannot_read(tmp_path):
    _case(tmp_path, "one.json", "one")
    _case(tmp_path, "sub/two.json", "two", domain="shopping")
    _case(tmp_path, "three.json", "three")
    (tmp_path / "one.plan.json").write_text("{}")  # a saved plan: not listed
    (tmp_path / "manifest.json").write_text('{"domain": {"x": 1}}')  # not a case: left out
    (tmp_path / "broken.json").write_text('{"format": "dgrr.case/v1", "case_id": 3}')
    (tmp_path / "garbled.json").write_text('{"format": ')
    store = ApprovalStore(str(tmp_path / "approvals.db"))
    store.add(case_id="one", reviewer="ana", decision="approve", inputs_sha256="1" * 64,
              outputs_sha256="2" * 64)
    listed = list_cases(case_files(tmp_path), root=tmp_path, store=store,
                        replayed={"three"})
    store.close()
    by = {c.path: c for c in listed}
    assert set(by) == {"one.json", "sub/two.json", "three.json", "broken.json",
                       "garbled.json"}
    assert (by["one.json"].status, by["one.json"].faults, by["one.json"].steps) == \
        ("approved", ["m3"], 11)
    assert (by["sub/two.json"].status, by["sub/two.json"].domain) == ("planned", "shopping")
    assert by["three.json"].status == "replayed"
    assert by["broken.json"].status == "unreadable" and "case_id" in by["broken.json"].problem
    assert by["garbled.json"].status == "unreadable" and "not JSON" in \
        by["garbled.json"].problem


@pytest.fixture
def _env(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))
    monkeypatch.setenv("DGRR_CASES_DIR", str(tmp_path / "kept"))


def test_the_page_filters_opens_and_walks_the_list(_env):
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/0_Cases.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="dgrr_w_cases_folder").set_value("controlled").run()
    frame = at.dataframe[0].value
    assert len(frame) >= 10 and set(frame["status"]) == {"planned"}
    assert all(f.startswith("ctl-") for f in frame["file"])
    at.text_input(key="dgrr_w_cases_search").set_value("ctl-00").run()
    shown = list(at.dataframe[0].value["case"])
    assert shown and all("ctl-00" in c for c in shown)
    at.button(key="dgrr_w_cases_next").click().run()  # no selection yet: the first
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["dgrr_case"].case_id == shown[0]
    at.button(key="dgrr_w_cases_next").click().run()
    assert at.session_state["dgrr_case"].case_id == shown[1]
    at.button(key="dgrr_w_cases_prev").click().run()
    assert at.session_state["dgrr_case"].case_id == shown[0]
    assert any("Working case" in s.value for s in at.success)
    store = ApprovalStore(os.environ["DGRR_DB"])  # a reviewer approves the second case
    store.add(case_id=shown[1], reviewer="ana", decision="approve", inputs_sha256="1" * 64,
              outputs_sha256="2" * 64)
    store.close()
    at.button(key="dgrr_w_cases_refresh").click().run()
    at.multiselect(key="dgrr_w_cases_status").set_value(["approved"]).run()
    frame = at.dataframe[0].value
    assert list(frame["case"]) == [shown[1]] and list(frame["status"]) == ["approved"]


def test_kept_cases_are_listed_only_outside_team_mode(_env, tmp_path):
    from dgrr_dashboard.kept_cases import keep_case

    digest = keep_case(load_example())
    assert digest is not None
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/0_Cases.py").run()
    at.radio(key="dgrr_w_cases_source").set_value("cases kept on this server").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = at.dataframe[0].value
    assert list(frame["case"]) == ["fig1-travel"] and list(frame["file"]) == [f"{digest}.json"]
    at.button(key="dgrr_w_cases_next").click().run()
    assert at.session_state["dgrr_case"].case_id == "fig1-travel"


def test_the_queue_source_lists_the_requests_with_their_status(_env):
    from repair_core.queue import RepairQueue

    queue = RepairQueue(os.environ["DGRR_DB"])
    queue.submit(load_example(), ["m3"], diagnosed_by="detector")
    queue.close()
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/0_Cases.py").run()
    at.radio(key="dgrr_w_cases_source").set_value("the repair queue").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = at.dataframe[0].value
    assert list(frame["case"]) == ["fig1-travel"] and list(frame["status"]) == ["pending"]
    assert list(frame["faults"]) == ["m3"]


def test_a_reviewer_claims_a_queue_request_from_the_cases_list(_env):
    from repair_core.queue import RepairQueue

    queue = RepairQueue(os.environ["DGRR_DB"])
    queue.submit(load_example(), ["m3"], diagnosed_by="detector")
    queue.submit(load_example(), ["m6"], diagnosed_by="detector", objective="store")
    queue.close()
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/0_Cases.py").run()
    at.radio(key="dgrr_w_cases_source").set_value("the repair queue").run()
    assert not at.exception, [e.value for e in at.exception]
    # no reviewer yet: the list is shown, the claim waits for a name
    assert list(at.dataframe[0].value["status"]) == ["pending", "pending"]
    assert any("Type your name" in i.value for i in at.info)
    assert not [b for b in at.button if b.key == "dgrr_w_cases_claim"]

    at.sidebar.text_input(key="dgrr_w_reviewer_name").set_value("ana").run()
    assert at.selectbox(key="dgrr_w_cases_claim_pick").options == ["#1", "#2"]
    at.selectbox(key="dgrr_w_cases_claim_pick").set_value("#2")
    at.button(key="dgrr_w_cases_claim").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # claimed through the queue: the request's case, faults and objective are the session's
    assert at.session_state["dgrr_case"].faults == ["m6"]
    assert at.session_state["dgrr_objective"] == "store"
    frame = at.dataframe[0].value
    assert list(frame["status"]) == ["pending", "claimed"] and frame["claimed by"][1] == "ana"
    assert any("You hold request #2" in i.value for i in at.info)
    assert not [b for b in at.button if b.key == "dgrr_w_cases_claim"]
    queue = RepairQueue(os.environ["DGRR_DB"])
    assert (queue.get(2).status, queue.get(2).claimed_by) == ("claimed", "ana")
    assert queue.get(1).status == "pending"
    queue.close()
    # the Inbox knows the session holds it (one notion of the request held)
    at.switch_page("pages/0_Inbox.py").run()
    assert any("You hold request #2" in i.value for i in at.info)


def test_a_new_session_claims_nothing_while_its_reviewer_holds_a_request(_env):
    """After a reload the Cases page, like the Inbox, sends the reviewer back to the request
    she holds instead of letting her claim a second one."""
    from repair_core.queue import RepairQueue

    queue = RepairQueue(os.environ["DGRR_DB"])
    queue.submit(load_example(), ["m3"], diagnosed_by="detector")
    queue.submit(load_example(), ["m6"], diagnosed_by="detector")
    queue.claim(1, reviewer="ana")  # in a session the reload ended
    queue.close()
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/0_Cases.py").run()
    at.radio(key="dgrr_w_cases_source").set_value("the repair queue").run()
    at.sidebar.text_input(key="dgrr_w_reviewer_name").set_value("ana").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("You hold request #1" in i.value and "earlier session" in i.value
               for i in at.info)
    assert not [b for b in at.button if b.key == "dgrr_w_cases_claim"]
    # another reviewer claims as before
    at.sidebar.text_input(key="dgrr_w_reviewer_name").set_value("bo").run()
    assert at.selectbox(key="dgrr_w_cases_claim_pick").options == ["#2"]
