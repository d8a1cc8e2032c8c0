"""One test per rule of stages 1-3 (ids in docs/rules.md), each on a small case built here."""

from __future__ import annotations

import pytest
from casebuild import case_data, make_case, rec, step, turn

from repair_core import (
    CaseError,
    PlanEditError,
    analyse,
    apply_edits,
    build_graph,
    case_from_data,
    plan_case,
)

rule = pytest.mark.rule


def _basic(**kw):
    """u1 -> read(m1, m2) -> claim(m1) -> answer; m1 is the fault."""
    return make_case(
        turn("u1", 1),
        rec("m1"), rec("m2"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite", returned=["m1", "m2"]),
        step("s3", 3, "claim", "s2:cite m1:cite!"),
        step("s4", 4, "claim", "s2:cite m2:cite!"),
        step("s5", 5, "answer", "s3:cite s4:cite"),
        faults=["m1"], **kw,
    )


# --- stage 1 -------------------------------------------------------------------------

@rule("graph.nodes")
def test_graph_has_turns_steps_and_records():
    G = build_graph(_basic())
    assert G.nodes["u1"]["kind"] == "turn"
    assert G.nodes["s3"] == {"kind": "step", "type": "claim", "seq": 3}
    assert G.nodes["m2"]["kind"] == "record"
    assert set(G.nodes) == {"u1", "m1", "m2", "s2", "s3", "s4", "s5"}


@rule("graph.edges")
def test_each_dep_is_one_typed_edge_from_premise_to_dependent():
    G = build_graph(_basic())
    assert G.edges["m1", "s3", "cite"] == {"label": "cite", "sufficient": True}
    assert G.edges["s2", "s3", "cite"] == {"label": "cite", "sufficient": False}
    assert not G.has_edge("s3", "m1")
    non_chain = [e for e in G.edges(keys=True) if e[2] != "chain"]
    assert len(non_chain) == 3 + 2 + 2 + 2


@rule("graph.chain")
def test_chain_edges_follow_seq_and_are_never_written():
    G = build_graph(_basic())
    chain = sorted((u, v) for u, v, k in G.edges(keys=True) if k == "chain")
    assert chain == [("s2", "s3"), ("s3", "s4"), ("s4", "s5")]
    data = case_data(turn("u1", 1), step("s2", 2, "answer", "u1:chain"))
    with pytest.raises(CaseError) as err:
        case_from_data(data)
    assert any("trajectory[0].deps[0].label" in p and "chain" in p for p in err.value.problems)


@rule("graph.no-labels")
def test_graph_ignores_faults_and_eval():
    a = build_graph(_basic())
    b = build_graph(_basic().model_copy(update={"faults": ["m2"], "eval": None}))
    assert sorted(a.edges(keys=True, data=True)) == sorted(b.edges(keys=True, data=True))
    assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))


