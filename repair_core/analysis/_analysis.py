"""Stage 2: seeds, the raw affected candidates `A0`, and the independent-support check."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import networkx as nx

from .._perf import without_gc
from ..case._case import SUFFICIENT_LABELS, Case, MemoryRecord, Step
from ..graph._graph import build_graph, dependents, is_inferred, premises
from ._carry import carriers

__all__ = ["Analysis", "analyse", "fault_dependents", "fault_path", "lineage", "find_seed",
           "update_writers", "update_writer", "CHECKABLE_STEP_TYPES"]

LINEAGE_LABELS = frozenset({"delete", "update", "consolidate"})
PRODUCE = frozenset({"produce"})
CHECKABLE_STEP_TYPES = frozenset({"claim", "plan", "answer", "memory_write"})
CARRIES = "carries"
"""The origin label of a node that carries a fault's text without a recorded edge."""
_NO_BOUND = float("-inf")


class Origin(NamedTuple):
    """How a node entered `A0`: the fault it was reached from and the edge that reached it.

    A named tuple rather than a frozen dataclass: one is made per candidate, and a tuple
    is made in half the time."""

    fault: str
    """The diagnosed fault whose seed or record reached the node."""
    start: str
    """Where the traversal started: the fault's seed or the fault itself."""
    parent: str | None
    """The premise the node was reached from (None for the start)."""
    label: str | None
    """Label of that edge."""


class Support(NamedTuple):
    """Why a candidate was kept: a sufficient premise outside `A0`, or its producers
    (a named tuple, like `Origin`)."""

    premise: str | None
    label: str
    inherited_from: tuple[str, ...] = ()


@dataclass(frozen=True)
class Analysis:
    """The result of stage 2 for one case."""

    graph: nx.MultiDiGraph
    seeds: dict[str, str]
    """Each diagnosed fault -> its seed node."""
    affected: frozenset[str]
    """Raw candidates `A0`."""
    supported: frozenset[str]
    """Candidates kept by trusted independent support (or inherited from kept producers)."""
    origin: dict[str, Origin] = field(repr=False)
    support: dict[str, Support] = field(repr=False)
    faults: frozenset[str] = frozenset()
    final_answer: str = ""
    """The final answer's step id; "" for a case without steps (`case.store-only`)."""
    carried: frozenset[str] = frozenset()
    """Observations and records that carry a fault's text (see `_carry`): affected and
    never kept, whatever their recorded edges say."""
    writers: dict[str, str] = field(default_factory=dict, repr=False)
    """Each affected record that no step produced but a successful memory write wrote by
    an `update` edge -> that write (the latest): its producer (`update_writers`)."""

    def producers(self, record: str) -> list[str]:
        """The steps that produced `record`'s version: its `produce` premises that are
        steps (in premise order), else the `update` write of `writers`."""
        return producers_of(self.graph, self.writers, record)

    @cached_property
    def unsupported(self) -> frozenset[str]:
        """`A0` minus the kept candidates (computed once: planning asks for it per stage)."""
        return self.affected - self.supported

    def inferred_hops(self, node: str) -> list[tuple[str, str]]:
        """The hops (premise, dependent) of the whole path by which `node` entered `A0`
        that run over inferred edges, earliest first (empty when the graph has none)."""
        if not self.graph.graph.get("has_inferred"):
            return []
        hops: list[tuple[str, str]] = []
        o = self.origin.get(node)
        while o is not None and o.parent is not None:
            if o.label != CARRIES and is_inferred(self.graph, o.parent, node, o.label or ""):
                hops.append((o.parent, node))
            node = o.parent
            o = self.origin.get(node)
        hops.reverse()
        return hops

    def path_from_fault(self, node: str, limit: int = 5) -> list[str]:
        """The path fault -> start -> ... -> node by which `node` entered `A0`, with the
        middle elided as '…' when longer than `limit` hops (constant time per node).

        >>> from repair_core import load_example
        >>> analyse(load_example()).path_from_fault("s5")
        ['m3', 's3', 's5']
        """
        origin = self.origin
        o = origin.get(node)
        if o is None:
            return []
        tail = [node]
        parent = o.parent
        while parent is not None and len(tail) <= limit:
            tail.append(parent)
            o = origin[parent]
            parent = o.parent
        tail.reverse()
        head = [] if o.fault == o.start else [o.fault]
        if parent is not None:
            head += [o.start, "…"]
        return head + tail


