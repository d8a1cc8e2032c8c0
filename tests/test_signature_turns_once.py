"""A signature leaves out the words of the user's turns said by the time its node was
written (`signatures_from`), and `written_at` gives that time. Both now read the case's
turns and steps once, and the turns of each node are chosen by a bisection of their
sorted seqs: these tests hold them to the definitions, on turns listed out of seq order,
a turn that is itself a node, turns of equal seqs and turns without a seq."""

from __future__ import annotations

import math

from repair_core.case._case import Case
from repair_core.content import signature_of, signatures, signatures_from
from repair_core.content._signature import written_at

# each turn names a place of its own, so the signature of a node naming all of them keeps
# exactly the names of the turns not left out for it
WORDS = ["Alderwood", "Brackenfield", "Cinderholt", "Dunmorrow", "Elmsworth", "Fernvale"]
TURNS = {"t3": f"About {WORDS[3]} please.", "t0": f"About {WORDS[0]} please.",
         "t1": f"About {WORDS[1]} please.", "t5": f"About {WORDS[5]} please.",
         "t2": f"About {WORDS[2]} please.", "t4": f"About {WORDS[4]} please."}
TURN_SEQ = {"t0": 0, "t1": 10, "t2": 10, "t3": 30, "t4": 40}  # t5 has none
NODE_TEXT = "Remember " + " and ".join(WORDS) + " for the quarterly visit."


def _by_definition(node: str, at: float) -> list[str]:
    """The texts of the turns other than `node` of a seq at most `at`, in the turns'
    order (a turn without a seq has an infinite one)."""
    return [text for t, text in TURNS.items()
            if t != node and TURN_SEQ.get(t, math.inf) <= at]


def test_each_node_leaves_out_the_turns_said_by_its_time():
    written = {"m_early": 10.0, "m_mid": 29.0, "m_late": 40.0, "m_none": -math.inf,
               "t2": 10.0, "t3": 30.0, "m_nan": math.nan, "m_all": math.inf}
    parts = {n: (NODE_TEXT, None, None) for n in [*written, "m_unwritten"]}
    found = signatures_from(parts, TURNS, [], turn_seq=TURN_SEQ, written=written)
    for node in parts:
        at = written.get(node, math.inf)
        expected = signature_of(NODE_TEXT, node=node, user_texts=_by_definition(node, at))
        assert found[node].shingles == expected.shingles, node
        assert found[node].tokens == expected.tokens, node
    # the sets differ where the definition says they do: a turn node leaves itself out,
    # a later time holds more turns, and t5 (no seq) only an infinite time
    left = {n: set(found[n].tokens) for n in parts}
    assert left["m_early"] == {WORDS[3], WORDS[4], WORDS[5]}
    assert left["t2"] == {WORDS[2], WORDS[3], WORDS[4], WORDS[5]}
    assert left["m_late"] == {WORDS[5]}
    assert left["m_all"] == left["m_unwritten"] == set()
    assert left["m_none"] == left["m_nan"] == set(WORDS)


def test_without_times_every_other_turn_is_the_users():
    parts = {"t1": (NODE_TEXT, None, None), "m1": (NODE_TEXT, None, None)}
    found = signatures_from(parts, TURNS, [])
    for node in parts:
        expected = signature_of(NODE_TEXT, node=node,
                                user_texts=[x for t, x in TURNS.items() if t != node])
        assert found[node].shingles == expected.shingles, node


def _case() -> Case:
    turn = {"type": "turn", "user_id": "u"}
    return Case.model_validate({
        "format": "dgrr.case/v1", "case_id": "c", "domain": "d", "user_id": "u",
        "faults": ["m_made", "m_dated", "s_read"],
        "session": [{"id": "t0", "seq": 0, "text": "Plan my trip.", **turn},
                    {"id": "t1", "seq": 7, "text": "And the hotel.", **turn}],
        "memory": [
            {"id": "m_made", "user_id": "u", "status": "active", "text": "Hotel is the Grand.",
             "deps": [{"id": "s_late", "label": "produce"},
                      {"id": "s_write", "label": "produce"}]},
            {"id": "m_dated", "user_id": "u", "status": "active", "text": "Flight at nine.", "created_seq": 3},
            {"id": "m_old", "user_id": "u", "status": "active", "text": "Likes trains."}],
        "trajectory": [
            {"id": "s_read", "seq": 2, "type": "memory_read", "turn": "t0", "text": "read",
             "returned": ["m_old"], "deps": [{"id": "t0", "label": "initiate"}]},
            {"id": "s_write", "seq": 4, "type": "memory_write", "turn": "t0", "op": "add",
             "text": "save", "target": ["m_made"], "deps": [{"id": "t0", "label": "initiate"}]},
            {"id": "s_late", "seq": 9, "type": "memory_write", "turn": "t1", "op": "add",
             "text": "save", "target": ["m_made"], "deps": [{"id": "t1", "label": "initiate"}]},
            {"id": "s_answer", "seq": 10, "type": "answer", "turn": "t1", "text": "Done.",
             "deps": [{"id": "s_read", "label": "cite"}]}]}, strict=True)


def test_written_at_reads_a_records_earliest_producer_a_steps_and_a_turns_seq():
    case = _case()
    assert written_at(case, ["m_made", "m_dated", "m_old", "s_read", "t1", "nowhere"]) == {
        "m_made": 4.0, "m_dated": 3.0, "m_old": -math.inf, "s_read": 2.0, "t1": 7.0,
        "nowhere": -math.inf}


def test_signatures_finds_the_nodes_asked_about_in_every_list():
    case = _case()
    found = signatures(case, ["s_read", "t1", "m_dated", "nowhere", "m_dated"])
    assert list(found) == ["s_read", "t1", "m_dated"]
    assert [s.node for s in signatures(case).values()] == ["m_made", "m_dated", "s_read"]
