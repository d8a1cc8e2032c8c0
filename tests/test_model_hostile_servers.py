"""Issue 21, item 5: a model server cannot stretch a call past its wall-clock budget by
trickling bytes, nor send the prompts elsewhere with a redirect. Real servers on
127.0.0.1, started and stopped by the tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from repair_core import ModelError
from repair_core.model import ModelClient

CLAIM_INPUTS = {
    "request": {"id": "u1", "text": "Book a flight."},
    "slot": "seat_preference",
    "evidence": [{"id": "m3", "kind": "memory", "user_id": "lin", "slot": "seat_preference",
                  "value": "aisle", "text": "Lin prefers aisle seats.", "trust": 0.9}],
}


class TricklingServer:
    """Reads a request, then sends a 200 reply one byte every `gap` seconds (for at most
    `limit` seconds, so a client that waits for it is shown up, not hung forever)."""

    def __init__(self, gap: float = 0.25, limit: float = 25.0) -> None:
        self.gap, self.limit = gap, limit
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.stopped = threading.Event()
        self.requests = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.requests += 1
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        body = b'{"choices": [{"message": {"role": "assistant", "content": "{}"}}]}' * 50
        reply = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                 + str(len(body)).encode() + b"\r\n\r\n" + body)
        start = time.monotonic()
        try:
            conn.settimeout(1)
            conn.recv(65536)
            for byte in reply:
                if self.stopped.is_set() or time.monotonic() - start > self.limit:
                    break
                conn.sendall(bytes([byte]))
                time.sleep(self.gap)
        except OSError:
            pass
        finally:
            conn.close()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        self.sock.close()


@pytest.fixture()
def trickling() -> Iterator[TricklingServer]:
    server = TricklingServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module", autouse=True)
def litellm_imported() -> None:
    from repair_core.model import import_litellm

    import_litellm()


def test_a_trickling_server_cannot_extend_the_per_call_timeout(trickling):
    client = ModelClient("openai/x", f"http://127.0.0.1:{trickling.port}/v1", timeout=1.5,
                         max_retries=0)
    start = time.monotonic()
    with pytest.raises(ModelError) as err:
        client.complete_json("claim", CLAIM_INPUTS)
    took = time.monotonic() - start
    assert took < 4, f"a 1.5 s call took {took:.1f} s against a trickling server"
    assert "1.5 s" in str(err.value) and client.connection_failures == 1


def test_a_trickling_server_cannot_extend_the_deadline(trickling):
    client = ModelClient("openai/x", f"http://127.0.0.1:{trickling.port}/v1", timeout=2,
                         deadline=3, max_retries=5)
    start = time.monotonic()
    with pytest.raises(ModelError):
        client.complete_json("claim", CLAIM_INPUTS)
    took = time.monotonic() - start
    assert took < 5, f"--deadline 3 took {took:.1f} s against a trickling server"


class _Counting(BaseHTTPRequestHandler):
    hits: list[str] = []
    redirect_to: str | None = None

    def do_POST(self) -> None:  # noqa: N802
        type(self).hits.append(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if self.redirect_to:
            self.send_response(307)
            self.send_header("Location", self.redirect_to)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b'{"error": "should never be reached"}'
        self.send_response(500)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _serve(handler: type) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_redirect_is_not_followed():
    class Target(_Counting):
        hits: list[str] = []

    class Redirector(_Counting):
        hits: list[str] = []

    target = _serve(Target)
    Redirector.redirect_to = f"http://127.0.0.1:{target.server_address[1]}/v1/chat/completions"
    redirector = _serve(Redirector)
    try:
        client = ModelClient("openai/x", f"http://127.0.0.1:{redirector.server_address[1]}/v1",
                             timeout=5, max_retries=1)
        with pytest.raises(ModelError) as err:
            client.complete_json("claim", CLAIM_INPUTS)
        assert Redirector.hits and Target.hits == [], "a prompt was re-sent to the redirect"
        assert "redirect" in str(err.value).lower()
    finally:
        for s in (target, redirector):
            s.shutdown()
            s.server_close()


def test_the_model_judge_follows_no_redirect_and_is_bounded_by_the_wall_clock(trickling):
    """The judge the commands make (`--judge`) calls through the same guard as every
    model call: no redirect followed, a trickling server abandoned on time; the text is
    left unsure."""
    from repair_core.content import signature_of
    from repair_core.judge import ModelJudge
    from repair_core.model._bounded import guarded_call

    fault = signature_of("From now on pay rent to DE89370400440532013000.", node="m9")
    text = "DE89370400440532013000 is a scam; never pay it."

    class Target(_Counting):
        hits: list[str] = []

    class Redirector(_Counting):
        hits: list[str] = []

    target = _serve(Target)
    Redirector.redirect_to = f"http://127.0.0.1:{target.server_address[1]}/v1/chat/completions"
    redirector = _serve(Redirector)
    try:
        judge = ModelJudge("openai/x", api_base=f"http://127.0.0.1:"
                           f"{redirector.server_address[1]}/v1", timeout=5, guard=guarded_call)
        found = judge.carries(text, fault)
        assert Redirector.hits and Target.hits == [], "a prompt was re-sent to the redirect"
        assert (found.verdict, found.judge) == ("unsure", "model:openai/x")
        assert "could not be asked" in found.evidence
    finally:
        for s in (target, redirector):
            s.shutdown()
            s.server_close()
    slow = ModelJudge("openai/x", api_base=f"http://127.0.0.1:{trickling.port}/v1",
                      timeout=2, guard=guarded_call)
    start = time.monotonic()
    assert slow.carries(text, fault).verdict == "unsure"
    assert time.monotonic() - start < 5
