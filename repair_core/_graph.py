"""Stage 1: the typed dependency graph, built from the runtime's `deps` and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import networkx as nx

from ._case import Case
from ._perf import without_gc

__all__ = ["build_graph", "premises", "dependents", "node_kind", "CHAIN"]

CHAIN = "chain"


@without_gc
def build_graph(case: Case) -> nx.MultiDiGraph:
    """The typed dependency graph of `case`.

    Nodes are turns, steps and records (attributes `kind`, `type`, `seq`); each edge goes
    from a premise to its dependent with key and attribute `label` (and `sufficient`).
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
    G.add_nodes_from((t.id, {"kind": "turn", "type": "turn", "seq": t.seq})
                     for t in sorted(case.session, key=lambda t: t.seq))
    G.add_nodes_from((s.id, {"kind": "step", "type": s.type, "seq": s.seq}) for s in ordered)
    G.add_nodes_from((m.id, {"kind": "record", "type": "record", "seq": m.created_seq})
                     for m in records)
    edges: list[tuple[str, str, str, dict[str, Any]]] = []
    for node in (*ordered, *records):
        for dep in sorted(node.deps, key=lambda d: (d.id, d.label, d.sufficient)):
            edges.append((dep.id, node.id, dep.label,
                          {"label": dep.label, "sufficient": dep.sufficient}))
    edges.extend((a.id, b.id, CHAIN, {"label": CHAIN, "sufficient": False})
                 for a, b in pairwise(ordered))
    G.add_edges_from(edges)
    return G


def node_kind(G: nx.MultiDiGraph, node: str) -> str:
    """`turn`, `step` or `record`."""
    return str(G.nodes[node]["kind"])


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
