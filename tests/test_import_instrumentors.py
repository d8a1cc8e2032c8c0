"""What real auto-instrumentors emit imports with its text, ids, users and sessions.

Every trace here is made inside the test by the real package, offline:
- OpenInference's LangChain instrumentor on a LangGraph graph with a real LangChain
  retriever (ids only in `output.value`, LangChain-serialized messages, run metadata);
- OpenLLMetry's OpenAI instrumentor (`opentelemetry-instrumentation-openai` 0.52, indexed
  `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`, no `gen_ai.operation.name`) on the real
  `openai` client talking to an OpenAI-compatible server on 127.0.0.1;
- OpenTelemetry's own GenAI utility (`opentelemetry-util-genai`): `invoke_workflow`,
  `invoke_agent`, `retrieval`, `chat`, `execute_tool`;
- pydantic-ai's instrumentation (version 2: tool arguments in `tool_arguments`, the
  user's message only in `pydantic_ai.all_messages`).
"""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk.trace", reason="needs the 'import' extra")

from opentelemetry.exporter.otlp.json.file import FileSpanExporter  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402

from repair_core import plan_case  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.importers import import_trace  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _provider(path: Path) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(FileSpanExporter(str(path))))
    return provider


# --- OpenInference LangChain instrumentor: LangGraph + a real retriever ------------------

