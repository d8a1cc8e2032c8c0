"""Issue 12, `serve-model`: a real backlog, a body limit, read timeouts, 400 with a JSON error
for malformed bodies, loopback only unless --allow-remote."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from repair_core import DgrrError
from repair_core.cli import main
from repair_core.model._server import make_server


@pytest.fixture
def server():
    srv = make_server(0, read_timeout=0.5)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()


def _post(port: int, body: bytes, headers: dict[str, str] | None = None
          ) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/v1/chat/completions", body=body,
                     headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


GOOD = json.dumps({"model": "dgrr-reference",
                   "messages": [{"role": "user", "content": "hello"}]}).encode()


@pytest.mark.parametrize("body", [b'{"messages":[1]}', b'{"messages":[{"role":"user"}]}',
                                  b'{"messages":[{"role":1,"content":"x"}]}', b"[]",
                                  b"not json", b'{"messages": "hi"}', b"{}", b'"\\ud800"',
                                  b'{"messages":[{"role":"user","content":{"a":1}}]}'])
def test_malformed_bodies_get_400_with_a_json_error(server, body):
    status, data = _post(server, body)
    assert status == 400
    assert data["error"]["type"] == "invalid_request_error" and data["error"]["message"]


def test_a_good_request_still_works(server):
    status, data = _post(server, GOOD)
    assert status == 200 and data["object"] == "chat.completion"


def test_a_body_over_the_limit_is_refused_unread(server):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.putrequest("POST", "/v1/chat/completions")
    conn.putheader("Content-Length", str(100 * 1024 * 1024))
    conn.endheaders()
    resp = conn.getresponse()  # answered before any of the 100 MB is sent
    assert resp.status == 413
    assert "1000000 bytes" in json.loads(resp.read())["error"]["message"]
    conn.close()


@pytest.mark.parametrize("length", ["-5", "abc"])
def test_a_bad_content_length_is_400(server, length):
    status, data = _post(server, b"{}", headers={"Content-Length": length})
    assert status == 400


def test_a_short_body_with_a_long_content_length_times_out(server):
    sock = socket.create_connection(("127.0.0.1", server), timeout=10)
    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                 b"Content-Length: 1000\r\n\r\n{\"messages\"")
    start = time.monotonic()
    reply = sock.recv(4096)
    elapsed = time.monotonic() - start
    sock.close()
    assert b" 408 " in reply.split(b"\r\n")[0]
    assert 0.3 < elapsed < 5


def test_200_concurrent_requests_are_all_answered(server):
    def one(_: int) -> int:
        return _post(server, GOOD)[0]

    with ThreadPoolExecutor(200) as pool:
        statuses = list(pool.map(one, range(200)))
    assert statuses == [200] * 200


def test_the_listen_backlog_is_real():
    srv = make_server(0)
    try:
        assert srv.request_queue_size >= 128
    finally:
        srv.server_close()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1", "example.org"])
def test_only_loopback_unless_allow_remote(host, capsys):
    assert main(["serve-model", "--host", host, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "--allow-remote" in err and "Traceback" not in err
    with pytest.raises(DgrrError, match="--allow-remote"):
        make_server(0, host)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "127.0.0.2"])
def test_loopback_hosts_are_accepted(host):
    srv = make_server(0, host)
    srv.server_close()
