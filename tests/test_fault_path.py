"""`fault_path`: the hops of the path by which a node entered the affected set, the one the
Graph page outlines and the plan's reasons name."""

from __future__ import annotations

from repair_core import analyse, case_from_data, fault_path, load_example
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
