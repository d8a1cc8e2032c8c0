"""The Approve page shows the records of someone other than the case's user that the
repair writes to as a group of their own, refuses an approval until it is ticked, and
records each of them as acknowledged (rule approval.other-owner-acknowledged;
streamlit AppTest)."""

from __future__ import annotations

import pytest
from test_dashboard import _record, loaded, page, plain, texts

from repair_core.approvals import ApprovalStore

rule = pytest.mark.rule


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


@rule("approval.other-owner-acknowledged")
def test_approve_page_asks_for_records_of_another_owner(tmp_path):
    at = loaded()
    case = at.session_state["dgrr_case"]
    memory = [m.model_copy(update={"owner": {"user_id": "bob <b>x</b>"}}) if m.id == "m3"
              else m for m in case.memory]
    at.session_state["dgrr_case"] = case.model_copy(update={"memory": memory})
    for key in ("dgrr_computed_plan", "dgrr_plan", "dgrr_plan_keys"):
        if key in at.session_state:
            del at.session_state[key]
    page(at, "7_Approve")
    [owners] = [c for c in at.checkbox if "of another owner" in plain(c.label)]
    assert "1 record of another owner" in plain(owners.label)
    [table] = [d.value for d in at.dataframe if "why" in d.value.columns]
    [row] = table.to_dict("records")
    assert row["record"] == "m3" and "bob <b>x</b>" in row["why"]
    assert not any("<b>x" in m.value for m in at.markdown)
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    at.radio(key="dgrr_w_decision").set_value("approve")
    for c in at.checkbox:
        if c.key != owners.key:
            c.check()
    _record(at)
    assert "acknowledge every warning" in plain(at.error[0].value)
    at.checkbox(key=owners.key).check()
    _record(at)
    assert "Recorded #1: approve by Ana" in plain(at.success[0].value), texts(at)
    [rec] = ApprovalStore(str(tmp_path / "approvals.db")).history()
    assert rec.acknowledged == ["other-owner:m3"]
