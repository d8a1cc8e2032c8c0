"""Bounded model calls: --timeout per call, --deadline for the run, connection failures
counted apart from model calls. The servers here bind 127.0.0.1 and are stopped by the test."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from repair_core import ModelError
from repair_core.model import ModelClient

SAMPLES = Path(__file__).resolve().parent.parent / "sample_traces"
CLAIM_INPUTS = {
    "request": {"id": "u1", "text": "Book a flight."},
    "slot": "seat_preference",
    "evidence": [{"id": "m3", "kind": "memory", "user_id": "lin", "slot": "seat_preference",
                  "value": "aisle", "text": "Lin prefers aisle seats.", "trust": 0.9}],
}


class SilentServer:
    """Accepts TCP connections on 127.0.0.1 and never answers (until stopped)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted.append(conn)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        for conn in self.accepted:
            conn.close()
        self.sock.close()


@pytest.fixture
def silent() -> Iterator[SilentServer]:
    server = SilentServer()
    try:
        yield server
    finally:
        server.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module", autouse=True)
def litellm_imported() -> None:
    """Import litellm once up front, so the timings below measure calls, not the import."""
    from repair_core.model import import_litellm

    import_litellm()


def test_a_silent_server_is_bounded_by_the_timeout_and_not_counted_as_calls(silent):
    client = ModelClient("openai/x", f"http://127.0.0.1:{silent.port}/v1", timeout=0.5)
    start = time.monotonic()
    with pytest.raises(ModelError) as err:
        client.complete_json("claim", CLAIM_INPUTS)
    took = time.monotonic() - start
    assert "no reply from http://127.0.0.1" in str(err.value) and "within 0.5 s" in str(err.value)
    assert client.calls == 0 and client.connection_failures == 2 and client.tokens == 0
    assert all(r.connection_failed for r in client.log)
    # bounded, not hanging for the SDK's own default (600 s); the counts below show there
    # were two attempts and no SDK retries. Not a speed test: a loaded machine (load 8,
    # several test workers) took longer than 4 s here.
    assert took < 30
    # the wall clock gives an attempt up after its timeout and a grace; on a loaded machine
    # the SDK's thread may not have connected by then. Each abandoned attempt still connects
    # and ends on the SDK's own timeout: wait for them to end before counting connections
    until = time.monotonic() + 30
    while time.monotonic() < until and (len(silent.accepted) < 2 or any(
            t.name == "dgrr-model-call" and t.is_alive() for t in threading.enumerate())):
        time.sleep(0.05)
    time.sleep(0.5)
    assert len(silent.accepted) == 2  # one connection per attempt: the SDK did not retry


def test_the_deadline_bounds_every_call_together(silent):
    client = ModelClient("openai/x", f"http://127.0.0.1:{silent.port}/v1", timeout=0.6,
                         deadline=1.5)
    start = time.monotonic()
    errors = []
    for _ in range(5):  # five stages of a repair: the deadline stops them all
        with pytest.raises(ModelError) as err:
            client.complete_json("claim", CLAIM_INPUTS)
        errors.append(str(err.value))
    took = time.monotonic() - start
    assert took < 30  # bounded; the attempts below show the deadline cut them short
    assert "deadline of 1.5 s passed" in errors[-1]
    # without the deadline, five calls of two attempts each: 10 connection failures
    assert client.calls == 0 and client.connection_failures <= 4  # 0.6 + 0.6 + 0.3


def test_a_refused_connection_is_a_connection_failure_not_a_call():
    client = ModelClient("openai/x", f"http://127.0.0.1:{_free_port()}/v1", timeout=5)
    with pytest.raises(ModelError) as err:
        client.complete_json("claim", CLAIM_INPUTS)
    assert "cannot reach http://127.0.0.1" in str(err.value)
    assert (client.calls, client.connection_failures, client.tokens) == (0, 2, 0)


