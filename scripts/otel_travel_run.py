"""An agent run like `figure1-travel`, traced with the real OpenTelemetry SDK, written in
both OTLP JSON id encodings (used by tests/test_import_otlp.py and to regenerate
sample_imports/otlp/):

- `figure1-travel.otlp.jsonl`: the SDK's OTLP JSON file exporter
  (`opentelemetry-exporter-otlp-json-file`), one `resourceSpans` object per line, hex ids;
- `figure1-travel.otlp.json`: the protobuf JSON mapping (`encode_spans` of
  `opentelemetry-exporter-otlp-proto-common` + protobuf's `MessageToDict`), base64 ids.

Spans follow the OTel GenAI conventions. Some carry dgrr's provenance (`dgrr.step.type`,
`dgrr.deps`, span links with `dgrr.dep.label`), some do not (the plan, the tool call, the
final answer), so `dgrr import` infers theirs. Memory record ids are the store's ids
(m2, m3, ...). Nothing here talks to a model or the network.

    python3 scripts/otel_travel_run.py OUTDIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from opentelemetry.exporter.otlp.json.file import FileSpanExporter
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from repair_core.provenance import (
    TOOL_EFFECT,
    dep,
    dep_link,
    memory_records,
    span_ref,
    step_attributes,
)

STORE = {
    "m2": "Lin's home airport is SFO.",
    "m3": "Lin prefers window seats.",  # the poisoned record
    "m4": "Lin is vegetarian.",
    "m5": "Lin flies economy.",
}
USER_TURN = "Book me a flight from my home airport to Tokyo next Friday, and order my usual meal."


def _say(text: str) -> str:
    return json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": text}]}])


def run(tracer, ids: dict[str, str] | None = None, write=None) -> None:
    """The traced agent run (one `invoke_agent` span and its children).

    `ids` maps the names m2..m6 to the ids a real store gave those records (default: the
    names themselves); `write(text)`, when given, stores the record the run writes and
    returns its id (e.g. a Mem0 `add`)."""
    ids = ids or {}

    def rid(name: str) -> str:
        return ids.get(name, name)

    agent_attrs = {
        "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "travel-agent",
        "gen_ai.conversation.id": "conv-1", "user.id": "lin",
        "gen_ai.input.messages": json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": USER_TURN}]}]),
    }
    with tracer.start_as_current_span("invoke_agent travel-agent", attributes=agent_attrs):
        with tracer.start_as_current_span("search_memory", attributes={
            "gen_ai.operation.name": "search_memory", "gen_ai.memory.store.id": "lin-prefs",
            "gen_ai.memory.query.text": "travel preferences seat airport cabin",
            "gen_ai.memory.records": memory_records(
                [{"id": rid(i), "content": STORE[i]} for i in ("m2", "m3", "m5")]),
        }) as read1:
            pass
        r1 = span_ref(read1)
        # claims with provenance: each cites the read and one record as sufficient
        claims = {}
        for key, name, text in (("home", "m2", "Lin's home airport is SFO."),
                                ("seat", "m3", "Lin prefers a window seat."),
                                ("cabin", "m5", "Lin flies economy.")):
            with tracer.start_as_current_span("chat", attributes={
                "gen_ai.operation.name": "chat", "gen_ai.request.model": "fake-model",
                "gen_ai.output.messages": _say(text),
                **step_attributes("claim", [dep(r1, "cite"),
                                            dep(rid(name), "cite", sufficient=True)]),
            }) as claim:
                claims[key] = span_ref(claim)
        # the plan: a chat span with a tool call and NO provenance (dgrr infers its deps)
        args = {"origin": "SFO", "destination": "NRT", "date": "next Friday",
                "cabin": "economy", "seat": "window"}
        with tracer.start_as_current_span("chat", attributes={
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "fake-model",
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                {"type": "tool_call", "id": "call_1", "name": "search_flights",
                 "arguments": args}]}]),
        }):
            pass
        # the tool call: no provenance either, but its call id names the plan's tool call
        with tracer.start_as_current_span("execute_tool search_flights", attributes={
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search_flights",
            "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.arguments": json.dumps(args),
            "gen_ai.tool.call.result": json.dumps({"flight": "JL1", "seat": "31A"}),
            TOOL_EFFECT: "pure",
        }):
            pass
        with tracer.start_as_current_span("search_memory", attributes={
            "gen_ai.operation.name": "search_memory", "gen_ai.memory.store.id": "lin-prefs",
            "gen_ai.memory.query.text": "meal diet",
            "gen_ai.memory.records": memory_records([{"id": rid("m4"), "content": STORE["m4"]}]),
        }) as read2:
            pass
        # a verified claim whose read is named by a span link instead of dgrr.deps
        with tracer.start_as_current_span("chat", links=[dep_link(read2, "cite")], attributes={
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "fake-model",
            "gen_ai.output.messages": _say("Lin is vegetarian."),
            **step_attributes("claim", [dep(rid("m4"), "cite", sufficient=True)],
                             verified=True),
        }):
            pass
        # the final answer: typed, but its premises are left to inference
        with tracer.start_as_current_span("chat", attributes={
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "fake-model",
            "gen_ai.output.messages": _say(
                "Booked JL1 SFO to NRT next Friday, economy, window seat 31A, "
                "with a vegetarian meal."),
            **step_attributes("answer"),
        }):
            pass
        # an HTTP client span inside the agent run: not GenAI, skipped and counted
        with tracer.start_as_current_span("POST /bookings",
                                          attributes={"http.request.method": "POST"}):
            pass
        # what the faulty claim made the agent write, with its provenance
        learned = "Lin books window seats on long-haul flights."
        with tracer.start_as_current_span("create_memory", attributes={
            "gen_ai.operation.name": "create_memory", "gen_ai.memory.store.id": "lin-prefs",
            "gen_ai.memory.content": learned,
            **step_attributes(deps=[dep(claims["seat"], "derive")]),
        }) as create:
            create.set_attribute("gen_ai.memory.record.id",
                                 write(learned) if write is not None else rid("m6"))
    # a span that is not GenAI at all (skipped and counted by the importer)
    with tracer.start_as_current_span("GET /healthz", attributes={"http.request.method": "GET"}):
        pass


def write_both(outdir: str | Path, stem: str = "figure1-travel", ids: dict[str, str] | None = None,
               write=None) -> tuple[Path, Path]:
    """Run the agent once (see :func:`run`) and write the hex JSON lines file and the
    base64 document."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    hex_path, b64_path = out / f"{stem}.otlp.jsonl", out / f"{stem}.otlp.json"
    hex_path.unlink(missing_ok=True)  # the file exporter appends
    memory = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "travel-agent"}))
    file_exporter = FileSpanExporter(hex_path)
    provider.add_span_processor(SimpleSpanProcessor(file_exporter))
    provider.add_span_processor(SimpleSpanProcessor(memory))
    run(provider.get_tracer("dgrr.examples.travel"), ids, write)
    provider.shutdown()
    from google.protobuf.json_format import MessageToDict

    doc = MessageToDict(encode_spans(memory.get_finished_spans()))
    b64_path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return hex_path, b64_path


if __name__ == "__main__":
    for p in write_both(sys.argv[1] if len(sys.argv) > 1 else "sample_imports/otlp"):
        print(p)
