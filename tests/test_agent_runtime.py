"""The instrumented reference agent: valid cases with provenance, misled by a poisoned
record, repaired by replay, and the recurrence probe."""

from __future__ import annotations

from repair_core import Claim, MemoryRecord, load_example, plan_case
from repair_core.agent import Agent, LexicalRetriever, MemoryStore, recurrence_probe
from repair_core.replay import repair

TURN = "Book me a flight from my home airport to Tokyo next Friday, and order my usual meal."


def _store(with_fault: bool) -> MemoryStore:
    recs = [m for m in load_example().memory if m.created_seq is None]
    return MemoryStore(r.model_copy(deep=True) for r in recs
                       if with_fault or r.id != "m3")


def _run(with_fault: bool, **kw):
    agent = Agent(**kw)
    case = agent.run_session("lin", [TURN], _store(with_fault), case_id="gen", domain="travel",
                             faults=["m3"] if with_fault else [])
    return agent, case


def test_clean_run_books_the_aisle_seat_and_records_provenance():
    agent, case = _run(False)
    answer = case.final_answer().text
    assert "aisle seat 31C" in answer and "JL1" in answer and "vegetarian" in answer
    claims = [s for s in case.trajectory if isinstance(s, Claim)]
    read = next(s for s in case.steps_in_order() if s.type == "memory_read")
    for c in claims:  # each claim cites the read and the one record that alone supports it
        assert c.deps[0].id == read.id and c.deps[0].label == "cite"
        sufficient = [d.id for d in c.deps if d.sufficient]
        assert len(sufficient) == 1 and sufficient[0] in read.returned
    plan = next(s for s in case.steps_in_order() if s.type == "plan")
    assert {d.id for d in plan.deps if d.label == "cite"} <= {c.id for c in claims}
    assert agent.client.calls == len(claims) + 3 + 1 + 1  # claims, 2 plans + stop, answer, write
    assert {t.name: t.effect for t in case.tools} == {"search_flights": "pure",
                                                      "hold_seat": "resettable"}


def test_writes_produce_records_with_created_seq():
    _, case = _run(False)
    written = [m for m in case.memory if m.created_seq is not None]
    assert written
    steps = {s.id: s for s in case.trajectory}
    for m in written:
        producer = steps[m.deps[0].id]
        assert m.deps[0].label == "produce" and producer.type == "memory_write"
        assert producer.seq == m.created_seq and m.id in producer.target


def test_poisoned_record_misleads_the_agent_and_repair_recovers():
    _, clean = _run(False)
    _, failed = _run(True)
    assert "window seat 31A" in failed.final_answer().text  # trusts the most recent record
    result = repair(failed)
    for fact in ("JL1", "aisle", "31C", "vegetarian", "SFO"):
        assert fact in result.answer
    assert result.answer == clean.final_answer().text
    plan = plan_case(failed)
    assert plan.memory["m3"] == "delete"
    assert result.cost.llm_calls < 9  # selective: fewer calls than the original run


def test_recurrence_probe_reruns_one_turn_on_a_store():
    _, failed = _run(True)
    faulty = [m for m in failed.memory if m.created_seq is None]
    assert "window" in recurrence_probe(faulty, "lin", TURN, domain="travel")
    result = repair(failed)
    probe = recurrence_probe(result.store.active, "lin", TURN, domain="travel")
    assert "aisle seat 31C" in probe and "window" not in probe


def test_runs_are_deterministic():
    _, a = _run(True)
    _, b = _run(True)
    assert a.model_dump() == b.model_dump()


def test_later_turns_retrieve_what_earlier_turns_wrote():
    store = MemoryStore([MemoryRecord(id="m1", user_id="maya", key="last_order",
                                      value="O-5521", status="active",
                                      text="Maya's latest order is O-5521, a desk lamp.")])
    case = Agent().run_session("maya", ["Where is my order?", "Where is my order now?"],
                               store, domain="customer_service")
    reads = [s for s in case.steps_in_order() if s.type == "memory_read"]
    first_writes = {m.id for m in case.memory if m.created_seq and m.created_seq < reads[1].seq}
    assert first_writes and first_writes & set(reads[1].returned)
    assert "O-5521" in case.final_answer().text


