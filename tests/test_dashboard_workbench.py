"""The workbench on cases it had never seen: an imported trace with no memory
records, data that mentions CSS urls, a backtick in the case id; every page, no exception."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from streamlit.testing.v1 import AppTest  # noqa: E402
from workbench_cases import URL_TEXT, no_record_case, url_text_case  # noqa: E402

from repair_core import load_case, load_example, plan_case, repair, with_faults  # noqa: E402
from repair_core.replay import Failure  # noqa: E402

APP = str(ROOT / "app.py")
PAGES = ["0_Cases", "1_Load", "2_Faults", "3_Graph", "3_Model_calls", "3_Trace", "4_Plan", "5_Replay", "6_Compare",
         "7_Approve", "8_Benchmark", "9_Fleet"]


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "approvals.db"))


def walk(case, *, replay: bool = False) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    if replay:
        at.switch_page("pages/5_Replay.py").run()
        p = plan_case(case)
        at.session_state["dgrr_result"] = repair(case, p)
        from dgrr_dashboard.state import _plan_digest
        at.session_state["dgrr_result_key"] = _plan_digest(p)
    for name in PAGES:
        at.switch_page(f"pages/{name}.py").run()
        assert not at.exception, (name, [e.value for e in at.exception])
    return at


@pytest.mark.parametrize("replay", [False, True])
def test_imported_trace_without_records_walks_every_page(tmp_path, replay):
    case = no_record_case(tmp_path)
    at = walk(case, replay=replay)
    at.switch_page("pages/2_Faults.py").run()
    assert any("no memory records" in i.value for i in at.info)
    at.switch_page("pages/6_Compare.py").run()
    assert not at.exception


def test_text_mentioning_css_urls_is_drawn(tmp_path):
    from dgrr_dashboard.graph_html import graph_html
    from repair_core.viz import external_resources

    case = url_text_case()
    walk(case, replay=True)
    html = graph_html(plan_case(case))
    assert external_resources(html) == []
    assert "evil.example" in html  # the text is there, as data


def test_external_resources_reads_tags_not_text():
    from repair_core.viz import escape_html, external_resources

    assert external_resources(f"<div>{escape_html(URL_TEXT)}</div>") == []
    assert external_resources(f"<div>{URL_TEXT}</div>")  # its <img> unescaped is a tag
    assert external_resources("<p>&lt;img src=http://x/i.png&gt;</p>") == []
    assert external_resources('<script type="application/json">["url(http://x/a)"]</script>') == []
    assert external_resources('<script src="https://cdn.example/a.js"></script>')
    assert external_resources('<link rel="stylesheet" href="//cdn.example/a.css">')
    assert external_resources('<img src="http://x.example/i.png">')
    assert external_resources('<style>body{background:url("http://x.example/b.png")}</style>')
    assert external_resources("<style>@import 'https://x.example/b.css';</style>")
    assert external_resources('<div style="background:url(//x.example/b.png)"></div>')
    assert external_resources('<img src="data:image/png;base64,AAAA">') == []


def test_cli_graph_draws_text_mentioning_urls(tmp_path):
    from repair_core.cli import main

    src = tmp_path / "url.json"
    src.write_text(url_text_case().model_dump_json())
    assert main(["graph", str(src), "--out", str(tmp_path / "g.html")]) == 0


def test_markdown_report_escapes_every_untrusted_field():
    import re

    from repair_core.approvals import markdown_report

    case = url_text_case()
    p = plan_case(case)
    md = markdown_report(p, repair(case, p))
    assert md.splitlines()[0] == ("# Repair report — case "
                                  "`` fig`1 <b>x</b> ![i](http://evil.example/c.png) ``")
    body = "\n".join(md.splitlines()[1:])
    assert "evil\\.example" in body  # the text is in the report ...
    # ... with no unescaped markup: every <, >, [, ], (, ), !, | of the data is escaped
    for ch in "<>[]!":
        assert not re.search(rf"(?<!\\){re.escape(ch)}", body), ch
    assert "http:" not in body  # autolinks are broken by a word joiner


def test_restored_then_retired_is_listed_once():
    from repair_core.approvals import approval_summary

    case = load_case(ROOT / "sample_traces" / "shop-summary-drift.json")
    p = plan_case(case)
    res = repair(case, p)
    assert set(res.report.store_changes.restored) & set(res.report.store_changes.retired)
    s = approval_summary(p, res)
    assert not set(s.store.get("restored", [])) & set(s.store.get("retired", []))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/6_Compare.py").run()
    at.session_state["dgrr_result"] = res
    at.session_state["dgrr_result_key"] = at.session_state["dgrr_plan_keys"][
        id(at.session_state["dgrr_computed_plan"])][1]
    at.switch_page("pages/6_Compare.py").run()
    assert not at.exception
    [mem] = [d.value for d in at.dataframe if "change" in d.value.columns]
    again = set(res.report.store_changes.restored) & set(res.report.store_changes.retired)
    assert set(mem[mem["id"].isin(again)]["change"]) == {"retired again"}


def _legends(at: AppTest) -> list[str]:
    import re

    return [m.group(0) for e in at.get("html")
            for m in re.finditer(r'<div class="dgrr-decision-legend".*?</div>', e.proto.body)]


def test_one_decision_legend_on_every_page_that_colours_by_decision():
    from repair_core.viz import DECISION_STYLES, graph_view

    case = load_case(ROOT / "sample_traces" / "shop-summary-drift.json")
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    seen = {}
    for name in ("3_Graph", "3_Trace", "4_Plan", "6_Compare", "7_Approve"):
        at.switch_page(f"pages/{name}.py").run()
        assert not at.exception
        legends = _legends(at)
        assert legends, name
        seen[name] = legends[0]
    assert len(set(seen.values())) == 1, seen
    # the trace rows and the graph nodes take their colours from the same table
    p = at.session_state["dgrr_computed_plan"]
    colours = {n.id: n.colour for n in graph_view(p).nodes}
    at.switch_page("pages/3_Trace.py").run()
    rows = [r for g in _tree_data(at)["groups"] for r in g["rows"]]
    for r in rows:
        assert DECISION_STYLES[r["key"]][0] == colours[r["id"]], r



def test_the_graph_colours_by_analysis_with_its_legend_and_compare_keeps_green_for_support():
    from dgrr_dashboard.widgets import pale
    from repair_core.viz import DECISION_STYLES, NODE_CLASSES

    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_example()
    at.switch_page("pages/3_Graph.py").run()
    at.radio(key="dgrr_w_g_colour").set_value("analysis").run()
    assert not at.exception, [e.value for e in at.exception]
    legend = " ".join(_legends(at))
    assert "the node's class in the analysis" in legend
    assert all(label in legend for _, label, _ in NODE_CLASSES.values())
    # the inspector's class agrees with the plan: s11 is replayed under `both` but the
    # answer does not depend on it
    at.session_state["dgrr_selected_node"] = "s11"
    at.run()
    assert any("analysis: **affected**" in m.value for m in at.markdown)
    assert not any("answer-relevant**" in m.value for m in at.markdown)
    # Compare: an unaffected kept step is grey, a step kept by support green
    at.switch_page("pages/6_Compare.py").run()
    assert not at.exception
    import re

    [traj] = [d for d in at.dataframe if "outcome" in d.value.columns]
    cells = {}  # row -> background of its outcome cell
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", traj.proto.arrow_data.styler.styles):
        colour = re.search(r"background-color: (#[0-9a-f]{6})", body)
        for row in re.findall(r"_row(\d+)_col\d+", selectors):
            cells[traj.value["id"].iloc[int(row)]] = colour.group(1) if colour else None
    p = at.session_state["dgrr_computed_plan"]
    for node, action in p.steps.items():
        if action == "keep":
            key = "kept" if node in p.analysis.supported else "keep"
            assert cells[node] == pale(DECISION_STYLES[key][0]), node
    assert {"s2", "s8"} <= {n for n, a in p.steps.items() if a == "keep"}
    assert cells["s2"] != cells["s8"]

def _tree_data(at: AppTest) -> dict:
    import json

    for e in at.get("component_instance"):
        args = json.loads(e.proto.json_args)
        if args.get("mode") == "tree":
            return dict(args["data"])
    raise AssertionError("no trace component")


def test_trace_search_and_filters_run_over_every_row(tmp_path):
    from dgrr_dashboard.trace import trace_data, trace_rows
    from repair_core.cli import main

    path = tmp_path / "big.json"
    assert main(["synth", "--steps", "12000", "--seed", "1", "--out", str(path)]) == 0
    p = plan_case(load_case(path))
    rows = trace_rows(p)
    assert len(rows) == len(p.case.trajectory) + len(p.case.memory)
    # an id far beyond the row limit, typed exactly, is found (and not s99990…)
    hit = trace_data(p, search="s9999", limit=50, rows=rows)
    shown = [r["id"] for g in hit["groups"] for r in g["rows"]]
    assert shown[0] == "s9999" and hit["matching"] >= 1
    # the decision filter offers every decision present and keeps exactly those rows
    replayed = {s for s, d in p.steps.items() if d == "replay"}
    data = trace_data(p, decision="replay", limit=5000, rows=rows)
    assert "replay" in data["decisions"] and set(data["decisions"]) == {r["decision"] for r in rows}
    assert {r["id"] for g in data["groups"] for r in g["rows"]} == replayed
    assert data["matching"] == len(replayed)


def test_trace_page_filters_server_side(tmp_path):
    from repair_core.cli import main

    path = tmp_path / "big.json"
    assert main(["synth", "--steps", "12000", "--seed", "1", "--out", str(path)]) == 0
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_case(path)
    at.switch_page("pages/3_Trace.py").run()
    at.text_input(key="dgrr_w_t_search").set_value("s9999").run()
    assert not at.exception
    rows = [r["id"] for g in _tree_data(at)["groups"] for r in g["rows"]]
    assert "s9999" in rows
    assert at.session_state["dgrr_selected_node"] == "s9999"
    assert "replay" in at.selectbox(key="dgrr_w_t_decision").options


def test_hand_typed_observation_is_its_own_warning():
    from repair_core import case_from_data
    from repair_core.approvals import approval_summary

    data = load_example().model_dump(mode="json")
    data["tools"] = [{"name": "legacy_flight_search", "effect": "pure"}]
    for s in data["trajectory"]:
        if s.get("tool") == "search_flights":
            s["tool"] = "legacy_flight_search"
    case = case_from_data(data)
    p = plan_case(case)
    res = repair(case, p, observations={"s6": {"flight": "JL1", "seat": "31C"}})
    warnings = approval_summary(p, res).warnings
    assert [w for w in warnings if w.startswith("Observation typed by hand")] == [
        "Observation typed by hand (not returned by the tool) — step s6"]
    clean = approval_summary(p, repair(case, p)).warnings
    assert not [w for w in clean if w.startswith("Observation typed by hand")]
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/5_Replay.py").run()
    at.session_state["dgrr_result"] = res
    at.session_state["dgrr_result_key"] = at.session_state["dgrr_plan_keys"][
        id(at.session_state["dgrr_computed_plan"])][1]
    at.switch_page("pages/5_Replay.py").run()
    assert not at.exception
    assert any("typed by hand" in w.value for w in at.warning) and not at.success


def test_approval_warnings_are_acknowledged_once_per_kind():
    from repair_core.approvals import approval_summary, warning_groups

    case = load_example()
    p = plan_case(case)
    res = repair(case, p)
    data = res.model_dump(mode="json")
    data["report"]["failures"] = [{"step": f"s{i}", "error": "timeout"} for i in range(300)]
    data["report"]["skipped_writes"] = [{"step": "s4", "reason": "target gone"}]
    summary = approval_summary(p, data)
    groups = dict(warning_groups(summary.warnings))
    assert len(groups["Failed step"]) == 300 and len(groups["Write not applied"]) == 1
    assert sum(len(v) for v in groups.values()) == len(summary.warnings)

    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_objective"] = "answer"  # the plan `res` was replayed from
    at.switch_page("pages/7_Approve.py").run()
    at.session_state["dgrr_result"] = res.model_copy(update={"report": res.report.model_copy(
        update={"failures": [Failure(step=f"s{i}", stage="replay", error="timeout")
                             for i in range(300)]})})
    at.session_state["dgrr_result_key"] = at.session_state["dgrr_plan_keys"][
        id(at.session_state["dgrr_computed_plan"])][1]
    at.switch_page("pages/7_Approve.py").run()
    assert not at.exception, [e.value for e in at.exception]
    boxes = [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_")]
    kinds = warning_groups(approval_summary(p, at.session_state["dgrr_result"]).warnings)
    assert len(boxes) == len(kinds) < 300
    assert any(b.label.startswith("Read all 300: Failed step") for b in boxes)
    # approving needs every kind ticked, once
    at.text_input(key="dgrr_w_reviewer").set_value("ana")
    at.button(key="FormSubmitter:dgrr_w_approve_form-Record decision").click().run()
    assert any("acknowledge every warning" in e.value for e in at.error)
    for b in [b for b in at.checkbox if b.key.startswith("dgrr_w_ack_")]:
        b.check()
    at.run()
    at.button(key="FormSubmitter:dgrr_w_approve_form-Record decision").click().run()
    assert any("Recorded #" in s.value for s in at.success), [e.value for e in at.error]


def test_inspector_ids_are_buttons_that_inspect_that_node():
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_example()
    at.switch_page("pages/3_Graph.py").run()
    at.selectbox(key="dgrr_w_g_node").set_value("s3").run()
    [premise] = [b for b in at.button if b.label.startswith("m3")]  # s3 cites m3
    premise.click().run()
    assert not at.exception
    assert at.session_state["dgrr_selected_node"] == "m3"
    assert at.selectbox(key="dgrr_w_g_node").value == "m3"
    assert any("Decision:** delete" in m.value for m in at.markdown)


def test_plan_typed_id_is_an_exact_match_and_actions_fit_the_node(tmp_path):
    from repair_core.cli import main

    path = tmp_path / "c.json"
    assert main(["synth", "--steps", "40", "--seed", "1", "--out", str(path)]) == 0
    case = load_case(path)
    assert {"s1", "s10"} <= {s.id for s in case.trajectory}
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/4_Plan.py").run()
    at.text_input(key="dgrr_w_edit_typed").set_value("s1").run()
    action = at.selectbox(key="dgrr_w_edit_action")
    assert action.label == "New decision for s1"
    kind = next(s.type for s in case.trajectory if s.id == "s1")
    assert "refresh" not in action.options or kind == "tool_observation"
    assert not {"delete", "quarantine", "restore"} & set(action.options)
    at.text_input(key="dgrr_w_edit_typed").set_value("s1x").run()
    assert not at.exception
    assert any("no record or step" in c.value for c in at.caption)


def test_imported_nodes_are_labelled_by_what_they_are(tmp_path):
    from repair_core.case._trace import step_trace
    from repair_core.viz import graph_view

    case = no_record_case(tmp_path)
    view = graph_view(plan_case(case))
    steps = {s.id: s for s in case.trajectory}
    for n in view.nodes:
        if n.id in steps:
            assert n.id.split("-")[0] not in n.label, n.label  # no 16-hex span id
            # what it is: its span's name when the trace recorded one, its type, its text
            traced = step_trace(steps[n.id])
            span = "" if traced is None else traced.span_name or traced.operation or ""
            head, _, rest = n.label.partition("[")
            named = head.removesuffix(" ")
            assert named == span or (named.endswith("…") and span.startswith(named[:-1])), \
                n.label  # a long name is cut to the label's width
            assert steps[n.id].text[:8] in rest, n.label
    example = {n.id: n.label for n in graph_view(plan_case(load_example())).nodes}
    assert example["s3"].startswith("s3 [claim]")  # readable ids stay


@pytest.fixture(scope="module")
def bench_out(tmp_path_factory):
    """A results folder outside the repository: three methods on five controlled cases,
    written by `dgrr bench run` itself."""
    import shutil

    from repair_core.cli import main

    root = tmp_path_factory.mktemp("bench")
    cases = root / "cases"
    cases.mkdir()
    for name in ("ctl-002-shopping-stale", "ctl-004-customer-service-summary-drift",
                 "ctl-001-travel-wrong-user", "ctl-006-customer-service-stale"):
        shutil.copy(ROOT / "sample_traces" / "controlled" / f"{name}.json", cases)
    out = root / "out"
    assert main(["bench", "run", "--suite", str(cases), "--methods",
                 "ours,delete_faults_rerun,no_repair", "--out", str(out)]) == 0
    return out


def test_results_folder_is_read_generically(bench_out, tmp_path):
    import json
    import shutil

    from dgrr_dashboard.bench_browse import case_table, read_folder, rule_columns

    copy = tmp_path / "copy"
    shutil.copytree(bench_out, copy)
    # a newer results format: another rule and another method, unknown to this page
    for f in (copy / "results" / "ours").glob("*.json"):
        data = json.loads(f.read_text())
        data["recovered_paper"] = True
        data["state_ok"] = None
        (copy / "results" / "ours").joinpath(f.name).write_text(json.dumps(data))
        other = copy / "results" / "redo_first_exposure"
        other.mkdir(exist_ok=True)
        (other / f.name).write_text(json.dumps({**data, "method": "redo_first_exposure",
                                                "recovered": False}))
    (copy / "results" / "ours" / "junk.json").write_text("not json")
    folder = read_folder(copy)
    assert rule_columns(folder.rows) == ["recovered", "recovered_paper", "state_ok"]
    assert len(folder.problems) == 1 and "junk.json" in folder.problems[0]
    row = case_table(folder.rows)[0]
    assert {"ours · strict", "ours · paper", "ours · state", "redo_first_exposure · strict",
            "no_repair · paper"} <= set(row)


def test_researcher_opens_a_disagreement_with_a_baselines_repair(bench_out):
    from dgrr_dashboard.bench_browse import disagreeing, read_folder

    rows = read_folder(bench_out).rows
    differ = disagreeing(rows, "ours", "delete_faults_rerun")
    assert differ
    at = AppTest.from_file(APP, default_timeout=300).run()
    at.switch_page("pages/8_Benchmark.py").run()
    at.text_input(key="dgrr_w_bench_out").set_value(str(bench_out)).run()
    at.selectbox(key="dgrr_w_bs_b").set_value("delete_faults_rerun").run()
    assert not at.exception, [e.value for e in at.exception]
    [table] = [d.value for d in at.dataframe if "ours · strict" in d.value.columns]
    assert set(table["case_id"]) == differ
    cid = at.selectbox(key="dgrr_w_bs_case").value
    panes = {d.value.columns[1]: d.value for d in at.dataframe
             if len(d.value.columns) == 2 and d.value.columns[0] == ""}
    assert set(panes) == {"ours", "delete_faults_rerun"}
    ours = dict(zip(panes["ours"][""], panes["ours"]["ours"], strict=True))
    base = dict(zip(panes["delete_faults_rerun"][""], panes["delete_faults_rerun"][
        "delete_faults_rerun"], strict=True))
    assert ours["recovered (strict)"] != base["recovered (strict)"]
    answers = [t.value for t in at.text]
    by = {str(r["method"]): r for r in rows if r["case_id"] == cid}
    assert by["ours"]["answer"] in answers and by["delete_faults_rerun"]["answer"] in answers
    # open it in the workbench with the baseline's repair loaded as the plan
    at.selectbox(key="dgrr_w_bs_open_method").set_value("delete_faults_rerun").run()
    at.button(key="dgrr_w_bs_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["dgrr_case"].case_id == cid
    plan = at.session_state["dgrr_plan"]
    assert plan.edits and all(e.comment == "benchmark method delete_faults_rerun"
                              for e in plan.edits)
    from repair_core.bench import decide

    d = decide("delete_faults_rerun", at.session_state["dgrr_case"])
    assert {s for s, a in plan.steps.items() if a in ("replay", "refresh")} == set(d.replay)


def test_two_methods_that_never_disagree_get_a_sentence_not_an_empty_grid(bench_out, tmp_path):
    import json
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(bench_out, copy)
    twin = copy / "results" / "ours_twin"  # the same outcomes as ours on every case
    twin.mkdir()
    for f in (copy / "results" / "ours").glob("*.json"):
        data = json.loads(f.read_text())
        (twin / f.name).write_text(json.dumps({**data, "method": "ours_twin"}))
    at = AppTest.from_file(APP, default_timeout=300).run()
    at.switch_page("pages/8_Benchmark.py").run()
    at.text_input(key="dgrr_w_bench_out").set_value(str(copy)).run()
    at.selectbox(key="dgrr_w_bs_b").set_value("ours_twin").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.checkbox(key="dgrr_w_bs_only").value
    assert not [d for d in at.dataframe if "ours · strict" in d.value.columns]
    assert any("same outcome on every case" in i.value for i in at.info)
    at.checkbox(key="dgrr_w_bs_only").uncheck().run()
    [table] = [d.value for d in at.dataframe if "ours · strict" in d.value.columns]
    assert len(table) == 4


def test_graph_search_for_an_undrawn_node_inspects_it():
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_example()
    at.switch_page("pages/3_Graph.py").run()
    at.checkbox(key="dgrr_w_g_affected").check().run()
    drawn = at.selectbox(key="dgrr_w_g_node").options
    assert not any(o.startswith("m1 ") for o in drawn)  # m1 is unaffected: not drawn
    at.session_state["dgrr_w_g_component"] = {"id": "m1", "n": 7, "t": 7}  # the search box
    at.run()
    assert not at.exception
    assert at.session_state["dgrr_selected_node"] == "m1"
    assert any("is not drawn in this view" in c.value for c in at.caption)
    # the picker names the node the panel inspects (it used to show a drawn one)
    picker = at.selectbox(key="dgrr_w_g_node")
    assert picker.value == "m1" and picker.options[0] == "m1 · record · not drawn"
    picker.set_value("m3").run()  # picking a drawn node inspects it, and m1 leaves the list
    assert at.session_state["dgrr_selected_node"] == "m3"
    assert not any(o.startswith("m1 ") for o in at.selectbox(key="dgrr_w_g_node").options)
    assert not any("is not drawn in this view" in c.value for c in at.caption)
    at.session_state["dgrr_w_g_component"] = {"id": "nope", "n": 8, "t": 8}
    at.run()
    assert any("No node" in w.value for w in at.warning)


def test_the_plans_new_decision_starts_at_the_current_one():
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.session_state["dgrr_case"] = load_example()
    at.switch_page("pages/4_Plan.py").run()
    plan = at.session_state["dgrr_computed_plan"]
    for node in ("s11", "m6", "s2"):
        at.selectbox(key="dgrr_w_edit_node").set_value(node).run()
        assert not at.exception, [e.value for e in at.exception]
        current = plan.memory.get(node) or plan.steps.get(node)
        assert at.selectbox(key="dgrr_w_edit_action").value == current, node


def test_the_benchmark_page_opens_on_results_remembers_them_and_follows_the_comparison(
        tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_BENCH_OUT", str(tmp_path / "empty"))
    at = AppTest.from_file(APP, default_timeout=300).run()
    at.switch_page("pages/8_Benchmark.py").run()
    assert not at.exception, [e.value for e in at.exception]
    browse = at.selectbox(key="dgrr_w_bench_committed")
    assert browse.value.startswith("committed: ")  # not the empty folder
    # results are read: a table of the cases where the two disagree, or the sentence
    # that they never do
    assert [d for d in at.dataframe if "ours · strict" in d.value.columns] or any(
        "same outcome on every case" in i.value for i in at.info)
    assert any("disagree under some rule" in c.value for c in at.caption)
    browse.set_value("committed: docs/results/controlled").run()
    at.selectbox(key="dgrr_w_bs_b").set_value("no_repair").run()
    at.switch_page("pages/1_Load.py").run()
    at.switch_page("pages/8_Benchmark.py").run()
    assert at.selectbox(key="dgrr_w_bench_committed").value == \
        "committed: docs/results/controlled"
    assert at.selectbox(key="dgrr_w_bs_b").value == "no_repair"
    # the disagreement table leads with the two methods compared
    at.checkbox(key="dgrr_w_bs_only").uncheck().run()
    [table] = [d.value for d in at.dataframe if "ours · strict" in d.value.columns]
    head = [c.split(" · ")[0] for c in table.columns[3:]]
    n = head.count("ours")
    assert head[:n] == ["ours"] * n and head[n:2 * n] == ["no_repair"] * n
    assert at.multiselect(key="dgrr_w_bs_methods").value == ["ours", "no_repair"]
    at.selectbox(key="dgrr_w_bs_b").set_value("full_reset").run()
    assert at.multiselect(key="dgrr_w_bs_methods").value == ["ours", "full_reset"]


def test_the_whole_story_asks_before_it_replaces_the_working_case():
    from repair_core import apply_edits

    at = AppTest.from_file(APP, default_timeout=120).run()
    case = load_case(ROOT / "sample_traces" / "shop-summary-drift.json")
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_plan"] = apply_edits(plan_case(case, objective="both"),
                                                {"m1": "quarantine"}, force=True,
                                                comment="mine")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(w.value for w in at.warning)
    assert "in place of `shop-summary-drift`" in said and "its plan edits" in said
    assert at.button(key="dgrr_w_demo_run").disabled
    at.checkbox(key="dgrr_w_demo_replace").check().run()
    at.button(key="dgrr_w_demo_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["dgrr_case"].case_id == "fig1-travel"
    assert not [w for w in at.warning if "in place of" in w.value]  # the story's own case


def test_the_whole_story_names_what_goes_with_the_working_case_in_words():
    from dgrr_dashboard import state

    replayed = AppTest.from_file(APP, default_timeout=120).run()
    case = load_case(ROOT / "sample_traces" / "cs-stale-address.json")
    replayed.session_state["dgrr_case"] = case
    replayed.switch_page("pages/5_Replay.py").run()
    replayed.button(key="dgrr_w_run_replay").click().run()
    at = AppTest.from_file(APP, default_timeout=120)  # the Home page, that replay kept
    at.session_state["dgrr_case"] = case
    for key in (state.RESULT, state.RESULT_KEY):
        at.session_state[key] = replayed.session_state[key]
    at.session_state[state.LOADED_FAULTS] = ["m1"]  # as loaded
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(w.value for w in at.warning)
    assert "(its replay goes with it)" in said, said
    from repair_core import apply_edits

    marked = with_faults(case, ["m1", "m6"])  # another plan: the replay is not its own
    at.session_state["dgrr_case"] = marked
    at.session_state["dgrr_plan"] = apply_edits(plan_case(marked, objective="both"),
                                                {"s11": "replay"})
    at.run()
    said = " ".join(w.value for w in at.warning)
    assert "(its plan edits and its marked faults go with it)" in said, said


def test_the_step_panel_takes_the_pages_width_when_the_inspector_is_beside_the_picture():
    at = AppTest.from_file(APP, default_timeout=120).run()
    case = load_example()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/5_Replay.py").run()
    at.button(key="dgrr_w_run_replay").click().run()
    at.session_state["dgrr_selected_node"] = case.final_answer().id
    at.switch_page("pages/3_Graph.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.radio(key="dgrr_w_g_inspector").value == "beside the picture"

    def step_html(block) -> list[str]:
        return [h.proto.body for h in block.get("html") if "dgrr-step-before" in h.proto.body]

    [inspector] = [c for c in at.columns if any(s.key == "dgrr_w_g_node" for s in c.selectbox)]
    assert not step_html(inspector)  # not squeezed into the inspector's quarter
    assert any("below the picture" in c.value for c in inspector.caption)
    assert len(step_html(at)) == 1  # once, below the picture
    at.radio(key="dgrr_w_g_inspector").set_value("below the picture (a wider picture)").run()
    assert len(step_html(at)) == 1


def test_a_long_id_in_the_trace_tree_is_cut_not_drawn_over_the_type():
    import re

    css = (ROOT / "dgrr_dashboard" / "frontend" / "index.html").read_text()
    rules = {sel.strip(): body for sel, body in re.findall(r"([^{}/]+)\{([^}]*)\}", css)}
    for column in (".row .id", ".row .ty", ".row .de"):  # they never shrink under their text
        assert "flex: 0 0 auto" in rules[column], column
    cut = rules[".row .id"]
    assert "max-width" in cut and "overflow: hidden" in cut and "text-overflow: ellipsis" in cut
    assert "min-width: 0" in rules[".row .tx"]  # the text gives way instead


def test_the_pickers_list_the_spec_example_once():
    at = AppTest.from_file(APP, default_timeout=120).run()
    demo = at.selectbox(key="dgrr_w_demo_sample").options
    at.switch_page("pages/1_Load.py").run()
    for options in (demo, at.selectbox(key="dgrr_w_sample").options):
        figure1 = [o for o in options if "figure1-travel" in o]
        assert figure1 == ["(built-in) spec example: figure1-travel"], figure1
        assert "sample_traces/travel-two-faults.json" in options
    # an address naming the copy still loads it
    from dgrr_dashboard import state

    assert "sample_traces/figure1-travel.json" in state.sample_paths()
