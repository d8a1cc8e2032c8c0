"""A real LangGraph agent run like `figure1-travel`, traced offline, written as OTLP JSON
(used by tests/test_langgraph.py and to regenerate sample_imports/langgraph/).

- the graph: `recall` (searches the store) -> `agent` (a chat model) -> `tools`
  (LangGraph's `ToolNode` running `search_flights`) -> `agent` -> `learn` (writes what the
  agent learned to the store, and updates the cabin record);
- the model: LangChain's `GenericFakeChatModel` with scripted replies (a tool call, then
  the answer), `bind_tools` a no-op; nothing talks to a model or the network;
- the store: LangGraph's `InMemoryStore` behind :func:`repair_core.integrations.langgraph.traced_store`
  (memory spans, history kept);
- the spans of the graph, model and tool: `openinference-instrumentation-langchain`.

All spans go to one OTel SDK tracer provider; the OTLP JSON is the protobuf JSON mapping
of `encode_spans` (hex ids are not needed: `dgrr import` reads both).

    python3 scripts/langgraph_travel_run.py OUTDIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# the same run as otel_travel_run.py: the same records and the same user turn
from otel_travel_run import STORE as OTEL_STORE  # noqa: E402
from otel_travel_run import USER_TURN  # noqa: E402

NAMESPACE = ("lin", "prefs")
RECALL_QUERY = "travel preferences seat airport cabin meal"
"""What the graph's recall node searches the store for (tests read the store as it does)."""
STORE = {  # otel_travel_run's records under LangGraph keys
    "home": OTEL_STORE["m2"],
    "seat": OTEL_STORE["m3"],  # the poisoned record
    "meal": OTEL_STORE["m4"],
    "cabin": OTEL_STORE["m5"],
}
ARGS = {"origin": "SFO", "destination": "NRT", "date": "next Friday", "cabin": "economy",
        "seat": "window"}
LEARNED = "Lin books window seats on long-haul flights."


def build(store: Any, *, checkpointer: Any = None, replies: list[Any] | None = None,
          learns: dict[str, str] | None = None, use_async: bool = False) -> Any:
    """The compiled graph (with `store` as its LangGraph store and `checkpointer`, if any,
    keeping its threads); `replies` replace the model's script and `learns` (key -> text)
    what `learn` writes; `use_async`: the store nodes are coroutines (`asearch`, `aput`),
    for an async store and `ainvoke`."""
    learns = {"habit": LEARNED, "cabin": "Lin flies economy, window seat."} \
        if learns is None else learns
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, SystemMessage
    from langchain_core.tools import tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition
    from langgraph.store.base import BaseStore

    class ScriptedModel(GenericFakeChatModel):
        """Scripted replies; tools are already known to the script."""

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

    @tool
    def search_flights(origin: str, destination: str, date: str, cabin: str, seat: str) -> str:
        """Search flights."""
        return json.dumps({"flight": "JL1", "seat": "31A" if seat == "window" else "31C"})

    model = ScriptedModel(messages=iter(replies if replies is not None else [
        AIMessage(content="", tool_calls=[{"name": "search_flights", "args": ARGS,
                                           "id": "call_1", "type": "tool_call"}]),
        AIMessage(content="Booked JL1 SFO to NRT next Friday, economy, window seat 31A, "
                          "with a vegetarian meal."),
    ])).bind_tools([search_flights])

    def recall(state: MessagesState, *, store: BaseStore) -> dict[str, Any]:
        hits = store.search(NAMESPACE, query=RECALL_QUERY)
        notes = "\n".join(h.value["text"] for h in hits)
        return {"messages": [SystemMessage(content=f"What you know about Lin:\n{notes}")]}

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    def learn(state: MessagesState, *, store: BaseStore) -> dict[str, Any]:
        for key, text in learns.items():
            store.put(NAMESPACE, key, {"text": text})
        return {}

    async def arecall(state: MessagesState, *, store: BaseStore) -> dict[str, Any]:
        hits = await store.asearch(NAMESPACE, query=RECALL_QUERY)
        notes = "\n".join(h.value["text"] for h in hits)
        return {"messages": [SystemMessage(content=f"What you know about Lin:\n{notes}")]}

    async def alearn(state: MessagesState, *, store: BaseStore) -> dict[str, Any]:
        for key, text in learns.items():
            await store.aput(NAMESPACE, key, {"text": text})
        return {}

    g = StateGraph(MessagesState)
    g.add_node("recall", arecall if use_async else recall)
    g.add_node("agent", agent)
    g.add_node("tools", ToolNode([search_flights]))
    g.add_node("learn", alearn if use_async else learn)
    g.add_edge(START, "recall")
    g.add_edge("recall", "agent")
    g.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: "learn"})
    g.add_edge("tools", "agent")
    g.add_edge("learn", END)
    return g.compile(store=store, checkpointer=checkpointer)


def run(outdir: str | Path, stem: str = "travel", inner: Any = None) -> tuple[Path, Any]:
    """Run the graph once; write `<stem>.otlp.json` and return it with the traced store.
    `inner`: the LangGraph store to wrap (default: a new `InMemoryStore`); it is seeded
    with the earlier sessions' records."""
    from google.protobuf.json_format import MessageToDict
    from langgraph.store.memory import InMemoryStore
    from openinference.instrumentation.langchain import LangChainInstrumentor
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from repair_core.integrations.langgraph import traced_store

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "travel-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    inner = InMemoryStore() if inner is None else inner
    for key, text in STORE.items():  # what earlier sessions left in the store
        inner.put(NAMESPACE, key, {"text": text})
    store = traced_store(inner, store_id="lin-prefs", tracer=provider.get_tracer("travel"))
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        build(store).invoke({"messages": [("user", USER_TURN)]})
    finally:
        instrumentor.uninstrument()
    provider.shutdown()
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}.otlp.json"
    doc = MessageToDict(encode_spans(exporter.get_finished_spans()))
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return path, store


if __name__ == "__main__":
    print(run(sys.argv[1] if len(sys.argv) > 1 else "sample_imports/langgraph")[0])
