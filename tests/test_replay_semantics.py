"""Stage-4 guarantees: invalidated claims never reach a prompt, replayed producers never
write a poison back, reads see the repaired store, irreversible and unknown tools."""

from __future__ import annotations

import copy
from pathlib import Path

from repair_core import case_from_data, load_case, load_example, plan_case
from repair_core.model import ModelClient
from repair_core.replay import execute, repair

SAMPLES = Path(__file__).resolve().parent.parent / "sample_traces"
CASES = sorted(p for p in SAMPLES.glob("*.json") if not p.name.endswith(".plan.json"))


def test_no_invalidated_claim_text_reaches_any_prompt():
    checked = 0
    for path in CASES:
        case = load_case(path).without_eval()
        plan = plan_case(case)
        client = ModelClient()
        result = repair(case, plan, client=client)
        stale = [s for s in case.trajectory
                 if s.type == "claim" and plan.steps[s.id] in ("invalidate", "replay")]
        prompts = client.prompts()
        assert prompts and result.answer
        for claim in stale:
            checked += 1
            assert all(claim.text not in p for p in prompts), (case.case_id, claim.id)
    assert checked >= 5


def test_invalidated_claim_stays_out_even_when_a_later_step_cites_it():
    # s3 (the window-seat claim) is invalidated but, in this ablation, not replayed:
    # the plan and answer that cite it must be regenerated without it.
    case = load_example()
    plan = plan_case(case)
    client = ModelClient()
    replay = set(plan.replay_set) - {"s3"}
    result = execute(case, plan.memory, replay, invalidated={"s3"}, client=client)
    sent = " ".join(client.prompts())
    assert "Lin prefers a window seat." not in sent and '"id": "s3"' not in sent
    assert result.answer is not None and "window" not in result.answer.lower()


def test_reads_query_the_repaired_store():
    case = load_example()
    client = ModelClient()
    result = repair(case, client=client)
    read = next(s for s in result.trajectory.trajectory if s.id == "s1")
    assert read.returned == ["m1", "m2", "m5"]  # m1 (aisle) now found, m3 gone
    assert "aisle" in result.answer and "31C" in result.answer


POISON_CASE = {
    "format": "dgrr.case/v1", "case_id": "poison-write", "domain": "travel", "user_id": "lin",
    "session": [{"id": "u1", "seq": 1, "text": "Book me a flight to Tokyo next Friday."}],
    "memory": [
        {"id": "m1", "user_id": "lin", "text": "Lin's home airport is SFO.",
         "key": "home_airport", "value": "SFO", "status": "active", "deps": []},
        {"id": "m2", "user_id": "lin", "text": "Lin prefers window seats.", "key": "seat_pref",
         "value": "window", "status": "active", "deps": []},
        {"id": "m9", "user_id": "lin", "text": "Lin always books window seats.",
         "key": "seat_pref", "value": "window", "status": "active", "created_seq": 4,
         "deps": [{"id": "s4", "label": "produce"}]},
    ],
    "trajectory": [
        {"id": "s2", "seq": 2, "turn": "u1", "type": "memory_read", "text": "retrieve seat",
         "query": "seat", "returned": ["m2"],
         "deps": [{"id": "u1", "label": "initiate"}, {"id": "m2", "label": "cite"}]},
        {"id": "s3", "seq": 3, "turn": "u1", "type": "claim", "text": "Lin prefers window seats.",
         "key": "seat_pref", "value": "window",
         "deps": [{"id": "s2", "label": "cite"}, {"id": "m2", "label": "cite", "sufficient": True}]},
        {"id": "s4", "seq": 4, "turn": "u1", "type": "memory_write", "op": "add",
         "target": ["m9"], "text": "remember: Lin always books window seats",
         "deps": [{"id": "s3", "label": "derive"}]},
        {"id": "s5", "seq": 5, "turn": "u1", "type": "memory_read", "text": "retrieve airport",
         "query": "home airport seat", "returned": ["m1", "m9"],
         "deps": [{"id": "u1", "label": "initiate"}, {"id": "m1", "label": "cite"},
                  {"id": "m9", "label": "cite"}]},
        {"id": "s6", "seq": 6, "turn": "u1", "type": "claim", "text": "Lin's home airport is SFO.",
         "key": "home_airport", "value": "SFO",
         "deps": [{"id": "s5", "label": "cite"}, {"id": "m1", "label": "cite", "sufficient": True}]},
        {"id": "s7", "seq": 7, "turn": "u1", "type": "answer",
         "text": "Flying from SFO; you always book window seats.",
         "deps": [{"id": "s6", "label": "cite"}, {"id": "s5", "label": "cite"}]},
    ],
    "faults": ["m9"],
    "tools": [],
}