def fault_path(a: Analysis, node: str) -> Iterator[tuple[str, str]]:
    """The hops (premise, dependent) of the whole path by which `node` entered `A0`,
    walked back from `node` to its fault (the path `Analysis.path_from_fault` shows,
    nothing elided); where the traversal started at the fault's seed, the last hop is
    (fault, seed). A hop into a node that carries the fault's text (origin label
    `carries`) has no edge in the graph. Nothing for a node outside `A0` or a fault.

    >>> from repair_core import load_example
    >>> list(fault_path(analyse(load_example()), "s5"))
    [('s3', 's5'), ('m3', 's3')]
    """
    origin = a.origin
    o = origin.get(node)
    while o is not None and o.parent is not None:
        yield o.parent, node
        node = o.parent
        o = origin.get(node)
    if o is not None and o.fault != node:
        yield o.fault, node


def fault_dependents(a: Analysis, fault: str) -> Iterator[tuple[str, str]]:
    """The hops (premise, dependent) from diagnosed `fault` to what it affected directly:
    every node of `A0` one propagation edge (not `chain`) from the fault, or from its seed
    where that is another node (then the hop (fault, seed) comes first, as `fault_path`
    ends with it), and every node that carries the fault's text (a hop with no edge in
    the graph). A step before the seed's time bound is not one the fault affected. Each
    node once; nothing for a node that is not a diagnosed fault. Reads only the edges of
    the fault and its seed, and the carried nodes.

    >>> from repair_core import load_example
    >>> list(fault_dependents(analyse(load_example()), "m3"))
    [('m3', 's1'), ('m3', 's3')]
    """
    seed = a.seeds.get(fault)
    if seed is None:
        return
    nodes, succ, affected = a.graph._node, a.graph._succ, a.affected
    bound = nodes[seed]["seq"] if nodes[seed]["kind"] != "record" else None
    starts = [fault] if seed == fault else [fault, seed]
    seen = set(starts)
    if seed != fault:
        yield fault, seed
    for start in starts:
        for nxt, by_label in succ[start].items():
            if nxt in seen or nxt not in affected or all(lb == "chain" for lb in by_label):
                continue
            seq = nodes[nxt]["seq"]
            if (bound is not None and nodes[nxt]["kind"] == "step" and seq is not None
                    and seq < bound):
                continue
            seen.add(nxt)
            yield start, nxt
    for node in sorted(a.carried - seen):
        o = a.origin.get(node)
        if o is not None and o.fault == fault and o.label == CARRIES:
            yield fault, node


def lineage(G: nx.MultiDiGraph, record: str) -> Iterator[str]:
    """Nodes joined to `record` by delete, update or consolidate edges, in either direction.

    >>> from repair_core import load_example
    >>> sorted(lineage(build_graph(load_example()), "m3"))
    ['m3']
    """
    seen = {record}
    queue = deque([record])
    while queue:
        node = queue.popleft()
        yield node
        for nxt, _label in dependents(G, node, labels=LINEAGE_LABELS):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
        for nxt, _label, _ in premises(G, node, labels=LINEAGE_LABELS):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)


def find_seed(G: nx.MultiDiGraph, steps: Mapping[str, Step], record: str) -> str:
    """The seed of a faulty record: a failed mutation in its lineage, else its producing
    step, else the record itself. Ties go to the earliest step. A fault that is not a
    record (a tool observation, a retrieved document, a user turn) is its own seed."""
    if G.nodes[record]["kind"] != "record":
        return record
    failed = [n for n in lineage(G, record)
              if n in steps and steps[n].status == "failed" and steps[n].type == "memory_write"]
    if failed:
        return min(failed, key=lambda n: (steps[n].seq, n))
    producers = [p for p, _, _ in premises(G, record, labels=PRODUCE) if p in steps]
    if producers:
        return min(producers, key=lambda n: (steps[n].seq, n))
    return record


def producers_of(G: nx.MultiDiGraph, writers: Mapping[str, str], record: str) -> list[str]:
    """The steps that produced `record`'s version: its `produce` premises that are steps
    (in premise order), else its update writer (`writers`, from `update_writers`; rule
    `support.update-writer`)."""
    nodes = G._node
    made = [p for p, by_label in G._pred[record].items()
            if "produce" in by_label and nodes[p].get("kind") == "step"]
    if made:
        return made
    writer = writers.get(record)
    return [writer] if writer is not None else []


def update_writers(G: nx.MultiDiGraph, steps: Mapping[str, Step], records: Iterable[str]
                   ) -> Iterator[tuple[str, str]]:
    """`(record, write)` for each of `records` that has an update writer
    (`update_writer`, rule `support.update-writer`), read from `G`."""
    pred, succ = G._pred, G._succ
    for rec in records:
        write = update_writer(steps, ((p, label, bool(attrs.get("inferred")))
                                      for p, by_label in pred[rec].items()
                                      for label, attrs in by_label.items()), succ[rec])
        if write is not None:
            yield rec, write


