"""An OpenAI-compatible `/v1/chat/completions` server for the reference model (standard
library only), so litellm's real HTTP path and any OpenAI client can reach it."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ._reference import count_tokens, reference_reply

__all__ = ["make_server", "serve_in_thread", "SERVED_MODEL"]

SERVED_MODEL = "dgrr-reference"


class _Handler(BaseHTTPRequestHandler):
    server_version = "dgrr-serve-model"
    quiet = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self._send(200, {"object": "list", "data": [
                {"id": SERVED_MODEL, "object": "model", "owned_by": "dgrr"}]})
        elif self.path.rstrip("/") in ("", "/health"):
            self._send(200, {"status": "ok", "model": SERVED_MODEL})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:  # noqa: N802
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            messages = body["messages"]
            if not isinstance(messages, list):
                raise TypeError("messages must be a list")
        except (ValueError, KeyError, TypeError) as exc:
            self._send(400, {"error": {"message": f"bad request: {exc}",
                                       "type": "invalid_request_error"}})
            return
        text = reference_reply(messages)
        prompt = sum(count_tokens(str(m.get("content") or "")) for m in messages
                     if isinstance(m, dict))
        completion = count_tokens(text)
        self._send(200, {
            "id": f"chatcmpl-dgrr-{int(time.time() * 1000)}",
            "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or SERVED_MODEL,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        })


def make_server(port: int = 0, host: str = "127.0.0.1", verbose: bool = False
                ) -> ThreadingHTTPServer:
    """A server bound to host:port (port 0 picks a free one); call `serve_forever()`."""
    handler = type("Handler", (_Handler,), {"quiet": not verbose})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start a server in a daemon thread; returns it and its api_base (`.../v1`)."""
    server = make_server(port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"