@rule("graph.deterministic")
def test_graph_does_not_depend_on_file_order():
    data = case_data(
        turn("u1", 1), rec("m1"), rec("m2"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite"),
        step("s3", 3, "answer", "s2:cite m2:cite"), faults=["m1"])
    shuffled = dict(data, memory=data["memory"][::-1], trajectory=data["trajectory"][::-1])
    shuffled["trajectory"][1]["deps"] = shuffled["trajectory"][1]["deps"][::-1]
    a, b = build_graph(case_from_data(data)), build_graph(case_from_data(shuffled))
    assert sorted(a.edges(keys=True, data=True)) == sorted(b.edges(keys=True, data=True))


# --- stage 2: seeds -------------------------------------------------------------------

@rule("seed.failed-mutation")
def test_failed_mutation_in_lineage_is_the_seed():
    c = make_case(
        turn("u1", 1),
        rec("m1", "s3:update"),
        step("s2", 2, "claim", "u1:support"),
        step("s3", 3, "memory_write", "s2:derive", op="update", target=["m1"], status="failed"),
        step("s4", 4, "memory_write", "s2:derive", op="update", target=["m1"], status="failed"),
        step("s5", 5, "answer", "m1:cite"),
        faults=["m1"])
    # m1 -> s4 is not in the lineage (no lifecycle edge), so s3 is the only failed mutation
    assert analyse(c).seeds == {"m1": "s3"}
    # reached through a consolidate edge and a delete edge in the other direction
    c2 = make_case(
        turn("u1", 1),
        rec("m0", "s2:delete", status="superseded"),
        rec("m1", "m0:consolidate s3:produce"),
        step("s2", 2, "memory_write", "u1:initiate", op="delete", target=["m0"], status="failed"),
        step("s3", 3, "memory_write", "u1:initiate", op="consolidate", target=["m1"]),
        step("s4", 4, "answer", "m1:cite"),
        faults=["m1"])
    assert analyse(c2).seeds == {"m1": "s2"}


@rule("seed.producer")
def test_producer_is_the_seed_without_failed_mutation():
    c = make_case(
        turn("u1", 1),
        rec("m1", "s3:produce"),
        step("s2", 2, "claim", "u1:support"),
        step("s3", 3, "memory_write", "s2:derive", target=["m1"]),
        step("s4", 4, "answer", "m1:cite"),
        faults=["m1"])
    assert analyse(c).seeds == {"m1": "s3"}
    # an update edge from a write is lineage, not production
    c2 = make_case(
        turn("u1", 1), rec("m1", "s3:update"),
        step("s2", 2, "claim", "u1:support"),
        step("s3", 3, "memory_write", "s2:derive", op="update", target=["m1"]),
        step("s4", 4, "answer", "m1:cite"), faults=["m1"])
    assert analyse(c2).seeds == {"m1": "m1"}


@rule("seed.record")
def test_record_without_producer_is_its_own_seed():
    assert analyse(_basic()).seeds == {"m1": "m1"}


# --- stage 2: reach -------------------------------------------------------------------

@rule("reach.propagation")
def test_reach_follows_every_label_but_chain():
    c = make_case(
        turn("u1", 1), rec("m1"), rec("m2"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite"),
        step("s3", 3, "claim", "s2:derive"),
        step("s4", 4, "memory_read", "u1:initiate m2:cite"),  # after s3 by chain only
        step("s5", 5, "claim", "s4:cite m2:cite!"),
        step("s6", 6, "answer", "s5:cite"),
        faults=["m1"])
    a = analyse(c)
    assert a.affected == {"m1", "s2", "s3"}


@rule("reach.time-bound")
def test_steps_before_a_step_seed_are_not_affected():
    c = make_case(
        turn("u1", 1),
        rec("m1", "s4:update"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite"),   # before the failed update
        step("s3", 3, "claim", "s2:cite m1:cite!"),
        step("s4", 4, "memory_write", "u1:initiate", op="update", target=["m1"], status="failed"),
        step("s5", 5, "memory_read", "u1:initiate m1:cite"),
        step("s6", 6, "answer", "s3:cite s5:cite"),
        faults=["m1"])
    a = analyse(c)
    assert a.seeds == {"m1": "s4"}
    assert a.affected == {"s4", "m1", "s5", "s6"}
    assert "s2" not in a.affected and "s3" not in a.affected
    # a record seed has no bound: everything after it is reachable
    b = analyse(_basic())
    assert {"s2", "s3", "s5"} <= b.affected


@rule("reach.seeds-in-a0")
def test_seeds_and_faults_are_in_a0():
    c = make_case(
        turn("u1", 1), rec("m1", "s2:produce"),
        step("s2", 2, "memory_write", "u1:initiate", target=["m1"]),
        step("s3", 3, "answer", "u1:initiate"),  # does not use m1 at all
        faults=["m1"])
    a = analyse(c)
    assert a.affected == {"s2", "m1"}


# --- stage 2: support -----------------------------------------------------------------

def _claim_with(dep_spec: str, *extra_nodes, faults=("m1",), current="u1"):
    return make_case(
        turn("u0", 0), turn("u1", 1),
        rec("m1"), rec("m2"), rec("m3", status="superseded"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite", turn_id=current),
        *extra_nodes,
        step("s9", 9, "claim", "s2:cite " + dep_spec, turn_id=current),
        step("s10", 10, "answer", "s9:cite", turn_id=current),
        faults=list(faults))


@rule("support.sufficient-labels")
@pytest.mark.parametrize("spec,kept", [
    ("m2:cite!", True), ("m2:support", True), ("m2:derive", True), ("m2:supersede", True),
    ("m2:cite", False), ("m2:initiate", False), ("m2:consolidate", False),
])
def test_only_sufficient_edges_keep(spec, kept):
    assert ("s9" in analyse(_claim_with(spec)).supported) is kept


@rule("support.admissible")
def test_admissible_evidence():
    def kept(spec, *extra, current="u1"):
        return "s9" in analyse(_claim_with(spec, *extra, current=current)).supported

    assert kept("u1:support")                     # the current user turn
    assert kept("u0:support")                     # an earlier turn (or session): support.earlier-turns
    assert kept("m2:cite!")                       # an active record not in F
    assert not kept("m3:cite!")                   # a superseded record
    ok = [step("s3", 3, "tool_action", "u1:initiate", tool="t"),
          step("s4", 4, "tool_observation", "s3:produce")]
    failed = [step("s3", 3, "tool_action", "u1:initiate", tool="t"),
              step("s4", 4, "tool_observation", "s3:produce", status="failed")]
    assert kept("s4:support", *ok)               # a successful observation
    assert not kept("s4:support", *failed)        # a failed one
    assert kept("s5:support", step("s5", 5, "claim", "u1:support", verified=True))
    assert not kept("s5:support", step("s5", 5, "claim", "u1:support"))  # unverified


@rule("support.outside-a0")
def test_premise_in_a0_never_rescues():
    # s3 is affected but kept by m2; s4 rests on s3 alone and must not be kept by it
    c = make_case(
        turn("u1", 1), rec("m1"), rec("m2"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite"),
        step("s3", 3, "claim", "s2:cite m2:cite!", verified=True),
        step("s4", 4, "claim", "s3:support"),
        step("s5", 5, "answer", "s4:cite"),
        faults=["m1"])
    a = analyse(c)
    assert "s3" in a.supported
    assert "s4" in a.affected and "s4" not in a.supported


@rule("support.never-kept")
def test_faults_and_seed_steps_are_never_kept():
    c = make_case(
        turn("u1", 1), rec("m1", "s2:produce m2:support"), rec("m2"),
        step("s2", 2, "memory_write", "u1:support", target=["m1"]),
        step("s3", 3, "answer", "m1:cite"),
        faults=["m1"])
    a = analyse(c)
    assert a.seeds == {"m1": "s2"}
    assert "s2" not in a.supported and "m1" not in a.supported
    # a pre-existing fault with a sufficient admissible premise is still not kept
    c2 = make_case(turn("u1", 1), rec("m2"), rec("m1", "m2:support"),
                   step("s3", 3, "answer", "m1:cite"), faults=["m1"])
    assert "m1" not in analyse(c2).supported


@rule("support.inherit")
def test_produce_inheritance():
    def case(plan_deps):
        return make_case(
            turn("u1", 1), rec("m1"), rec("m9", "s6:produce"),
            step("s2", 2, "memory_read", "u1:initiate m1:cite"),
            step("s3", 3, "plan", plan_deps, tool="t"),
            step("s4", 4, "tool_action", "s3:produce s2:cite", tool="t"),
            step("s5", 5, "tool_observation", "s4:produce"),
            step("s6", 6, "memory_write", "s5:cite", target=["m9"]),
            step("s7", 7, "answer", "s5:cite"),
            faults=["m1"])

    kept = analyse(case("s2:cite u1:support"))
    assert {"s3", "s4", "s5"} <= kept.supported
    assert "s6" not in kept.supported and "m9" not in kept.supported  # write: plain cite
    lost = analyse(case("s2:cite"))
    assert not {"s3", "s4", "s5"} & lost.supported
    # an action whose plan is unaffected is kept even if it is itself affected
    c = make_case(
        turn("u1", 1), rec("m1"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite"),
        step("s3", 3, "plan", "u1:initiate", tool="t"),
        step("s4", 4, "tool_action", "s3:produce s2:cite", tool="t"),
        step("s5", 5, "answer", "s4:cite"), faults=["m1"])
    a = analyse(c)
    assert "s4" in a.affected and "s4" in a.supported


@rule("support.no-producer")
def test_memory_read_is_unsupported():
    a = analyse(_basic())
    assert "s2" in a.affected and "s2" not in a.supported


@rule("support.trust-ignored")
def test_trust_changes_nothing():
    base = case_data(turn("u1", 1), rec("m1"), rec("m2"),
                     step("s2", 2, "claim", "m1:cite m2:cite!"),
                     step("s3", 3, "answer", "s2:cite"), faults=["m1"])
    low = dict(base, memory=[dict(m, trust=0.01) for m in base["memory"]])
    high = dict(base, memory=[dict(m, trust=0.99) for m in base["memory"]])
    assert (plan_case(case_from_data(low)).report() == plan_case(case_from_data(high)).report())


# --- stage 3: memory --------------------------------------------------------------------

def _consolidation(retirer_deps="u1:initiate", fault="m3"):
    """s2 consolidates m1+m2 into m3 (retiring them); later steps read m3."""
    return make_case(
        turn("u1", 1),
        rec("m1", "s2:delete", status="superseded"),
        rec("m2", "s2:delete", status="superseded"),
        rec("m3", "s2:produce m1:consolidate m2:consolidate"),
        rec("m4"),
        step("s2", 2, "memory_write", retirer_deps, op="consolidate", target=["m1", "m2", "m3"]),
        step("s3", 3, "memory_read", "u1:initiate m3:cite m4:cite"),
        step("s4", 4, "claim", "s3:cite m3:cite!"),
        step("s5", 5, "answer", "s4:cite"),
        faults=[fault])


@rule("memory.delete")
def test_fault_is_deleted():
    p = plan_case(_consolidation())
    assert p.memory["m3"] == "delete"


@rule("memory.restore")
def test_records_retired_only_by_unsupported_mutations_are_restored():
    p = plan_case(_consolidation())
    assert p.memory["m1"] == "restore" and p.memory["m2"] == "restore"
    assert "s2" in p.reasons["m1"]


@rule("memory.keep-retired")
def test_retired_record_whose_retirer_stands_is_left_alone():
    # m1 was also retired by s6, an unaffected delete: it stays retired
    c = make_case(
        turn("u1", 1), rec("m0"),
        rec("m1", "s2:delete s6:delete", status="deleted"),
        rec("m3", "s2:produce m1:consolidate"),
        step("s2", 2, "memory_write", "u1:initiate", op="consolidate", target=["m1", "m3"]),
        step("s6", 6, "memory_write", "u1:support", op="delete", target=["m1"]),
        step("s7", 7, "answer", "m3:cite"),
        faults=["m3"])
    p = plan_case(c)
    assert "m1" in p.analysis.unsupported
    assert p.memory["m1"] == "keep"


@rule("memory.quarantine")
def test_unsupported_derived_record_is_quarantined():
    c = make_case(
        turn("u1", 1), rec("m1"), rec("m2", "s3:produce"), rec("m3", "m1:consolidate"),
        step("s2", 2, "claim", "m1:cite!"),
        step("s3", 3, "memory_write", "s2:derive", target=["m2"]),
        step("s4", 4, "answer", "s2:cite"),
        faults=["m1"])
    p = plan_case(c)
    assert p.memory["m2"] == "quarantine"   # produced by an unsupported write
    assert p.memory["m3"] == "quarantine"   # consolidated from the fault, no support


@rule("memory.keep")
def test_supported_and_unaffected_records_are_kept():
    c = make_case(
        turn("u1", 1), rec("m1"), rec("m2"), rec("m5"), rec("m4", "m1:consolidate m2:support"),
        step("s2", 2, "answer", "m4:cite"),
        faults=["m1"])
    p = plan_case(c)
    assert "m4" in p.analysis.supported
    assert p.memory["m4"] == "keep" and p.memory["m5"] == "keep" and p.memory["m2"] == "keep"


# --- stage 3: steps ---------------------------------------------------------------------

@rule("step.keep")
def test_unaffected_and_supported_steps_are_kept():
    p = plan_case(_basic())
    assert p.steps["s4"] == "keep"  # supported by m2
    c = make_case(turn("u1", 1), rec("m1"), rec("m2"),
                  step("s2", 2, "claim", "m2:cite!"),
                  step("s3", 3, "claim", "m1:cite!"),
                  step("s4", 4, "answer", "s2:cite s3:cite"), faults=["m1"])
    assert plan_case(c).steps["s2"] == "keep"  # unaffected


@rule("step.invalidate")
def test_unsupported_step_off_the_answer_path_is_invalidated():
    c = make_case(turn("u1", 1), rec("m1"), rec("m2"),
                  step("s2", 2, "claim", "m1:cite!"),
                  step("s3", 3, "memory_write", "s2:derive", target=["m2"]),
                  step("s4", 4, "answer", "u1:initiate"),
                  step("s5", 5, "claim", "s2:cite"),
                  faults=["m1"])
    p = plan_case(c)
    assert p.steps["s2"] == "invalidate" and p.steps["s3"] == "invalidate"
    assert p.steps["s5"] == "invalidate"
    assert "s2" not in p.replay_set


def _written_then_read():
    """s2 (from the fault m1) derives the write s3 of m2; the final answer reads m2."""
    return make_case(turn("u1", 1), rec("m1"), rec("m2", "s3:produce"),
                     step("s2", 2, "claim", "m1:cite!"),
                     step("s3", 3, "memory_write", "s2:derive", target=["m2"]),
                     step("s4", 4, "memory_read", "u1:initiate m2:cite"),
                     step("s5", 5, "answer", "s4:cite"),
                     faults=["m1"])


@rule("step.answer-relevant")
def test_answer_relevance_cuts_deleted_and_quarantined_records():
    # s2 reaches the answer only through m2, which is quarantined: not answer-relevant
    p = plan_case(_written_then_read())
    assert p.memory["m2"] == "quarantine"
    # the read of the cut record reaches the answer directly and must re-read the store
    assert p.answer_relevant == {"s4", "s5"}
    assert p.steps["s4"] == "replay"


@rule("step.rederive")
def test_producer_of_a_quarantined_record_that_a_replayed_step_reads_is_replayed():
    # the replayed read s4 reads m2, which is quarantined: its producer s3 and s3's
    # unsupported premise s2 are replayed so the store gets m2 re-derived
    p = plan_case(_written_then_read())
    assert p.memory["m2"] == "quarantine"
    assert "s3" not in p.answer_relevant
    assert p.steps["s3"] == "replay" and p.steps["s2"] == "replay"
    assert "producer of quarantined record m2" in p.reasons["s3"]
    # a quarantined record nobody replayed reads: its producer stays invalidated
    c = make_case(turn("u1", 1), rec("m1"), rec("m2", "s3:produce"),
                  step("s2", 2, "claim", "m1:cite!"),
                  step("s3", 3, "memory_write", "s2:derive", target=["m2"]),
                  step("s4", 4, "answer", "u1:initiate"),
                  faults=["m1"])
    q = plan_case(c)
    assert q.memory["m2"] == "quarantine"
    assert q.steps["s3"] == "invalidate" and q.steps["s2"] == "invalidate"


@rule("step.final-answer")
def test_final_answer_is_highest_seq_and_always_replayed():
    c = make_case(turn("u1", 1), rec("m1"), rec("m2"),
                  step("s2", 2, "claim", "m1:cite!"),
                  step("s3", 3, "answer", "s2:cite"),
                  step("s4", 4, "answer", "m2:cite"),   # the final answer, unaffected
                  faults=["m1"])
    p = plan_case(c)
    assert p.analysis.final_answer == "s4"
    assert "s4" not in p.analysis.affected
    assert p.steps["s4"] == "replay"
    assert p.steps["s3"] == "invalidate"  # an earlier answer is an ordinary step


@rule("step.seed-replay")
def test_seed_step_is_replayed():
    c = make_case(turn("u1", 1), rec("m1", "s3:update"),
                  step("s2", 2, "claim", "u1:support"),
                  step("s3", 3, "memory_write", "s2:derive", op="update", target=["m1"],
                       status="failed"),
                  step("s4", 4, "answer", "u1:initiate"),
                  faults=["m1"])
    p = plan_case(c)
    assert p.steps["s3"] == "replay"
    assert "s3" not in p.answer_relevant
    assert p.steps["s2"] == "keep"  # its premise is unaffected: fixed context


@rule("step.closure")
def test_unsupported_premises_of_replayed_steps_are_replayed():
    # s3 is an invalid premise of the seed write s4 (not answer-relevant): pulled in
    c = make_case(turn("u1", 1), rec("m0"), rec("m1", "s4:produce"), rec("m2"),
                  step("s2", 2, "memory_read", "u1:initiate m0:cite"),
                  step("s3", 3, "claim", "s2:cite"),
                  step("s4", 4, "memory_write", "s3:derive", target=["m1"]),
                  step("s5", 5, "claim", "m2:cite!"),
                  step("s6", 6, "answer", "s5:cite"),
                  faults=["m1", "m0"])
    p = plan_case(c)
    assert {"s2", "s3", "s4"} <= p.replay_set
    assert "s4" not in p.answer_relevant and "s3" not in p.answer_relevant
    assert "premise of replayed step" in p.reasons["s3"]
    assert p.steps["s5"] == "keep"


@rule("step.refresh")
def test_observations_are_refreshed_through_their_action():
    c = make_case(turn("u1", 1), rec("m1"),
                  step("s2", 2, "claim", "m1:cite!"),
                  step("s3", 3, "plan", "s2:cite", tool="t"),
                  step("s4", 4, "tool_action", "s3:produce", tool="t"),
                  step("s5", 5, "tool_observation", "s4:produce"),
                  step("s6", 6, "answer", "s5:cite"),
                  faults=["m1"])
    p = plan_case(c)
    assert p.steps["s5"] == "refresh"
    assert p.steps["s4"] == "replay"
    assert p.replay_order() == ["s2", "s3", "s4", "s5", "s6"]


@rule("plan.reasons")
def test_every_non_keep_decision_has_a_reason():
    for c in (_basic(), _consolidation()):
        p = plan_case(c)
        for node, action in [*p.memory.items(), *p.steps.items()]:
            if action != "keep":
                assert p.reasons.get(node), node
        for node in p.analysis.supported:
            assert "kept" in p.reasons[node]
    p = plan_case(_basic())
    assert p.reasons["s3"].startswith("affected via m1 → s3")


# --- inferred edges (imported traces) -------------------------------------------------

def _inferred(**kw):
    """u1 -> read(m1, m2); claim s3 cites m2 sufficiently only by an inferred edge and m1
    by a recorded one; claim s4 has a recorded sufficient cite on m2; the answer cites
    s4 by an inferred edge. m1 is the fault."""
    return make_case(
        turn("u1", 1),
        rec("m1"), rec("m2"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite", returned=["m1", "m2"]),
        step("s3", 3, "claim", "s2:cite~ m2:support~"),
        step("s4", 4, "claim", "m1:cite~ m2:cite!"),
        step("s5", 5, "answer", "s3:cite s4:cite~"),
        faults=["m1"], **kw,
    )


@rule("graph.inferred")
def test_inferred_deps_become_edges_marked_inferred():
    G = build_graph(_inferred())
    assert G.edges["m2", "s3", "support"] == {"label": "support", "sufficient": False,
                                              "inferred": True}
    # recorded edges carry no `inferred` attribute at all
    assert G.edges["m2", "s4", "cite"] == {"label": "cite", "sufficient": True}
    # a recorded dep wins over an inferred one on the same (premise, dependent, label)
    c = make_case(turn("u1", 1), rec("m1"),
                  step("s2", 2, "claim", "m1:cite~ m1:cite!"), step("s3", 3, "answer", "s2:cite"))
    assert build_graph(c).edges["m1", "s2", "cite"] == {"label": "cite", "sufficient": True}
    # the field is optional and backward compatible: absent means recorded
    assert _basic().trajectory[1].deps[0].inferred is False


@rule("reach.inferred")
def test_an_inferred_edge_carries_harm():
    a = analyse(_inferred())
    # s4 is reached from m1 only over the inferred cite m1 -> s4
    assert "s4" in a.affected
    assert a.inferred_hops("s4") == [("m1", "s4")]
    assert {"s2", "s3", "s5"} <= a.affected


@rule("support.inferred-never-vouches")
def test_an_inferred_edge_never_vouches_for_support():
    a = analyse(_inferred())
    # s4 keeps its recorded sufficient cite on m2; s3's only sufficient premise is inferred
    assert "s4" in a.supported
    assert "s3" in a.unsupported
    # the same case with s3's support recorded keeps s3
    recorded = make_case(
        turn("u1", 1), rec("m1"), rec("m2"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite"),
        step("s3", 3, "claim", "s2:cite~ m2:support"),
        step("s5", 5, "answer", "s3:cite"), faults=["m1"])
    assert "s3" in analyse(recorded).supported
    # an inferred produce edge names no producer: the action does not inherit the plan's
    # verdict, and with no recorded producer it is unsupported
    c = make_case(
        turn("u1", 1), rec("m1"), rec("m2"),
        step("s2", 2, "plan", "m1:cite m2:support", tool="t"),
        step("s3", 3, "tool_action", "s2:produce~ m1:cite", tool="t"),
        step("s4", 4, "tool_action", "s2:produce m1:cite", tool="t"),
        step("s5", 5, "answer", "s3:cite s4:cite"), faults=["m1"])
    b = analyse(c)
    assert "s2" in b.supported and "s4" in b.supported
    assert "s3" in b.unsupported
    # a guessed producer still carries harm: with a recorded producer that is kept and an
    # inferred one that is not, the action is not kept (marking the edge inferred can
    # never turn "some producer unsupported" into "supported")
    c = make_case(
        turn("u1", 1), rec("m1"), rec("m2"),
        step("s2", 2, "plan", "m1:cite m2:support", tool="t"),
        step("s3", 3, "plan", "m1:cite", tool="t"),
        step("s4", 4, "tool_action", "s2:produce s3:produce~", tool="t"),
        step("s5", 5, "answer", "s4:cite"), faults=["m1"])
    b = analyse(c)
    assert "s2" in b.supported and "s3" in b.unsupported and "s4" in b.unsupported


@rule("plan.inferred-reasons")
def test_every_reason_resting_on_an_inferred_edge_says_so():
    p = plan_case(_inferred())
    # s4 is kept by its recorded support, but was reached over an inferred edge
    assert p.reasons["s4"].startswith("affected but kept: independent support from m2")
    assert "inferred edge(s) m1 → s4" in p.reasons["s4"]
    assert "inferred" in p.reasons["s3"] and "never vouches" in p.reasons["s3"]
    # reasons of a case without inferred edges never mention them
    assert not any("inferred" in r for r in plan_case(_basic()).reasons.values())
    for node in p.analysis.unsupported:
        if p.analysis.inferred_hops(node):
            assert "inferred" in p.reasons[node], node


# --- edits ------------------------------------------------------------------------------

@rule("edit.fault-active")
def test_edit_keeping_a_fault_is_refused_even_forced():
    p = plan_case(_basic())
    with pytest.raises(PlanEditError) as err:
        apply_edits(p, {"m1": "keep"})
    assert "m1" in err.value.problems[0] and "diagnosed fault" in err.value.problems[0]
    with pytest.raises(PlanEditError, match="unmark the fault instead"):
        apply_edits(p, {"m1": "keep"}, force=True, comment="reviewer knows")


@rule("edit.unsupported-kept")
def test_edit_keeping_unsupported_nodes_is_refused():
    with pytest.raises(PlanEditError, match="s3"):
        apply_edits(plan_case(_basic()), {"s3": "keep"})
    c = make_case(turn("u1", 1), rec("m1"), rec("m2", "m1:consolidate"),
                  step("s2", 2, "answer", "m1:cite"), faults=["m1"])
    with pytest.raises(PlanEditError, match="m2"):
        apply_edits(plan_case(c), {"m2": "keep"})


@rule("edit.final-answer")
def test_edit_skipping_the_final_answer_is_refused():
    with pytest.raises(PlanEditError, match="final answer"):
        apply_edits(plan_case(_basic()), {"s5": "invalidate"})
    with pytest.raises(PlanEditError, match="cannot be overridden"):
        apply_edits(plan_case(_basic()), {"s5": "keep"}, force=True, comment="no")


@rule("edit.closure")
def test_edit_dropping_a_needed_premise_is_refused():
    p = plan_case(_basic())
    with pytest.raises(PlanEditError, match="premise of replayed step"):
        apply_edits(p, {"s2": "invalidate"})
    q = apply_edits(p, {"s2": "invalidate"}, force=True)
    assert q.steps["s2"] == "invalidate" and "s2" not in q.replay_set


@rule("edit.irreversible")
def test_edit_replaying_an_irreversible_tool_is_refused():
    c = make_case(turn("u1", 1), rec("m1"),
                  step("s2", 2, "plan", "u1:initiate", tool="pay"),
                  step("s3", 3, "tool_action", "s2:produce", tool="pay"),
                  step("s4", 4, "answer", "s3:cite m1:cite"),
                  faults=["m1"], tools=[{"name": "pay", "effect": "irreversible"}])
    with pytest.raises(PlanEditError, match="irreversible"):
        apply_edits(plan_case(c), {"s3": "replay"})


@rule("edit.nonsense")
@pytest.mark.parametrize("edit", [
    {"zz": "keep"}, {"m2": "replay"}, {"s3": "delete"}, {"m2": "restore"}, {"s3": "refresh"},
])
def test_nonsense_edits_are_refused_even_when_forced(edit):
    with pytest.raises(PlanEditError):
        apply_edits(plan_case(_basic()), edit, force=True)


@rule("edit.recompute")
def test_edits_recompute_the_replay_set_and_accumulate():
    p = plan_case(_written_then_read())
    assert p.steps["s3"] == "replay" and "s3" not in p.answer_relevant  # step.rederive
    # keeping m2 (forced) puts it back on the answer path: s2 and s3 become answer-relevant
    q = apply_edits(p, {"m2": "keep"}, force=True)
    assert {"s2", "s3"} <= q.answer_relevant and q.steps["s3"] == "replay"
    r = apply_edits(q, {"s5": "replay"})
    assert r.memory["m2"] == "keep" and r.forced
    assert [e.node for e in r.edits] == ["m2"]


def test_edits_from_report_reads_both_shapes_and_refuses_others():
    from repair_core import edits_from_report

    p = plan_case(_basic())
    report = p.report().model_dump()
    report["steps"]["s4"] = "replay"
    assert edits_from_report(p, report) == {"s4": "replay"}
    assert edits_from_report(p, {"edits": {"s4": "replay", "s3": "replay"}}) == {"s4": "replay"}
    with pytest.raises(PlanEditError, match="expected a plan report"):
        edits_from_report(p, {})
    with pytest.raises(PlanEditError, match="case_id"):
        edits_from_report(p, {"case_id": "other", "memory": {}})


@rule("support.same-slot")
@pytest.mark.parametrize("record,kept", [
    ({"key": "pants_size", "value": "30"}, True),               # the claim's own slot
    ({"key": "favorite_color", "value": "blue"}, False),        # another slot's record
    ({"key": None, "value": None}, False),                      # a record about no slot
    ({"key": "profile", "value": {"pants_size": "30"}}, True),  # a summary folding it in
])
def test_a_record_vouches_only_for_a_claim_about_its_slot(record, kept):
    c = make_case(
        turn("u1", 1), rec("m1", key="pants_size", value="32"), rec("m2", **record),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite"),
        step("s3", 3, "claim", "s2:cite m2:cite!", key="pants_size", value="30"),
        step("s4", 4, "answer", "s3:cite"),
        faults=["m1"])
    assert ("s3" in analyse(c).supported) is kept
    assert ("s3" in plan_case(c).replay_set) is not kept


@rule("support.same-slot")
def test_a_claim_without_a_slot_or_a_turn_premise_is_unchanged():
    c = make_case(
        turn("u1", 1), rec("m1", key="pants_size", value="32"),
        rec("m2", key="favorite_color", value="blue"),
        step("s2", 2, "memory_read", "u1:initiate m1:cite m2:cite"),
        step("s3", 3, "claim", "s2:cite m2:cite!"),                               # no slot
        step("s4", 4, "claim", "s2:cite u1:support", key="pants_size", value="30"),  # a turn
        step("s5", 5, "answer", "s3:cite s4:cite"),
        faults=["m1"])
    assert {"s3", "s4"} <= analyse(c).supported
