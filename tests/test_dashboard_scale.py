"""The workbench on a case with thousands of steps: each page's primary action comes before
its long lists, the irreversible effects are acknowledged per tool and kind, Compare and
Approve count the store alike, decision colours are drawn as cell backgrounds, and a
refused approval writes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from streamlit.testing.v1 import AppTest  # noqa: E402

from repair_core import (  # noqa: E402
    Case,
    RepairPlan,
    RepairResult,
    load_case,
    plan_case,
    repair,
    with_faults,
)
from repair_core.approvals import approval_summary, warning_groups  # noqa: E402

APP = str(ROOT / "app.py")
RECORD = "FormSubmitter:dgrr_w_approve_form-Record decision"


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


@pytest.fixture(scope="module")
def many_faults(tmp_path_factory) -> Case:
    """3,000 steps with 40 faults: tens of irreversible effects of four tools, records a
    replayed step writes and a later one supersedes."""
    from repair_core.cli import main

    out = tmp_path_factory.mktemp("synth") / "case.json"
    assert main(["synth", "--steps", "3000", "--faults", "40", "--out", str(out)]) == 0
    return load_case(out)


def pages_plan(case: Case) -> RepairPlan:
    """The plan the pages make of `case`, made by the Plan page."""
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/4_Plan.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state["dgrr_computed_plan"]


# Planning a case of thousands of steps costs a CPU second a test, and replaying it more;
# the tests below are about what the pages show of a plan and its replay, so each case is
# planned (by a page) and replayed once per module and handed to every test's session.
@pytest.fixture(scope="module")
def many_faults_run(many_faults) -> tuple[RepairPlan, RepairResult]:
    p = pages_plan(many_faults)
    return p, repair(many_faults, p)


@pytest.fixture(scope="module")
def ten_thousand_plan(ten_thousand) -> RepairPlan:
    return pages_plan(ten_thousand)


def opened(case: Case, p: RepairPlan) -> AppTest:
    """The app with `case` loaded and `p` as its computed plan (the pages plan no more)."""
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_computed_plan"] = p
    return at


def planned_once(at: AppTest, p: RepairPlan) -> None:
    assert at.session_state["dgrr_computed_plan"] is p, "the page planned the case again"


def replayed(case: Case, run: tuple[RepairPlan, RepairResult], page: str) -> AppTest:
    """The app on `page` with `case` loaded and its computed plan replayed (`run`)."""
    p, result = run
    at = opened(case, p)
    at.switch_page(page).run()
    planned_once(at, p)
    at.session_state["dgrr_result"] = result
    at.session_state["dgrr_result_key"] = at.session_state["dgrr_plan_keys"][id(p)][1]
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def in_order(at: AppTest, *, shown: bool = False) -> list:
    """Every element of the page's main area, in the order the page shows them; `shown`:
    leave out what collapsed expanders hold (not on the screen until opened)."""
    def walk(node):
        for child in getattr(node, "children", {}).values():
            yield child
            if shown and child.type == "expander" and not child.proto.expanded:
                continue
            yield from walk(child)
    return list(walk(at.main))


def test_approve_puts_the_decision_before_the_long_lists(many_faults, many_faults_run):
    at = replayed(many_faults, many_faults_run, "pages/7_Approve.py")
    elements = in_order(at, shown=True)
    record = next(i for i, e in enumerate(elements)
                  if e.type == "button" and e.label == "Record decision")
    for e in elements[:record]:
        # above the button: nothing long is printed inline (lists sit in expanders)
        if e.type in ("text", "markdown", "caption"):
            assert str(e.value).count("\n") < 20, e.value[:200]
        assert e.type != "dataframe" or len(e.value) <= 50
    # the checkboxes above the button that are not in a scrolling box of fixed height
    def boxed(node, inside=False):
        for child in getattr(node, "children", {}).values():
            held = inside or bool(getattr(getattr(child, "proto", None), "height_config", None)
                                  and child.proto.height_config.HasField("pixel_height"))
            yield child, held
            yield from boxed(child, held)
    flat = list(boxed(at.main))
    stop = next(i for i, (e, _) in enumerate(flat)
                if e.type == "button" and e.label == "Record decision")
    loose = [e for e, held in flat[:stop] if e.type == "checkbox" and not held]
    assert len(loose) <= 12, len(loose)
    # one acknowledgement per tool and kind of irreversible effect, its steps beside it
    effects = approval_summary(at.session_state["dgrr_computed_plan"],
                               at.session_state["dgrr_result"]).irreversible_effects
    boxes = [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_")]
    effect_boxes = [b for b in boxes if "Irreversible effect of" in b.label]
    assert len(effects) > 50 and 2 <= len(effect_boxes) < 10
    tools = {line.split(": ", 1)[1].split("(", 1)[0] for line in effects}
    assert all(any(t.replace("_", "\\_") in b.label for b in effect_boxes) for t in tools)
    assert not any(e.type == "text" and e.value == "\n".join(effects) for e in elements)


def test_approve_and_compare_count_the_store_alike(many_faults, many_faults_run):
    at = replayed(many_faults, many_faults_run, "pages/6_Compare.py")
    [mem] = [d.value for d in at.dataframe if "change" in d.value.columns]
    # Compare tells a record restored and then retired again from one retired outright;
    # the approval lists both as retired
    compare = mem["change"].replace({"retired again": "retired"}).value_counts()
    compare = {k: int(n) for k, n in compare.items() if k != "kept"}
    summary = approval_summary(at.session_state["dgrr_computed_plan"],
                               at.session_state["dgrr_result"])
    approve = {k: len(v) for k, v in summary.store.items()}
    assert approve.get("added then retired")  # the case has such records
    assert approve == compare
    # each record under one final state
    ids = [r for v in summary.store.values() for r in v]
    assert len(ids) == len(set(ids))
    # a record of the case that is gone shows no text after; one written and retired by
    # the replay shows what was written, its only text
    gone = mem[(mem["after"] == "gone") & (mem["before"] != "—")]
    assert len(gone) and (gone["text after"] == "").all()
    transient = mem[mem["change"] == "added then retired"]
    assert len(transient) and (transient["text after"] != "").all()


def test_approve_lists_store_operations_with_record_text_and_plan_edits_with_comment():
    from repair_core import apply_edits, load_example

    case = load_example()
    p = plan_case(case)
    node = next(n for n, a in p.steps.items() if a == "keep" and n != case.final_answer().id)
    edited = apply_edits(p, {node: "invalidate"}, comment="stale after the move")
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_plan"] = edited
    at.switch_page("pages/7_Approve.py").run()
    assert not at.exception, [e.value for e in at.exception]
    texts = {m.id: m.text for m in case.memory}
    tables = [d.value for d in at.dataframe]
    ops = [t for t in tables if {"operation", "id", "text"} <= set(t.columns)]
    assert ops and all(row.text == texts[row.id] for t in ops for row in t.itertuples())
    [edits] = [t for t in tables if "comment" in t.columns and "edited" in t.columns]
    assert edits.to_dict("records") == [{"node": node, "computed": "keep",
                                         "edited": "invalidate",
                                         "comment": "stale after the move"}]


@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_a_refused_approval_creates_no_database(tmp_path, decision):
    from repair_core import load_example

    db = tmp_path / "approvals.db"
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_example()
    at.switch_page("pages/7_Approve.py").run()
    for b in [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_")]:
        b.check()
    at.radio(key="dgrr_w_decision").set_value(decision)
    if decision == "reject":
        at.text_input(key="dgrr_w_reviewer").set_value("ana")  # but no reason given
    at.button(key=RECORD).click().run()
    assert not at.exception
    assert at.error and "Not recorded" in at.error[0].value
    assert not db.exists()
    # an accepted decision still creates it
    at.text_input(key="dgrr_w_reviewer").set_value("ana")
    at.text_area(key="dgrr_w_comment").set_value("checked")
    at.button(key=RECORD).click().run()
    assert any("Recorded #" in s.value for s in at.success), [e.value for e in at.error]
    assert db.exists()


def test_decision_colours_are_cell_backgrounds(many_faults, many_faults_run):
    from dgrr_dashboard.widgets import pale
    from repair_core.viz import DECISION_STYLES

    for page in ("pages/6_Compare.py", "pages/7_Approve.py"):
        at = replayed(many_faults, many_faults_run, page)
        styles = " ".join(d.proto.arrow_data.styler.styles for d in at.dataframe)
        assert "border-left" not in styles
        assert f"background-color: {pale(DECISION_STYLES['delete'][0])}" in styles, page
        assert f"background-color: {pale(DECISION_STYLES['quarantine'][0])}" in styles, page


def test_a_store_only_case_asks_for_no_answer():
    from repair_core.importers import import_trace

    history = ROOT / "sample_imports" / "mem0-history" / "history.db"
    case = import_trace([], store=history, user="lin").case
    assert not case.has_answer()
    ids = [m.id for m in case.memory][:1]
    case = with_faults(case, ids)
    p = plan_case(case, objective="store")
    summary = approval_summary(p, repair(case, p))
    assert not any("answer" in k.lower() for k, _ in warning_groups(summary.warnings))


@pytest.fixture(scope="module")
def ten_thousand(tmp_path_factory) -> Case:
    """10,000 steps with 40 faults: a replay of about a thousand steps."""
    from repair_core.cli import main

    out = tmp_path_factory.mktemp("synth") / "case.json"
    assert main(["synth", "--steps", "10000", "--faults", "40", "--out", str(out)]) == 0
    return load_case(out)


def _index(elements: list, kind: str, label: str) -> int:
    return next(i for i, e in enumerate(elements) if e.type == kind and e.label == label)


def _long_before(elements: list, end: int) -> list[str]:
    """Texts above `end` that list more than 50 ids."""
    return [str(e.value)[:120] for e in elements[:end]
            if e.type in ("text", "markdown", "caption") and str(e.value).count("→") > 50]


def test_plan_and_replay_put_their_action_before_the_replay_order(ten_thousand,
                                                                   ten_thousand_plan):
    at = opened(ten_thousand, ten_thousand_plan)
    for page, action in (("pages/4_Plan.py", "Apply edit"),
                         ("pages/5_Replay.py", "Run replay")):
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        planned_once(at, ten_thousand_plan)
        shown = in_order(at, shown=True)
        assert not _long_before(shown, _index(shown, "button", action)), page
        order = at.session_state["dgrr_computed_plan"].replay_order()
        assert len(order) > 500  # all of it, in an expander
        assert any(e.type == "text" and e.value == " → ".join(order) for e in in_order(at))


def _poll(at: AppTest, seconds: float = 120) -> AppTest:
    import time

    end = time.monotonic() + seconds
    while "dgrr_replay_job" in at.session_state and time.monotonic() < end:
        time.sleep(0.5)
        at.run()
    assert "dgrr_replay_job" not in at.session_state
    return at


def test_a_long_replay_runs_beside_the_page_with_an_estimate_and_progress(ten_thousand,
                                                                          ten_thousand_plan):
    from dgrr_dashboard.replay_job import replay_estimate

    at = opened(ten_thousand, ten_thousand_plan)
    at.switch_page("pages/5_Replay.py").run()
    planned_once(at, ten_thousand_plan)
    p = at.session_state["dgrr_computed_plan"]
    estimate = replay_estimate(p)
    assert any(f"Replays **{estimate['steps']:,}**" in m.value
               and f"about **{estimate['model_calls']:,}** model calls" in m.value
               for m in at.markdown)
    at.button(key="dgrr_w_run_replay").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # the page came back while the replay runs: its progress and a Cancel button
    assert at.button(key="dgrr_w_run_replay").disabled
    assert at.button(key="dgrr_w_cancel_replay")
    _poll(at)
    assert any("Replay finished" in s.value for s in at.success), [e.value for e in at.error]
    res = at.session_state["dgrr_result"]
    assert res is not None and res.report.steps
    assert abs(res.cost.llm_calls - estimate["model_calls"]) <= 0.05 * estimate["model_calls"]


def test_a_long_replay_can_be_cancelled(ten_thousand, ten_thousand_plan):
    at = opened(ten_thousand, ten_thousand_plan)
    at.switch_page("pages/5_Replay.py").run()
    planned_once(at, ten_thousand_plan)
    at.button(key="dgrr_w_run_replay").click().run()
    at.button(key="dgrr_w_cancel_replay").click().run()
    _poll(at)
    assert any("Replay cancelled after" in w.value for w in at.warning)
    assert "dgrr_result" not in at.session_state
    assert not at.button(key="dgrr_w_run_replay").disabled


def test_trace_tree_is_paged_and_counts_in_words(ten_thousand, ten_thousand_plan):
    from dgrr_dashboard.trace import trace_data

    p = plan_case(ten_thousand)
    first = trace_data(p, limit=2000)
    second = trace_data(p, limit=2000, offset=2000)
    ids = lambda d: [r["id"] for g in d["groups"] for r in g["rows"]]  # noqa: E731
    assert len(ids(first)) == len(ids(second)) == 2000
    assert not set(ids(first)) & set(ids(second))
    assert "rows 2001–4000 of the" in second["note"]
    one = trace_data(p, search="s3")
    titles = [g["title"] for g in one["groups"]]
    assert not any(" 1 steps" in t or " 1 records" in t for t in titles), titles
    assert any(" 1 step," in t for t in titles), titles

    at = opened(ten_thousand, ten_thousand_plan)
    at.switch_page("pages/3_Trace.py").run()
    planned_once(at, ten_thousand_plan)
    at.checkbox(key="dgrr_w_t_changed").uncheck().run()
    assert not at.exception, [e.value for e in at.exception]
    page = at.number_input(key="dgrr_w_t_page")
    assert page.max >= 5
    page.set_value(2).run()
    assert any("rows 2001–4000" in c.value for c in at.caption)


def test_answer_diff_marks_punctuation_apart_from_the_word():
    from dgrr_dashboard.widgets import answer_diff_html

    before, after = answer_diff_html("Your seat is 31A, window side.", "Your seat is 31A (aisle).")
    assert "31A<del" in before and "<del style=\"background:#fdd\">31A" not in before
    assert "31A <mark" in after
    assert answer_diff_html("a <b>", "a <b>") == ("a &lt;b&gt;", "a &lt;b&gt;")


def _load_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/1_Load.py").run()
    return at


def test_an_otlp_file_uploaded_as_a_case_points_to_the_import_tab():
    at = _load_page()
    otlp = ROOT / "sample_imports" / "otlp" / "figure1-travel.otlp.json"
    at.file_uploader(key="dgrr_w_upload_case").set_value(
        ("trace.json", otlp.read_bytes(), "application/json"))
    at.run()
    at.button(key="dgrr_w_load_upload").click().run()
    assert not at.exception
    [error] = at.error
    assert "(1 problem)" in error.value
    assert "Trace (OTLP) + Mem0 store" in error.value.replace("\\", "")


def test_a_mem0_history_alone_imports():
    at = _load_page()
    assert at.button(key="dgrr_w_import").disabled
    assert any("a trace file, a Mem0 history database, or both" in c.value for c in at.caption)
    history = ROOT / "sample_imports" / "mem0-history" / "history.db"
    at.file_uploader(key="dgrr_w_upload_store").set_value(
        ("history.db", history.read_bytes(), "application/octet-stream"))
    at.run()
    assert not at.button(key="dgrr_w_import").disabled
    at.button(key="dgrr_w_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    case = at.session_state["dgrr_case"]
    assert not case.has_answer() and len(case.memory) == 7


@pytest.mark.parametrize("name", ["langgraph/travel.otlp.json", "openlit/openlit-1.45.otlp.json",
                                  "mem0-history/history.db"])
def test_the_import_samples_include_langgraph_openlit_and_a_history_alone(name):
    at = _load_page()
    box = at.selectbox(key="dgrr_w_import_sample")
    [option] = [o for o in box.options if o.startswith(name)]
    box.set_value(option)
    at.button(key="dgrr_w_import_sample_go").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["dgrr_case"] is not None


def test_graph_page_draws_the_picture_first_with_one_legend_and_plain_notes(ten_thousand,
                                                                            ten_thousand_plan):
    at = opened(ten_thousand, ten_thousand_plan)
    at.switch_page("pages/3_Graph.py").run()
    assert not at.exception, [e.value for e in at.exception]
    planned_once(at, ten_thousand_plan)
    shown = in_order(at, shown=True)
    frame = next(i for i, e in enumerate(shown) if e.type == "component_instance")
    # above the picture: the title, a caption, one row of controls and the counts
    assert sum(e.type in ("markdown", "caption", "alert", "html", "info") for e in
               shown[:frame]) <= 3, [e.type for e in shown[:frame]]
    assert not [e for e in shown if e.type == "html" and "dgrr-decision-legend" in e.proto.body]
    texts = [str(getattr(e, "value", "")) for e in in_order(at)
             if e.type in ("markdown", "caption", "alert", "info")]
    assert not any("\\`" in t for t in texts), texts
    from dgrr_dashboard.graph_html import graph_html
    from repair_core.viz import graph_view

    p = at.session_state["dgrr_computed_plan"]
    assert "`" not in (graph_view(p).note or "")
    assert "#mynetwork{box-sizing:border-box}" in graph_html(plan_case(load_case(
        ROOT / "sample_traces" / "figure1-travel.json")))
    # a node's other fields sit in a labelled expander, not an unlabelled {…} toggle
    at.session_state["dgrr_selected_node"] = ten_thousand.trajectory[0].id
    at.run()
    assert not [e for e in in_order(at) if e.type == "json"
                and e.proto.expanded is False]


def test_committed_results_browse_with_the_case_first_and_open_it():
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("pages/8_Benchmark.py").run()
    box = at.selectbox(key="dgrr_w_bench_committed")
    assert "committed: docs/results/controlled" in box.options
    box.set_value("committed: docs/results/controlled").run()
    assert not at.exception, [e.value for e in at.exception]
    [table] = [d for d in at.dataframe if any(" · " in str(c) for c in d.value.columns)]
    frame = table.value
    assert list(frame.columns[:3]) == ["case_id", "domain", "fault_type"]
    outcomes = frame.columns[3:]
    assert len(outcomes) >= 10 and {"ours · strict", "no_repair · strict"} <= set(outcomes)
    assert set(frame[outcomes].stack()) <= {"yes", "no", "—"}
    assert "background-color: #c8e6c9" in table.proto.arrow_data.styler.styles
    # the case the researcher picks opens in the workbench
    cid = frame["case_id"].iloc[0]
    at.selectbox(key="dgrr_w_bs_case").set_value(cid)
    at.button(key="dgrr_w_bs_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["dgrr_case"].case_id == cid


def test_recovery_chart_sorts_fifteen_methods_best_first():
    import pandas as pd

    from dgrr_dashboard.bench_view import recovery_bars

    rows = pd.DataFrame([{"method": f"m{i:02d}", "recovery": i / 20, "domain": d}
                         for i in range(15) for d in ("travel", "shopping")])
    spec = recovery_bars(rows).to_dict()
    layer = spec["layer"][0]["encoding"]
    assert layer["y"]["sort"] == [f"m{i:02d}" for i in reversed(range(15))]
    assert "color" not in layer  # one colour: no legend to cut, no colour repeated
    faceted = recovery_bars(rows, "domain").to_dict()
    assert faceted["facet"]["field"] == "domain" and faceted["columns"] == 3


@pytest.mark.parametrize("page", ["pages/3_Trace.py", "pages/3_Graph.py"])
def test_step_panel_shows_prompt_and_reply_of_a_replayed_step(page):
    from repair_core import load_example

    case = load_example()
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/5_Replay.py").run()
    at.button(key="dgrr_w_run_replay").click().run()
    res = at.session_state["dgrr_result"]
    answer = case.final_answer().id
    at.session_state["dgrr_selected_node"] = answer
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    bodies = [h.proto.body for h in at.get("html")]
    [before] = [b for b in bodies if "dgrr-step-before" in b]
    [after] = [b for b in bodies if "dgrr-step-after" in b]
    assert "<del" in before and "<mark" in after
    new = next(s.text for s in res.trajectory.trajectory if s.id == answer)
    assert new.split()[0] in after
    calls = [e for e in at.expander if e.label.startswith("Model call 1 of")]
    assert calls and "answer" in calls[0].label
    texts = [t.value for t in at.text]
    assert any(t.startswith("[system]") or t.startswith("[user]") for t in texts)
    assert any(new[:40] in t for t in texts)  # the reply the answer was parsed from


def test_carriers_are_acknowledged_by_kind_and_the_approval_names_each(many_faults, many_faults_run,
                                                                       tmp_path):
    from repair_core.approvals import ApprovalStore

    at = replayed(many_faults, many_faults_run, "pages/7_Approve.py")
    summary = approval_summary(at.session_state["dgrr_computed_plan"],
                               at.session_state["dgrr_result"])
    assert len(summary.carriers) > 50  # one box each was one box per carrier
    boxes = [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_carriers_")]
    assert 1 <= len(boxes) <= 4  # carriers by kind, and what is not certified
    # each group's table lists every one of its carriers, by id
    listed = [i for d in at.dataframe if "it says" in d.value.columns for i in d.value["id"]]
    assert sorted(listed) == sorted(summary.carriers)
    at.text_input(key="dgrr_w_reviewer").set_value("Ana")
    for b in at.checkbox:
        if b.key.startswith("dgrr_w_ack_") and b.key != boxes[-1].key:
            b.check()
    at.button(key=RECORD).click().run()
    assert "acknowledge every warning" in at.error[0].value
    assert not (tmp_path / "approvals.db").exists()
    at.checkbox(key=boxes[-1].key).check()
    at.button(key=RECORD).click().run()
    assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
    assert "Recorded #1: approve by Ana" in at.success[0].value
    [rec] = ApprovalStore(str(tmp_path / "approvals.db")).history()
    assert sorted(rec.acknowledged) == sorted(summary.carriers)
