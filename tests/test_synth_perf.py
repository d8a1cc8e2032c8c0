"""The speed-ups of the core hot path change no output and leave the process as found."""

from __future__ import annotations

import gc
import json
from itertools import pairwise

import networkx as nx
import pytest

from repair_core import Case, CaseError, build_graph, load_example, parse_case, plan_case
from repair_core._perf import gc_paused
from repair_core._synth import synth_case_data


def _networkx_graph(case: Case) -> nx.MultiDiGraph:
    """The graph built with networkx's own add_nodes_from/add_edges_from, in the canonical
    order build_graph documents: the reference the direct construction must equal."""
    ordered = case.steps_in_order()
    records = sorted(case.memory, key=lambda m: m.id)
    G = nx.MultiDiGraph(case_id=case.case_id)
    G.add_nodes_from((t.id, {"kind": "turn", "type": "turn", "seq": t.seq})
                     for t in sorted(case.session, key=lambda t: t.seq))
    G.add_nodes_from((s.id, {"kind": "step", "type": s.type, "seq": s.seq}) for s in ordered)
    G.add_nodes_from((m.id, {"kind": "record", "type": "record", "seq": m.created_seq})
                     for m in records)
    edges = []
    for node in (*ordered, *records):
        for dep in sorted(node.deps, key=lambda d: (d.id, d.label, d.sufficient)):
            edges.append((dep.id, node.id, dep.label,
                          {"label": dep.label, "sufficient": dep.sufficient}))
    edges.extend((a.id, b.id, "chain", {"label": "chain", "sufficient": False})
                 for a, b in pairwise(ordered))
    G.add_edges_from(edges)
    return G


def _assert_same_graph(A: nx.MultiDiGraph, B: nx.MultiDiGraph) -> None:
    assert A.graph == B.graph
    assert list(A.nodes(data=True)) == list(B.nodes(data=True))
    assert list(A.edges(keys=True, data=True)) == list(B.edges(keys=True, data=True))
    for n in A:
        assert list(A._pred[n].items()) == list(B._pred[n].items())
        for v, keydict in A._succ[n].items():
            assert keydict is A._pred[v][n]  # one shared key dict per (u, v), as networkx


def _cases() -> list[Case]:
    cases = [load_example()]
    cases += [Case.model_validate(synth_case_data(n, m, k, s))
              for n, m, k, s in [(1000, 200, 3, 0), (2000, 400, 8, 1), (300, 300, 20, 5)]]
    # Repeated (premise, label) pairs and a dangling id: only possible without the loader.
    data = load_example().model_dump()
    data["trajectory"][2]["deps"] += [{"id": "m3", "label": "cite", "sufficient": False},
                                      {"id": "zz", "label": "cite"}]
    data["trajectory"][2]["deps"].insert(0, {"id": "m3", "label": "cite", "sufficient": True})
    cases.append(Case.model_validate(data))
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.case_id)
def test_direct_graph_construction_equals_networkx_calls(case):
    _assert_same_graph(build_graph(case), _networkx_graph(case))


def test_gc_is_paused_inside_and_restored_after_nested_and_failing_calls():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(CaseError):
        parse_case(json.dumps({"format": "dgrr.case/v1"}))
    assert gc.isenabled()
    plan_case(load_example())
    assert gc.isenabled()


def test_gc_left_off_when_it_was_off_before():
    gc.disable()
    try:
        plan_case(load_example())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_objects_made_while_paused_skip_the_young_generation_but_cycles_are_still_freed():
    import weakref

    class Node:
        pass

    events: list[str] = []

    def watch(phase, info):
        events.append(phase)

    gc.callbacks.append(watch)
    try:
        with gc_paused():
            made = [[] for _ in range(50_000)]  # far above the generation-0 threshold
            a, b = Node(), Node()
            a.other, b.other = b, a  # a reference cycle: only the collector can free it
            probe = weakref.ref(a)
        more = [[] for _ in range(10)]  # would trigger a walk of all 50,000 if left young
    finally:
        gc.callbacks.remove(watch)
    assert events == [] and len(made) + len(more) == 50_010
    assert gc.get_freeze_count() == 0
    del a, b
    assert probe() is not None
    gc.collect()
    assert probe() is None


def test_parsing_json_runs_with_the_collector_paused(monkeypatch):

    import repair_core.case._load as load_module

    text = load_example().model_dump_json()
    seen = []
    real_loads = load_module.loads_strict

    def spy_loads(text):  # the loader parses through _json.loads_strict
        seen.append(gc.isenabled())
        return real_loads(text)

    monkeypatch.setattr(load_module, "loads_strict", spy_loads)
    was = gc.isenabled()
    gc.enable()
    try:
        parse_case(text)
    finally:
        if not was:
            gc.disable()
    assert seen == [False]
