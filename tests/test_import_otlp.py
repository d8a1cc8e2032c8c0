"""`dgrr import` on OTLP traces the real OpenTelemetry SDK wrote (both id encodings), for
an agent run like figure1-travel (scripts/otel_travel_run.py): some spans carry dgrr's
provenance, some do not."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk.trace", reason="needs the 'import' extra")
pytest.importorskip("opentelemetry.exporter.otlp.json.file", reason="needs the 'import' extra")

from repair_core import CaseError, build_graph, load_case, plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from otel_travel_run import STORE, write_both  # noqa: E402


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    """(hex JSON lines, base64 document) of one traced run."""
    return write_both(tmp_path_factory.mktemp("otlp"))


def _by_seq(case):
    return case.steps_in_order()


def test_both_id_encodings_are_what_the_sdk_wrote(traces):
    hex_path, b64_path = traces
    lines = hex_path.read_text().splitlines()
    assert len(lines) > 1 and all(json.loads(x)["resourceSpans"] for x in lines)
    first = json.loads(lines[0])["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert len(first["spanId"]) == 16 and int(first["spanId"], 16) >= 0
    doc = json.loads(b64_path.read_text())
    span = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert len(span["spanId"]) == 12 and span["spanId"].endswith("=")


def test_both_encodings_import_to_the_same_case_and_plan(traces):
    a, b = (import_trace([p], faults=["m3"]) for p in traces)
    assert a.case.model_dump() == b.case.model_dump()
    assert plan_case(a.case).report() == plan_case(b.case).report()
    assert "hex ids" in a.summary.sources[0] and "base64 ids" in b.summary.sources[0]


def test_the_plan_repairs_the_run_like_figure1(traces):
    case = import_trace([traces[1]], faults=["m3"]).case
    plan = plan_case(case)
    steps = _by_seq(case)
    by_text = {s.text: s.id for s in steps}
    # the fault is deleted; what the faulty claim made the agent write is quarantined
    assert plan.memory["m3"] == "delete"
    assert plan.memory["m6"] == "quarantine"
    assert {plan.memory[m] for m in ("m2", "m4", "m5")} == {"keep"}
    # the claims with their own source are kept, the faulty one is not
    assert plan.steps[by_text["Lin's home airport is SFO."]] == "keep"
    assert plan.steps[by_text["Lin flies economy."]] == "keep"
    assert plan.steps[by_text["Lin prefers a window seat."]] == "replay"
    # the final answer is replayed
    assert plan.steps[case.final_answer().id] == "replay"
    assert "window seat 31A" in case.final_answer().text
    # step for step (in seq order) the same plan as the hand-written figure1-travel case
    fig1 = load_case(ROOT / "sample_traces" / "figure1-travel.json")
    fig1_plan = plan_case(fig1)
    assert [(s.type, plan.steps[s.id]) for s in steps] == \
        [(s.type, fig1_plan.steps[s.id]) for s in _by_seq(fig1)]


def test_ids_are_span_ids_and_source_record_ids(traces):
    hex_path, _ = traces
    spans = {}
    for line in hex_path.read_text().splitlines():
        for rs in json.loads(line)["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for sp in ss["spans"]:
                    spans[sp["spanId"]] = sp
    case = import_trace([hex_path], faults=["m3"]).case
    for s in case.trajectory:
        assert s.id.split("-")[0] in spans, s.id
    tool_span = next(sid for sid, sp in spans.items() if sp["name"].startswith("execute_tool"))
    pair = sorted(s.type for s in case.trajectory if tool_span in s.id)
    assert pair == ["tool_action", "tool_observation"]
    agent = next(sid for sid, sp in spans.items() if sp["name"].startswith("invoke_agent"))
    assert [t.id for t in case.session] == [agent]
    assert {m.id for m in case.memory} == {*STORE, "m6"}
    assert {m.id: m.text for m in case.memory if m.id in STORE} == STORE
    assert case.user_id == "lin"
    assert case.tools[0].name == "search_flights" and case.tools[0].effect == "pure"


def test_given_provenance_is_kept_and_missing_deps_are_inferred(traces):
    case = import_trace([traces[0]], faults=["m3"]).case
    steps = {s.text: s for s in case.trajectory}
    home = steps["Lin's home airport is SFO."]
    assert [(d.id, d.label, d.sufficient, d.inferred) for d in home.deps][1] == \
        ("m2", "cite", True, False)
    veg = steps["Lin is vegetarian."]
    read2 = next(s for s in case.trajectory if s.type == "memory_read" and s.returned == ["m4"])
    assert any(d.id == read2.id and not d.inferred for d in veg.deps)  # from the span link
    assert veg.verified is True
    plan = next(s for s in case.trajectory if s.type == "plan")
    assert plan.tool == "search_flights" and plan.args["seat"] == "window"
    assert plan.deps and all(d.inferred for d in plan.deps if d.label != "initiate")
    action = next(s for s in case.trajectory if s.type == "tool_action")
    assert [(d.id, d.label, d.inferred) for d in action.deps] == [(plan.id, "produce", True)]
    answer = case.final_answer()
    assert answer.deps and all(d.inferred for d in answer.deps)
    G = build_graph(case)
    assert G.edges[plan.id, action.id, "produce"]["inferred"] is True
    assert "inferred" not in G.edges["m2", home.id, "cite"]


def test_summary_counts_what_was_read_made_and_skipped(traces):
    s = import_trace([traces[0]], faults=["m3"]).summary
    assert s.spans_read == 13 and s.spans_used == 11
    assert s.turns == 1 and s.steps == 11 and s.records == 5
    assert s.skipped == {"not a GenAI span": 1, "span of another trace": 1}
    assert s.deps_inferred > 0 and s.deps_given > 0
    case = import_trace([traces[0]]).case
    all_deps = [d for n in (*case.trajectory, *case.memory) for d in n.deps]
    assert s.deps_inferred == sum(d.inferred for d in all_deps)
    assert s.deps_given + s.deps_inferred == len(all_deps)


def test_committed_samples_import_to_the_figure1_plan():
    for name in ("figure1-travel.otlp.jsonl", "figure1-travel.otlp.json"):
        case = import_trace([ROOT / "sample_imports" / "otlp" / name], faults=["m3"]).case
        plan = plan_case(case)
        assert plan.memory["m3"] == "delete" and plan.memory["m6"] == "quarantine"
        assert plan.steps[case.final_answer().id] == "replay"
    # docs/import.md shows this very file's trace and plan
    doc = (ROOT / "docs" / "import.md").read_text(encoding="utf-8")
    assert f"trace {case.session[0].id}" not in doc  # turn ids are span ids, not trace ids
    trace = case.case_id.removeprefix("trace-")
    assert f"trace {trace}" in doc
    plan_step = next(s for s in case.trajectory if s.type == "plan")
    assert f"replay     {plan_step.id} seq 6     plan" in doc


def test_cli_import_writes_a_valid_case_and_prints_the_summary(traces, tmp_path, capsys):
    out = tmp_path / "case.json"
    assert main(["import", str(traces[0]), "--faults", "m3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "read 13 spans" in printed and "inferred" in printed and "skipped" in printed
    case = load_case(out)
    assert case.faults == ["m3"]
    written = json.loads(out.read_text())
    flags = [d.get("inferred") for s in written["trajectory"] for d in s["deps"]]
    assert True in flags and False not in flags  # written only when true
    assert sum(d.inferred for s in case.trajectory for d in s.deps) == flags.count(True)
    assert main(["plan", str(out)]) == 0


def _bad(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize("text,expected", [
    ('{"resourceSpans": [\n', "invalid JSON"),
    ('{"resourceSpans": []}\n{"resourceSpans": [}\n', "line 2, column"),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz", "spanId": '
     '"0123456789abcdef", "name": "x", "startTimeUnixNano": "1"}]}]}]}',
     "resourceSpans[0].scopeSpans[0].spans[0].traceId: not a trace id"),
    ('{"resourceSpans": []}', "no spans in the file"),
    ('{"format": "dgrr.case/v1"}', "not an OTLP JSON trace"),
    ('{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "0123456789abcdef0123456789abcdef",'
     ' "spanId": "0123456789abcdef", "name": "GET /", "startTimeUnixNano": "1"}]}]}]}',
     "no OTel GenAI, OpenInference or OpenLLMetry span to import (1 span read; skipped: 1 not a GenAI span)"),
])
def test_malformed_trace_files_get_clear_errors_and_nothing_is_written(
        tmp_path, capsys, text, expected):
    bad = _bad(tmp_path, "bad.json", text)
    out = tmp_path / "case.json"
    assert main(["import", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert not out.exists()


def test_missing_file_and_sqlite_given_as_trace(tmp_path, capsys):
    out = tmp_path / "case.json"
    assert main(["import", str(tmp_path / "nope.json"), "--out", str(out)]) == 2
    assert "file not found" in capsys.readouterr().err
    db = tmp_path / "h.db"
    import sqlite3
    sqlite3.connect(db).execute("create table t (x)").connection.commit()
    assert main(["import", str(db), "--out", str(out)]) == 2
    assert "--store" in capsys.readouterr().err
    assert not out.exists()


def test_unknown_fault_and_bad_provenance_name_the_span(traces, tmp_path):
    with pytest.raises(CaseError) as err:
        import_trace([traces[0]], faults=["m99"])
    assert "faults[0]: unknown id 'm99'" in str(err.value)
    # a dgrr.deps attribute that is not JSON: rewrite one attribute of the SDK's output
    lines = traces[0].read_text().splitlines()
    for i, line in enumerate(lines):
        if '"dgrr.deps"' in line:
            doc = json.loads(line)
            sp = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
            for kv in sp["attributes"]:
                if kv["key"] == "dgrr.deps":
                    kv["value"] = {"stringValue": "[{not json"}
            lines[i] = json.dumps(doc)
            span_id = sp["spanId"]
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(CaseError) as err:
        import_trace([bad])
    assert f"span {span_id}: dgrr.deps: not JSON" in str(err.value)


def test_a_dep_on_an_unknown_id_names_the_span(traces, tmp_path):
    lines = traces[0].read_text().splitlines()
    for i, line in enumerate(lines):
        if '"dgrr.deps"' in line and '"m2' in line:
            doc = json.loads(line)
            sp = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
            for kv in sp["attributes"]:
                if kv["key"] == "dgrr.deps":
                    kv["value"] = {"stringValue": json.dumps([{"id": "m99", "label": "cite"}])}
            lines[i] = json.dumps(doc)
            span_id = sp["spanId"]
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(CaseError) as err:
        import_trace([bad])
    assert f"(span {span_id}): unknown id 'm99'" in str(err.value)


def test_trace_choice_and_a_failed_tool_call(tmp_path):
    """Two agent runs in one file (two traces): --trace picks one, the default is the one
    with the most GenAI spans; a tool span with ERROR status becomes a failed
    observation (not admissible evidence)."""
    from opentelemetry.exporter.otlp.json.file import FileSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.trace import Status, StatusCode

    from repair_core.provenance import step_attributes

    path = tmp_path / "two.jsonl"
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter(path)))
    tracer = provider.get_tracer("t")
    traces = []
    for n_tools in (1, 2):
        with tracer.start_as_current_span("invoke_agent", attributes={
                "gen_ai.operation.name": "invoke_agent"}) as agent:
            traces.append(format(agent.get_span_context().trace_id, "032x"))
            for _ in range(n_tools):
                with tracer.start_as_current_span("execute_tool", attributes={
                        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "book",
                        "gen_ai.tool.call.arguments": "{}"}) as tool:
                    tool.set_status(Status(StatusCode.ERROR, "timeout"))
            with tracer.start_as_current_span("chat", attributes={
                    "gen_ai.operation.name": "chat", **step_attributes("answer")}):
                pass
    provider.shutdown()
    default = import_trace([path])
    assert default.summary.trace_id == traces[1]
    assert default.summary.skipped == {"span of another trace": 3}
    first = import_trace([path], trace_id=traces[0].upper())
    assert first.summary.trace_id == traces[0] and first.summary.steps == 3
    obs = next(s for s in first.case.trajectory if s.type == "tool_observation")
    assert obs.status == "failed"
    with pytest.raises(CaseError, match="--trace: no span of trace 'abc'"):
        import_trace([path], trace_id="abc")
