"""The model wrapper: JSON contract, one retry, clear failure, counting; the reference model."""

from __future__ import annotations

import json

import pytest

from repair_core import ModelError, load_example
from repair_core.model import (
    STAGE_VERSIONS,
    STAGES,
    ClaimOut,
    ModelClient,
    parse_prompt,
    reference_reply,
    register_provider,
    render_prompt,
    template,
)
from repair_core.replay import repair

CLAIM_INPUTS = {
    "user_id": "lin", "request": {"id": "u1", "kind": "request", "text": "Book a flight."},
    "slot": "seat_pref",
    "evidence": [
        {"id": "m1", "kind": "record", "user_id": "lin", "text": "Lin prefers aisle seats.",
         "key": "seat_pref", "value": "aisle", "created_seq": None},
        {"id": "m3", "kind": "record", "user_id": "lin", "text": "Lin prefers window seats.",
         "key": "seat_pref", "value": "window", "created_seq": None},
    ],
}
GOOD_CLAIM = json.dumps({"text": "Lin prefers aisle seats.", "key": "seat_pref",
                         "value": "aisle", "cites": ["m1"], "support": "m1"})


def _scripted(provider: str, replies: list[str]) -> list[list[dict]]:
    seen: list[list[dict]] = []

    def reply(messages):
        seen.append(messages)
        return replies[min(len(seen), len(replies)) - 1]

    register_provider(provider, reply)
    return seen


def test_every_stage_has_a_versioned_template_with_its_header():
    for stage in STAGES:
        version = STAGE_VERSIONS.get(stage, "v1")  # judge/v2: the open judge
        assert template(stage).startswith(f"dgrr-prompt: {stage}/{version}")
        assert parse_prompt(render_prompt(stage, {"x": 1})) == (stage, {"x": 1})


@pytest.mark.parametrize("bad, why", [
    ("Sure! The user prefers aisle seats.", "not JSON"),
    (json.dumps({"value": "aisle"}), "text"),
    (json.dumps({"text": "Lin prefers aisle.", "cites": ["m77"], "support": "m77"}),
     "unknown evidence id(s): m77"),
    ("[1, 2]", "not an object"),
])
def test_malformed_reply_is_retried_once_then_reported(bad, why):
    seen = _scripted("badmodel", [bad])
    client = ModelClient("badmodel/x")
    with pytest.raises(ModelError) as err:
        client.complete_json("claim", CLAIM_INPUTS)
    assert why in str(err.value)
    assert client.calls == 2 and len(seen) == 2 and len(client.log) == 2
    assert all(r.error for r in client.log)
    assert "refused" in seen[1][-1]["content"]  # the retry says what was wrong


def test_a_good_retry_is_accepted():
    _scripted("flaky", ["{not json", GOOD_CLAIM])
    client = ModelClient("flaky/x")
    out = client.complete_json("claim", CLAIM_INPUTS)
    assert isinstance(out, ClaimOut) and out.value == "aisle"
    assert client.calls == 2 and client.log[0].error and client.log[1].error is None


def test_calls_send_temperature_zero_seed_and_json_mode(monkeypatch):
    from repair_core.model._provider import import_litellm

    litellm = import_litellm()
    sent = {}
    real = litellm.completion

    def spy(**kwargs):
        sent.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(litellm, "completion", spy)
    ModelClient(seed=7, via_litellm=True).complete_json("claim", CLAIM_INPUTS)
    assert sent["temperature"] == 0 and sent["seed"] == 7
    assert sent["response_format"] == {"type": "json_object"}


def test_repair_with_a_broken_model_reports_failures_and_does_not_crash():
    _scripted("broken", ["no"])
    result = repair(load_example(), model="broken/x")
    assert result.answer is None
    failed = {f.step for f in result.report.failures}
    assert {"s3", "s5", "s10"} <= failed
    assert all("no valid reply after 2 attempt(s)" in f.error for f in result.report.failures)
    assert result.cost.llm_calls == 2 * 3
    outcomes = {o.id: o.outcome for o in result.report.steps}
    assert outcomes["s10"] == "failed" and outcomes["s6"] == "skipped"


