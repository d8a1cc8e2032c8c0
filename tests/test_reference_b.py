"""Issue 9, item 2: the second policy `dgrr/reference-b`, seeded noise for both built-in
policies, the `dgrr/<policy>[/noise=P]` contract, and the normalised fact matcher that
tolerates exactly the paraphrases the policies generate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core import ModelError
from repair_core.agent import Agent, MemoryStore
from repair_core.case._case import MemoryRecord
from repair_core.content._normalise import all_facts_stated, fact_stated, normalise
from repair_core.model import ModelClient, render_prompt, resolve_builtin
from repair_core.model._builtin import POLICIES
from repair_core.model._paraphrase import STREET_SWAPS, paraphrase
from repair_core.model._reference import reference_reply
from repair_core.model._reference_b import claim_b, reference_b_reply, stated_in_conversation

ROOT = Path(__file__).resolve().parent.parent
ADDRESSES = ["12 Pine St, Seattle", "48 Harbor Ave, Boston", "7 Elm Rd, Austin",
             "91 Oak Dr, Denver", "5 Quay Ln, Dublin", "16 Rue Verte, Lyon"]


# ---- the matcher ---------------------------------------------------------------------

@pytest.mark.parametrize("value", ADDRESSES)
@pytest.mark.parametrize("drop_commas", [False, True])
def test_every_paraphrase_the_policies_make_is_still_the_fact(value, drop_commas):
    said = paraphrase(value, drop_commas=drop_commas)
    assert fact_stated(f"It ships to {said}.", value)
    assert fact_stated(f"It ships to {value}.", said)  # either direction


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 ,.-", min_size=1, max_size=30),
       st.booleans())
@settings(max_examples=200, deadline=None)
def test_paraphrase_invariant(value, drop_commas):
    """Whatever the value, the policies' paraphrase of it is matched as the value."""
    if normalise(value):
        assert fact_stated(f"x {paraphrase(value, drop_commas=drop_commas)} y", value)


@pytest.mark.parametrize(("answer", "fact"), [
    ("Order O-4874 ships Monday.", "O-4873"),     # a different id
    ("Order O-48731 ships Monday.", "O-4873"),    # a longer id
    ("Mike wears size L.", "M"),                  # a letter inside a word
    ("You prefer window seats.", "aisle"),        # another value
    ("It ships to 7 Elm Road, Dallas.", "7 Elm Rd, Austin"),  # another city
    ("It ships to 17 Elm Road, Austin.", "7 Elm Rd, Austin"),  # another number
])
def test_a_different_value_is_never_tolerated(answer, fact):
    assert not fact_stated(answer, fact)


def test_all_facts_stated_needs_every_fact_and_at_least_one():
    assert all_facts_stated("O-4873 to 7 Elm Road Austin", ["o-4873", "7 Elm Rd, Austin"])
    assert not all_facts_stated("O-4873", ["O-4873", "7 Elm Rd, Austin"])
    assert not all_facts_stated("anything", [])
    assert set(STREET_SWAPS).isdisjoint(STREET_SWAPS.values())


# ---- the built-in model contract -----------------------------------------------------

def test_resolve_builtin_contract():
    assert resolve_builtin("openai/gpt-4o") is None
    assert set(POLICIES) >= {"reference", "reference-b"}
    assert resolve_builtin("dgrr/reference") is not None
    assert resolve_builtin("dgrr/reference-b/noise=0.25") is not None
    for bad, needle in [("dgrr/nope", "unknown built-in policy"),
                        ("dgrr/reference/noise=2", r"noise='2' is not a number in \[0, 1\]"),
                        ("dgrr/reference/noise=x", r"noise='x' is not a number in \[0, 1\]"),
                        ("dgrr/reference/extra/bits", "unknown option 'extra'")]:
        with pytest.raises(ModelError, match=needle):
            resolve_builtin(bad)


