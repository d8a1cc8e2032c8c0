"""Every dashboard page's main flow through streamlit's AppTest, asserting content."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the pages import the `dgrr_dashboard` helpers from the repo root
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import load_case, load_example  # noqa: E402

APP = str(ROOT / "app.py")
EXAMPLE = "(built-in) spec example: figure1-travel"
CTL_STALE = load_case(ROOT / "sample_traces" / "controlled" / "ctl-006-customer-service-stale.json")


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def page(at: AppTest, name: str) -> AppTest:
    return _ok(at.switch_page(f"pages/{name}.py").run())


def loaded(sample: str = EXAMPLE, objective: str = "answer") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["dgrr_objective"] = objective  # these tests check the paper's plan
    at = _ok(at.run())
    page(at, "1_Load")
    at.selectbox(key="dgrr_w_sample").set_value(sample)
    return _ok(at.button(key="dgrr_w_load_sample").click().run())


def plain(markdown: str) -> str:
    """Markdown source as the text it shows: the dashboard backslash-escapes every
    punctuation character of untrusted text (dgrr_dashboard.text.md)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).replace("\u2060", "")


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.success] + [e.value for e in at.info]
    parts += [e.value for e in at.warning] + [e.value for e in at.error]
    return plain("\n".join(map(str, parts))).replace("`", "")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_the_home_page_names_every_page_of_the_sidebar():
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    [line] = [m.value for m in at.markdown if m.value.startswith("**Pages:**")]
    for path in sorted((ROOT / "pages").glob("*.py")):
        name = path.stem.split("_", 1)[1].replace("_", " ")  # as the sidebar shows it
        assert name in line, (name, line)


def test_load_sample_shows_the_case():
    at = loaded()
    assert "Loaded case `fig1-travel`" in at.success[0].value
    assert metrics(at) == {"Domain": "travel", "User turns": "1", "Trajectory steps": "11",
                           "Memory records": "7", "Diagnosed faults": "1"}
    assert load_example().final_answer().text in [t.value for t in at.text]
    # The sidebar says so in the same run (it used to say "none loaded" until the next one).
    side = "\n".join(c.value for c in at.sidebar.caption)
    assert "`fig1-travel`" in side and "none loaded" not in side


def test_the_load_page_does_not_plan_and_the_sidebar_says_when_the_plan_is_made():
    # Planning a 100k-step case takes seconds the Load page does not need; the first page
    # that needs the plan makes it, and the sidebar shows it in that same run.
    at = loaded()
    assert "dgrr_computed_plan" not in at.session_state
    side = "\n".join(c.value for c in at.sidebar.caption)
    assert "plan: not made yet" in side and "replay:" not in side
    page(at, "3_Graph")
    side = "\n".join(c.value for c in at.sidebar.caption)
    assert "plan: 0 reviewer edit(s), replay" in side and "not made yet" not in side
    assert "replay: not run for this plan" in side