def test_reference_trusts_the_most_recent_matching_record():
    out = json.loads(reference_reply(render_prompt("claim", CLAIM_INPUTS)))
    assert out["value"] == "window" and out["support"] == "m3"  # misled, as a real agent
    clean = dict(CLAIM_INPUTS, evidence=CLAIM_INPUTS["evidence"][:1])
    assert json.loads(reference_reply(render_prompt("claim", clean)))["value"] == "aisle"


def test_reference_ignores_records_of_other_users():
    other = dict(CLAIM_INPUTS, evidence=[*CLAIM_INPUTS["evidence"][:1], {
        **CLAIM_INPUTS["evidence"][1], "user_id": "sam"}])
    assert json.loads(reference_reply(render_prompt("claim", other)))["value"] == "aisle"


def test_reference_is_deterministic_and_counts_tokens():
    a, b = repair(load_example()), repair(load_example())
    assert a.answer == b.answer and a.cost == b.cost and a.cost.tokens > 100


def test_plan_prefers_an_explicit_request_over_memory():
    inputs = {"user_id": "lin", "request": {"id": "u1", "text": "Fly me to Paris next Monday, window seat."},
              "tools": [], "tool_hint": "search_flights", "done": [],
              "evidence": [{"id": "c1", "kind": "claim", "key": "seat_pref", "value": "aisle",
                            "text": "Lin prefers aisle seats."},
                           {"id": "c2", "kind": "claim", "key": "home_airport", "value": "SFO",
                            "text": "Lin's home airport is SFO."}]}
    from repair_core.tools import default_registry

    inputs["tools"] = default_registry().describe(["search_flights"])
    out = json.loads(reference_reply(render_prompt("plan", inputs)))
    assert out["args"] == {"origin": "SFO", "destination": "CDG", "date": "next Monday",
                           "cabin": "economy", "seat": "window"}


def test_fenced_json_reply_is_accepted():
    _scripted("fenced", ["```json\n" + GOOD_CLAIM + "\n```"])
    client = ModelClient("fenced/x")
    assert client.complete_json("claim", CLAIM_INPUTS).value == "aisle"
    assert client.calls == 1


def test_litellm_completion_reaches_the_reference_provider_directly():
    from repair_core.model import import_litellm

    litellm = import_litellm()
    resp = litellm.completion(model="dgrr/reference", messages=render_prompt("claim", CLAIM_INPUTS),
                              temperature=0, seed=42)
    assert json.loads(resp.choices[0].message.content)["support"] == "m3"
    assert resp.usage.total_tokens == resp.usage.prompt_tokens + resp.usage.completion_tokens > 0


def test_audit_and_judge_stages_run_through_the_model_layer():
    from pathlib import Path

    from repair_core import load_case
    from repair_core.model import AuditOut, JudgeOut, audit_inputs, judge_inputs

    case = load_case(Path(__file__).resolve().parent.parent / "sample_traces"
                     / "travel-two-faults.json")
    client = ModelClient()
    verdicts = {m.id: client.complete_json("audit", audit_inputs(case, m.id))
                for m in case.memory if m.status == "active"}
    assert all(isinstance(v, AuditOut) for v in verdicts.values())
    # m2 (JFK, trust lower or later than BOS) conflicts with m1 on home_airport
    flagged = sorted(r for r, v in verdicts.items() if v.suspicious)
    assert "m1" not in flagged and all(verdicts[r].reason for r in flagged)
    assert client.calls == len(verdicts)
    judged = client.complete_json("judge", judge_inputs(case))
    assert isinstance(judged, JudgeOut)
    assert {"m2", "m5"} <= set(judged.delete) and "m1" not in judged.delete
    assert "s3" in judged.revise and "s2" in judged.revise  # repeats JFK; read returned m2


def test_audit_flags_a_record_of_another_user():
    from repair_core.model import audit_inputs

    data = load_example().model_dump(mode="json")
    data["memory"][1]["user_id"] = "sam"
    from repair_core import case_from_data

    case = case_from_data(data)
    out = ModelClient().complete_json("audit", audit_inputs(case, data["memory"][1]["id"]))
    assert out.suspicious and "sam" in out.reason