def _claim_prompt(**request):
    return render_prompt("claim", {
        "user_id": "u", "slot": "shipping_address",
        "request": {"id": "u2", "kind": "request", "text": "Ship my order.", **request},
        "evidence": [
            {"id": "m1", "kind": "record", "user_id": "u", "key": "shipping_address",
             "value": "7 Elm Rd, Austin", "text": "u lives at 7 Elm Rd, Austin."},
            {"id": "m2", "kind": "record", "user_id": "u", "key": "shipping_address",
             "value": "7 Elm Rd, Austin", "text": "A parcel went to 7 Elm Rd, Austin."},
            {"id": "m3", "kind": "record", "user_id": "u", "key": "shipping_address",
             "value": "3 Mill Way, Leeds", "text": "u's address is 3 Mill Way, Leeds."}]})


def test_reference_b_reads_the_conversation_and_the_reference_does_not():
    said = [{"id": "u1", "text": "I moved. My new shipping address is 16 Rue Verte, Lyon."}]
    b = json.loads(reference_b_reply(_claim_prompt(earlier=said)))
    a = json.loads(reference_reply(_claim_prompt(earlier=said)))
    assert (b["value"], b["support"], b["cites"]) == ("16 Rue Verte, Lyon", "u1", ["u1"])
    assert a["value"] == "3 Mill Way, Leeds"  # the most recent record, whatever was said


def test_reference_b_takes_the_majority_and_cites_two_records():
    b = json.loads(reference_b_reply(_claim_prompt()))
    a = json.loads(reference_reply(_claim_prompt()))
    assert b["value"] == "7 Elm Rd, Austin" and b["cites"] == ["m2", "m1"]
    assert b["support"] == "m2" and "7 Elm Road, Austin" in b["text"]
    assert a["value"] == "3 Mill Way, Leeds" and a["cites"] == ["m3"]


def test_reference_b_is_written_apart():
    src = (ROOT / "repair_core" / "model" / "_reference_b.py").read_text()
    assert "_reference import" not in src and "from ._reference " not in src


def test_stated_in_conversation_reads_each_update_template():
    from repair_core.bench._controlled import (
        ADDRESS_KEY,
        COLOR_KEY,
        ORDER_KEY,
        SIZE_KEYS,
        TRAVEL_KEYS,
    )

    for spec in [*TRAVEL_KEYS, *SIZE_KEYS.values(), COLOR_KEY, ORDER_KEY, ADDRESS_KEY]:
        for v in spec.values:
            inputs = {"request": {"id": "u3", "text": "Go ahead.", "earlier": [
                {"id": "u1", "text": spec.update.format(v=v)}]}}
            assert stated_in_conversation(inputs, spec.key) == (v, "u1"), spec.key
    # a sentence that only mentions a slot word states nothing
    assert stated_in_conversation({"request": {"id": "u2", "text":
                                  "Send my latest order to my shipping address, please."}},
                                  "last_order") is None


def test_claim_b_without_evidence_says_so():
    out = claim_b({"user_id": "u", "slot": "seat_pref", "request": {"id": "u1", "text": "hi"},
                   "evidence": []})
    assert out["value"] is None and out["cites"] == []


# ---- noise ----------------------------------------------------------------------------

def _answer_prompt(i: int):
    return render_prompt("answer", {
        "user_id": "u", "request": {"id": "u1", "kind": "request", "text": f"request {i}"},
        "evidence": [{"id": "c1", "kind": "claim", "key": "shipping_address",
                      "value": "7 Elm Rd, Austin", "text": "u lives at 7 Elm Rd, Austin."},
                     {"id": "o1", "kind": "observation", "tool": "get_shipment",
                      "text": "Order O-4873 is processing.", "output": {"order_id": "O-4873"}}]})


@pytest.mark.parametrize("policy", ["reference", "reference-b"])
def test_noise_is_seeded_by_the_prompt_and_has_the_rate(policy):
    clean = resolve_builtin(f"dgrr/{policy}")
    noisy = resolve_builtin(f"dgrr/{policy}/noise=0.3")
    again = resolve_builtin(f"dgrr/{policy}/noise=0.3")
    assert clean is not None and noisy is not None and again is not None
    prompts = [_answer_prompt(i) for i in range(300)]
    slipped = sum(noisy(p) != clean(p) for p in prompts)
    assert all(noisy(p) == again(p) for p in prompts[:50])  # deterministic
    assert 0.2 * 300 <= slipped <= 0.4 * 300  # about the rate
    assert resolve_builtin(f"dgrr/{policy}/noise=0") is not None
    zero = resolve_builtin(f"dgrr/{policy}/noise=0")
    assert zero is not None and all(zero(p) == clean(p) for p in prompts[:50])


