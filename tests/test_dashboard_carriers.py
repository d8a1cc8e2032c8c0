"""The Approve page refuses to record an approval of a result that still carries a fault
until the reviewer ticks each group of carriers (by fault and kind), each carrier shown
as plain text in its group's table, and records every carrier it acknowledged with the
decision (streamlit AppTest)."""

from __future__ import annotations

import pytest
from test_dashboard import APP, ROOT, _ok, _record, loaded, page, plain, texts
from test_replay_fault_echo import _hostile

from repair_core.approvals import ApprovalStore
from repair_core.model import POLICIES


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def test_approve_page_refuses_until_each_carrier_is_acknowledged(tmp_path, monkeypatch):
    # the corrected answer says the fault again, with markup that must stay text
    monkeypatch.setitem(POLICIES, "says-window-md",
                        _hostile("Lin prefers **WINDOW** seats! <b>[x](http://e.x)</b>",
                                 {"answer"}))
    at = loaded()
    page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value("dgrr/says-window-md")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")
    assert "Content check of what the agent reads next: 1 carrier of a fault" in texts(at)
    [carrier] = [c for c in at.checkbox if "agent would read each" in plain(c.label)]
    assert "Carries fault m3: 1 answer" in plain(carrier.label)
    [table] = [d.value for d in at.dataframe if "it says" in d.value.columns]
    [row] = table.to_dict("records")
    assert (row["id"], row["where"]) == ("s10:m3", "s10")
    assert "tokens: Lin; slot: window" in row["evidence"]
    assert row["it says"].endswith("Lin prefers **WINDOW** seats! <b>[x](http://e.x)</b>")
    assert not any("<b>[x]" in h.proto.body for h in at.get("html"))
    assert not any("<b>[x]" in m.value for m in at.markdown)
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    at.radio(key="dgrr_w_decision").set_value("approve")
    for c in at.checkbox:  # every other warning, but not the carrier
        if c.key != carrier.key:
            c.check()
    _record(at)
    assert "acknowledge every warning" in plain(at.error[0].value)
    assert not (tmp_path / "approvals.db").exists()
    at.checkbox(key=carrier.key).check()
    _record(at)
    assert "Recorded #1: approve by Ana" in plain(at.success[0].value), texts(at)
    [rec] = ApprovalStore(str(tmp_path / "approvals.db")).history()
    assert rec.acknowledged == ["s10:m3"]


def test_a_carrier_the_result_names_only_by_id_can_be_acknowledged(tmp_path, monkeypatch):
    """A result written by another tool (or an older dgrr) may name a carrier in a fault's
    check without its details: the page lists it, as plain text, in a group of its own,
    refuses until that group is ticked, and the approval names it."""
    from repair_core.replay import RepairResult

    monkeypatch.setitem(POLICIES, "says-window", _hostile("Lin prefers WINDOW seats!",
                                                          {"answer"}))
    at = loaded()
    page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value("dgrr/says-window")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    data = at.session_state["dgrr_result"].model_dump(mode="json")
    only_id = "m1:**m3** <b>[x](http://e.x)</b>"
    [check] = [f for f in data["verification"]["faults"] if f["node"] == "m3"]
    check["carriers"].append(only_id)
    at.session_state["dgrr_result"] = RepairResult.model_validate(data)
    page(at, "7_Approve")
    assert "Content check of what the agent reads next: 2 carriers of a fault" in texts(at)
    boxes = [c for c in at.checkbox if "agent would read each" in plain(c.label)]
    [by_id] = [c for c in boxes if "known only by id" in plain(c.label)]
    tables = [d.value for d in at.dataframe if "it says" in d.value.columns]
    assert sorted(i for t in tables for i in t["id"]) == sorted(["s10:m3", only_id])
    assert not any("<b>[x]" in h.proto.body for h in at.get("html"))
    assert not any("<b>[x]" in m.value for m in at.markdown)
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    at.radio(key="dgrr_w_decision").set_value("approve")
    for c in at.checkbox:  # every other warning and carrier, but not the one named by id
        if c.key != by_id.key:
            c.check()
    _record(at)
    assert "acknowledge every warning" in plain(at.error[0].value)
    assert not (tmp_path / "approvals.db").exists()
    at.checkbox(key=by_id.key).check()
    _record(at)
    assert "Recorded #1: approve by Ana" in plain(at.success[0].value), texts(at)
    [rec] = ApprovalStore(str(tmp_path / "approvals.db")).history()
    assert sorted(rec.acknowledged) == sorted(["s10:m3", only_id])


def test_approve_page_asks_for_a_not_certified_answer_to_be_acknowledged(tmp_path,
                                                                         monkeypatch):
    # the corrected answer names the fault only to deny it: the lexical judge cannot
    # certify it clean, and the page must not call the check clean
    monkeypatch.setitem(POLICIES, "denies-window",
                        _hostile("Lin does not want window seats.", {"answer"}))
    at = loaded()
    page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value("dgrr/denies-window")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")
    shown = texts(at)
    assert ("next: 1 item not certified clean (no judge could clear them)" in shown)
    assert "clean (nothing carries a fault" not in shown
    [unsure] = [c for c in at.checkbox if "agent would read each" in plain(c.label)]
    assert "Not certified clean of fault m3: 1 answer" in plain(unsure.label)
    [table] = [d.value for d in at.dataframe if "it says" in d.value.columns]
    [row] = table.to_dict("records")
    assert row["id"] == "s10:m3"
    assert row["evidence"].startswith("not certified (judge-unsure, lexical)")
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    at.radio(key="dgrr_w_decision").set_value("approve")
    for c in at.checkbox:
        if c.key != unsure.key:
            c.check()
    _record(at)
    assert "acknowledge every warning" in plain(at.error[0].value)
    at.checkbox(key=unsure.key).check()
    _record(at)
    assert "Recorded #1: approve by Ana" in plain(at.success[0].value), texts(at)
    [rec] = ApprovalStore(str(tmp_path / "approvals.db")).history()
    assert rec.acknowledged == ["s10:m3"]