def _langgraph_run(path: Path) -> None:
    pytest.importorskip("openinference.instrumentation.langchain")
    from langchain_core.documents import Document
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.vectorstores import InMemoryVectorStore
    from langgraph.graph import END, START, MessagesState, StateGraph
    from openinference.instrumentation.langchain import LangChainInstrumentor

    provider = _provider(path)
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    store.add_documents([
        Document(id="mem-1", page_content="Lin prefers window seats.",
                 metadata={"user_id": "lin"}),
        Document(id="mem-2", page_content="Lin flies economy.", metadata={"user_id": "lin"})])
    retriever = store.as_retriever(search_kwargs={"k": 2})
    model = GenericFakeChatModel(messages=iter([
        AIMessage(content="Book the window seat 31A in economy."),
        AIMessage(content="Your seat is 31A.")]))

    def recall(state: MessagesState) -> dict:
        docs = retriever.invoke(state["messages"][-1].content)
        return {"messages": [AIMessage(content="notes: " + "; ".join(
            d.page_content for d in docs))]}

    def answer(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("recall", recall)
    g.add_node("answer", answer)
    g.add_edge(START, "recall")
    g.add_edge("recall", "answer")
    g.add_edge("answer", END)
    app = g.compile()
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        config = {"configurable": {"thread_id": "t-42"}, "metadata": {"user_id": "lin"}}
        # two turns of one thread: two traces, stitched by the thread
        app.invoke({"messages": [HumanMessage(content="Which seat should I book?")]},
                   config=config)
        app.invoke({"messages": [HumanMessage(content="And which seat did I get?")]},
                   config=config)
    finally:
        instrumentor.uninstrument()
    provider.shutdown()


def test_openinference_langgraph_retriever_messages_metadata_and_thread(tmp_path):
    path = tmp_path / "oi.jsonl"
    _langgraph_run(path)
    imported = import_trace([path], faults=["mem-1"])
    case, summary = imported.case, imported.summary
    # user and thread from the LangChain run metadata; turn text from serialized messages
    assert case.user_id == "lin"
    assert [t.text for t in case.session] == ["Which seat should I book?",
                                              "And which seat did I get?"]
    assert summary.session == "t-42" and len(summary.traces) == 2
    reads = [s for s in case.steps_in_order() if s.type == "memory_read"]
    assert len(reads) == 2
    # the ids were only in output.value; the documents' order is the retriever's
    raw = [json.loads(line) for line in path.read_text().splitlines()]
    first = next(sp for d in raw for rs in d["resourceSpans"] for ss in rs["scopeSpans"]
                 for sp in ss["spans"] if sp["name"] == "VectorStoreRetriever")
    out = next(a["value"]["stringValue"] for a in first["attributes"]
               if a["key"] == "output.value")
    assert reads[0].returned == [d["id"] for d in json.loads(out)["documents"]]
    assert sorted(reads[0].returned) == ["mem-1", "mem-2"]
    texts = {r.id: r.text for r in case.memory}
    assert texts["mem-1"] == "Lin prefers window seats." and texts["mem-2"] == "Lin flies economy."
    answers = [s.text for s in case.steps_in_order() if s.type == "answer"]
    assert answers == ["Book the window seat 31A in economy.", "Your seat is 31A."]
    assert "returned document" not in " ".join(summary.skipped)
    plan = plan_case(case)
    assert plan.memory["mem-1"] == "delete" and plan.memory["mem-2"] == "keep"


# --- OpenLLMetry: indexed prompt/completion attributes ----------------------------------

class _Replies(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint with scripted replies (a tool call, then text)."""

    replies: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        message = self.replies.pop(0)
        body = json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
                           "model": "gpt-4o-mini", "choices": [
                               {"index": 0, "message": message,
                                "finish_reason": "tool_calls" if message.get("tool_calls")
                                else "stop"}],
                           "usage": {"prompt_tokens": 5, "completion_tokens": 5,
                                     "total_tokens": 10}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_openllmetry_indexed_attributes_import_with_text_and_tool_calls(tmp_path):
    pytest.importorskip("openai")
    oi = pytest.importorskip("opentelemetry.instrumentation.openai")
    import openai

    handler = type("H", (_Replies,), {"replies": [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_7", "type": "function", "function": {
                "name": "search_flights", "arguments": json.dumps({"seat": "window"})}}]},
        {"role": "assistant", "content": "Booked JL1, window seat 31A."}]})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    path = tmp_path / "ollm.jsonl"
    provider = _provider(path)
    instrumentor = oi.OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
                               api_key="offline")
        # the application's own request span keeps both calls in one trace
        with provider.get_tracer("app").start_as_current_span("POST /book"):
            for _ in range(2):
                client.chat.completions.create(model="gpt-4o-mini", messages=[
                    {"role": "user", "content": "Book my usual seat."}])
    finally:
        instrumentor.uninstrument()
        server.shutdown()
    provider.shutdown()
    attrs = {a["key"] for line in path.read_text().splitlines()
             for rs in json.loads(line)["resourceSpans"] for ss in rs["scopeSpans"]
             for sp in ss["spans"] for a in sp.get("attributes", [])}
    assert "gen_ai.completion.0.content" in attrs and "gen_ai.operation.name" not in attrs
    imported = import_trace([path])
    steps = imported.case.steps_in_order()
    assert [s.type for s in steps] == ["plan", "answer"]
    assert steps[0].tool == "search_flights" and steps[0].args == {"seat": "window"}
    assert steps[1].text == "Booked JL1, window seat 31A."
    assert imported.summary.incomplete == {}


# --- OpenTelemetry's GenAI utility: workflow, agent, retrieval, chat, execute_tool -------

def test_otel_genai_util_workflow_retrieval_and_tool_arguments(tmp_path, monkeypatch):
    monkeypatch.setenv("OTEL_SEMCONV_STABILITY_OPT_IN", "gen_ai_latest_experimental")
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "SPAN_ONLY")
    handler_mod = pytest.importorskip("opentelemetry.util.genai.handler")
    from opentelemetry.util.genai.types import (
        InputMessage,
        OutputMessage,
        RetrievalDocument,
        Text,
        ToolCallRequest,
    )

    path = tmp_path / "genai.jsonl"
    provider = _provider(path)
    h = handler_mod.TelemetryHandler(tracer_provider=provider)
    ask = [InputMessage(role="user", parts=[Text(content="Which seat should I book?")])]
    with h.workflow("travel", conversation_id="conv-1") as wf:
        wf.input_messages = ask
        with h.invoke_local_agent(agent_name="booker", conversation_id="conv-1") as agent:
            agent.input_messages = ask
            with h.retrieval(data_source_id="lin-prefs") as r:
                r.query_text = "seat preference"
                r.documents = [RetrievalDocument(id="mem-1", score=0.9),
                               RetrievalDocument(id="mem-2", score=0.4)]
            with h.inference("openai", request_model="gpt-4o") as inf:
                inf.output_messages = [OutputMessage(role="assistant", parts=[
                    ToolCallRequest(arguments={"seat": "window"}, name="search_flights",
                                    id="call_1")], finish_reason="tool_calls")]
            with h.tool("search_flights", tool_call_id="call_1") as tool:
                tool.arguments = {"seat": "window"}
                tool.tool_result = "JL1 seat 31A"
            with h.inference("openai", request_model="gpt-4o") as inf:
                inf.output_messages = [OutputMessage(role="assistant", parts=[
                    Text(content="Booked JL1, window seat 31A.")], finish_reason="stop")]
    provider.shutdown()
    imported = import_trace([path], faults=["mem-1"])
    case, summary = imported.case, imported.summary
    assert [t.text for t in case.session] == ["Which seat should I book?"]
    assert summary.session == "conv-1"
    steps = case.steps_in_order()
    assert [s.type for s in steps] == ["memory_read", "plan", "tool_action",
                                       "tool_observation", "answer"]
    assert steps[0].returned == ["mem-1", "mem-2"] and steps[0].query == "seat preference"
    assert steps[2].args == {"seat": "window"} and steps[3].output == "JL1 seat 31A"
    assert [(d.id, d.inferred_by) for d in steps[2].deps] == [(steps[1].id, "call-id")]
    assert summary.skipped == {"nested agent span (its steps belong to the outer turn)": 1}
    assert plan_case(case).memory["mem-1"] == "delete"


# --- pydantic-ai (instrumentation version 2) ---------------------------------------------

def test_pydantic_ai_agent_run_and_tool_arguments(tmp_path):
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.capabilities import Instrumentation
    from pydantic_ai.models.instrumented import InstrumentationSettings
    from pydantic_ai.models.test import TestModel

    path = tmp_path / "pai.jsonl"
    provider = _provider(path)
    agent = Agent(TestModel(), name="travel", capabilities=[Instrumentation(
        settings=InstrumentationSettings(tracer_provider=provider, version=2))])

    @agent.tool_plain
    def recall(query: str) -> str:
        """Recall what is known about the user."""
        return "Lin prefers window seats."

    agent.run_sync("Which seat should I book?")
    provider.shutdown()
    text = path.read_text()
    assert '"tool_arguments"' in text and '"gen_ai.tool.call.arguments"' not in text
    case = import_trace([path]).case
    assert [t.text for t in case.session] == ["Which seat should I book?"]
    action, observation = [s for s in case.steps_in_order()
                           if s.type in ("tool_action", "tool_observation")]
    assert action.tool == "recall" and action.args == {"query": "a"}
    assert observation.output == "Lin prefers window seats."
    assert [d.inferred_by for d in action.deps] == ["call-id"]


# --- content in span events (OpenLit's event names) --------------------------------------

def test_content_in_span_events_is_read(tmp_path):
    # the event names of openlit's semcov module, written by the OTel SDK; traces made by
    # openlit itself are tested in tests/test_import_openlit.py
    path = tmp_path / "events.jsonl"
    provider = _provider(path)
    tracer = provider.get_tracer("events")
    with tracer.start_as_current_span("invoke_agent", attributes={
            "gen_ai.operation.name": "invoke_agent"}) as turn:
        turn.add_event("gen_ai.content.prompt", {"gen_ai.prompt": "Which seat?"})
        with tracer.start_as_current_span("chat", attributes={
                "gen_ai.operation.name": "chat"}) as chat:
            chat.add_event("gen_ai.content.completion",
                           {"gen_ai.completion": "Window seat 31A."})
    provider.shutdown()
    imported = import_trace([path])
    assert [t.text for t in imported.case.session] == ["Which seat?"]
    assert [s.text for s in imported.case.steps_in_order()] == ["Window seat 31A."]
    assert imported.summary.incomplete == {}


def test_a_chat_without_any_output_names_the_attributes_it_needed(tmp_path):
    path = tmp_path / "empty.jsonl"
    provider = _provider(path)
    with provider.get_tracer("t").start_as_current_span("chat", attributes={
            "gen_ai.operation.name": "chat"}):
        pass
    provider.shutdown()
    summary = import_trace([path]).summary
    (why,) = summary.incomplete
    assert "gen_ai.output.messages" in why and "gen_ai.completion.N.content" in why
    assert "incomplete: 1 chat span without" in summary.describe()


def test_a_span_nothing_can_read_names_the_attributes(tmp_path, capsys):
    path = tmp_path / "http.jsonl"
    provider = _provider(path)
    with provider.get_tracer("t").start_as_current_span("GET /"):
        pass
    provider.shutdown()
    assert main(["import", str(path), "--out", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err
    assert "gen_ai.operation.name" in err and "openinference.span.kind" in err
    assert "Traceback" not in err and not (tmp_path / "c.json").exists()


# --- records without ids ------------------------------------------------------------------

def _anonymous_records_run(path: Path) -> None:
    provider = _provider(path)
    tracer = provider.get_tracer("anon")
    with tracer.start_as_current_span("invoke_agent", attributes={
            "gen_ai.operation.name": "invoke_agent"}):
        with tracer.start_as_current_span("search_memory", attributes={
                "gen_ai.operation.name": "search_memory",
                "gen_ai.memory.records": json.dumps([{"content": "Lin prefers window seats."},
                                                     {"content": "Lin flies economy."}])}):
            pass
        with tracer.start_as_current_span("create_memory", attributes={
                "gen_ai.operation.name": "create_memory",
                "gen_ai.memory.content": "Lin booked seat 31A."}):
            pass
        with tracer.start_as_current_span("chat", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(
                    [{"role": "assistant", "parts": [{"type": "text",
                                                      "content": "Seat 31A booked."}]}])}):
            pass
    provider.shutdown()


def test_records_without_ids_get_content_ids_stable_across_imports(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _anonymous_records_run(first)
    _anonymous_records_run(second)
    a, b = import_trace([first]).case, import_trace([second]).case
    ids = sorted(r.id for r in a.memory)
    assert ids == sorted(r.id for r in b.memory) and len(ids) == 3
    assert all(i.startswith("sha256:") for i in ids)
    assert {s.id for s in a.trajectory}.isdisjoint({s.id for s in b.trajectory})


# --- a Mem0 history database on its own ---------------------------------------------------

def test_mem0_history_alone_is_a_case_planned_for_the_store(tmp_path, capsys):
    # a store-only case (case.store-only), planned for the store (objective.no-answer);
    # tests/test_import_mem0_history.py covers it end to end
    folder = ROOT / "sample_imports" / "mem0"
    ids = json.loads((folder / "ids.json").read_text())
    out = tmp_path / "store.json"
    assert main(["import", "--store", str(folder / "history.db"), "--faults", ids["m3"],
                 "--out", str(out)]) == 0
    assert "no trace: a case of the store's records" in capsys.readouterr().out
    assert main(["plan", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["objective"] == "store" and report["memory"][ids["m3"]] == "delete"
    assert sorted(report["memory"].values()).count("restore") == 1


def test_import_without_trace_or_store_is_a_clear_error(tmp_path, capsys):
    assert main(["import", "--out", str(tmp_path / "c.json")]) == 2
    assert "no trace file and no --store" in capsys.readouterr().err


@pytest.fixture(autouse=True)
def _no_stray_env(monkeypatch):
    for key in ("OTEL_SEMCONV_STABILITY_OPT_IN",):
        if key in os.environ and "genai" not in os.environ[key]:
            monkeypatch.delenv(key)


def test_two_traces_of_one_conversation_are_one_case(tmp_path, monkeypatch):
    monkeypatch.setenv("OTEL_SEMCONV_STABILITY_OPT_IN", "gen_ai_latest_experimental")
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "SPAN_ONLY")
    handler_mod = pytest.importorskip("opentelemetry.util.genai.handler")
    from opentelemetry.util.genai.types import InputMessage, OutputMessage, Text

    path = tmp_path / "conv.jsonl"
    provider = _provider(path)
    h = handler_mod.TelemetryHandler(tracer_provider=provider)
    for conversation, question in (("conv-1", "Which seat?"), ("conv-2", "Other user"),
                                   ("conv-1", "And the meal?")):
        with h.invoke_local_agent(agent_name="booker", conversation_id=conversation) as agent:
            agent.input_messages = [InputMessage(role="user", parts=[Text(content=question)])]
            with h.inference("openai", request_model="gpt-4o",
                             conversation_id=conversation) as inf:
                inf.output_messages = [OutputMessage(role="assistant", parts=[
                    Text(content=f"answer to {question}")], finish_reason="stop")]
    provider.shutdown()
    imported = import_trace([path])
    assert [t.text for t in imported.case.session] == ["Which seat?", "And the meal?"]
    assert imported.summary.session == "conv-1" and len(imported.summary.traces) == 2
    assert imported.summary.skipped == {"span of another trace": 2}
    assert "and 1 other trace of session 'conv-1'" in imported.summary.describe()