def test_noise_slips_are_the_kinds_documented():
    noisy = resolve_builtin("dgrr/reference/noise=1")
    clean = resolve_builtin("dgrr/reference")
    assert noisy is not None and clean is not None
    kinds = set()
    for i in range(40):
        c, n = json.loads(clean(_claim_prompt(text=f"r{i}"))), json.loads(
            noisy(_claim_prompt(text=f"r{i}")))
        if n["support"] != c["support"]:
            kinds.add("wrong record")
        elif n["value"] != c["value"]:
            assert fact_stated(n["value"], c["value"])  # a paraphrase, tolerated
            kinds.add("paraphrase")
    plan = render_prompt("plan", {
        "user_id": "u", "request": {"id": "u1", "kind": "request",
                                    "text": "Where is my order O-4873?"},
        "tools": [{"name": "get_shipment", "keywords": ["order"], "params": [
            {"name": "order_id", "pattern": "O-\\d+"}]}], "tool_hint": None, "done": [],
        "evidence": []})
    assert json.loads(clean(plan))["args"] == {"order_id": "O-4873"}
    assert json.loads(noisy(plan))["args"] == {}  # the argument was dropped
    assert kinds == {"wrong record", "paraphrase"}


# ---- through litellm and the agent -----------------------------------------------------

def test_reference_b_through_litellm_and_the_agent_cites_an_earlier_turn():
    store = MemoryStore([MemoryRecord(id="m1", user_id="u", text="u's home airport is SFO.",
                                      key="home_airport", value="SFO", status="active")])
    agent = Agent("dgrr/reference-b")
    case = agent.run_session("u", ["I have moved, so my home airport is now JFK. Please "
                                   "update it.", "Find me a flight to Tokyo next Friday."],
                             store, domain="travel")
    claim = next(s for s in case.trajectory if s.type == "claim" and s.turn == "u2")
    assert claim.value == "JFK"
    assert any(d.id == "u1" and d.label == "support" for d in claim.deps)
    plan = next(s for s in case.trajectory if s.type == "plan" and s.turn == "u2")
    assert plan.args["origin"] == "JFK"
    ref = Agent("dgrr/reference").run_session(
        "u", ["I have moved, so my home airport is now JFK. Please update it.",
              "Find me a flight to Tokyo next Friday."],
        MemoryStore([MemoryRecord(id="m1", user_id="u", text="u's home airport is SFO.",
                                  key="home_airport", value="SFO", status="active")]),
        domain="travel")
    assert next(s for s in ref.trajectory if s.type == "plan" and s.turn == "u2"
                ).args["origin"] == "SFO"
    c = ModelClient("dgrr/reference-b/noise=0.1")
    assert c.complete_json("answer", {"request": {"id": "u1", "text": "hi"},
                                      "evidence": []}).cites == []


def test_reference_b_rewrites_a_remembered_tool_result_from_the_new_result():
    """A replayed write asked for the `last_get_shipment` record (rule step.rederive)
    writes the repaired lookup's output, as the reference policy does; nothing else in the
    evidence speaks about that key."""
    from repair_core.model._reference_b import memory_write_b

    obs = {"id": "s10", "kind": "observation", "seq": 10, "tool": "get_shipment",
           "text": "Order O-6929 is in transit.", "output": {"order_id": "O-6929"}}
    inputs = {"user_id": "zara-1", "slot": "last_get_shipment", "op": "add",
              "request": {"id": "u2", "kind": "request", "text": "Where is my order?"},
              "evidence": [obs], "memory": []}
    [rec] = memory_write_b(inputs)["records"]
    assert rec["key"] == "last_get_shipment" and rec["value"] == {"order_id": "O-6929"}
    assert rec["derive"] == "s10" and "O-6929" in rec["text"]
    other = {**obs, "tool": "get_billing"}
    assert memory_write_b({**inputs, "evidence": [other]})["records"] == []
