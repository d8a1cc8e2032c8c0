"""Issue 21, item 4: a model reply cannot put a diagnosed fault back. A replayed answer,
claim or memory write that states a fault's value (normalised as the benchmark oracle
matches: case, punctuation and street-word spelling do not matter) is flagged in the
report; a write is refused from the active store; `dgrr repair --strict` exits 1.

The hostile model is a built-in policy registered for the test: the reference model's
reply with the fault's value worked into it, paraphrased."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from repair_core import load_case
from repair_core.cli import main
from repair_core.content._normalise import fact_stated
from repair_core.model import POLICIES
from repair_core.model._reference import reference_reply
from repair_core.replay import repair

TRAVEL = "repair_core/fixtures/figure1-travel.json"  # fault m3: window
ADDRESS = "sample_traces/cs-stale-address.json"  # fault m1: 12 Pine St, Seattle


def _hostile(extra: str, stages: set[str]) -> Callable[[float], Callable]:
    def factory(noise: float) -> Callable:
        def reply(messages):
            out = json.loads(reference_reply(messages))
            if "records" in out and "memory_write" in stages:
                for r in out["records"]:
                    r["text"] = f"{r['text']} {extra}"
            elif "text" in out and "tool" not in out:
                stage = "claim" if "key" in out else "answer"
                if stage in stages:
                    out["text"] = f"{out['text']} {extra}"
            return json.dumps(out)
        return reply
    return factory


@pytest.fixture()
def policy(monkeypatch):
    def register(name: str, extra: str, stages: set[str]) -> str:
        monkeypatch.setitem(POLICIES, name, _hostile(extra, stages))
        return f"dgrr/{name}"
    return register


def test_an_answer_restating_the_fault_is_flagged(policy):
    model = policy("says-window", "Lin prefers WINDOW seats!", {"answer"})
    result = repair(load_case(TRAVEL), model=model)
    echoes = result.report.fault_echoes
    assert [(e.step, e.type, e.fault, e.value, e.action) for e in echoes] == [
        ("s10", "answer", "m3", "window", "flagged")]


def test_a_write_restating_the_fault_is_refused_from_the_active_store(policy):
    case = load_case(ADDRESS)
    clean = repair(case)
    assert clean.report.store_changes.added and not clean.report.fault_echoes
    model = policy("writes-old-address", "Formerly 12 Pine Street, Seattle.", {"memory_write"})
    result = repair(case, model=model)
    refused = [e for e in result.report.fault_echoes if e.action == "refused"]
    assert refused and all(e.type == "memory_write" and e.fault == "m1" for e in refused)
    assert not result.report.store_changes.added
    for m in result.store.active:  # the agent's next read never sees the old address
        assert not fact_stated(m.text, "12 Pine St, Seattle"), m.text
    assert any("states diagnosed fault m1" in w.reason for w in result.report.skipped_writes)


def test_a_claim_restating_the_fault_is_flagged(policy):
    model = policy("claims-window", "(window seat)", {"claim"})
    result = repair(load_case(TRAVEL), model=model)
    assert any(e.type == "claim" and e.fault == "m3" for e in result.report.fault_echoes)


def test_the_reference_model_states_no_fault():
    for path in (TRAVEL, ADDRESS):
        assert repair(load_case(path)).report.fault_echoes == []


def test_a_value_with_independent_support_is_not_flagged(policy):
    """m2 (home airport SFO) is no fault: restating it is fine."""
    model = policy("says-sfo", "Home airport: SFO.", {"answer"})
    assert repair(load_case(TRAVEL), model=model).report.fault_echoes == []


def test_strict_makes_a_restated_fault_fatal(policy, capsys):
    model = policy("says-window-cli", "Lin prefers window seats.", {"answer"})
    assert main(["repair", TRAVEL, "--model", model]) == 0
    out = capsys.readouterr().out
    assert "WARNING: replayed outputs state a diagnosed fault's value" in out
    assert main(["repair", TRAVEL, "--model", model, "--strict"]) == 1
    err = capsys.readouterr().err
    assert "--strict" in err and "s10" in err and "m3" in err
    assert main(["repair", TRAVEL, "--json", "--strict"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["report"]["fault_echoes"] == []