def test_a_model_that_answers_an_error_is_a_call_not_a_connection_failure():
    from repair_core.model import register_provider

    def refuse(messages):
        raise ValueError("model says no")

    register_provider("refusing", refuse)
    client = ModelClient("refusing/x")
    with pytest.raises(ModelError, match="model says no"):
        client.complete_json("claim", CLAIM_INPUTS)
    assert (client.calls, client.connection_failures) == (2, 0)


@pytest.mark.parametrize("kwargs", [{"timeout": 0}, {"timeout": -1}, {"deadline": 0}])
def test_bounds_must_be_positive(kwargs):
    with pytest.raises(ModelError):
        ModelClient(**kwargs)


def test_cli_repair_against_a_silent_server_ends_with_a_clear_message(silent, tmp_path):
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "repair_core", "repair", str(SAMPLES / "figure1-travel.json"),
         "--model", "openai/dgrr-reference", "--api-base", f"http://127.0.0.1:{silent.port}/v1",
         "--timeout", "1", "--deadline", "3", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=150)
    took = time.monotonic() - start
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert "no reply from http://127.0.0.1" in out.stdout and "deadline of 3 s passed" in out.stdout
    assert "Cost: 0 LLM calls, 0 tokens" in out.stdout and "connection failure" in out.stdout
    assert "no model reply" in out.stderr
    # the calls given up on end the process at once (`cli.run`): what the command wrote
    # before is whole, not cut short by that exit
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["failure.json"]
    assert json.loads((tmp_path / "out" / "failure.json").read_text())
    assert "Wrote only failure.json to" in out.stdout
    # the deadline plus litellm's import, which takes up to a minute on a loaded 2-core
    # machine; unbounded, this run took 36 minutes (120 s x 3 SDK tries x 2 attempts x 3)
    assert took < 150


def test_cli_rejects_bad_bounds():
    for flag, value in (("--timeout", "0"), ("--timeout", "nan"), ("--deadline", "-3")):
        out = subprocess.run(
            [sys.executable, "-m", "repair_core", "repair",
             str(SAMPLES / "figure1-travel.json"), flag, value],
            capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and f"argument {flag}" in out.stderr
        assert "Traceback" not in out.stderr


def test_the_replay_counts_connection_failures_in_its_cost(silent):
    from repair_core import load_case
    from repair_core.replay import repair

    client = ModelClient("openai/x", f"http://127.0.0.1:{silent.port}/v1", timeout=0.3,
                         deadline=2)
    result = repair(load_case(SAMPLES / "figure1-travel.json"), client=client)
    assert result.answer is None and result.report.failures
    assert result.cost.llm_calls == 0 and result.cost.connection_failures >= 2
    assert json.loads(result.model_dump_json())["cost"]["connection_failures"] >= 2



def test_a_call_given_up_on_is_counted_so_the_command_does_not_wait_on_it_at_exit():
    from repair_core.model._bounded import WallClockTimeout, abandoned_calls, within

    before = abandoned_calls()
    assert within(1, lambda: "reply") == "reply" and abandoned_calls() == before
    with pytest.raises(WallClockTimeout):
        within(0.05, lambda: time.sleep(0.5))
    assert abandoned_calls() == before + 1


def test_the_command_exits_cleanly_into_a_closed_pipe_after_a_call_given_up_on():
    # `dgrr repair ... | head` after a call was abandoned: the output held in stdout's
    # buffer cannot be flushed, as when `main` meets a closed pipe, and the command ends
    # with main's status and no traceback, not waiting on the abandoned call
    code = ("import sys, time\n"
            "from repair_core import cli\n"
            "from repair_core.model._bounded import WallClockTimeout, within\n"
            "try:\n"
            "    within(0.01, lambda: time.sleep(60))\n"
            "except WallClockTimeout:\n"
            "    pass\n"
            "cli.main = lambda: (print('the summary'), 3)[1]\n"
            "cli.run()\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    read, write = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=write,
                            stderr=subprocess.PIPE, text=True, env=env)
    os.close(write)
    os.close(read)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 3, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
