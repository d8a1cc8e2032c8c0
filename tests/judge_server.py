"""A scripted OpenAI-compatible chat server on 127.0.0.1 for the model judge's tests:
each request's reply comes from a function of the request's messages; every request is
recorded."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[list[dict[str, Any]]], str]


class ScriptedServer:
    """The server's address (`api_base`), its requests, the `Authorization` header each
    came with (`keys`) and the reply function."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.requests: list[list[dict[str, Any]]] = []
        self.keys: list[str | None] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.requests.append(body["messages"])
                owner.keys.append(self.headers.get("Authorization"))
                text = owner.reply(body["messages"])
                data = json.dumps({
                    "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "scripted"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                              "total_tokens": 15}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.api_base = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)


@contextmanager
def scripted_server(reply: Reply) -> Iterator[ScriptedServer]:
    server = ScriptedServer(reply)
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def questions(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The questions (`id`, `fault`, `text`) a carries prompt asks about."""
    return json.loads(messages[-1]["content"].split("INPUT:\n", 1)[1])["questions"]


def judged_text(messages: list[dict[str, Any]]) -> str:
    """The text a carries prompt holding one question asks about."""
    [question] = questions(messages)
    return question["text"]


def answer_each(verdict_of: Callable[[str], tuple[str, str]]) -> Reply:
    """A reply function answering every question of a call: `verdict_of(text)` ->
    (verdict, evidence)."""
    def reply(messages: list[dict[str, Any]]) -> str:
        answers = []
        for q in questions(messages):
            verdict, evidence = verdict_of(q["text"])
            answers.append({"id": q["id"], "verdict": verdict, "evidence": evidence})
        return json.dumps({"answers": answers})
    return reply
