"""The Faults page lists the suspects found by content as plain text and lets the reviewer
un-mark one; the Graph page colours them (docs/method.md, "Suspects")."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("STREAMLIT_SERVER_HEADLESS", "true")

import pytest  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_case, plan_case  # noqa: E402
from repair_core.viz import DECISION_STYLES, decision_key, decision_keys  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
SAMPLE = "sample_traces/agentdojo/adj-banking-usertask0-injectiontask0-usertask2-importantinstructions.json"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _suspects_table(at: AppTest):
    found = [d.value for d in at.dataframe if "evidence" in d.value.columns]
    return found[0] if found else None


def test_faults_page_lists_suspects_as_text_and_unmarks_one():
    at = _ok(AppTest.from_file(APP, default_timeout=90).run())
    _ok(at.switch_page("pages/1_Load.py").run())
    at.selectbox(key="dgrr_w_sample").set_value(SAMPLE)
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    _ok(at.switch_page("pages/2_Faults.py").run())
    table = _suspects_table(at)
    assert table is not None
    assert list(table["id"]) == ["s3"] and list(table["role"]) == ["source"]
    assert list(table["action"]) == ["clean"]
    assert "US133000000121212121212" in table["evidence"][0]
    # the evidence (untrusted text) is in a dataframe cell, never in markdown
    assert all("US133000000121212121212" not in str(m.value) for m in at.markdown)
    _ok(at.multiselect(key="dgrr_w_not_suspect").set_value(["s3"]).run())
    _ok(at.button(key="dgrr_w_apply_not_suspect").click().run())
    assert at.session_state["dgrr_not_suspect"] == frozenset({"s3"})
    # un-marked: the plan no longer names it or cleans it (so the session-1 answer that
    # copied it, no longer affected through it, is now a flagged carrier itself)
    after = _suspects_table(at)
    assert after is not None and "s3" not in list(after["id"])
    assert list(after["id"]) == ["s8"] and list(after["action"]) == ["flag"]
    assert at.multiselect(key="dgrr_w_not_suspect").value == ["s3"]
    plan = at.session_state["dgrr_computed_plan"]
    assert plan.not_suspect == frozenset({"s3"}) and "s3" not in plan.analysis.faults


def test_graph_colours_a_suspected_source_and_a_flagged_carrier():
    case = load_case(ROOT / SAMPLE)
    plan = plan_case(case, objective="both")
    keys = decision_keys(plan)
    assert keys["s3"] == "suspect" and decision_key(plan, "s3") == "suspect"
    assert "suspect" in DECISION_STYLES
    flag = plan_case(case, objective="both", suspects="flag")
    assert decision_key(flag, "s3") == "suspect"
    off = plan_case(case, objective="both", suspects="off")
    assert decision_key(off, "s3") == "keep" and "s3" not in decision_keys(off).values()


def test_faults_page_cleans_a_flagged_source_with_the_reviewers_reason():
    why = "<b>the user never said so</b>"
    at = _ok(AppTest.from_file(APP, default_timeout=90).run())
    _ok(at.switch_page("pages/1_Load.py").run())
    at.selectbox(key="dgrr_w_sample").set_value("sample_traces/shop-summary-drift.json")
    _ok(at.button(key="dgrr_w_load_sample").click().run())
    _ok(at.switch_page("pages/2_Faults.py").run())
    table = _suspects_table(at)
    assert table is not None and dict(zip(table["id"], table["action"], strict=True)) == {
        "m1": "flag", "m2": "flag"}
    assert at.button(key="dgrr_w_clean_source").disabled  # no reason yet
    at.selectbox(key="dgrr_w_clean_source_pick").set_value("m1")
    _ok(at.text_input(key="dgrr_w_clean_source_reason").set_value(why).run())
    _ok(at.button(key="dgrr_w_clean_source").click().run())
    assert at.session_state["dgrr_clean_source"] == {"m1": why}
    plan = at.session_state["dgrr_computed_plan"]
    assert plan.clean_source == {"m1": why} and "m1" in plan.analysis.faults
    assert plan.memory["m1"] == "delete" and why in plan.reasons["m1"]
    after = _suspects_table(at)
    assert dict(zip(after["id"], after["action"], strict=True)) == {"m1": "clean", "m2": "flag"}
    # the reason (untrusted text) is shown in a table cell, never as markdown
    cleaned = [d.value for d in at.dataframe if "reviewer's reason" in d.value.columns]
    assert cleaned and list(cleaned[0]["reviewer's reason"]) == [why]
    assert all(why not in str(m.value) for m in at.markdown)
    _ok(at.button(key="dgrr_w_undo_clean_source").click().run())
    assert at.session_state["dgrr_clean_source"] == {}
    assert at.session_state["dgrr_computed_plan"].memory["m1"] != "delete"
