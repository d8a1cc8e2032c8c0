"""`dgrr serve-model`: the same repair over litellm's real HTTP client on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from repair_core import load_case
from repair_core.replay import repair

SAMPLES = Path(__file__).resolve().parent.parent / "sample_traces"


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, "-m", "repair_core", "serve-model", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "serving dgrr-reference at http://127.0.0.1:" in line, proc.stderr.read()
        api_base = line.split(" at ", 1)[1].split()[0]
        yield api_base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("name", ["figure1-travel", "cs-stale-address"])
def test_http_repair_matches_in_process(server, name):
    case = load_case(SAMPLES / f"{name}.json")
    local = repair(case)
    remote = repair(case, model="openai/dgrr-reference", api_base=server)
    assert remote.answer == local.answer
    assert remote.cost.llm_calls == local.cost.llm_calls
    assert remote.cost.tokens == local.cost.tokens
    assert remote.report.model == "openai/dgrr-reference"


def test_plain_openai_client_request(server):
    body = json.dumps({"model": "dgrr-reference", "messages": [
        {"role": "user", "content": "hello"}]}).encode()
    req = urllib.request.Request(f"{server}/chat/completions", data=body,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        data = json.loads(resp.read())
    assert data["object"] == "chat.completion"
    reply = json.loads(data["choices"][0]["message"]["content"])
    assert "not a dgrr prompt" in reply["error"]
    bad = urllib.request.Request(f"{server}/chat/completions", data=b"{}",
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(bad, timeout=10)
    assert err.value.code == 400


def test_cli_repair_through_the_server(server):
    out = subprocess.run(
        [sys.executable, "-m", "repair_core", "repair", str(SAMPLES / "figure1-travel.json"),
         "--model", "openai/dgrr-reference", "--api-base", server, "--json",
         "--objective", "answer"],
        capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert "31C" in data["answer"] and data["cost"]["llm_calls"] == 3


def test_port_in_use_is_a_clear_error(server):
    port = server.rsplit(":", 1)[1].split("/")[0]
    out = subprocess.run([sys.executable, "-m", "repair_core", "serve-model", "--port", port],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "cannot listen" in out.stderr and "Traceback" not in out.stderr
