"""An imported step's id is its span's hex id, which tells an operator nothing: the
importer keeps the span's name and operation under the step's `trace` key, and the
readable plan, the Trace and Plan pages and the graph's labels show the name beside the
id (the id itself unchanged). The expected names are read from the trace file's raw JSON.
A name is case data: one line, bounded, and never markup."""

from __future__ import annotations

import base64
import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from repair_core import case_from_data, plan_case  # noqa: E402
from repair_core.case._trace import NAME_CHARS, TRACE_FIELD, span_label, step_trace  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402

TRACE = ROOT / "sample_imports" / "frameworks" / "openai-agents.otlp.json"


def _raw_names() -> dict[str, tuple[str, str]]:
    """Span hex id -> (name, openinference.span.kind) straight from the file."""
    out = {}
    for rs in json.loads(TRACE.read_text())["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for sp in ss["spans"]:
                kind = next(a["value"]["stringValue"] for a in sp["attributes"]
                            if a["key"] == "openinference.span.kind")
                out[base64.b64decode(sp["spanId"]).hex()] = (sp["name"], kind)
    return out


def _case_with_fault():
    case = import_trace([TRACE]).case
    return case.model_copy(update={"faults": ["mem-seat"]})


def test_each_step_keeps_its_spans_name_and_operation():
    raw = _raw_names()
    case = import_trace([TRACE]).case
    named = [s for s in case.trajectory if s.type != "tool_observation"]
    assert len(named) == 7
    for s in named:
        name, kind = raw[s.id.removesuffix("-action")]
        t = step_trace(s)
        assert t is not None and (t.span_name, t.operation) == (name, kind), s.id
        assert span_label(s) == f"{name} ({kind})"
    assert {span_label(s) for s in named} == {"generation (LLM)", "recall_memory (TOOL)",
                                              "book_seat (TOOL)", "save_memory (TOOL)"}


def test_the_readable_plan_shows_the_span_beside_the_id(tmp_path, capsys):
    path = tmp_path / "case.json"
    path.write_text(_case_with_fault().model_dump_json())
    assert main(["plan", str(path)]) == 0
    out = capsys.readouterr().out
    # the row keeps the id, and the span's name is the line under it
    row = out.index("  replay     d6c6289efedf91b1 seq 9     answer")
    assert out[row:].split("\n")[2].strip() == "span: generation (LLM)"
    order = out[out.index("Replay, in trajectory order"):]
    assert "964112710a91e385 [recall_memory (TOOL)] → " in order
    assert "9816007ee2968591-action [book_seat (TOOL)] → " in order
    assert "d6c6289efedf91b1 [generation (LLM)]" in order
    # the JSON report is the plan's, with no word of the span names
    assert main(["plan", str(path), "--json"]) == 0
    assert "recall_memory (TOOL)" not in capsys.readouterr().out


def test_a_hostile_span_name_is_one_bounded_line():
    label = span_label({TRACE_FIELD: {"span_name": "evil\n\x1b[31mred\x1b[0m " + "x" * 500,
                                      "operation": "**LLM**"}})
    assert label is not None and "\n" not in label and "\x1b" not in label
    name = label.rsplit(" (", 1)[0]
    assert name.startswith("evil [31mred [0m xxx") and len(name) == NAME_CHARS
    assert name.endswith("…") and label.endswith("(**LLM**)")
    assert span_label({TRACE_FIELD: {"span_name": " \n\t", "operation": 7}}) is None


def test_the_plan_never_reads_the_span_names():
    data = _case_with_fault().model_dump(mode="json")
    bare = copy.deepcopy(data)
    for s in bare["trajectory"]:
        s.get(TRACE_FIELD, {}).pop("span_name", None)
        s.get(TRACE_FIELD, {}).pop("operation", None)
    plans = [plan_case(case_from_data(d)).report().model_dump() for d in (data, bare)]
    assert plans[0] == plans[1]


def test_graph_labels_name_the_span_and_keep_the_id():
    from repair_core.viz import graph_view

    view = graph_view(plan_case(_case_with_fault()))
    labels = {n.id: n.label for n in view.nodes}
    assert labels["d6c6289efedf91b1"].startswith("generation [answer]\n")
    assert labels["00f3db07863ac803"].startswith("save_memory [write]\n")
    assert labels["9816007ee2968591-observation"].startswith("[obs]\n")  # no span of its own
    assert labels["mem-seat"].startswith("mem-seat [mem]")


def test_a_graph_label_is_one_line_of_the_span_name_whatever_the_trace_holds():
    from repair_core.viz import graph_view

    data = _case_with_fault().model_dump(mode="json")
    step = next(s for s in data["trajectory"] if s["id"] == "d6c6289efedf91b1")
    step[TRACE_FIELD]["span_name"] = "gen\x1b[31m\nrun\u2028<b>x</b>"
    labels = {n.id: n.label for n in graph_view(plan_case(case_from_data(data))).nodes}
    head = labels["d6c6289efedf91b1"].split("\n")[0]
    assert head.startswith("gen [31m r") and "\x1b" not in head
    assert head.endswith(" [answer]")


def test_trace_rows_carry_the_span_and_search_finds_it():
    from dgrr_dashboard.trace import trace_data, trace_rows

    plan = plan_case(_case_with_fault())
    rows = {r["id"]: r for r in trace_rows(plan)}
    assert rows["9816007ee2968591-action"]["span"] == "book_seat (TOOL)"
    assert "span" not in rows["9816007ee2968591-observation"]
    found = trace_data(plan, search="book_seat (tool")
    assert [r["id"] for g in found["groups"] for r in g["rows"]] == ["9816007ee2968591-action"]


def test_the_plan_and_replay_pages_show_the_span_beside_the_id():
    from streamlit.testing.v1 import AppTest

    case = _case_with_fault()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.session_state["dgrr_case"] = case
    at.switch_page("pages/4_Plan.py").run()
    assert not at.exception, [e.value for e in at.exception]
    [order] = [m.value for m in at.markdown if m.value.startswith("**Replay order**")]
    assert "`964112710a91e385` [`recall_memory (TOOL)`]" in order, order
    steps = next(d.value for d in at.dataframe if "span" in getattr(d.value, "columns", ())
                 and (d.value["id"] == "d6c6289efedf91b1").any())
    row = steps.set_index("id").loc["d6c6289efedf91b1"]
    assert row["span"] == "generation (LLM)" and row["type"] == "answer"
    picker = at.selectbox(key="dgrr_w_edit_node")
    assert picker.format_func("d6c6289efedf91b1") == \
        "d6c6289efedf91b1 · generation (LLM) · answer · now replay"
    at.switch_page("pages/5_Replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("`d6c6289efedf91b1` [`generation (LLM)`]" in m.value for m in at.markdown)


def test_a_span_name_of_markup_is_shown_as_text():
    from streamlit.testing.v1 import AppTest

    data = _case_with_fault().model_dump(mode="json")
    evil = "[login](http://evil.example) <img src=x onerror=alert(1)> **`x`**"
    for s in data["trajectory"]:
        if s["id"] == "d6c6289efedf91b1":
            s[TRACE_FIELD]["span_name"] = evil
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.session_state["dgrr_case"] = case_from_data(data)
    at.switch_page("pages/4_Plan.py").run()
    assert not at.exception, [e.value for e in at.exception]
    [order] = [m.value for m in at.markdown if m.value.startswith("**Replay order**")]
    # a code span, fenced past the name's own backticks: no link, image or emphasis
    assert f"`d6c6289efedf91b1` [`` {evil} (LLM) ``]" in order, order