def update_writer(steps: Mapping[str, Step], premises: Iterable[tuple[str, str, bool]],
                  dependents: Iterable[str]) -> str | None:
    """The write that produced a record no step produced, given the record's `premises`
    as `(id, label, inferred)` and the ids of its `dependents`; None when there is none.
    A successful `memory_write` that wrote the record by a recorded `update` edge ("write
    → record version it created or rewrote", case-format.md) is the producer of that
    version, the latest one when several rewrote it (rule `support.update-writer`),
    provided every step that depends on the record comes after it, so that the version it
    wrote is the only one the run read. A record a step read at or before its latest
    update stands for an earlier version too, which that write did not produce. A failed
    write changed nothing and a guessed edge never vouches, so neither counts. A record a
    step produced (a `produce` edge from a step) has no update writer. A fault's seed is
    not affected: only `produce` names a fault's producer."""
    latest: tuple[int, str] | None = None
    for p, label, inferred in premises:
        s = steps.get(p)
        if s is None:
            continue
        if label == "produce":
            return None
        if (label == "update" and not inferred and s.type == "memory_write"
                and s.status != "failed" and (latest is None or s.seq > latest[0])):
            latest = (s.seq, p)
    if latest is None or any(steps[d].seq <= latest[0] for d in dependents if d in steps):
        return None
    return latest[1]


@without_gc
def analyse(case: Case, G: nx.MultiDiGraph | None = None) -> Analysis:
    """Run stage 2 on `case` (building its graph unless given).

    >>> from repair_core import load_example
    >>> a = analyse(load_example())
    >>> a.seeds
    {'m3': 'm3'}
    >>> sorted(a.supported)
    ['s2', 's4']
    """
    if G is None:
        G = build_graph(case)
    steps = {s.id: s for s in case.trajectory}
    records = {m.id: m for m in case.memory}
    faults = frozenset(case.faults)
    seeds = {m: find_seed(G, steps, m) for m in case.faults}
    turn_seq = {t.id: t.seq for t in case.session}
    bounds = {f: _bound(steps, turn_seq, s) for f, s in seeds.items()}
    carried = {node: fault for node, fault in carriers(case, bounds)}
    origin = _reach(G, steps, seeds, turn_seq, carried)
    affected = frozenset(origin)
    # a case without steps (a store's records and lineage) has no final answer: ""
    final = case.final_answer() if case.has_answer() else None
    writers = dict(update_writers(G, steps, (n for n in origin if n in records)))
    support = _support(G, steps, records, faults | frozenset(carried),
                       frozenset(seeds.values()), affected, final.turn if final else "",
                       visit_order=origin, writers=writers)
    return Analysis(graph=G, seeds=seeds, affected=affected, supported=frozenset(support),
                    origin=origin, support=support, faults=faults,
                    final_answer=final.id if final else "", carried=frozenset(carried),
                    writers=writers)


def _bound(steps: Mapping[str, Step], turn_seq: Mapping[str, int], seed: str) -> float:
    """The time bound of a seed: its seq when it is a step or a user turn."""
    if seed in steps:
        return steps[seed].seq
    return turn_seq.get(seed, _NO_BOUND)


def _reach(G: nx.MultiDiGraph, steps: Mapping[str, Step], seeds: Mapping[str, str],
           turn_seq: Mapping[str, int] | None = None, carried: Mapping[str, str] | None = None
           ) -> dict[str, Origin]:
    """`A0` with how each node was reached.

    A node that carries a fault's text (`carried`: node -> fault) is a further start,
    reached from that fault by the pseudo-label `carries`.

    Sources are visited in increasing time bound: a node already expanded under a lower
    bound has a reach that contains the one under a higher bound, so each node is
    expanded once and the whole pass is linear in the graph.
    """
    sources: list[tuple[float, str, str]] = []
    for fault, seed in seeds.items():
        # an int bound where there is one: comparing ints is faster than int with float
        bound = _bound(steps, turn_seq or {}, seed)
        sources.append((bound, seed, fault))
        if seed != fault:
            sources.append((bound, fault, fault))
    fault_bound = {f: b for b, _s, f in sources}
    # the seeds and faults not yet expanded: a carrier expanded before its fault never
    # claims them (the fault would get the carrier as its parent: a path that loops)
    pending = {s[1] for s in sources}
    own = frozenset(pending)
    for node, fault in (carried or {}).items():
        sources.append((fault_bound[fault], node, fault))
    sources.sort(key=lambda s: (s[0], s[2], s[1]))
    origin: dict[str, Origin] = {}
    succ = G._succ
    seq_of = {sid: s.seq for sid, s in steps.items()}
    for bound, start, fault in sources:
        pending.discard(start)
        if start in origin:
            continue
        origin[start] = (Origin(fault, fault, fault, CARRIES) if carried and start in carried
                         else Origin(fault, start, None, None))
        bounded = bound != _NO_BOUND
        reserved = pending if start not in own else frozenset()
        queue = deque([start])
        pop, push = queue.popleft, queue.append
        while queue:
            node = pop()
            for nxt, by_label in succ[node].items():
                if nxt in origin or nxt in reserved:
                    continue
                for label in by_label:  # the first label that is not chain
                    if label != "chain":
                        break
                else:
                    continue
                if bounded:
                    seq = seq_of.get(nxt)
                    if seq is not None and seq < bound:
                        continue
                origin[nxt] = Origin(fault, start, node, label)
                push(nxt)
    return origin


