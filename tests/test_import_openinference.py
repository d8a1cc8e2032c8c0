"""OpenInference spans (the convention of Arize Phoenix; Langfuse takes OTel too), made by
the real OpenTelemetry SDK with the attribute names of `openinference-semantic-conventions`,
shaped as the LangChain instrumentor writes them: a root CHAIN, a RETRIEVER with
documents, LLM spans whose tool calls carry no id, a TOOL span without a call id. No dgrr
provenance: every model and tool dependency is inferred."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("opentelemetry.sdk.trace", reason="needs the 'import' extra")
semconv = pytest.importorskip("openinference.semconv.trace",
                              reason="needs openinference-semantic-conventions")

from opentelemetry.exporter.otlp.json.file import FileSpanExporter  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402

from repair_core import plan_case  # noqa: E402
from repair_core.importers import content_id, import_trace  # noqa: E402

A = semconv.SpanAttributes
D = semconv.DocumentAttributes
M = semconv.MessageAttributes
T = semconv.ToolCallAttributes
K = semconv.OpenInferenceSpanKindValues


def _run(path):
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter(path)))
    tracer = provider.get_tracer("openinference-shaped")
    kind = A.OPENINFERENCE_SPAN_KIND
    with tracer.start_as_current_span("LangGraph", attributes={
            kind: K.CHAIN.value, A.USER_ID: "lin", A.SESSION_ID: "s-1",
            A.INPUT_VALUE: json.dumps({"messages": [["user", "Which seat should I book?"]]})}):
        with tracer.start_as_current_span("retrieve", attributes={kind: K.CHAIN.value}):
            docs = {}
            for i, (rid, text) in enumerate([("mem-1", "Lin prefers window seats."),
                                             ("mem-2", "Lin flies economy."),
                                             (None, "a document without id")]):
                prefix = f"{A.RETRIEVAL_DOCUMENTS}.{i}."
                if rid is not None:
                    docs[prefix + D.DOCUMENT_ID] = rid
                docs[prefix + D.DOCUMENT_CONTENT] = text
            with tracer.start_as_current_span("VectorStoreRetriever", attributes={
                    kind: K.RETRIEVER.value, A.INPUT_VALUE: "seat preference", **docs}):
                pass
        calls = f"{A.LLM_OUTPUT_MESSAGES}.0.{M.MESSAGE_TOOL_CALLS}.0."
        with tracer.start_as_current_span("ChatModel", attributes={
                kind: K.LLM.value,
                calls + T.TOOL_CALL_FUNCTION_NAME: "search_flights",
                calls + T.TOOL_CALL_FUNCTION_ARGUMENTS_JSON: json.dumps({"seat": "window"})}):
            pass
        with tracer.start_as_current_span("search_flights", attributes={
                kind: K.TOOL.value, A.TOOL_NAME: "search_flights",
                A.INPUT_VALUE: json.dumps({"seat": "window"}),
                A.OUTPUT_VALUE: "JL1 seat 31A (window)"}):
            pass
        with tracer.start_as_current_span("ChatModel", attributes={
                kind: K.LLM.value,
                f"{A.LLM_OUTPUT_MESSAGES}.0.{M.MESSAGE_CONTENT}": "Booked JL1, window seat 31A."}):
            pass
        with tracer.start_as_current_span("Embeddings", attributes={kind: K.EMBEDDING.value}):
            pass
    provider.shutdown()


def test_openinference_spans_import_with_inferred_deps(tmp_path):
    path = tmp_path / "oi.jsonl"
    _run(path)
    imported = import_trace([path], faults=["mem-1"])
    case, summary = imported.case, imported.summary
    assert case.user_id == "lin"
    assert [t.text for t in case.session] == ["Which seat should I book?"]
    types = [s.type for s in case.steps_in_order()]
    assert types == ["memory_read", "plan", "tool_action", "tool_observation", "answer"]
    read = case.steps_in_order()[0]
    # a document without an id gets an id made from its content
    anonymous = content_id("a document without id")
    assert read.returned == ["mem-1", "mem-2", anonymous] and read.query == "seat preference"
    assert summary.skipped == {"OpenInference CHAIN span": 1, "OpenInference EMBEDDING span": 1}
    plan_step = case.steps_in_order()[1]
    assert plan_step.tool == "search_flights" and plan_step.args == {"seat": "window"}
    action = case.steps_in_order()[2]
    assert [(d.id, d.label, d.inferred) for d in action.deps] == [(plan_step.id, "produce", True)]
    plan = plan_case(case)
    assert plan.memory == {"mem-1": "delete", "mem-2": "keep", anonymous: "keep"}
    assert {plan.steps[s.id] for s in case.trajectory} == {"replay", "refresh"}
    assert all("inferred" in plan.reasons[s.id] for s in case.trajectory
               if s.type in ("plan", "tool_action", "answer"))
