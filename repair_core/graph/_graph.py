"""Stage 1: the typed dependency graph, built from the runtime's `deps` and nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import pairwise

import networkx as nx

from .._perf import without_gc
from ..case._case import Case

__all__ = ["build_graph", "premises", "dependents", "is_inferred", "CHAIN"]

CHAIN = "chain"


@without_gc
def build_graph(case: Case) -> nx.MultiDiGraph:
    """The typed dependency graph of `case`.

    Nodes are turns, steps and records (attributes `kind`, `type`, `seq`); each edge goes
    from a premise to its dependent with key and attribute `label` (and `sufficient`).
    An edge an importer guessed (`Dep.inferred`) also has `inferred: True`; the attribute
    is absent on recorded edges. When a recorded and an inferred dep name the same
    (premise, dependent, label), the recorded one wins.
    `chain` edges join consecutive steps in seq order. `faults` and `eval` are never read.

    >>> from repair_core import load_example
    >>> G = build_graph(load_example())
    >>> sorted(G.predecessors("s3"))
    ['m3', 's1', 's2']
    >>> G.edges["m3", "s3", "cite"]["sufficient"]
    True
    """
    # Everything is inserted in a canonical order (turns and steps by seq, records by id,
    # deps by id and label) so traversals, and the reasons they produce, do not depend on
    # the order of the file.
    ordered = case.steps_in_order()
    records = sorted(case.memory, key=lambda m: m.id)
    G = nx.MultiDiGraph(case_id=case.case_id)
    _add_nodes(G, ((t.id, "turn", "turn", t.seq)
                   for t in sorted(case.session, key=lambda t: t.seq)))
    _add_nodes(G, ((s.id, "step", s.type, s.seq) for s in ordered))
    _add_nodes(G, ((m.id, "record", "record", m.created_seq) for m in records))
    # Edges as (premise, label, sufficient, dependent): sorting one node's deps by
    # (id, label, sufficient) sorts these tuples, which go into the list as they are.
    edges: list[tuple[str, str, bool, str]] = []
    inferred: list[tuple[str, str, bool, str]] = []
    for node in (*ordered, *records):
        node_id = node.id
        deps = [(d.id, d.label, d.sufficient, node_id) for d in node.deps if not d.inferred]
        if len(deps) > 1:
            deps.sort()
        edges += deps
        if len(deps) != len(node.deps):
            inferred += sorted((d.id, d.label, d.sufficient, node_id)
                               for d in node.deps if d.inferred)
    edges += [(a.id, CHAIN, False, b.id) for a, b in pairwise(ordered)]
    _add_edges(G, edges)
    if inferred:
        _add_inferred_edges(G, inferred)
        G.graph["has_inferred"] = True
    return G


def _add_inferred_edges(G: nx.MultiDiGraph, edges: list[tuple[str, str, bool, str]]) -> None:
    """Add edges an importer guessed, marked `inferred: True`; an edge already recorded
    with the same (premise, dependent, label) stays as recorded."""
    for u, label, sufficient, v in edges:
        if G.has_edge(u, v, key=label):
            continue
        G.add_edge(u, v, key=label, label=label, sufficient=sufficient, inferred=True)


# The two helpers below fill networkx's adjacency dicts directly, exactly as
# `add_nodes_from` / `add_edges_from` would (same insertion order, same merging of a
# repeated (premise, dependent, label)), at a fraction of the per-call overhead: building
# dominated planning time on large cases (see docs/performance.md).
def _add_nodes(G: nx.MultiDiGraph, nodes: Iterable[tuple[str, str, str, int | None]]) -> None:
    node_attrs, succ, pred = G._node, G._succ, G._pred
    for node, kind, type_, seq in nodes:
        attrs = {"kind": kind, "type": type_, "seq": seq}
        if node in node_attrs:
            node_attrs[node].update(attrs)
        else:
            succ[node] = {}
            pred[node] = {}
            node_attrs[node] = attrs
    _clear_cache(G)


def _add_edges(G: nx.MultiDiGraph, edges: Iterable[tuple[str, str, bool, str]]) -> None:
    node_attrs, succ, pred = G._node, G._succ, G._pred
    for u, label, sufficient, v in edges:
        succ_u = succ.get(u)
        if succ_u is None:
            succ_u = _add_bare_node(u, node_attrs, succ, pred)
        pred_v = pred.get(v)
        if pred_v is None:
            _add_bare_node(v, node_attrs, succ, pred)
            pred_v = pred[v]
        keydict = succ_u.get(v)
        if keydict is None:
            succ_u[v] = pred_v[u] = {label: {"label": label, "sufficient": sufficient}}
        elif label in keydict:
            keydict[label].update(label=label, sufficient=sufficient)
        else:
            keydict[label] = {"label": label, "sufficient": sufficient}
    _clear_cache(G)


def _clear_cache(G: nx.MultiDiGraph) -> None:
    # What networkx's own add_* methods do after a change (its private nx._clear_cache).
    cache = getattr(G, "__networkx_cache__", None)
    if cache:
        cache.clear()


def _add_bare_node(node: str, node_attrs: dict, succ: dict, pred: dict) -> dict:
    # Only for a dependency on an id that is not a node (a case built without the loader).
    succ_of_node: dict = {}
    succ[node] = succ_of_node
    pred[node] = {}
    node_attrs[node] = {}
    return succ_of_node


def is_inferred(G: nx.MultiDiGraph, premise: str, dependent: str, label: str) -> bool:
    """True when the edge premise -> dependent with `label` was guessed by an importer."""
    attrs = G._succ.get(premise, {}).get(dependent, {}).get(label)
    return bool(attrs and attrs.get("inferred"))


def premises(G: nx.MultiDiGraph, node: str, *, labels: frozenset[str] | None = None
             ) -> Iterator[tuple[str, str, bool]]:
    """Yield `(premise, label, sufficient)` for each edge into `node` (chain excluded
    unless asked for)."""
    for src, by_label in G._pred[node].items():
        for label, attrs in by_label.items():
            if (labels is None and label != CHAIN) or (labels is not None and label in labels):
                yield src, label, attrs["sufficient"]


def dependents(G: nx.MultiDiGraph, node: str, *, labels: frozenset[str] | None = None
               ) -> Iterator[tuple[str, str]]:
    """Yield `(dependent, label)` for each edge out of `node` (chain excluded unless asked for)."""
    for dst, by_label in G._succ[node].items():
        for label in by_label:
            if (labels is None and label != CHAIN) or (labels is not None and label in labels):
                yield dst, label