def speaks_about(record: MemoryRecord, slot: str) -> bool:
    """Whether `record` states something about `slot`: its key is the slot, or it is a
    summary whose value folds the slot in (rule `support.same-slot`)."""
    return record.key == slot or (isinstance(record.value, dict) and slot in record.value)


def _support(G: nx.MultiDiGraph, steps: Mapping[str, Step], records: Mapping[str, MemoryRecord],
             faults: frozenset[str], seed_nodes: frozenset[str], affected: frozenset[str],
             current_turn: str, visit_order: Iterable[str] | None = None,
             writers: Mapping[str, str] | None = None) -> dict[str, Support]:
    """The kept candidates of `affected` and why. Every candidate is checked on its own,
    so `visit_order` (default: `affected`) changes only the order of the result; the
    order in which `_reach` found them keeps neighbours together in memory, which on
    large cases is faster than the set's hash order."""
    def admissible(p: str) -> bool:
        if p in steps:
            s = steps[p]
            if s.type == "tool_observation":
                return s.status == "ok"
            return s.type == "claim" and bool(getattr(s, "verified", False))
        if p in records:
            return records[p].status == "active" and p not in faults
        # what the user said, in this turn or an earlier turn or session (a diagnosed
        # turn is in A0, so never reaches here)
        return p == current_turn or (p in G._node and G._node[p]["kind"] == "turn")

    def producers(v: str) -> list[str]:
        return producers_of(G, written, v)

    def vouching(v: str, prods: list[str]) -> bool:
        # A guessed produce edge carries harm (its producer must be kept too) but never
        # vouches: inheritance needs at least one recorded producer. (An update writer's
        # edge is recorded.)
        if not has_inferred or v in written:
            return True
        return any(not pred[v][p]["produce"].get("inferred") for p in prods)

    def checkable(v: str) -> bool:
        if v in steps:
            return steps[v].type in CHECKABLE_STEP_TYPES
        return v in records and not producers(v)

    def first_support(v: str) -> Support | None:
        # premises(G, v) inlined: this runs once per candidate. Most premises of a
        # candidate are candidates too, so they are ruled out before their edges are read.
        slot = getattr(steps[v], "key", None) if v in steps else None
        for p, by_label in pred[v].items():
            if p in affected or p in never:
                continue
            if slot is not None and p in records and not speaks_about(records[p], slot):
                continue
            for label, attrs in by_label.items():
                # an inferred edge never vouches for support (method.md, "Inferred edges")
                if (label in SUFFICIENT_LABELS or (label == "cite" and attrs["sufficient"])) \
                        and not attrs.get("inferred") and admissible(p):
                    return Support(p, label)
        return None

    pred = G._pred
    has_inferred = bool(G.graph.get("has_inferred"))
    written: Mapping[str, str] = writers or {}
    kept: dict[str, Support] = {}
    never = faults | seed_nodes
    inherit: list[str] = []
    for v in affected if visit_order is None else visit_order:
        if v in never:
            continue
        if not checkable(v):
            inherit.append(v)
            continue
        support = first_support(v)
        if support is not None:
            kept[v] = support

    # Produce-inheritance: kept when every producer is kept or unaffected. Producers come
    # earlier in seq than steps they produce, so resolving in seq order (records last,
    # as their producers are steps) sees every producer's verdict first.
    def order(v: str) -> tuple[int, float]:
        return (0, steps[v].seq) if v in steps else (1, 0.0)

    for v in sorted(inherit, key=order):
        prods = producers(v)
        if prods and all(p not in affected or p in kept for p in prods) and vouching(v, prods):
            kept[v] = Support(None, "produce", tuple(sorted(prods)))
    return kept
