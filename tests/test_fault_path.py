"""`fault_path`: the hops of the path by which a node entered the affected set, the one the
Graph page outlines and the plan's reasons name; `fault_dependents`: the hops from a fault
to what it affected directly, which the page outlines when a fault is selected."""

from __future__ import annotations

from repair_core import (
    analyse,
    case_from_data,
    fault_dependents,
    fault_path,
    load_case,
    load_example,
)
from repair_core._synth import synth_case_data
from repair_core.analysis._analysis import CARRIES


def _nodes(hops: list[tuple[str, str]]) -> list[str]:
    """The path's nodes, fault first."""
    return [hops[-1][0], *(b for _, b in reversed(hops))] if hops else []


def test_the_example_path_runs_from_the_fault_through_its_dependents():
    a = analyse(load_example())
    assert list(fault_path(a, "m6")) == [("s11", "m6"), ("s3", "s11"), ("m3", "s3")]
    assert a.path_from_fault("m6") == ["m3", "s3", "s11", "m6"]
    assert list(fault_path(a, "m3")) == []  # the fault itself
    outside = next(n for n in a.graph if n not in a.affected)
    assert list(fault_path(a, outside)) == []
    assert list(fault_path(a, "no such node")) == []


def test_every_affected_node_has_the_path_its_reason_names_over_graph_edges():
    case = case_from_data(synth_case_data(600, 80, 3, seed=4))
    a = analyse(case)
    G = a.graph
    checked = 0
    for node in a.affected:
        hops = list(fault_path(a, node))
        # the whole path the reasons print (elided there only when long)
        assert _nodes(hops) == [n for n in a.path_from_fault(node, limit=10**6)
                                if n != "…"] or not hops
        assert not hops or (hops[0][1] == node and hops[-1][0] in case.faults)
        for u, v in hops:  # an edge of the graph, in one direction or the other, or the
            # fault's text carried into a node without a recorded edge
            assert (G.has_edge(u, v) or G.has_edge(v, u)
                    or a.origin[v].label == CARRIES), (node, u, v)
        checked += len(hops) > 2
    assert checked > 10  # paths longer than two hops were walked


def test_a_fault_reached_through_its_seed_ends_with_the_hop_to_the_seed():
    a = analyse(case_from_data(synth_case_data(600, 80, 3, seed=4)))
    seeded = [(n, o) for n, o in a.origin.items() if o.start != o.fault and n != o.start]
    assert seeded  # m66's traversal starts at the step that wrote it
    for node, o in seeded:
        hops = list(fault_path(a, node))
        assert hops[-1] == (o.fault, o.start) and hops[0][1] == node


def test_a_fault_reaches_its_direct_dependents():
    a = analyse(load_example())
    # m3 (the poisoned seat preference) is read by s1 and cited alone by the claim s3
    assert list(fault_dependents(a, "m3")) == [("m3", "s1"), ("m3", "s3")]
    assert list(fault_dependents(a, "s3")) == []  # not a fault
    assert list(fault_dependents(a, "no such node")) == []


def test_a_dependent_of_two_faults_is_outlined_from_each():
    data = load_example().model_dump(mode="json")
    a = analyse(case_from_data({**data, "faults": ["m3", "m2"]}))
    assert a.origin["s1"].parent in {"m2", "m3"}  # the traversal reached it from one of them
    assert ("m2", "s1") in fault_dependents(a, "m2")
    assert ("m3", "s1") in fault_dependents(a, "m3")


def test_a_seeded_fault_reaches_its_seed_first_and_nothing_before_the_seed():
    a = analyse(load_case("sample_traces/controlled/ctl-006-customer-service-stale.json"))
    # m10 is the stale address; the seed is the update that failed (s4). The read s3
    # (seq 3) returned m10 before the update failed: the fault's traversal never reaches it.
    assert a.seeds["m10"] == "s4" and a.graph.has_edge("m10", "s3")
    assert list(fault_dependents(a, "m10")) == [("m10", "s4"), ("m10", "s11"), ("m10", "s13")]


def test_a_node_carrying_the_fault_text_is_outlined_without_an_edge():
    a = analyse(load_case("sample_traces/agentdojo/"
                          "adj-banking-usertask1-injectiontask1-usertask6-toolknowledge.json"))
    assert a.origin["s12"].label == CARRIES and not a.graph.has_edge("m_inst", "s12")
    assert ("m_inst", "s12") in fault_dependents(a, "m_inst")


def test_fault_dependents_are_the_first_hops_of_every_path_and_real_edges():
    case = case_from_data(synth_case_data(600, 80, 3, seed=4))
    a = analyse(case)
    G = a.graph
    for fault in case.faults:
        seed = a.seeds[fault]
        hops = list(fault_dependents(a, fault))
        reached = [v for _, v in hops]
        assert len(reached) == len(set(reached)) and fault not in reached
        for u, v in hops:
            assert u in {fault, seed} and v in a.affected
            assert ((u, v) == (fault, seed) or a.origin[v].label == CARRIES
                    or any(lb != "chain" for lb in G[u][v])), (fault, u, v)
        # the hop each path from this fault leaves the fault (or its seed) by
        for node, o in a.origin.items():
            path = list(fault_path(a, node))
            if o.fault != fault or not path:
                continue
            assert path[-1] in hops, (fault, node)
            if path[-1] == (fault, seed) and len(path) > 1:
                assert path[-2] in hops, (fault, node)
