"""The standalone graph HTML: offline, escaped, coloured by the plan, usable when large."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys

import pytest
from dashboard_server import CHROMIUM, open_page
from hypothesis import given, settings
from hypothesis import strategies as st

from dgrr_dashboard.graph_html import graph_html
from repair_core import case_from_data, load_example, plan_case
from repair_core.cli import main
from repair_core.viz import (
    NODE_CLASSES,
    external_resources,
    graph_view,
    node_class,
    node_detail,
    timeline_positions,
)

EVIL = '<script>alert("pwned")</script> <a href="javascript:alert(1)">click</a>'
URL_ATTR = re.compile(r"""(?:src|href)\s*=\s*["']?https?://""", re.IGNORECASE)


def evil_case():
    data = load_example().model_dump(mode="json")
    data["memory"][2]["text"] = EVIL  # m3, the fault
    data["trajectory"][2]["text"] = "claim " + EVIL  # s3
    data["session"][0]["text"] = "</script><script>alert(2)</script>"
    return case_from_data(data)


def large_case(n_steps: int):
    data = copy.deepcopy(load_example().model_dump(mode="json"))
    data["trajectory"] = []
    seq = 2
    prev = None
    for i in range(n_steps):
        deps = [{"id": "u1", "label": "initiate"}]
        if i == 0:
            deps.append({"id": "m3", "label": "cite"})
        elif i < 500:  # the affected chain
            deps.append({"id": prev, "label": "cite"})
        else:  # unaffected work after it
            deps.append({"id": "m1", "label": "cite"})
        data["trajectory"].append({"id": f"c{i}", "seq": seq, "turn": "u1", "type": "claim",
                                   "text": f"claim {i}", "deps": deps})
        prev = f"c{i}"
        seq += 1
    data["trajectory"].append({"id": "ans", "seq": seq, "turn": "u1", "type": "answer",
                               "text": "done", "deps": [{"id": "c1", "label": "cite"}]})
    data["memory"] = [m for m in data["memory"] if m["id"] != "m6"]
    return case_from_data(data)


def test_example_graph_is_offline_and_complete():
    plan = plan_case(load_example())
    html = graph_html(plan)
    assert external_resources(html) == []
    assert not URL_ATTR.search(html)
    assert "cdn.jsdelivr.net" not in html and "bootstrap" not in html.lower()
    nodes = json.loads(re.search(r"nodes = new vis\.DataSet\((.*?)\);", html).group(1))
    assert len(nodes) == 19
    colours = {n["id"]: n["color"] for n in nodes}
    from repair_core.viz import DECISION_STYLES as D

    assert colours["m3"] == D["delete"][0]
    assert colours["m6"] == D["quarantine"][0]
    assert colours["s2"] == D["kept"][0]
    assert colours["s3"] == D["replay"][0]
    assert colours["s11"] == D["invalidate"][0]
    assert colours["m1"] == D["keep"][0]
    edges = json.loads(re.search(r"edges = new vis\.DataSet\((.*?)\);", html).group(1))
    chain = [e for e in edges if e["title"].startswith("chain:")]
    assert chain and all(e["dashes"] for e in chain)
    assert all(not e["dashes"] for e in edges if not e["title"].startswith("chain:"))
    assert all(e["label"] == "" for e in edges)  # names on hover, not on the canvas
    # labels under steps and turns on a light ground: edges pass under them, not through
    # their letters (a record's box holds its label on the box's colour)
    grounds = {n["shape"]: n["font"].get("background") for n in nodes}
    assert grounds == {"dot": "rgba(255,255,255,0.85)", "diamond": "rgba(255,255,255,0.85)",
                       "box": None}
    assert {"title": "cite: m3 → s3"}.items() <= next(
        e for e in edges if e["from"] == "m3" and e["to"] == "s3").items()
    from repair_core.viz import DECISION_STYLES

    for _, label, _ in DECISION_STYLES.values():  # the legend names every decision colour
        assert label in html


def test_user_strings_are_escaped():
    html = graph_html(plan_case(evil_case()))
    assert "alert(\"pwned\")</script>" not in html
    assert '<a href="javascript' not in html
    assert "</script><script>alert(2)" not in html
    # Only dgrr's and pyvis's own script elements exist.
    clean = graph_html(plan_case(load_example()))
    assert html.count("<script") == clean.count("<script")
    assert "\\u003cscript\\u003ealert" in html  # the text is there, as data


def test_title_with_href_does_not_switch_to_html_popup():
    html = graph_html(plan_case(evil_case()))
    assert "popup.innerHTML" not in html