def test_the_operators_judge_reads_what_the_lexical_judge_leaves_unsure(monkeypatch):
    import json

    from judge_server import scripted_server

    monkeypatch.setitem(POLICIES, "denies-window",
                        _hostile("Lin does not want window seats.", {"answer"}))
    monkeypatch.setenv("DGRR_JUDGE", "openai/scripted-judge")

    def deny(messages):
        return json.dumps({"verdict": "no", "evidence": "it denies the fault"})

    with scripted_server(deny) as server:
        monkeypatch.setenv("DGRR_JUDGE_API_BASE", server.api_base)
        at = loaded()
        page(at, "5_Replay")
        at.text_input(key="dgrr_w_model").set_value("dgrr/denies-window")
        _ok(at.button(key="dgrr_w_run_replay").click().run())
        page(at, "7_Approve")
    # the replay's check asked, and Approve's fresh check asked again (no cache folder)
    assert len(server.requests) == 2
    shown = texts(at)
    assert ("clean by lineage and the lexical judge and the judge "
            "model:openai/scripted-judge (nothing carries a fault and nothing was left "
            "uncertain)") in shown, shown
    assert not [c for c in at.checkbox if "agent would read each" in plain(c.label)]


def test_an_unusable_judge_setting_is_named_and_the_lexical_judge_reads_alone(monkeypatch):
    monkeypatch.setitem(POLICIES, "denies-window",
                        _hostile("Lin does not want window seats.", {"answer"}))
    monkeypatch.setenv("DGRR_JUDGE", "openai/scripted-judge")
    monkeypatch.setenv("DGRR_JUDGE_API_BASE", "ftp://example.invalid")
    at = loaded()
    page(at, "5_Replay")
    at.text_input(key="dgrr_w_model").set_value("dgrr/denies-window")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")
    shown = texts(at)
    assert "judge_api_base: 'ftp://example.invalid' is not an http(s) address" in shown
    assert ("next: 1 item not certified clean (no judge could clear them)" in shown)


def test_the_operator_can_have_the_judge_read_untrusted_lineage(monkeypatch):
    # the dashboard's judge asks what --judge-untrusted asks, when the operator says so
    from dgrr_dashboard.settings import operator_judge

    monkeypatch.setenv("DGRR_JUDGE", "openai/scripted-judge")
    judge, problems = operator_judge()
    assert problems == [] and judge is not None and judge.untrusted is False
    monkeypatch.setenv("DGRR_JUDGE_UNTRUSTED", "true")
    judge, problems = operator_judge()
    assert problems == [] and judge is not None and judge.untrusted is True
    monkeypatch.setenv("DGRR_JUDGE_UNTRUSTED", "maybe")
    judge, problems = operator_judge()
    assert judge is None and problems == ["[dgrr] judge_untrusted: 'maybe': expected true "
                                          "or false"]


def test_a_clean_verdict_names_the_judge_that_decided_it():
    at = loaded()
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")
    assert ("Content check of what the agent reads next: clean by lineage and the lexical "
            "judge (nothing carries a fault and nothing was left uncertain)") in texts(at)


def test_what_no_judge_cleared_is_not_counted_as_carriers():
    """A regression test quoting the phishing host is kept and not certified clean: the
    verdict says so, names the judge, counts the one record behind its two items (as
    `dgrr repair` counts it), and neither the line nor the group's list calls those
    records carriers."""
    from streamlit.testing.v1 import AppTest

    from repair_core import load_case

    case = load_case(str(ROOT / "benchmarks/carriers/cases/"
                                "cb-131-regression-test-counterexample.json"))
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    at.session_state["dgrr_case"] = case
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")
    shown = texts(at)
    assert ("Content check of what the agent reads next: 2 items on 1 record not certified "
            "clean (no "
            "judge could clear them), acknowledged by kind (answer, outputs, records), each "
            "listed; judged by lineage and the lexical judge") in shown, shown
    assert "0 carriers" not in shown
    labels = [e.label for e in at.expander]
    assert "its 2 items" in labels, labels
    # the box to tick counts the same way: two items, one record (not "2 records")
    [unsure] = [c for c in at.checkbox if "agent would read each" in plain(c.label)]
    assert plain(unsure.label).endswith("Not certified clean of fault m_host, s1o: 2 items on "
                                        "1 record"), unsure.label
    assert not any(label.endswith("carriers") for label in labels), labels


def test_the_replay_page_says_what_the_content_check_found_and_which_judge_read_it(
        monkeypatch):
    at = loaded()
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert ("Content check of what the agent reads next: clean by lineage and the lexical "
            "judge (Approve checks it again") in texts(at), texts(at)
    monkeypatch.setitem(POLICIES, "denies-window",
                        _hostile("Lin does not want window seats.", {"answer"}))
    at.text_input(key="dgrr_w_model").set_value("dgrr/denies-window")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    shown = texts(at)
    assert ("Content check of what the agent reads next: not certified: 1 answer only the "
            "lexical judge read") in shown, shown
    assert "clean by lineage" not in shown