def test_replayed_producer_of_a_poisoned_record_does_not_write_it_back():
    case = case_from_data(copy.deepcopy(POISON_CASE))
    plan = plan_case(case)
    assert plan.analysis.seeds["m9"] == "s4" and "s4" in plan.replay_set
    result = repair(case, plan)
    skipped = [w for w in result.report.skipped_writes if w.step == "s4"]
    assert skipped and "m9" in skipped[0].reason
    assert not result.report.store_changes.added
    active = {r.id for r in result.store.active}
    assert "m9" not in active
    assert all(not (r.key == "seat_pref" and r.id != "m2") for r in result.store.active)
    outcome = next(o for o in result.report.steps if o.id == "s4")
    assert outcome.outcome == "skipped"
    case_from_data(result.trajectory.model_dump(mode="json"))


def _with_tool(effect: str | None, tool: str = "search_flights"):
    data = load_example().model_dump(mode="json")
    data["tools"] = [] if effect is None else [{"name": tool, "effect": effect}]
    if tool != "search_flights":
        for s in data["trajectory"]:
            if s.get("tool") == "search_flights":
                s["tool"] = tool
    return case_from_data(data)


def test_irreversible_tool_is_never_replayed_and_is_reported():
    result = repair(_with_tool(None))  # undeclared: irreversible by default
    assert [n.step for n in result.report.irreversible_effects] == ["s6"]
    outcomes = {o.id: o.outcome for o in result.report.steps}
    assert outcomes["s6"] == "irreversible" and outcomes["s7"] == "skipped"
    assert "31A" not in (result.answer or "")  # the old observation is not reused


def test_unregistered_tool_needs_an_observation_and_accepts_one_by_hand():
    case = _with_tool("pure", tool="legacy_flight_search")
    result = repair(case)
    assert [n.step for n in result.report.needs_observation] == ["s6"]
    assert "31A" not in (result.answer or "")
    given = {"flight": "JL1", "seat": "31C", "seat_type": "aisle"}
    fixed = repair(case, observations={"s6": given})
    assert not fixed.report.needs_observation
    obs = next(s for s in fixed.trajectory.trajectory if s.id == "s7")
    assert obs.output == given
    assert "31C" in fixed.answer


def test_resettable_action_is_reset_before_it_is_reissued():
    case = load_case(SAMPLES / "travel-two-faults.json")
    result = repair(case)
    assert [(n.step, n.args) for n in result.report.resets] == [
        ("s10", {"flight": "TP204", "seat": "2C"})]


def test_progress_is_reported_per_replayed_step_with_live_cost():
    case = load_example()
    seen = []
    result = repair(case, on_progress=lambda done, total, sid, cost: seen.append(
        (done, total, sid, cost.llm_calls)))
    plan = plan_case(case)
    assert [s for _, _, s, _ in seen] == plan.replay_order()
    assert seen[-1][0] == seen[-1][1] == len(plan.replay_set)
    assert [c for *_, c in seen] == sorted(c for *_, c in seen)
    assert seen[-1][3] == result.cost.llm_calls


def test_invalidated_irreversible_effects_are_listed_even_when_not_replayed():
    case = _with_tool("irreversible")
    plan = plan_case(case)
    # an ablation that invalidates the search but replays only the answer
    result = execute(case, plan.memory, {"s10"}, invalidated={"s5", "s6", "s7"})
    notes = {n.step: n.reason for n in result.report.irreversible_effects}
    assert list(notes) == ["s6"] and "cannot be undone: needs a human" in notes["s6"]
    assert {o.id: o.outcome for o in result.report.steps}["s6"] == "invalidated"


def test_report_has_one_outcome_per_step():
    for path in CASES:
        result = repair(load_case(path))
        ids = [o.id for o in result.report.steps]
        assert ids == [s.id for s in result.trajectory.steps_in_order()]