def test_consolidation_folds_records_of_one_key():
    store = MemoryStore([
        MemoryRecord(id="m1", user_id="omar", key="jacket_size", value="L", status="active",
                     text="Omar wears size L in jackets."),
        MemoryRecord(id="m2", user_id="omar", key="jacket_size", value="M", status="active",
                     text="Omar wears size M."),
    ])
    case = Agent(consolidate_every=1).run_session(
        "omar", ["Find me a rain jacket in my size."], store, domain="shopping")
    write = next(s for s in case.trajectory if s.type == "memory_write" and s.op == "consolidate")
    summary = next(m for m in case.memory
                   if any(d.id == write.id and d.label == "produce" for d in m.deps))
    assert {d.id for d in summary.deps if d.label == "consolidate"} == {"m1", "m2"}
    assert summary.value == "M"  # keeps the most recent record as current
    for rid in ("m1", "m2"):
        rec = next(m for m in case.memory if m.id == rid)
        assert rec.status == "superseded" and any(d.id == write.id and d.label == "delete"
                                                  for d in rec.deps)
    # a drifted summary (one that says what neither source said) is repaired: its seed is
    # the consolidation, the sources come back
    drifted = summary.model_copy(update={"text": "Omar wears size S.", "value": "S"})
    drift = case.model_copy(update={
        "faults": [summary.id],
        "memory": [drifted if m.id == summary.id else m for m in case.memory]})
    plan = plan_case(drift)
    assert plan.analysis.seeds[summary.id] == write.id
    assert plan.memory["m1"] == plan.memory["m2"] == "restore"
    # a summary diagnosed as a fault while it repeats a source word for word: that source
    # carries the fault's content, so it is not restored to write it again
    same = case.model_copy(update={"faults": [summary.id]})
    plan = plan_case(same)
    assert (plan.memory["m1"], plan.memory["m2"]) == ("restore", "delete")
    # m2 carries it and is cleaned; m1, the other input of its producer, is listed by
    # lineage and only flagged: it alone cannot explain the fault
    assert [(s.id, s.role, s.action) for s in plan.report().suspected] == [
        ("m2", "source", "clean"), ("m1", "source", "flag")]


def test_retriever_only_returns_the_users_active_records():
    recs = [MemoryRecord(id="a", user_id="lin", text="Lin prefers aisle seats.",
                         key="seat_pref", status="active"),
            MemoryRecord(id="b", user_id="sam", text="Sam prefers window seats.",
                         key="seat_pref", status="active"),
            MemoryRecord(id="c", user_id="lin", text="Lin prefers window seats.",
                         key="seat_pref", status="superseded")]
    assert LexicalRetriever().retrieve(recs, "seat preference", "lin") == ["a"]


def test_no_recurrence_on_the_sample_traces_after_repair():
    from pathlib import Path

    from repair_core import load_case

    samples = Path(__file__).resolve().parent.parent / "sample_traces"
    for path in sorted(p for p in samples.glob("*.json") if not p.name.endswith(".plan.json")):
        case = load_case(path)
        result = repair(case.without_eval())
        turn = max(case.session, key=lambda t: t.seq).text
        probe = recurrence_probe(result.store.active, case.user_id, turn, domain=case.domain)
        missing = [f for f in case.eval.required_facts if f not in probe]
        assert not missing, (case.case_id, probe)


def test_execute_accepts_reasons_by_node_id():
    from repair_core.replay import execute

    case = load_example()
    plan = plan_case(case)
    res = execute(case, plan.memory, plan.replay_set, decisions={"m3": "my reason"})
    by_id = {d.id: d for d in res.report.decisions}
    assert by_id["m3"].reason == "my reason" and by_id["m3"].action == "delete"
    assert by_id["s3"].action == "replay"
