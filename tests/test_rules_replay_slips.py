"""Rule replay.slip.ask-again: a replayed reply that leaves out a required field is asked
for once more, naming the field; if it is still missing, the original step's value is used
only where the repaired evidence still states it and no diagnosed fault does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from repair_core import load_case
from repair_core.bench import decide, is_recovered
from repair_core.model import POLICIES
from repair_core.model._contracts import parse_prompt
from repair_core.model._reference import reference_reply
from repair_core.replay import execute, repair

rule = pytest.mark.rule
STALE = "sample_traces/controlled/ctl-006-customer-service-stale.json"
# Ours replays the plans s14 get_shipment {order_id: O-4873} and s17
# update_shipping_address {order_id: O-4873, address: 7 Elm Rd, Austin (the fault)}


def _slipping(drop: dict[str, str], *, heeds_missing: bool) -> Callable[[float], Callable]:
    """The reference policy, but a plan for tool T leaves out argument drop[T]; when
    `heeds_missing`, a second call that names the missing field gets it."""
    def factory(noise: float) -> Callable:
        def reply(messages):
            stage, inputs = parse_prompt(messages)
            out = json.loads(reference_reply(messages))
            if stage == "plan" and out.get("tool") in drop and not (
                    heeds_missing and "missing" in inputs):
                out["args"].pop(drop[out["tool"]], None)
            return json.dumps(out)
        return reply
    return factory


@pytest.fixture()
def slipping(monkeypatch):
    def register(name: str, drop: dict[str, str], heeds_missing: bool) -> str:
        monkeypatch.setitem(POLICIES, name, _slipping(drop, heeds_missing=heeds_missing))
        return f"dgrr/{name}"
    return register


def _plan_args(result, sid: str) -> dict:
    return dict(next(s for s in result.trajectory.trajectory if s.id == sid).args)


@rule("replay.slip.ask-again")
def test_a_dropped_argument_is_asked_for_again(slipping):
    case = load_case(STALE)
    clean = repair(case)
    result = repair(case, model=slipping("drops-once", {"get_shipment": "order_id"}, True))
    assert _plan_args(result, "s14") == {"order_id": "O-4873"}
    assert result.answer == clean.answer
    assert result.cost.llm_calls == clean.cost.llm_calls + 1  # the one call asking again
    assert not [n for n in result.report.notes if "original step's value" in n]


@rule("replay.slip.ask-again")
def test_an_argument_dropped_twice_falls_back_to_the_original_value_the_evidence_states(
        slipping):
    case = load_case(STALE)
    result = repair(case, model=slipping("drops-always", {"get_shipment": "order_id"}, False))
    assert _plan_args(result, "s14") == {"order_id": "O-4873"}
    assert any(n.startswith("s14:") and "'O-4873'" in n for n in result.report.notes)
    ev = json.loads(Path(STALE).read_text())["eval"]
    assert is_recovered(result.answer, ev["required_facts"], ev["forbidden_facts"])


@rule("replay.slip.ask-again")
def test_a_fault_value_is_never_the_fallback(slipping):
    case = load_case(STALE)
    model = slipping("drops-address", {"update_shipping_address": "address"}, False)
    result = repair(case, model=model)
    # the original call shipped to the fault's address: no fallback, the call fails
    assert "address" not in _plan_args(result, "s17")
    assert any(f.step == "s18" and "address" in f.error for f in result.report.failures)
    assert not any("7 Elm Rd" in n for n in result.report.notes)
    assert "7 Elm Rd" not in (result.answer or "")


@rule("replay.slip.ask-again")
def test_a_claim_the_model_cannot_rederive_keeps_the_value_the_user_stated():
    """Full re-run replays the turn-1 claim of the new address; the reference policy reads
    records, not the user's words, so its reply has no value twice; the user's turn still
    states the original value, so the claim keeps it and the session's write is made."""
    case = load_case(STALE)
    d = decide("full_rerun", case)
    result = execute(case, d.store_edits, d.replay, invalidated=d.invalidated)
    claim = next(s for s in result.trajectory.trajectory if s.id == "s2")
    assert claim.value == "16 Rue Verte, Lyon"
    assert any(dep.id == "u1" for dep in claim.deps)
    assert any(n.startswith("s2:") and "still stated by u1" in n for n in result.report.notes)
    assert not any(w.step == "s4" for w in result.report.skipped_writes)
    ev = json.loads(Path(STALE).read_text())["eval"]
    assert is_recovered(result.answer, ev["required_facts"], ev["forbidden_facts"])


ADAPTED = "sample_traces/adapted/adp-001-syn_42_001.json"
# Ours replays the claims on the poisoned records' slots p1-p3; once the poison is
# deleted the repaired evidence states nothing for them, so "no value" is the right reply


@rule("replay.slip.ask-again")
def test_an_empty_reply_the_repaired_evidence_bears_out_is_not_asked_for_again(monkeypatch):
    asked: list[tuple[str, object]] = []

    def counting(noise: float) -> Callable:
        def reply(messages):
            stage, inputs = parse_prompt(messages)
            if "missing" in inputs:
                asked.append((stage, inputs.get("slot")))
            return reference_reply(messages)
        return reply

    monkeypatch.setitem(POLICIES, "counting", counting)
    case = load_case(ADAPTED)
    result = repair(case, model="dgrr/counting")
    assert asked == []
    poisoned = [s for s in result.trajectory.trajectory
                if s.type == "claim" and s.key in {"p1", "p2", "p3"}]
    assert poisoned and all(s.value is None for s in poisoned)
    ev = json.loads(Path(ADAPTED).read_text())["eval"]
    assert is_recovered(result.answer, ev["required_facts"], ev["forbidden_facts"])
    assert result.cost.llm_calls == 4  # one per replayed claim and the answer, no re-ask
