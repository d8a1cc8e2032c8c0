"""The built-in model `dgrr/reference`: answered in-process without importing litellm, and
identical (answer, calls, tokens, every reply) through litellm's custom provider and over
HTTP from `dgrr serve-model` on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core import ModelError, load_case
from repair_core.model import ModelClient
from repair_core.model._builtin import POLICIES, resolve_builtin
from repair_core.model._reference import reference_reply
from repair_core.replay import repair

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_traces"


@pytest.fixture(scope="module")
def api_base():
    from repair_core.model._server import serve_in_thread

    server, base = serve_in_thread(0)
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()


def _replies(client: ModelClient) -> list[tuple[str, int, str | None, int]]:
    return [(r.stage, r.attempt, r.reply, r.tokens) for r in client.log]


@pytest.mark.parametrize("name", ["figure1-travel", "cs-stale-address", "shop-summary-drift"])
def test_in_process_litellm_provider_and_http_give_identical_repairs(api_base, name):
    case = load_case(SAMPLES / f"{name}.json")
    clients = {
        "in-process": ModelClient(),
        "litellm custom provider": ModelClient(via_litellm=True),
        "http": ModelClient("openai/dgrr-reference", api_base),
    }
    assert clients["in-process"].builtin is not None
    assert clients["litellm custom provider"].builtin is None
    results = {how: repair(case, client=c) for how, c in clients.items()}
    base = results["in-process"]
    assert base.answer and base.cost.llm_calls > 0
    for how, result in results.items():
        assert result.answer == base.answer, how
        assert result.cost.llm_calls == base.cost.llm_calls, how
        assert result.cost.tokens == base.cost.tokens, how
        assert result.cost.connection_failures == 0, how
        assert _replies(clients[how]) == _replies(clients["in-process"]), how
        assert result.trajectory == base.trajectory and result.store == base.store, how


def test_the_builtin_model_never_imports_litellm():
    code = ("import sys; from repair_core.cli import main; "
            "rc = main(['repair', sys.argv[1], '--objective', 'answer']); "
            "assert 'litellm' not in sys.modules, 'litellm imported'; sys.exit(rc)")
    out = subprocess.run([sys.executable, "-c", code, str(SAMPLES / "figure1-travel.json")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Cost: 3 LLM calls, 2293 tokens" in out.stdout


def test_another_model_string_imports_litellm_with_offline_settings():
    code = ("import os, sys; from repair_core.model import ModelClient, register_provider; "
            "register_provider('echo', lambda m: '{}'); "
            "assert 'litellm' in sys.modules; "
            "print(os.environ['LITELLM_OFFLINE_MODE'], os.environ['LITELLM_MODE'])")
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("LITELLM_")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["true", "PRODUCTION"]


def test_resolve_builtin():
    assert resolve_builtin("gpt-4o") is None
    assert resolve_builtin("openai/dgrr-reference") is None
    assert resolve_builtin("dgrr/reference") is reference_reply
    assert resolve_builtin("dgrr/reference/noise=0") is reference_reply
    assert "reference" in POLICIES


@pytest.mark.parametrize("model, why", [
    ("dgrr/nope", "unknown built-in policy 'nope'"),
    ("dgrr/reference/noise=2", "not a number in [0, 1]"),
    ("dgrr/reference/noise=nan", "not a number in [0, 1]"),
    ("dgrr/reference/noise=x", "not a number in [0, 1]"),
    ("dgrr/reference/temp=1", "unknown option 'temp=1'"),
    ("dgrr/reference/noise=0.1/salt=", "salt='' must be 1 to 32"),
    ("dgrr/reference/noise=0.1/salt=a b", "salt='a b' must be 1 to 32"),
])
def test_bad_builtin_model_strings_are_clear_errors(model, why):
    with pytest.raises(ModelError, match=__import__("re").escape(why)):
        ModelClient(model)


def test_cli_bad_builtin_model_exits_2_without_traceback():
    out = subprocess.run([sys.executable, "-m", "repair_core", "repair",
                          str(SAMPLES / "figure1-travel.json"), "--model", "dgrr/nope"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unknown built-in policy 'nope'" in out.stderr
    assert "Traceback" not in out.stderr


def test_litellm_provider_resolves_the_full_builtin_string():
    from repair_core.model import import_litellm, render_prompt

    litellm = import_litellm()
    messages = render_prompt("answer", {"request": {"id": "u1", "text": "hi"}, "evidence": []})
    resp = litellm.completion(model="dgrr/reference/noise=0", messages=messages)
    assert json.loads(resp.choices[0].message.content) == json.loads(reference_reply(messages))
    with pytest.raises(Exception, match="unknown built-in policy"):
        litellm.completion(model="dgrr/nope", messages=messages)


def test_a_noise_salt_draws_other_slips_and_no_salt_keeps_the_committed_ones():
    from repair_core.model import builtin_salt, parse_builtin

    assert parse_builtin("dgrr/reference/noise=0.5/salt=3") == ("reference", 0.5)
    assert builtin_salt("dgrr/reference/noise=0.5/salt=3") == "3"
    messages = [render(i) for i in range(40)]
    plain = resolve_builtin("dgrr/reference/noise=0.5")
    again = resolve_builtin("dgrr/reference/noise=0.5")
    salted = resolve_builtin("dgrr/reference/noise=0.5/salt=3")
    assert plain is not None and again is not None and salted is not None
    assert [plain(m) for m in messages] == [again(m) for m in messages]
    assert [plain(m) for m in messages] != [salted(m) for m in messages]
    # no noise: the salt changes nothing
    clean = resolve_builtin("dgrr/reference/salt=3")
    assert clean is not None and [clean(m) for m in messages] == [
        reference_reply(m) for m in messages]


def render(i: int) -> list[dict]:
    from repair_core.model import render_prompt

    return render_prompt("answer", {"request": {"id": "u1", "text": "Where is my order?"},
                                    "evidence": [{"id": "s2", "kind": "claim", "seq": 2,
                                                  "text": f"Your order O-{i} ships Monday. "
                                                          "It is paid.",
                                                  "key": "order", "value": f"O-{i}"}]})