def test_node_classes_and_details_follow_the_plan():
    plan = plan_case(load_example())
    assert node_class(plan, "m3") == "fault"
    assert node_class(plan, "m6") == "affected" and node_class(plan, "m1") == "unaffected"
    d = node_detail(plan, "s2")
    assert d.decision == "keep" and "independent support from m2" in d.reason
    d = node_detail(plan, "s7")
    assert d.decision == "refresh" and d.path_from_fault[0] == "m3"
    assert ("s6", "produce") in d.premises
    d = node_detail(plan, "m1")
    assert d.reason.startswith("unaffected")


def test_filters():
    plan = plan_case(load_example())
    v = graph_view(plan, affected_only=True, hide_chain=True)
    assert {n.id for n in v.nodes} == set(plan.analysis.affected)
    assert all(e.label != "chain" for e in v.edges)
    assert "8 unaffected nodes hidden" in v.note and "chain edges hidden" in v.note
    v = graph_view(plan, node_types=["claim", "record"])
    assert {n.type for n in v.nodes} == {"claim", "record"}
    with pytest.raises(ValueError, match="layout"):
        graph_view(plan, layout="circle")


def test_timeline_is_left_to_right_by_seq():
    plan = plan_case(load_example())
    pos = timeline_positions(plan)
    steps = plan.case.steps_in_order()
    xs = [pos[s.id][0] for s in steps]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert pos["m1"][0] < pos["u1"][0]  # records that predate the run sit left
    assert len(set(pos.values())) == len(pos)  # no two nodes on the same spot


def test_large_graph_shows_affected_neighbourhood_with_note():
    plan = plan_case(large_case(2600))
    v = graph_view(plan, layout="force")
    assert v.total_nodes > 2000
    assert len(v.nodes) <= 2000
    assert not v.physics
    assert "exceed the drawing limit of 2000" in v.note and "hiding" in v.note
    ids = {n.id for n in v.nodes}
    assert set(plan.analysis.affected) <= ids
    assert "c600" not in ids  # unaffected work far from the fault
    html = graph_html(plan, view=v)
    assert "exceed the drawing limit" in html


def test_physics_off_above_limit_on_by_default_small():
    plan = plan_case(load_example())
    assert graph_view(plan, layout="force").physics
    assert not graph_view(plan, layout="force", physics_limit=5).physics
    assert not graph_view(plan).physics  # timeline positions are fixed


def test_cli_writes_standalone_file(tmp_path, capsys):
    case = tmp_path / "evil.json"
    case.write_text(evil_case().model_dump_json())
    out = tmp_path / "g.html"
    assert main(["graph", str(case), "--out", str(out), "--hide-chain"]) == 0
    html = out.read_text()
    assert external_resources(html) == [] and "alert(\"pwned\")</script>" not in html
    assert "19 of 19 nodes" in capsys.readouterr().out