def test_invalid_upload_lists_every_problem_and_keeps_the_case():
    at = loaded()
    bad = {"format": "dgrr.case/v1", "case_id": "x", "user_id": "u",
           "session": [{"id": "u1", "seq": 1, "text": "hi"}], "memory": [],
           "trajectory": [{"id": "s1", "seq": 2, "turn": "u1", "type": "answer", "text": "a",
                           "deps": [{"id": "s99", "label": "cite"}]},
                          {"id": "s2", "seq": 3, "turn": "u1", "type": "wizard", "text": "?"}],
           "faults": ["m404"]}
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("bad.json", json.dumps(bad).encode(), "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    err = plain(at.error[0].value)
    assert "Could not load bad.json" in err
    assert "trajectory[0].deps[0]: unknown id 's99'" in err
    assert "trajectory[1]" in err and "wizard" in err
    assert "m404" in err
    assert "The previous case fig1-travel is still loaded, unchanged." in texts(at)
    assert metrics(at)["Trajectory steps"] == "11"


def test_broken_json_upload_names_line_and_column():
    at = loaded()
    at.file_uploader(key="dgrr_w_upload_case").set_value(("x.json", b'{"a": 1,,}', "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    assert re.search(r"line 1, column \d+: invalid JSON", plain(at.error[0].value))


def load_pair(memory_doc: Callable[[list], object]) -> AppTest:
    """The Load page after the example's trajectory (t.json) and `memory_doc(memory)` of its
    memory (m.json) were loaded as a pair."""
    data = load_example().model_dump(mode="json")
    memory = data.pop("memory")
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    page(at, "1_Load")
    at.file_uploader(key="dgrr_w_upload_traj").set_value(
        ("t.json", json.dumps(data).encode(), "application/json"))
    at.file_uploader(key="dgrr_w_upload_mem").set_value(
        ("m.json", json.dumps(memory_doc(memory)).encode(), "application/json"))
    at.run()
    return _ok(at.button(key="dgrr_w_load_pair").click().run())


def test_trajectory_plus_memory_upload():
    at = load_pair(lambda memory: {"memory": memory})
    assert "Loaded case `fig1-travel` from t.json + m.json" in plain(at.success[0].value)
    assert metrics(at)["Memory records"] == "7"


def test_pages_without_a_case_point_to_load():
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    for name in ("2_Faults", "3_Graph", "4_Plan", "5_Replay", "6_Compare", "7_Approve"):
        page(at, name)
        assert "No case is loaded yet" in at.info[0].value


def test_faults_editor_marks_and_unmarks():
    at = loaded()
    page(at, "2_Faults")
    table = at.data_editor[0].value
    assert list(table["id"]) == ["m1", "m2", "m3", "m4", "m5", "m6", "m8"]
    assert list(table.loc[table["fault"], "id"]) == ["m3"]
    key = at.data_editor[0].key
    # Unmark m3 and mark m8 in the editor, then apply.
    at.session_state[key] = {"edited_rows": {2: {"fault": False}, 6: {"fault": True}},
                             "added_rows": [], "deleted_rows": []}
    at.run()
    _ok(at.button(key="dgrr_w_apply_faults").click().run())
    assert at.session_state["dgrr_case"].faults == ["m8"]
    table = at.data_editor[0].value
    assert list(table.loc[table["fault"], "id"]) == ["m8"]
    assert "Changed from the loaded case's faults (m3)" in texts(at)
    assert "1 fault(s) marked: m8" in texts(at)
    # Downstream follows: the plan now deletes m8 and keeps m3.
    page(at, "4_Plan")
    plan = at.session_state["dgrr_case"]
    from repair_core import plan_case

    p = plan_case(plan)
    assert p.memory["m8"] == "delete" and p.memory["m3"] == "keep"
    assert metrics(at)["Affected (A0)"] == str(len(p.analysis.affected))


def test_faults_table_shows_a_missing_created_seq_as_missing():
    at = loaded()
    page(at, "2_Faults")
    editor = at.data_editor[0]
    created = dict(zip(editor.value["id"], editor.value["created"], strict=True))
    assert created["m6"] == 12 and pd.isna(created["m1"])  # the sample's m1 has none
    assert editor.proto.placeholder == "—"  # shown for it, not Streamlit's "None"
    # the header says what the number is, and its help what "—" means
    shown_as = json.loads(editor.proto.columns)["created"]
    assert shown_as["label"] == "created at seq" and "older than the run" in shown_as["help"]


def test_faults_filters():
    at = loaded()
    page(at, "2_Faults")
    at.text_input(key="dgrr_w_fault_search").set_value("window").run()
    assert set(at.data_editor[0].value["id"]) == {"m3", "m6"}
    at.checkbox(key="dgrr_w_fault_only").check().run()
    assert list(at.data_editor[0].value["id"]) == ["m3"]


def test_faults_pick_by_id_and_no_faults_warning():
    at = loaded()
    page(at, "2_Faults")
    at.multiselect(key=at.multiselect[-1].key).set_value([]).run()
    _ok(at.button(key="dgrr_w_apply_pick").click().run())
    assert at.session_state["dgrr_case"].faults == []
    assert "No fault is marked" in texts(at)


def component_args(at: AppTest, mode: str) -> dict:
    """The arguments dgrr's component got (its HTML or tree data)."""
    found = [json.loads(e.proto.json_args) for e in at.get("component_instance")
             if e.proto.component_name.endswith("dgrr_view")]
    return next(a for a in found if a["mode"] == mode)


def test_graph_page_embeds_offline_graph_and_node_detail():
    at = loaded()
    page(at, "3_Graph")
    html = component_args(at, "graph")["html"]
    assert "cdn.jsdelivr" not in html and not re.search(r"(src|href)=\"https?://", html)
    nodes = json.loads(re.search(r"nodes = new vis\.DataSet\((.*?)\);", html).group(1))
    assert len(nodes) == 19
    assert "Showing 19 of 19 nodes" in texts(at)
    # Default selection is the fault; pick m6 and see why it is quarantined.
    assert at.selectbox(key="dgrr_w_g_node").value == "m3"
    at.selectbox(key="dgrr_w_g_node").set_value("m6").run()
    t = texts(at)
    assert "**Decision:** quarantine" in t
    assert "no independent support: quarantined" in t
    assert "m3 → s3 → s11 → m6" in t
    assert component_args(at, "graph")["selected"] == "m6"  # the picture follows the picker
    # A click in the picture (the component's value) selects the node on the page.
    at.session_state["dgrr_w_g_component"] = {"id": "s11", "n": 1, "t": 1}
    _ok(at.run())
    assert at.selectbox(key="dgrr_w_g_node").value == "s11"
    assert "**Decision:** invalidate" in texts(at)
    # Filters
    at.checkbox(key="dgrr_w_g_affected").check()
    at.checkbox(key="dgrr_w_g_chain").check().run()
    html = component_args(at, "graph")["html"]
    nodes = json.loads(re.search(r"nodes = new vis\.DataSet\((.*?)\);", html).group(1))
    edges = json.loads(re.search(r"edges = new vis\.DataSet\((.*?)\);", html).group(1))
    assert len(nodes) == 11 and all(not e["title"].startswith("chain") for e in edges)
    assert "8 unaffected nodes hidden" in html  # said in the picture's header
    # The inspector below the picture shows the same details
    at.radio(key="dgrr_w_g_inspector").set_value("below the picture (a wider picture)")
    _ok(at.run())
    assert "**Decision:** invalidate" in texts(at)


def test_graph_page_outlines_the_path_from_the_fault_to_the_selected_node():
    at = loaded()
    page(at, "3_Graph")
    # the fault itself is selected: what it affected directly (repair_core.fault_dependents)
    assert component_args(at, "graph")["path"] == [["m3", "s1"], ["m3", "s3"]]
    assert ("Outlined in black: what the fault m3 affected directly, 2 nodes one edge from "
            "it (2 drawn in this view).") in texts(at)
    at.selectbox(key="dgrr_w_g_node").set_value("m6").run()
    assert component_args(at, "graph")["path"] == [["s11", "m6"], ["s3", "s11"], ["m3", "s3"]]
    assert "Outlined in black: the path from the fault m3 to m6, 3 hops (3 drawn" in texts(at)
    # a click in the picture: the same run outlines the clicked node's path
    at.session_state["dgrr_w_g_component"] = {"id": "s11", "n": 1, "t": 1}
    _ok(at.run())
    assert component_args(at, "graph")["path"] == [["s3", "s11"], ["m3", "s3"]]
    # a node no fault reached: nothing outlined
    unaffected = next(n for n in at.session_state["dgrr_computed_plan"].analysis.graph
                      if n not in at.session_state["dgrr_computed_plan"].analysis.affected)
    at.selectbox(key="dgrr_w_g_node").set_value(unaffected).run()
    assert component_args(at, "graph")["path"] == []


def test_graph_page_outlines_a_seeded_fault_s_dependents_and_its_id_stays_text():
    from dgrr_dashboard.text import code

    hostile = "m10 [x](http://e.x) <b>b</b> **y**"
    data = json.loads(json.dumps(CTL_STALE.model_dump(mode="json")).replace(
        '"m10"', json.dumps(hostile)))  # the stale address, its seed the failed update s4
    from repair_core import case_from_data

    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state["dgrr_case"] = case_from_data(data)
    _ok(at.switch_page("pages/3_Graph.py").run())
    assert at.selectbox(key="dgrr_w_g_node").value == hostile
    assert component_args(at, "graph")["path"] == [[hostile, "s4"], [hostile, "s11"],
                                                   [hostile, "s13"]]
    caption = next(c.value for c in at.caption if "Outlined in black" in c.value)
    assert caption == (f"Outlined in black: what the fault {code(hostile)} affected directly, "
                       "2 nodes one edge from it or from its seed `s4` (2 drawn in this view).")


def test_plan_edit_validated_diffed_and_reset():
    at = loaded()
    page(at, "4_Plan")
    assert metrics(at)["Replayed steps"] == "6"
    # Re-admitting a fault is refused outright, so the picker does not offer it ...
    _ok(at.selectbox(key="dgrr_w_edit_node").set_value("m3").run())
    assert at.selectbox(key="dgrr_w_edit_action").options == ["delete", "quarantine"]
    # ... while an edit that can be forced gets the hint, said and not counted as a problem.
    _ok(at.selectbox(key="dgrr_w_edit_node").set_value("s11").run())
    at.selectbox(key="dgrr_w_edit_action").set_value("keep")
    _ok([b for b in at.button if b.label == "Apply edit"][0].click().run())
    assert "**Edit refused** (1 problem)" in plain(at.error[0].value)
    assert "Tick Override and give a comment" in plain(at.error[0].value)
    assert "dgrr_plan" not in at.session_state
    # A valid edit is applied and the replay set recomputed.
    _ok(at.selectbox(key="dgrr_w_edit_node").set_value("s11").run())
    at.selectbox(key="dgrr_w_edit_action").set_value("replay")
    at.text_input(key="dgrr_w_edit_comment").set_value("re-learn the preference")
    submit = [b for b in at.button if b.label == "Apply edit"][0]
    _ok(submit.click().run())
    assert "Applied 1 edit(s): `s11` → replay" in at.success[0].value
    assert metrics(at)["Replayed steps"] == "7"
    diff = at.dataframe[-1].value
    assert diff.to_dict("records") == [{"id": "s11", "kind": "step", "computed": "invalidate",
                                        "now": "replay", "why": "reviewer edit",
                                        "comment": "re-learn the preference"}]
    _ok(at.button(key="dgrr_w_reset_plan").click().run())
    assert "dgrr_plan" not in at.session_state
    assert metrics(at)["Replayed steps"] == "6"


def test_plan_override_needs_comment_then_is_marked_forced():
    at = loaded()
    page(at, "4_Plan")
    _ok(at.selectbox(key="dgrr_w_edit_node").set_value("s11").run())
    at.selectbox(key="dgrr_w_edit_action").set_value("keep")
    at.checkbox(key="dgrr_w_edit_force").check()
    _ok([b for b in at.button if b.label == "Apply edit"][0].click().run())
    assert "an override needs a comment" in plain(at.error[0].value)
    at.text_input(key="dgrr_w_edit_comment").set_value("checked by hand")
    _ok([b for b in at.button if b.label == "Apply edit"][0].click().run())
    assert at.session_state["dgrr_plan"].steps["s11"] == "keep"
    assert "override an invariant" in texts(at)


def _editor(at: AppTest, kind: str):
    """The Plan page's decision table for one kind of node (record, step, tool_observation)."""
    return next(e for e in at.data_editor if e.key.startswith(f"dgrr_plan_editor_{kind}_"))


def _options(editor) -> list[str]:
    return json.loads(editor.proto.columns)["decision"]["type_config"]["options"]


def test_plan_table_edits_apply_on_button_only():
    at = loaded()
    page(at, "4_Plan")
    editor = _editor(at, "step")
    rows = list(editor.value["id"])
    at.session_state[editor.key] = {"edited_rows": {rows.index("s11"): {"decision": "replay"}},
                                    "added_rows": [], "deleted_rows": []}
    _ok(at.run())
    assert "dgrr_plan" not in at.session_state  # not applied yet
    _ok(at.button(key="dgrr_w_apply_table").click().run())
    assert at.session_state["dgrr_plan"].steps["s11"] == "replay"


def test_plan_page_says_a_refreshed_call_of_the_users_own_is_not_made_again():
    """read_doc is undeclared and no fault led to its call s1: refreshing its output s2
    reads the same text, and the Plan page says so (the tool name as text, not markup)."""
    from dgrr_dashboard.text import code
    from repair_core import case_from_data
    from tests.test_rules_suspects import _two_mails_case

    data = _two_mails_case()
    hostile = "read_doc **x** <b>y</b>"
    for s in data["trajectory"]:
        if s.get("tool") == "read_doc":
            s["tool"] = hostile
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state["dgrr_objective"] = "store"
    at.session_state["dgrr_case"] = case_from_data(data)
    page(at, "4_Plan")
    _ok(at.text_input(key="dgrr_w_edit_typed").set_value("s2").run())
    at.selectbox(key="dgrr_w_edit_action").set_value("refresh")
    _ok([b for b in at.button if b.label == "Apply edit"][0].click().run())
    said = [w.value for w in at.warning if "Not called again" in w.value]
    assert len(said) == 1 and "Declare the tool `pure`" in said[0]
    assert f"`s2` ({code(hostile)} of `s1`)" in said[0] and "`s1` (" in said[0]
    reasons = {r: t for r, t in zip(_editor(at, "tool_observation").value["id"],
                                    _editor(at, "tool_observation").value["reason"],
                                    strict=True)}
    assert "declare the tool `pure` to call it again" in reasons["s2"]


def test_plan_tables_offer_only_the_decisions_of_their_kind(tmp_path):
    from repair_core import load_case
    from repair_core.cli import main
    from repair_core.plan._edit import allowed_actions, check_edits, kind_actions

    path = tmp_path / "c.json"
    assert main(["synth", "--steps", "60", "--seed", "3", "--out", str(path)]) == 0
    case = load_case(path)
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    _ok(at.switch_page("pages/4_Plan.py").run())
    p = at.session_state["dgrr_computed_plan"]
    types = {s.id: s.type for s in case.trajectory}
    assert [t.label.split(" (")[0] for t in at.tabs] == ["Records", "Steps", "Tool observations"]
    seen = set()
    for kind in ("record", "step", "tool_observation"):
        editor = _editor(at, kind)
        ids = list(editor.value["id"])
        assert ids, kind
        seen.update(ids)
        options = _options(editor)
        assert options == list(kind_actions(kind))
        for nid in ids:
            node_kind = "record" if nid in p.memory else types[nid]
            assert (node_kind == kind if kind != "step"
                    else node_kind not in ("record", "tool_observation")), (nid, kind)
            # the table hides nothing the library accepts for the node ...
            assert set(allowed_actions(p, nid)) <= set(options), nid
            # ... and what it offers beyond that (and the node's own decision) is refused
            # for that node alone (a fault, the final answer, restoring an active
            # record), never for its kind
            now = p.memory.get(nid) or p.steps[nid]
            assert now in options
            for action in set(options) - set(allowed_actions(p, nid)) - {now}:
                problem = " ".join(check_edits(p, {nid: action}))
                assert ("diagnosed fault" in problem or "final answer" in problem
                        or "nothing to restore" in problem), (nid, action, problem)
    assert seen == set(p.memory) | set(p.steps)
    assert "restore" not in _options(_editor(at, "step"))
    assert "replay" not in _options(_editor(at, "tool_observation"))
    # An edit in the observations' table applies like any other.
    editor = _editor(at, "tool_observation")
    obs = editor.value.reset_index(drop=True)
    row = next(i for i, r in obs.iterrows()
               if r["decision"] == "keep" and "refresh" in allowed_actions(p, r["id"]))
    at.session_state[editor.key] = {"edited_rows": {row: {"decision": "refresh"}},
                                    "added_rows": [], "deleted_rows": []}
    _ok(at.run())
    assert at.button(key="dgrr_w_apply_table").label == "Apply 1 table edit(s)"
    _ok(at.button(key="dgrr_w_apply_table").click().run())
    assert at.session_state["dgrr_plan"].steps[obs["id"][row]] == "refresh"


def test_compare_before_replay_shows_planned_store():
    at = loaded()
    page(at, "6_Compare")
    assert "(not replayed yet)" in texts(at)
    store = at.dataframe[0].value.set_index("id")
    assert store.loc["m3", "change"] == "deleted" and store.loc["m3", "after"] == "gone"
    assert store.loc["m6", "change"] == "quarantined" and store.loc["m6", "after"] == "quarantine"
    assert store.loc["m1", "change"] == "kept" and store.loc["m1", "after"] == "active"
    traj = at.dataframe[1].value.set_index("id")
    assert traj.loc["s7", "outcome"] == "refreshed (planned)"
    assert traj.loc["s11", "outcome"] == "invalidated (planned)"


def test_replay_and_compare_with_reference_model():
    at = loaded()
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert "Replay finished." in texts(at)
    res = at.session_state["dgrr_result"]
    assert res.answer and "aisle" in res.answer
    assert metrics(at)["Model calls"] == str(res.cost.llm_calls)
    page(at, "6_Compare")
    corrected = [h.proto.body for h in at.get("html") if "dgrr-answer-after" in h.proto.body][0]
    assert "<mark" in corrected and "aisle" in corrected


def test_compare_after_replay_shows_no_text_after_for_a_record_that_is_gone():
    """A deleted fault has no text after the repair, as before the replay (the replayed
    trajectory still holds the record, marked deleted: that is not its text after)."""
    at = loaded()
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "6_Compare")
    store = at.dataframe[0].value.set_index("id")
    assert store.loc["m3", "change"] == "deleted" and store.loc["m3", "after"] == "gone"
    assert store.loc["m3", "text before"] and store.loc["m3", "text after"] == ""
    for kept in ("m1", "m6"):  # kept active, and quarantined: still held, text and all
        assert store.loc[kept, "text after"] == store.loc[kept, "text before"] != ""


def test_the_corrected_answer_is_green_only_when_the_content_check_is_clean():
    """A green box says all is well: the corrected answer of a replay whose content check
    is not certified (travel-two-faults: items only the lexical judge read) is shown in a
    neutral box, with the check's line under it; a clean one (the spec example) in green."""
    for sample, clean in (("sample_traces/travel-two-faults.json", False), (EXAMPLE, True)):
        at = loaded(sample)
        page(at, "5_Replay")
        _ok(at.button(key="dgrr_w_run_replay").click().run())
        res = at.session_state["dgrr_result"]
        assert res.verification is not None and res.verification.clean is clean
        words = res.answer.split()[0]
        green = [s.value for s in at.success if words in s.value]
        neutral = [i.value for i in at.info if words in i.value]
        assert (len(green), len(neutral)) == ((1, 0) if clean else (0, 1)), sample
        assert (f"Content check of what the agent reads next: "
                f"{'clean' if clean else 'not certified'}") in texts(at)


def test_replay_page_without_replay_says_so():
    at = loaded()
    page(at, "5_Replay")
    assert not at.button(key="dgrr_w_run_replay").disabled


def _history(at: AppTest):
    return next(d.value for d in at.dataframe if "reviewer" in d.value.columns)


def _record(at: AppTest) -> AppTest:
    return _ok([b for b in at.button if b.label == "Record decision"][0].click().run())


def test_approve_records_and_lists_history(tmp_path):
    at = loaded()
    page(at, "4_Plan")
    _ok(at.selectbox(key="dgrr_w_edit_node").set_value("s11").run())
    at.selectbox(key="dgrr_w_edit_action").set_value("replay")
    _ok([b for b in at.button if b.label == "Apply edit"][0].click().run())
    page(at, "7_Approve")
    assert "No decisions recorded yet" in texts(at)
    # opening the page (and the Inbox) creates no database file; the first decision does
    assert not (tmp_path / "approvals.db").exists()
    at.session_state["dgrr_reviewer_name"] = "Ana"  # the Inbox's reviewer (identity.py)
    page(at, "0_Inbox")
    assert "this queue database does not exist yet" in texts(at)
    page(at, "7_Approve")
    assert not (tmp_path / "approvals.db").exists()
    assert "(no corrected answer)" in texts(at)  # not replayed: no "after" column yet
    assert not [h for h in at.get("html") if "dgrr-approve-after" in h.proto.body]
    _record(at)  # no reviewer
    assert "reviewer: a reviewer name is required" in plain(at.error[0].value)
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    at.radio(key="dgrr_w_decision").set_value("approve")
    at.text_area(key="dgrr_w_comment").set_value("aisle seat restored")
    # Not replayed: one warning, which must be ticked before an approval is recorded.
    [warning] = at.checkbox
    assert "This plan has not been replayed" in plain(warning.label)
    _record(at)
    assert "acknowledge every warning" in plain(at.error[0].value)
    at.checkbox[0].check()
    _record(at)
    assert "Recorded #1: approve by Ana" in plain(at.success[0].value)
    assert "Approvals log verified: 1 row, hash chain intact." in plain(texts(at))
    hist = _history(at)
    assert hist.loc[0, "reviewer"] == "Ana" and hist.loc[0, "edits"] == "s11→replay"
    assert hist.loc[0, "comment"] == "aisle seat restored"
    from repair_core.approvals import ApprovalStore

    [rec] = ApprovalStore(str(tmp_path / "approvals.db")).history()
    assert rec.case_id == "fig1-travel" and rec.plan_edits[0]["node"] == "s11"
    labels = [d.label for d in at.get("download_button")]
    assert labels == ["Repaired store (JSON)", "Trajectory (JSON)", "Report (Markdown)"]


def test_approve_summary_double_click_and_rejection_reason(tmp_path):
    from repair_core import load_example, plan_case, repair
    from repair_core.approvals import ApprovalStore

    at = loaded()
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")
    result = repair(load_example(), plan_case(load_example()))
    t = texts(at)
    assert "What you approve" in [h.value for h in at.subheader]
    html = [h.proto.body for h in at.get("html")]
    [after] = [h for h in html if "dgrr-approve-after" in h]
    assert "<mark" in after and "aisle" in after
    assert any("dgrr-approve-before" in h and "<del" in h for h in html)
    store_ops = next(d.value for d in at.dataframe if {"operation", "id"} <= set(d.value.columns)
                     and "deleted" in set(d.value["operation"]))
    assert list(store_ops["id"]) == ["m3"]
    steps = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    replayed = [o.id for o in result.report.steps if o.outcome == "replayed"]
    assert dict(zip(steps["outcome"], steps["ids"], strict=True))["replayed"] == ", ".join(replayed)
    assert "none reported" in t and not at.checkbox  # a clean replay has no warning
    at.text_input(key="dgrr_w_reviewer").set_value("Bo")
    at.radio(key="dgrr_w_decision").set_value("reject")
    _record(at)
    assert "a rejection needs a reason" in plain(at.error[0].value)
    at.radio(key="dgrr_w_decision").set_value("approve")
    _record(at)
    _record(at)  # the same click again: refused, nothing appended
    assert "already recorded: #1 (approve) by Bo" in plain(at.error[0].value)
    assert len(ApprovalStore(str(tmp_path / "approvals.db")).history()) == 1


def test_benchmark_browses_samples_and_opens_a_case():
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    page(at, "8_Benchmark")

    def cases_table():  # the browser of sample_traces/ (the side-by-side table comes first)
        return next(d.value for d in at.dataframe if "path" in d.value.columns)

    table = cases_table()
    assert {"fig1-travel", "travel-two-faults"} <= set(table["case_id"])
    at.multiselect(key="dgrr_w_b_domain").set_value(["travel"]).run()
    assert set(cases_table()["domain"]) == {"travel"}
    at.selectbox(key="dgrr_w_b_pick").set_value("sample_traces/travel-two-faults.json")
    _ok(at.button(key="dgrr_w_b_open").click().run())
    assert at.session_state["dgrr_case"].case_id == "travel-two-faults"
    suites = set(table["suite"])
    for suite in ("controlled", "adapted"):
        if (ROOT / "sample_traces" / suite).is_dir():
            assert suite in suites
        else:
            assert f"the **{suite}** suite" in texts(at)  # says what is missing


def test_guided_demo_tells_the_story():
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    _ok(at.button(key="dgrr_w_demo_run").click().run())
    heads = [s.value for s in at.subheader]
    assert heads[:4] == ["1 · The fault", "2 · What it reached", "3 · The plan", "4 · Replay"]
    t = texts(at)
    assert "Record m3 — “Lin prefers window seats.” — was diagnosed as wrong" in t
    assert "reaches 11 nodes. 2 of them are kept" in t
    # the dashboard plans for both objectives: s11 re-derives the quarantined m6
    assert "replay 7 of 11 steps (s1 → s3 → s5 → s6 → s7 → s10 → s11)" in t
    assert component_args(at, "graph")["html"]
    assert "5 · Compare" in heads
    assert at.session_state["dgrr_case"].case_id == "fig1-travel"


def test_replay_with_observation_typed_by_hand():
    data = load_example().model_dump(mode="json")
    for step in data["trajectory"]:
        if step.get("tool") == "search_flights":
            step["tool"] = "search_trains"  # a tool this installation cannot call
    data["tools"] = [{"name": "search_trains", "effect": "pure"}]
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    page(at, "1_Load")
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("trains.json", json.dumps(data).encode(), "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    page(at, "5_Replay")
    assert any(e.label.startswith("Tool observations by hand") for e in at.expander)
    at.text_area(key="dgrr_w_obs_s6").set_value('{"train": "T9", "seat": "12C aisle"}')
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    res = at.session_state["dgrr_result"]
    outcomes = {o.id: (o.outcome, o.detail) for o in res.report.steps}
    assert outcomes["s6"] == ("replayed", "observation supplied by hand")
    assert "T9" in outcomes["s7"][1]
    assert res.report.needs_observation == []


def test_benchmark_runs_a_method_and_shows_metrics(tmp_path):
    at = _ok(AppTest.from_file(APP, default_timeout=300).run())
    page(at, "8_Benchmark")
    at.text_input(key="dgrr_w_bench_out").set_value(str(tmp_path / "bench")).run()
    at.multiselect(key="dgrr_w_b_suite").set_value(["samples"]).run()  # the small one
    at.multiselect(key="dgrr_w_b_domain").set_value(["travel"]).run()
    at.multiselect(key="dgrr_w_b_methods").set_value(["ours"]).run()
    _ok(at.button(key="dgrr_w_b_run").click().run())
    frames = [d.value for d in at.dataframe]
    [cases] = [f for f in frames if "path" in f.columns]
    assert set(cases["domain"]) == {"travel"} and "ours" in cases.columns
    assert len(list((tmp_path / "bench" / "results" / "ours").glob("*.json"))) == len(cases)
    [metrics_table] = [f for f in frames if "Ours" in f.index]
    assert list(metrics_table.index) == ["Ours"]
    assert metrics_table.loc["Ours", "cases"] == len(cases)
    assert "**Recovery by domain**" in texts(at)
    at.selectbox(key="dgrr_w_b_rec").set_value("ours: yes").run()
    [shown] = [d.value for d in at.dataframe if "path" in d.value.columns]
    assert set(shown["case_id"]) == set(cases.loc[cases["ours"] == True, "case_id"])  # noqa: E712


def test_replay_asks_for_observations_the_last_run_needed():
    data = load_example().model_dump(mode="json")
    for step in data["trajectory"]:
        if step.get("tool") == "search_flights":
            step["args"] = {"route": "SFO-NRT"}  # a registered tool, a foreign signature
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    page(at, "1_Load")
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("route.json", json.dumps(data).encode(), "application/json"))
    at.run()
    _ok(at.button(key="dgrr_w_load_upload").click().run())
    page(at, "5_Replay")
    assert not any(e.label.startswith("Tool observations by hand") for e in at.expander)
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    assert "Needs an observation" in texts(at)
    assert any(e.label.startswith("Tool observations by hand") for e in at.expander)
    at.text_area(key="dgrr_w_obs_s6").set_value("JL1 seat 31C (aisle) free")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    res = at.session_state["dgrr_result"]
    assert res.report.needs_observation == []
    assert dict((o.id, o.detail) for o in res.report.steps)["s6"] == "observation supplied by hand"


def test_load_page_imports_a_sample_trace_with_its_summary():
    pytest.importorskip("opentelemetry.sdk.trace", reason="needs the 'import' extra")
    at = _ok(AppTest.from_file(APP, default_timeout=60).run())
    page(at, "1_Load")
    at.text_input(key="dgrr_w_import_faults").set_value("m3")
    at.selectbox(key="dgrr_w_import_sample").set_value(
        "otlp/figure1-travel.otlp.json (OTel GenAI, base64 ids)")
    _ok(at.button(key="dgrr_w_import_sample_go").click().run())
    assert "Loaded case `trace-" in at.success[0].value
    summary = "\n".join(t.value for t in at.text)
    assert "base64 ids" in summary and "inferred" in summary and "skipped" in summary
    assert metrics(at)["Diagnosed faults"] == "1"
    # a bad fault id is reported like a malformed case; nothing is loaded
    at.text_input(key="dgrr_w_import_faults").set_value("nope")
    _ok(at.button(key="dgrr_w_import_sample_go").click().run())
    assert "unknown id 'nope'" in texts(at)
def test_trace_tree_groups_colours_and_clicks_to_details():
    from dgrr_dashboard.trace import DECISION_COLOURS

    at = loaded()
    page(at, "3_Trace")
    data = component_args(at, "tree")["data"]
    case = load_example()
    [turn, memory] = data["groups"]
    assert turn["title"].startswith("turn u1")
    assert [r["id"] for r in turn["rows"]] == [s.id for s in case.steps_in_order()]
    assert [r["id"] for r in memory["rows"]] == [m.id for m in case.memory]
    decisions = {r["id"]: r["decision"] for g in data["groups"] for r in g["rows"]}
    assert decisions["m3"] == "delete" and decisions["s11"] == "invalidate"
    assert decisions["s7"] == "refresh" and decisions["s2"] == "keep"
    assert data["colours"] == DECISION_COLOURS
    assert [r["id"] for r in data["timeline"]] == [s.id for s in case.steps_in_order()]
    # Default details: the fault; a click in the tree shows that node instead.
    assert "Decision: delete" in texts(at).replace("**", "")  # m3
    at.session_state["dgrr_w_t_component"] = {"id": "s11", "n": 1, "t": 5}
    _ok(at.run())
    t = texts(at)
    assert "Decision: invalidate" in t.replace("**", "")
    _ok(at.run())
    assert component_args(at, "tree")["selected"] == "s11"  # the tree keeps the selection
    # The Graph page opens on the same node.
    page(at, "3_Graph")
    assert at.selectbox(key="dgrr_w_g_node").value == "s11"
    # Only changed: kept, unaffected steps leave.
    page(at, "3_Trace")
    at.checkbox(key="dgrr_w_t_changed").check().run()
    data = component_args(at, "tree")["data"]
    shown = {r["id"] for g in data["groups"] for r in g["rows"]}
    assert "m1" not in shown and {"m3", "s11", "s2"} <= shown  # s2 is affected (kept)
    assert "shown (only affected or changed nodes)" in data["note"]


def test_trace_data_row_limit_counts_every_node_and_keeps_the_first():
    from dgrr_dashboard.trace import trace_data
    from repair_core import plan_case

    plan = plan_case(load_example())
    case = plan.case
    total = len(case.trajectory) + len(case.memory)
    full = trace_data(plan)
    assert full["note"] is None
    order = [r["id"] for g in full["groups"] for r in g["rows"]]
    assert len(order) == total
    cut = trace_data(plan, limit=len(case.trajectory) + 2)
    rows = [r["id"] for g in cut["groups"] for r in g["rows"]]
    assert rows == order[:len(case.trajectory) + 2]  # steps first, then the first records
    assert cut["note"] == (f"{len(rows)} of {total} steps and records shown "
                           f"(rows 1–{len(rows)} of the {total} matching).")
    both = trace_data(plan, changed_only=True, limit=3)
    assert len([r for g in both["groups"] for r in g["rows"]]) == 3
    assert both["note"] == (f"3 of {total} steps and records shown (only affected or changed "
                            f"nodes; rows 1–3 of the {both['matching']} matching).")


def test_large_case_tables_are_paged_and_filtered(tmp_path):
    from repair_core import load_case
    from repair_core.cli import main

    path = tmp_path / "big.json"
    assert main(["synth", "--steps", "3000", "--seed", "1", "--out", str(path)]) == 0
    case = load_case(path)
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())
    at.session_state["dgrr_case"] = case
    page(at, "6_Compare")
    assert at.checkbox(key="dgrr_w_cmp_traj_changed").value  # on by default when large
    [traj] = [d.value for d in at.dataframe if "old output" in d.value.columns]
    kept = sum(1 for s in case.trajectory if at.session_state["dgrr_computed_plan"].steps[s.id]
               == "keep")
    assert len(traj) == min(1000, len(case.trajectory) - kept) and "kept" not in set(traj["outcome"])
    if len(case.trajectory) - kept > 1000:
        assert at.number_input(key="dgrr_w_cmp_traj_page").value == 1
    page(at, "3_Trace")
    assert at.checkbox(key="dgrr_w_t_changed").value
    data = component_args(at, "tree")["data"]
    plan = at.session_state["dgrr_computed_plan"]
    shown = [r for g in data["groups"] for r in g["rows"]]
    assert shown and all(r["decision"] != "keep" or r["id"] in plan.analysis.affected
                         for r in shown)


def test_pages_derive_once_per_plan_and_result(monkeypatch):
    """Coming back to Approve or Compare reuses what they derived (state.derived), and
    the session's hasher writes the case once, whatever is replayed after."""
    import repair_core.approvals._review as review
    from repair_core.approvals import ApprovalHasher

    calls: list[str] = []
    real_call, real_json = ApprovalHasher.__call__, review.model_json
    monkeypatch.setattr(ApprovalHasher, "__call__",
                        lambda *a, **k: calls.append("hash") or real_call(*a, **k))
    monkeypatch.setattr(review, "model_json",
                        lambda m, *a, **k: calls.append(type(m).__name__) or real_json(m))
    at = loaded()
    page(at, "7_Approve")
    page(at, "6_Compare")
    page(at, "7_Approve")
    assert calls == ["hash", "Case", "PlanReport"]
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    page(at, "7_Approve")  # a new result: hashed again, once; the case and report are not
    page(at, "7_Approve")
    assert calls == ["hash", "Case", "PlanReport", "hash", "RepairResult"]


def test_plan_page_objective_selector_defaults_to_both():
    at = loaded(objective="both")
    page(at, "4_Plan")
    assert at.radio(key="dgrr_w_objective").value == "both"
    assert metrics(at)["Replayed steps"] == "7"  # s11 re-derives m6 for the store
    at.radio(key="dgrr_w_objective").set_value("answer").run()
    at = _ok(at)
    assert metrics(at)["Replayed steps"] == "6"
    at.radio(key="dgrr_w_objective").set_value("store").run()
    assert metrics(_ok(at))["Replayed steps"] == "3"


def test_faults_page_marks_a_tool_observation():
    at = loaded()
    page(at, "2_Faults")
    pick = next(m for m in at.multiselect if m.label == "Diagnosed faults")
    assert "s7" in pick.options and "u1" in pick.options
    pick.set_value(["s7"]).run()
    _ok(at.button(key="dgrr_w_apply_pick").click().run())
    assert at.session_state["dgrr_case"].faults == ["s7"]
    assert "1 fault(s) marked: s7" in texts(at)


def test_the_hand_written_samples_come_first():
    # a new user finds the four hand-written cases at the top of 237, not after the suites
    from dgrr_dashboard import state

    names = list(state.sample_paths())
    top = sorted(p.name for p in state.SAMPLES.glob("*.json")
                 if not p.name.endswith(".plan.json"))
    assert len(top) >= 4 and len(names) > 100
    assert [Path(n).name for n in names[1:1 + len(top)]] == top


def test_the_sample_picker_lists_the_spec_example_once():
    # sample_traces/ holds a byte-for-byte copy of the built-in example; only the
    # built-in entry is offered, every other sample stays
    from dgrr_dashboard import state

    names = state.sample_choices()
    assert names[0] == state.EXAMPLE
    assert "sample_traces/figure1-travel.json" in state.sample_paths()
    assert "sample_traces/figure1-travel.json" not in names
    assert len(names) == len(state.sample_paths()) - 1

def test_plan_diff_says_which_changes_follow_from_the_edits():
    # deleting a quarantined record takes the write that re-derives it out of the replay:
    # that step's row says it follows from the edit, not that a reviewer chose it
    at = loaded("sample_traces/cs-stale-address.json", objective="both")
    page(at, "4_Plan")
    _ok(at.selectbox(key="dgrr_w_edit_node").set_value("m6").run())
    at.selectbox(key="dgrr_w_edit_action").set_value("delete")
    at.text_input(key="dgrr_w_edit_comment").set_value("gone for good")
    _ok([b for b in at.button if b.label == "Apply edit"][0].click().run())
    why = at.dataframe[-1].value.set_index("id")["why"].to_dict()
    assert why == {"m6": "reviewer edit", "s17": "follows from the edits"}


def test_compare_says_what_could_not_be_determined_as_plain_text():
    """What the corrected answer could not have from memory (the report's `answer_lost`)
    is listed under it, as text: a reason holding Markdown shows as written."""
    from repair_core.replay import RemovedPremise

    at = loaded()
    page(at, "5_Replay")
    _ok(at.button(key="dgrr_w_run_replay").click().run())
    res = at.session_state["dgrr_result"]
    assert res.report.answer_lost == []  # figure 1: the true preference is found again
    page(at, "6_Compare")
    assert "Could not be determined from memory" not in texts(at)
    res.report.answer_lost = [RemovedPremise(id="m3", key="seat_preference",
                                             why="deleted as a [diagnosed](http://x.test) fault")]
    page(at, "6_Compare")
    assert "Could not be determined from memory" in texts(at)
    assert "m3 (slot seat_preference): deleted as a [diagnosed](http://x.test) fault" in [
        t.value for t in at.text]
