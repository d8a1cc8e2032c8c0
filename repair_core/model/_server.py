"""An OpenAI-compatible `/v1/chat/completions` server for the reference model (standard
library only), so litellm's real HTTP path and any OpenAI client can reach it.

Hardened against hostile clients: a thread per request with a real listen backlog, a
body limit (1 MB by default; larger bodies get 413 unread), a read timeout per request
(a short body behind a long Content-Length gets 408 and frees its thread), a 400 with a
JSON error for any malformed body, and loopback addresses only unless the caller allows
remote clients explicitly.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .._errors import DgrrError
from ._reference import count_tokens, reference_reply

__all__ = ["make_server", "serve_in_thread", "is_loopback", "SERVED_MODEL",
           "DEFAULT_MAX_BODY", "DEFAULT_READ_TIMEOUT"]

SERVED_MODEL = "dgrr-reference"
DEFAULT_MAX_BODY = 1_000_000
"""Largest request body accepted, in bytes."""
DEFAULT_READ_TIMEOUT = 10.0
"""Seconds a request may take to arrive (headers and body) before it gets 408."""
BACKLOG = 256
"""Connections the kernel queues while every thread is busy (socketserver's default: 5)."""


class _BadRequest(ValueError):
    pass


def is_loopback(host: str) -> bool:
    """Whether `host` is a loopback address (127.0.0.0/8, ::1) or `localhost`."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _messages(body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, dict):
        raise _BadRequest("the body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _BadRequest("'messages' must be a non-empty list")
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            raise _BadRequest(f"messages[{i}] must be an object")
        if not isinstance(m.get("role"), str):
            raise _BadRequest(f"messages[{i}].role must be a string")
        if "content" not in m:
            raise _BadRequest(f"messages[{i}].content is missing")
        content = m["content"]
        if content is not None and not isinstance(content, (str, list)):
            raise _BadRequest(f"messages[{i}].content must be a string, a list or null")
        if isinstance(content, list) and not all(
                isinstance(part, dict) and isinstance(part.get("text", ""), str)
                for part in content):
            raise _BadRequest(f"messages[{i}].content parts must be objects with text")
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise _BadRequest("'model' must be a string")
    return messages


class _Handler(BaseHTTPRequestHandler):
    server_version = "dgrr-serve-model"
    quiet = True
    max_body = DEFAULT_MAX_BODY
    timeout = DEFAULT_READ_TIMEOUT  # socket timeout for every read of a request

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

    def _error(self, status: int, message: str) -> None:
        self._send(status, {"error": {"message": message, "type": "invalid_request_error"
                                      if status < 500 else "server_error"}})

    def do_POST(self) -> None:  # noqa: N802
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        raw_length = self.headers.get("Content-Length")
        try:
            length = int(raw_length or 0)
            if length < 0:
                raise ValueError
        except ValueError:
            self.close_connection = True
            self._error(400, f"bad Content-Length {raw_length!r}")
            return
        if length > self.max_body:
            self.close_connection = True  # the body is never read
            self._error(413, f"body of {length} bytes is over the limit of {self.max_body} "
                             "bytes")
            return
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            self.close_connection = True
            self._error(408, f"the body did not arrive within {self.timeout:g} s")
            return
        if len(raw) < length:
            self.close_connection = True
            self._error(400, f"body shorter than its Content-Length ({len(raw)} < {length})")
            return
        try:
            body = json.loads(raw or b"{}")
            raw_text = json.dumps(body)  # refuses lone surrogates on the way out too
            raw_text.encode("utf-8")
            messages = _messages(body)
        except (ValueError, RecursionError, UnicodeEncodeError) as exc:
            message = str(exc) if isinstance(exc, _BadRequest) else \
                f"the body is not usable JSON ({exc.__class__.__name__})"
            self._error(400, f"bad request: {message}")
            return
        try:
            text = reference_reply(messages)
            prompt = sum(count_tokens(str(m.get("content") or "")) for m in messages)
            completion = count_tokens(text)
        except Exception as exc:  # noqa: BLE001 - one reply per request, never a dead socket
            self._error(500, f"the reference model failed: {exc.__class__.__name__}")
            return
        self._send(200, {
            "id": f"chatcmpl-dgrr-{int(time.time() * 1000)}",
            "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or SERVED_MODEL,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        })


class _Server(ThreadingHTTPServer):
    request_queue_size = BACKLOG
    daemon_threads = True
    block_on_close = False
    verbose = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hangs up mid-reply is not the server's failure: one line at most,
        # never a traceback.
        if self.verbose:
            exc = sys.exc_info()[1]
            print(f"dgrr serve-model: {client_address[0]}: {exc.__class__.__name__}: {exc}",
                  file=sys.stderr)


def make_server(port: int = 0, host: str = "127.0.0.1", verbose: bool = False, *,
                allow_remote: bool = False, max_body: int = DEFAULT_MAX_BODY,
                read_timeout: float = DEFAULT_READ_TIMEOUT) -> ThreadingHTTPServer:
    """A server bound to host:port (port 0 picks a free one); call `serve_forever()`.

    Only a loopback `host` unless `allow_remote`: the reference model has no
    authentication."""
    if not allow_remote and not is_loopback(host):
        raise DgrrError(f"--host {host}: not a loopback address; the server has no "
                        "authentication, so binding it for other machines needs "
                        "--allow-remote")
    if max_body < 1:
        raise DgrrError(f"--max-body: must be at least 1 byte, got {max_body}")
    if not read_timeout > 0:
        raise DgrrError(f"--read-timeout: must be more than 0 seconds, got {read_timeout}")
    handler = type("Handler", (_Handler,), {"quiet": not verbose, "max_body": max_body,
                                            "timeout": read_timeout})
    if ":" in host.strip("[]"):
        server_cls: type[_Server] = type("_Server6", (_Server,),
                                         {"address_family": socket.AF_INET6})
    else:
        server_cls = _Server
    server = server_cls((host.strip("[]"), port), handler)
    server.verbose = verbose
    return server


def serve_in_thread(port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start a server in a daemon thread; returns it and its api_base (`.../v1`)."""
    server = make_server(port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"