def test_cli_refuses_bad_case_without_writing(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "dgrr.case/v1", "case_id": 3}')
    out = tmp_path / "g.html"
    assert main(["graph", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "case_id" in err and "Traceback" not in err
    assert not out.exists()


def test_importing_repair_core_does_not_import_pyvis():
    code = ("import sys, repair_core, repair_core.viz; "
            "assert 'pyvis' not in sys.modules and 'streamlit' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                    reason="needs Debian chromium (.ci/run installs it; in CI its absence fails)")
def test_escaped_label_renders_as_text_in_chromium(tmp_path):
    from playwright.sync_api import sync_playwright

    path = tmp_path / "evil.html"
    path.write_text(graph_html(plan_case(evil_case())))
    dialogs: list[str] = []
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, "file:", external, width=1400, height=900)
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(path.as_uri())
        page.wait_for_function("typeof network !== 'undefined' && network.body.data.nodes.length > 0")
        assert page.evaluate("network.body.data.nodes.length") == 19
        xy = page.evaluate("""() => {
            const p = network.canvasToDOM(network.getPositions(['m3'])['m3']);
            const r = document.getElementById('mynetwork').getBoundingClientRect();
            return [r.left + p.x, r.top + p.y]; }""")
        page.mouse.click(xy[0], xy[1])
        page.wait_for_function("document.getElementById('dgrr-detail').dataset.node === 'm3'")
        text = page.inner_text("#dgrr-detail")
        browser.close()
    assert '<script>alert("pwned")</script>' in text  # shown literally
    assert dialogs == [] and external == []


def test_small_limit_keeps_faults_first_and_says_what_is_hidden():
    plan = plan_case(load_example())
    v = graph_view(plan, max_nodes=5)
    ids = [n.id for n in v.nodes]
    assert len(ids) == 5 and "m3" in ids
    assert "exceed the drawing limit of 5" in v.note and "hiding 14 others" in v.note


def test_large_graph_without_faults_draws_the_answer_neighbourhood():
    data = large_case(2600).model_dump(mode="json")
    data["faults"] = []
    plan = plan_case(case_from_data(data))
    v = graph_view(plan)
    assert "ans" in {n.id for n in v.nodes} and len(v.nodes) < 10
    assert "no fault is marked" in v.note


def _boxes(view):
    """Estimated canvas boxes of every drawn node, label included (as vis-network lays a
    dot's label under it and a box's label inside it)."""
    from repair_core.viz import DOT_SIZE, LABEL_FONT_PX, label_width

    out = {}
    for n in view.nodes:
        w = label_width(n.label)
        lines = n.label.count("\n") + 1
        h = lines * LABEL_FONT_PX * 1.2
        if n.kind == "record":
            out[n.id] = (n.x - w / 2, n.x + w / 2, n.y - h / 2 - 6, n.y + h / 2 + 6)
        else:
            out[n.id] = (n.x - w / 2, n.x + w / 2, n.y - DOT_SIZE, n.y + DOT_SIZE + 4 + h)
    return out


@settings(max_examples=25, deadline=None)
@given(steps=st.integers(1, 400), seed=st.integers(0, 10_000), faults=st.integers(0, 3),
       chars=st.sampled_from([0, 8, 18]))
def test_timeline_layout_never_overlaps(steps, seed, faults, chars):
    """Whatever the case, no two drawn nodes' label boxes intersect, steps run left to
    right in trajectory order and records stay in time order in their lane."""
    from repair_core._synth import synth_case_data

    memories = max(1, steps // 5)
    case = case_from_data(synth_case_data(steps, memories, min(faults, memories), seed))
    plan = plan_case(case)
    view = graph_view(plan, label_chars=chars)
    boxes = sorted(_boxes(view).items(), key=lambda kv: kv[1][0])
    for i, (a, (_, r1, t1, b1)) in enumerate(boxes):
        for b, (l2, _, t2, b2) in boxes[i + 1:]:
            if l2 >= r1:
                break
            assert not (t1 < b2 and t2 < b1), (a, b)
    xs = {n.id: n.x for n in view.nodes}
    order = [s.id for s in case.steps_in_order() if s.id in xs]
    assert [xs[s] for s in order] == sorted(xs[s] for s in order)


def test_inferred_edges_are_drawn_dotted():
    """An edge whose graph data says `inferred: True` (an importer's guess) is drawn with
    short dashes and says so on hover; recorded edges are unchanged."""
    plan = plan_case(load_example())
    G = plan.analysis.graph
    G.edges["m3", "s3", "cite"]["inferred"] = True
    try:
        view = graph_view(plan)
        [edge] = [e for e in view.edges if (e.source, e.target, e.label) == ("m3", "s3", "cite")]
        assert edge.inferred and edge.dashed
        assert not any(e.inferred for e in view.edges if e is not edge)
        edges = json.loads(re.search(r"edges = new vis\.DataSet\((.*?)\);",
                                     graph_html(plan, view=view)).group(1))
        drawn = next(e for e in edges if e["from"] == "m3" and e["to"] == "s3")
        assert drawn["dashes"] == [2, 5] and drawn["title"] == "cite (inferred): m3 → s3"
    finally:
        del G.edges["m3", "s3", "cite"]["inferred"]


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                    reason="needs Debian chromium (.ci/run installs it; in CI its absence fails)")
def test_the_path_from_the_fault_is_outlined_and_cleared_in_chromium(tmp_path):
    from playwright.sync_api import sync_playwright

    from repair_core import fault_path

    plan = plan_case(load_example())
    hops = [list(h) for h in fault_path(plan.analysis, "m6")]
    path = tmp_path / "graph.html"
    path.write_text(graph_html(plan, panel=False))
    external: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p, "file:", external, width=1400, height=900)
        page.goto(path.as_uri())
        page.wait_for_function("window.dgrrReady === true")
        style = """() => { const E = network.body.data.edges, N = network.body.data.nodes;
            return {edges: E.get().filter(e => e.width === 4).map(e => [e.from, e.to]),
                    nodes: N.get().filter(n => n.borderWidth === 4).map(n => n.id).sort(),
                    widths: E.get().map(e => e.width)}; }"""
        before = page.evaluate(style)
        assert page.evaluate("h => window.dgrrPath(h)", hops) == 3
        shown = page.evaluate(style)
        assert sorted(map(tuple, shown["edges"])) == sorted(
            {("m3", "s3"), ("s3", "s11"), ("s11", "m6")})
        assert shown["nodes"] == ["m3", "m6", "s11", "s3"]
        assert page.evaluate("h => window.dgrrPath(h)", []) == 0  # cleared, as before
        assert page.evaluate(style) == before
        browser.close()
    assert external == []


def test_the_analysis_classes_are_stage_twos_and_agree_with_the_plan():
    from repair_core.viz import node_classes

    plan = plan_case(load_example(), objective="both")
    a = plan.analysis
    classes = node_classes(plan)
    assert set(NODE_CLASSES) == {"fault", "answer-relevant", "kept", "affected", "unaffected"}
    assert {n for n, c in classes.items() if c == "fault"} == set(a.faults)
    assert {n for n, c in classes.items() if c == "answer-relevant"} == \
        set(plan.answer_relevant) - set(a.faults)
    assert {n for n, c in classes.items() if c == "kept"} == set(a.supported)
    assert {n for n, c in classes.items() if c == "unaffected"} == \
        set(a.graph.nodes) - set(a.affected) - set(a.faults)
    # s11 is replayed under `both`, yet the answer does not depend on it: never called
    # answer-relevant (the inspector used to)
    assert plan.steps["s11"] == "replay" and "s11" not in plan.answer_relevant
    assert classes["s11"] == "affected" and node_detail(plan, "s11").cls == "affected"


def test_colour_by_analysis_paints_the_classes_with_their_legend():
    from repair_core.viz import DECISION_STYLES

    plan = plan_case(load_example(), objective="both")
    view = graph_view(plan, colour_by="analysis")
    assert {n.id: n.colour for n in view.nodes} == {
        n.id: NODE_CLASSES[node_class(plan, n.id)][0] for n in view.nodes}
    html = graph_html(plan, view=view)
    assert "Colour = analysis" in html
    for _, label, _ in NODE_CLASSES.values():
        assert label in html
    # a colour both codes use means one thing: fault red, supported green, unaffected grey
    assert NODE_CLASSES["fault"][0] == DECISION_STYLES["delete"][0]
    assert NODE_CLASSES["kept"][0] == DECISION_STYLES["kept"][0]
    assert NODE_CLASSES["unaffected"][0] == DECISION_STYLES["keep"][0]
    decision_only = {c for k, (c, _, _) in DECISION_STYLES.items()
                     if k not in ("delete", "kept", "keep")}
    assert not decision_only & {NODE_CLASSES[k][0] for k in ("answer-relevant", "affected")}
    assert "Colour = decision" in graph_html(plan)
    with pytest.raises(ValueError, match="colour_by"):
        graph_view(plan, colour_by="mood")  # type: ignore[arg-type]


def test_a_kept_row_is_green_only_when_kept_by_independent_support():
    import pandas as pd

    from dgrr_dashboard.widgets import coloured, decision_colour, pale
    from repair_core.viz import DECISION_STYLES, decision_keys

    plan = plan_case(load_example())
    assert plan.steps["s2"] == "keep" and "s2" in plan.analysis.supported
    assert plan.steps["s8"] == "keep" and "s8" not in plan.analysis.affected
    assert decision_colour("kept") == DECISION_STYLES["keep"][0]  # a word alone: grey
    frame = pd.DataFrame([{"id": "s8", "outcome": "kept"}, {"id": "s2", "outcome": "kept"},
                          {"id": "s3", "outcome": "replayed"}])
    styles = coloured(frame, "outcome", decision_keys(plan))._compute().ctx
    backgrounds = {frame["id"][row]: dict(css)["background-color"]
                   for (row, _), css in styles.items()}
    assert backgrounds == {"s8": pale(DECISION_STYLES["keep"][0]),
                           "s2": pale(DECISION_STYLES["kept"][0]),
                           "s3": pale(DECISION_STYLES["replay"][0])}


def test_cli_colours_by_analysis_when_asked(tmp_path, capsys):
    case = tmp_path / "fig1.json"
    case.write_text(load_example().model_dump_json())
    out = tmp_path / "g.html"
    assert main(["graph", str(case), "--out", str(out), "--colour-by", "analysis"]) == 0
    html = out.read_text()
    assert "Colour = analysis" in html and "Colour = decision" not in html
    plan = plan_case(load_example())
    assert NODE_CLASSES[node_class(plan, "m6")][0] in html
    said = capsys.readouterr().out
    assert "coloured by analysis: 1 fault," in said and "answer-relevant" in said
    assert main(["graph", str(case), "--out", str(out)]) == 0
    assert "Colour = decision" in out.read_text()
    assert "coloured by decision: 1 delete," in capsys.readouterr().out


def test_cli_refuses_an_unknown_colouring_without_writing(tmp_path, capsys):
    case = tmp_path / "fig1.json"
    case.write_text(load_example().model_dump_json())
    out = tmp_path / "g.html"
    with pytest.raises(SystemExit) as exit_:
        main(["graph", str(case), "--out", str(out), "--colour-by", "mood"])
    assert exit_.value.code == 2 and not out.exists()
    assert "--colour-by" in capsys.readouterr().err
