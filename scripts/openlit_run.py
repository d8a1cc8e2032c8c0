"""OpenLit's own instrumentation of the `openai` client, offline, written as OTLP JSON.

OpenLit cannot share this project's environment (it pins `openai<3` and its own
OpenTelemetry range), so this script makes a scratch venv per OpenLit version with uv
(`python -m uv venv`, `uv pip install` from the package index), and runs itself there
with `--child`: an OpenAI-compatible server with scripted replies on 127.0.0.1, the real
`openai` client instrumented by `openlit.init(...)`, an in-memory span exporter, and the
spans encoded as one OTLP JSON document (`encode_spans` + `MessageToDict`, base64 ids).

Two OpenLit versions, because they carry the message content differently:
- 1.33 writes it in span events (`gen_ai.content.prompt` / `gen_ai.content.completion`);
- 1.45 writes it as `gen_ai.input.messages` / `gen_ai.output.messages` attributes.

The agent turn: an `invoke_agent` span of the application (the user's question), then a
chat call that asks for a tool (`search_flights`), then the chat call that answers.

    python3 scripts/openlit_run.py sample_imports/openlit [--venvs DIR]

writes openlit-1.33.otlp.json and openlit-1.45.otlp.json (tests/test_import_openlit.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

VERSIONS = {
    # label -> what uv installs beside `openai` (1.33 needs an OpenTelemetry that still
    # has `opentelemetry._events`)
    "1.33": ["openlit==1.33.23", "opentelemetry-api>=1.30,<1.37",
             "opentelemetry-sdk>=1.30,<1.37"],
    "1.45": ["openlit==1.45.0", "opentelemetry-sdk"],
}
QUESTION = "Book my usual seat on the Friday flight to Tokyo."
ANSWER = "Booked JL1 to Tokyo on Friday, window seat 31A."


def _child(out: str) -> None:
    """Runs inside the scratch venv: the instrumented agent turn, spans to `out`."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    replies = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {
                "name": "search_flights",
                "arguments": json.dumps({"dest": "NRT", "date": "Friday"})}}]},
        {"role": "assistant", "content": ANSWER},
    ]

    class Replies(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            message = replies.pop(0)
            body = json.dumps({
                "id": "chatcmpl-1", "object": "chat.completion", "created": 1,
                "model": "gpt-4o-mini",
                "choices": [{"index": 0, "message": message, "finish_reason":
                             "tool_calls" if message.get("tool_calls") else "stop"}],
                "usage": {"prompt_tokens": 12, "completion_tokens": 9,
                          "total_tokens": 21}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    from google.protobuf.json_format import MessageToDict
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)

    import openai
    import openlit

    openlit.init(application_name="travel-agent", disable_metrics=True,
                 disable_batch=True, capture_message_content=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Replies)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
                               api_key="offline", max_retries=0)
        tools = [{"type": "function", "function": {
            "name": "search_flights", "parameters": {"type": "object", "properties": {
                "dest": {"type": "string"}, "date": {"type": "string"}}}}}]
        # the application's own agent span: OpenLit instruments the model calls only
        with provider.get_tracer("travel-agent").start_as_current_span(
                "invoke_agent travel-agent", attributes={
                    "gen_ai.operation.name": "invoke_agent",
                    "gen_ai.agent.name": "travel-agent", "user.id": "lin",
                    "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [
                        {"type": "text", "content": QUESTION}]}])}):
            messages = [{"role": "user", "content": QUESTION}]
            first = client.chat.completions.create(model="gpt-4o-mini", messages=messages,
                                                   tools=tools)
            call = first.choices[0].message.tool_calls[0]
            messages += [{"role": "assistant", "content": None, "tool_calls": [
                             {"id": call.id, "type": "function", "function": {
                                 "name": call.function.name,
                                 "arguments": call.function.arguments}}]},
                         {"role": "tool", "tool_call_id": call.id,
                          "content": json.dumps({"flight": "JL1", "seat": "31A"})}]
            client.chat.completions.create(model="gpt-4o-mini", messages=messages,
                                           tools=tools)
    finally:
        server.shutdown()
    provider.force_flush()
    document = MessageToDict(encode_spans(exporter.get_finished_spans()))
    Path(out).write_text(json.dumps(document, indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")


def make_venv(label: str, folder: Path) -> Path:
    """A scratch venv in `folder` with OpenLit `label` and the openai client."""
    python = folder / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    if not python.exists():
        subprocess.run([sys.executable, "-m", "uv", "venv", "-q", "--python", sys.executable,
                        str(folder)], check=True, env=env, timeout=300)
    subprocess.run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python",
                    str(python), *VERSIONS[label], "openai>=1.50,<3"], check=True, env=env,
                   timeout=900)
    return python


def run(outdir: str | Path, venvs: str | Path | None = None) -> dict[str, Path]:
    """Write one OTLP JSON trace per OpenLit version into `outdir`; returns label -> file."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    base = Path(venvs) if venvs else Path(tempfile.gettempdir()) / "dgrr-openlit-venvs"
    made = {}
    for label in VERSIONS:
        python = make_venv(label, base / f"openlit-{label}")
        target = out / f"openlit-{label}.otlp.json"
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env.update(OTEL_SDK_DISABLED="false", OPENLIT_DISABLE_TELEMETRY="true")
        subprocess.run([str(python), __file__, "--child", str(target)], check=True, env=env,
                       timeout=300)
        made[label] = target
    return made


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--venvs", default=None,
                        help="folder for the scratch venvs (default: the temp folder)")
    args = parser.parse_args()
    if args.child:
        _child(args.out)
    else:
        for label, path in run(args.out, args.venvs).items():
            print(label, path)
