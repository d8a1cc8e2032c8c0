"""Stages 1-3 over columns: the plan report of a large case without building its graph.

The same rules as `_graph`, `_analysis` and `_plan` (the networkx planner, which stays
the reference), run as array traversals over :class:`CaseColumns`: the affected set is a
breadth-first search a level at a time with numpy frontiers, the support check and the
answer-relevance search are masks over the edge arrays, and the replay closure is a
level-at-a-time search too. Where the networkx planner's *order* decides an outcome (the
parent a node is first reached from, the first premise that supports it, the step that
first pulls another into the replay set), the arrays are sorted the way networkx's
adjacency dicts are filled, and each level keeps the first occurrence in that order, so
the report is the same byte for byte (`tests/test_columnar_plan.py` checks this against
the networkx planner on every committed case, synthetic cases and random ones, under
every objective).

The issue-17 rules are here too: text carried from a fault (the reader finds the
carriers, `CaseColumns.carry_hits`; the fault's time bound is applied here), every user
turn as support, the restore rules (a faulty update undone, a kept record retired by
unsupported mutations restored, a poisoned value never restored), faults on observations
and user turns, and the `store` and `both` objectives (cleanable steps as a reachability
over array frontiers).

With `ops`, the report carries the plan's operations (`_plan_ops.plan_ops`, `dgrr plan
--json --ops`). Not handled here (the caller falls back to the networkx planner):
inferred edges (importers' guesses) and reviewer edits.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

from ..case._columns import LABEL_CODE, TYPE_CODE, CaseColumns, _distinct, _ranges
from ._json_rows import RowTable, escaped, member, padded, plain_ids
from ._reasons import (
    FAULT_STEP,
    FINAL_ANSWER,
    NOT_REACHING,
    PAST_ANSWER,
    REACHES_ANSWER,
    REFRESHED,
    closure_reason,
    fault_record_reason,
    held_seed_reason,
    irreversible_note,
    not_needed_reason,
    producer_reason,
    quarantine_reason,
    replayed_reason,
    retired_reason,
    seed_reason,
    store_quarantine_reason,
    undone_update_reason,
)

if TYPE_CHECKING:
    from ._suspects import ProducerInput, Suspected

__all__ = ["columnar_plan_report", "columnar_plan_json_bytes", "report_json", "report_json_bytes"]

_CITE = LABEL_CODE["cite"]
_PRODUCE = LABEL_CODE["produce"]
_DELETE = LABEL_CODE["delete"]
_UPDATE = LABEL_CODE["update"]
_INITIATE = LABEL_CODE["initiate"]
_CARRIES = -2  # the origin label of a node that carries a fault's text (`_analysis.CARRIES`)
_SUFFICIENT = np.array([LABEL_CODE[x] for x in ("support", "derive", "supersede")])
_LINEAGE = np.array([LABEL_CODE[x] for x in ("delete", "update", "consolidate")])
_CHECKABLE = np.array([TYPE_CODE[x] for x in ("claim", "plan", "answer", "memory_write")])
_OBS = TYPE_CODE["tool_observation"]
_ACTION = TYPE_CODE["tool_action"]
_CLAIM = TYPE_CODE["claim"]
_WRITE = TYPE_CODE["memory_write"]
_ANSWER = TYPE_CODE["answer"]
_READ = TYPE_CODE["memory_read"]
_LABEL_NAMES = sorted(LABEL_CODE, key=LABEL_CODE.__getitem__)
_SMALL_LEVEL = 64
"""A breadth-first level of at most this many nodes is walked in Python."""
_TEXT_ROWS = 32_768
"""Path texts made at a time (bounds the memory of their token rows)."""
_PATH_LIMIT = 5
"""Nodes of a path shown in a reason (`Analysis.path_from_fault(node, 5)`)."""
_PATH_COLUMNS = 7 + 2 * _PATH_LIMIT
"""Tokens of a path (`_Planner.path_tokens`): fault, arrow, start, arrow, dots, arrow,
then the nodes shown with an arrow between each two."""


class _CSR:
    """Edges grouped by one end (`key`), in a given order within each group."""

    def __init__(self, key: np.ndarray, order: np.ndarray, n: int) -> None:
        self.order = order
        self.indptr = np.zeros(n + 1, np.int64)
        np.cumsum(np.bincount(key[order], minlength=n), out=self.indptr[1:])

    def edges_of(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Edge indices of `nodes` (group by group, in order) and the position in
        `nodes` each belongs to."""
        lo, hi = self.indptr[nodes], self.indptr[nodes + 1]
        pos = np.repeat(np.arange(len(nodes)), hi - lo)
        return self.order[_ranges(lo, hi)], pos


def _grouped(key: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """`edges` ordered by `key` (stable), as :class:`_CSR` wants them."""
    return edges[np.argsort(key[edges], kind="stable")]


def _listed_ends(end: np.ndarray, other: np.ndarray, nodes: Iterable[int], n: int
                 ) -> dict[int, list[int]]:
    """Each of `nodes` -> the other ends (`other`) of its edges at `end`, in the order the
    case lists them: one pass over the edges, for a few nodes asked about together (no
    sort of every edge)."""
    out: dict[int, list[int]] = {v: [] for v in nodes}
    wanted = np.zeros(n, bool)
    wanted[list(out)] = True
    e = np.flatnonzero(wanted[end])
    for v, w in zip(end[e].tolist(), other[e].tolist(), strict=True):
        out[v].append(w)
    return out


def _code_units(joined: str, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The UTF-8 bytes of `n` strings joined by NULs (`joined`), each followed by a NUL,
    with each one's start and length in bytes; None when there are none, or one holds a
    NUL itself or a lone surrogate."""
    try:
        data = np.frombuffer((joined + "\0").encode(), np.uint8)
    except UnicodeEncodeError:  # a lone surrogate
        return None
    ends = np.flatnonzero(data == 0)  # each string's terminating NUL
    if not n or len(ends) != n:
        return None
    starts = np.empty(n, np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    return data, starts, ends - starts


def _byte_matrix(encoded: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """The strings of :func:`_code_units` as the rows of a zero-padded byte matrix, its
    width a multiple of 8 (rows are gathered as 64-bit words) and at least 8."""
    data, starts, lengths = encoded
    return padded(data, starts, lengths, -(-max(int(lengths.max()), 1) // 8) * 8)


def _string_order(strings: list[str], matrix: np.ndarray | None) -> np.ndarray:
    """`np.argsort(np.array(strings), kind="stable")`, faster: the strings' UTF-8 bytes
    (whose order is the code points' order) in the rows of `matrix` (from
    :func:`_byte_matrix`) sorted as fixed-width bytes."""
    if matrix is None:  # a NUL in a string would tie with the padding
        return np.argsort(np.array(strings), kind="stable")
    return np.argsort(matrix.reshape(-1).view(f"S{matrix.shape[1]}"), kind="stable")


def _first_occurrences(values: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct value, in order."""
    if len(values) == 0:
        return np.zeros(0, np.int64)
    _, first = np.unique(values, return_index=True)
    first.sort()
    return first


class _Planner:
    def __init__(self, c: CaseColumns) -> None:
        self.c = c
        n = c.n_nodes
        self.n = n
        t, s = c.n_turns, c.n_steps
        self.ids = c.ids
        kinds = np.zeros(n, np.int8)
        kinds[t:t + s] = 1
        kinds[t + s:] = 2
        self.is_turn = kinds == 0
        self.is_step = kinds == 1
        self.is_record = kinds == 2
        self.type = c.type_code
        self.seq = c.seq
        # rank of each id in string order (networkx sorts deps by id; reports sort ids)
        self._joined_ids = "\0".join(c.ids)
        encoded = _code_units(self._joined_ids, n)
        self.id_matrix = None if encoded is None else _byte_matrix(encoded)
        self.id_lengths = None if encoded is None else encoded[2]
        # whether the report's large members can be written from rows of tokens
        self.plain_ids = encoded is not None and plain_ids(encoded[0], n)
        id_order = _string_order(c.ids, self.id_matrix)
        self.id_order = id_order
        self.id_rank = np.empty(n, np.int64)
        self.id_rank[id_order] = np.arange(n)
        # canonical dependent order of build_graph: steps by seq, then records by id
        dep_rank = np.zeros(n, np.int64)
        dep_rank[c.step_seq_order] = np.arange(s)
        records_by_id = id_order[id_order >= t + s]
        dep_rank[records_by_id] = s + np.arange(len(records_by_id))
        # edges de-duplicated on (premise, dependent, label), sufficient if any copy is
        src, dst, label = c.src, c.dst, c.label
        n_labels = len(LABEL_CODE)
        # one int64 key per edge instead of a lexsort: the reader lists edges by
        # dependent already, so the stable sort mostly meets sorted runs
        order = np.argsort((dst * n + self.id_rank[src]) * n_labels + label, kind="stable")
        src, dst, label, suff = src[order], dst[order], label[order], c.sufficient[order]
        if len(src):
            new = np.ones(len(src), bool)
            new[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1]) | (label[1:] != label[:-1])
            starts = np.flatnonzero(new)
            suff = np.logical_or.reduceat(suff, starts) if len(starts) else suff
            src, dst, label = src[starts], dst[starts], label[starts]
        # edges are now in each dependent's premise order (premise id, then label)
        self.src, self.dst, self.label, self.suff = src, dst, label, suff
        self.makes = self._producer_edges()
        self.pred = _CSR(dst, np.arange(len(dst)), n)
        # successors of a premise in networkx's order: dependents in canonical order;
        # one entry per pair, with its first label
        # the keys are distinct (the edges are, and a dependent is a step or a record,
        # whose ranks differ), so any sort gives this order: numpy's quicksort is the
        # fastest on keys in no order (4 ms for 235k, against 20 for the stable sort)
        sorder = np.argsort((src * n + dep_rank[dst]) * n_labels + label)
        if len(sorder):
            s_src, s_dst = src[sorder], dst[sorder]
            pair_new = np.ones(len(sorder), bool)
            pair_new[1:] = (s_src[1:] != s_src[:-1]) | (s_dst[1:] != s_dst[:-1])
            sorder = sorder[pair_new]
        self.succ = _CSR(src, sorder, n)
        self._id_objects: np.ndarray | None = None
        self._texts: RowTable | None = None
        self._parent: np.ndarray | None = None  # o_parent and a -1 after it (paths)
        self.dep_rank = dep_rank
        answers = np.flatnonzero(self.type == _ANSWER)
        self.final = int(answers[np.argmax(self.seq[answers])])
        self.faults = np.array(c.faults, np.int64)
        self.fault_mask = np.zeros(n, bool)
        self.fault_mask[self.faults] = True
        self.carried_mask = np.zeros(n, bool)
        self._lineage: tuple[_CSR, np.ndarray, np.ndarray] | None = None
        self._action_obs: _CSR | None = None

    def _producer_edges(self) -> np.ndarray:
        """Per edge: True where the premise is a producer of the dependent (`Analysis.
        producers`): a `produce` edge from a step, or, into a record no step produced, the
        `update` edge of the latest successful memory write into it when every step that
        depends on the record comes after that write (`_analysis.update_writers`)."""
        src, dst, label = self.src, self.dst, self.label
        made = (label == _PRODUCE) & self.is_step[src]
        produced = np.zeros(self.n, bool)
        produced[dst[made]] = True
        e = np.flatnonzero((label == _UPDATE) & self.is_step[src] & (self.type[src] == _WRITE)
                           & ~self.c.failed[src] & self.is_record[dst] & ~produced[dst])
        if len(e):
            e = e[np.lexsort((self.seq[src[e]], dst[e]))]  # by record, then by seq
            last = np.ones(len(e), bool)
            last[:-1] = dst[e][1:] != dst[e][:-1]
            e = e[last]
            # the earliest step that depends on each record
            reads = np.flatnonzero(self.is_record[src] & self.is_step[dst])
            first_read = np.full(self.n, np.iinfo(np.int64).max, np.int64)
            np.minimum.at(first_read, src[reads], self.seq[dst[reads]].astype(np.int64))
            made[e[self.seq[src[e]] < first_read[dst[e]]]] = True
        return made

    @property
    def id_objects(self) -> np.ndarray:
        """The ids as an object array: gathering strings by index runs in C. Fresh copies
        when they can be split apart again (no NUL): made one after the other, they sit
        together in memory, which makes the report's dicts and their encoding faster than
        with the reader's strings, scattered among everything it decoded."""
        if self._id_objects is None:
            self._id_objects = np.fromiter(
                self.ids if self.id_matrix is None else self._joined_ids.split("\0"),
                object, self.n)
        return self._id_objects

    # -- stage 2 -----------------------------------------------------------------
    def seed_of(self, record: int) -> int:
        if not self.is_record[record]:
            return record  # an observation or a user turn is its own seed
        if self._lineage is None:  # built once: a case may have many faults
            lin = np.isin(self.label, _LINEAGE)
            ls, ld = self.src[lin], self.dst[lin]
            both_s, both_d = np.concatenate([ls, ld]), np.concatenate([ld, ls])
            self._lineage = (_CSR(both_s, np.argsort(both_s, kind="stable"), self.n), both_d,
                             np.zeros(self.n, bool))
        adj, both_d, seen = self._lineage
        seen[record] = True
        frontier = np.array([record])
        visited = [frontier]
        while len(frontier):
            e, _ = adj.edges_of(frontier)
            nxt = _distinct(both_d[e])
            nxt = nxt[~seen[nxt]]
            seen[nxt] = True
            visited.append(nxt)
            frontier = nxt
        lineage = np.concatenate(visited)
        seen[lineage] = False  # the buffer is clean for the next fault
        failed = lineage[self.is_step[lineage] & self.c.failed[lineage]
                         & (self.type[lineage] == _WRITE)]
        if len(failed):
            return int(failed[np.argmin(self.seq[failed])])
        e, _ = self.pred.edges_of(np.array([record]))
        prods = self.src[e][(self.label[e] == _PRODUCE) & self.is_step[self.src[e]]]
        if len(prods):
            return int(prods[np.argmin(self.seq[prods])])
        return record

    def bound(self, seed: int) -> float:
        """`_analysis._bound`: the seq of a step or turn seed, else no bound."""
        return float(self.seq[seed]) if not self.is_record[seed] else float("-inf")

    def carriers(self, seeds: dict[int, int]) -> dict[int, int]:
        """`_carry.carriers` as `analyse` keeps it: each carrier -> the fault it carries
        (of several, the last by id); not a fault, not earlier than the fault's bound."""
        ids = self.ids
        bounds = {f: self.bound(s) for f, s in seeds.items()}
        carried: dict[int, int] = {}
        for node, time, found in self.c.carry_hits:
            if self.fault_mask[node]:
                continue
            ok = [f for f in found if not time < bounds[f]]
            if ok:
                carried[node] = max(ok, key=ids.__getitem__)
        self.carried_mask[list(carried)] = True
        return carried

    def reach(self, seeds: dict[int, int], carried: dict[int, int]) -> None:
        n = self.n
        sources = []
        fault_bound = {}
        for fault, seed in seeds.items():
            bound = self.bound(seed)
            fault_bound[fault] = bound
            sources.append((bound, seed, fault))
            if seed != fault:
                sources.append((bound, fault, fault))
        # the seeds and faults not yet expanded: a carrier expanded before its fault never
        # claims them (`_analysis._reach`: the fault would get the carrier as its parent)
        pending = np.zeros(n, bool)
        for _b, start, _f in sources:
            pending[start] = True
        own = pending.copy()
        for node, fault in carried.items():
            sources.append((fault_bound[fault], node, fault))
        ids = self.ids
        sources.sort(key=lambda x: (x[0], ids[x[2]], ids[x[1]]))
        self.o_fault = np.full(n, -1, np.int64)
        self.o_start = np.full(n, -1, np.int64)
        self.o_parent = np.full(n, -1, np.int64)
        self.o_label = np.full(n, -1, np.int8)
        # `reached` and `pending` are bytearrays seen as numpy arrays too: most levels
        # are a few nodes, walked in Python (a numpy level costs ~50 µs whatever its
        # size); large levels are walked as arrays. Both keep the first occurrence in
        # (frontier, successor) order, so they reach the same parents.
        reached_bytes, pending_bytes = bytearray(n), bytearray(pending.tobytes())
        reached = np.frombuffer(reached_bytes, bool)
        pending = np.frombuffer(pending_bytes, bool)
        succ = self.succ
        # read an element at a time as Python numbers, as lists would give them, without
        # the lists of Python numbers (110 MB more at the peak at a million steps)
        succ_start = succ.indptr.data
        succ_dst = np.ascontiguousarray(self.dst[succ.order], np.int64).data
        step_time: memoryview | list[float] = []  # compared as numpy compares: as floats
        if any(bound != float("-inf") for bound, _s, _f in sources):
            step_time = np.where(self.is_step, self.seq.astype(float), np.inf).data
        for bound, start, fault in sources:
            pending[start] = False
            if reached[start]:
                continue
            reserved = None if own[start] else pending  # not changed while this start runs
            reserved_bytes = None if own[start] else pending_bytes
            bounded = bound != float("-inf")
            reached[start] = True
            if self.carried_mask[start]:  # reached from the fault by its text
                self.o_fault[start], self.o_start[start] = fault, fault
                self.o_parent[start], self.o_label[start] = fault, _CARRIES
            else:
                self.o_fault[start], self.o_start[start] = fault, start
            frontier: list[int] | np.ndarray = [start]
            got: list[int] = []  # reached in Python levels, with parents and succ edges
            parents: list[int] = []
            via: list[int] = []
            while len(frontier):
                if len(frontier) <= _SMALL_LEVEL:
                    level_start = len(got)
                    for u in (frontier if isinstance(frontier, list) else frontier.tolist()):
                        for k in range(succ_start[u], succ_start[u + 1]):
                            v = succ_dst[k]
                            if reached_bytes[v] or (bounded and step_time[v] < bound) or (
                                    reserved_bytes is not None and reserved_bytes[v]):
                                continue
                            reached_bytes[v] = 1
                            got.append(v)
                            parents.append(u)
                            via.append(k)
                    frontier = got[level_start:]
                    continue
                frontier = np.asarray(frontier, np.int64)
                e, pos = succ.edges_of(frontier)
                nxt = self.dst[e]
                ok = ~reached[nxt]
                if bounded:
                    ok &= ~(self.is_step[nxt] & (self.seq[nxt] < bound))
                if reserved is not None:
                    ok &= ~reserved[nxt]
                e, pos, nxt = e[ok], pos[ok], nxt[ok]
                first = _first_occurrences(nxt)
                e, nxt = e[first], nxt[first]
                reached[nxt] = True
                self.o_fault[nxt], self.o_start[nxt] = fault, start
                self.o_parent[nxt] = frontier[pos[first]]
                self.o_label[nxt] = self.label[e]
                frontier = nxt
            if got:
                self.o_fault[got], self.o_start[got] = fault, start
                self.o_parent[got] = parents
                self.o_label[got] = self.label[succ.order[via]]
        self.affected = reached

    def support(self, seed_nodes: np.ndarray) -> None:
        n, src, dst, label = self.n, self.src, self.dst, self.label
        never = self.fault_mask | self.carried_mask
        never[seed_nodes] = True
        candidate = self.affected & ~never
        step_producer = self.makes
        has_producer = np.zeros(n, bool)
        has_producer[dst[step_producer]] = True
        checkable = (self.is_step & np.isin(self.type, _CHECKABLE)) | \
            (self.is_record & ~has_producer)
        check = candidate & checkable
        inherit = candidate & ~checkable
        # admissible premises
        t = self.type
        admissible = np.zeros(n, bool)
        admissible |= self.is_step & (t == _OBS) & ~self.c.failed
        admissible |= self.is_step & (t == _CLAIM) & self.c.verified
        admissible |= self.is_record & self.c.active & ~self.fault_mask & ~self.carried_mask
        admissible |= self.is_turn  # what the user said, in this turn or an earlier one
        vouching = (np.isin(label, _SUFFICIENT) | ((label == _CITE) & self.suff))
        ok = check[dst] & ~self.affected[src] & ~never[src] & vouching & admissible[src]
        ok_idx = np.flatnonzero(ok)
        ok_idx = ok_idx[self._speaks_about_slot(src[ok_idx], dst[ok_idx])]
        first = ok_idx[_first_occurrences(dst[ok_idx])]
        kept = np.zeros(n, bool)
        kept[dst[first]] = True
        self.support_premise = np.full(n, -1, np.int64)
        self.support_label = np.full(n, -1, np.int8)
        self.support_premise[dst[first]] = src[first]
        self.support_label[dst[first]] = label[first]
        # produce-inheritance, to its fixed point (producers come earlier in seq)
        pe = np.flatnonzero(step_producer & inherit[dst])
        pe_src, pe_dst = src[pe], dst[pe]
        with_prods = np.zeros(n, bool)
        with_prods[pe_dst] = True
        while True:
            bad_edge = self.affected[pe_src] & ~kept[pe_src]
            bad = np.zeros(n, bool)
            bad[pe_dst[bad_edge]] = True
            now = inherit & with_prods & ~bad
            if not (now & ~kept).any():
                break
            kept |= now
        self.inherited = inherit & kept
        self.kept = kept
        self.unsupported = self.affected & ~kept

    def _speaks_about_slot(self, premises: np.ndarray, dependents: np.ndarray) -> np.ndarray:
        """Per edge: False where a record premise says nothing about its claim's slot
        (rule `support.same-slot`, as `analysis.speaks_about`)."""
        out = np.ones(len(premises), bool)
        keys, slots = self.c.claim_key, self.c.record_slots
        if not keys:
            return out
        first_record = self.n - len(slots)
        for j in np.flatnonzero(self.is_record[premises]).tolist():
            slot = keys.get(int(dependents[j]))
            if slot is None:
                continue
            key, value = slots[int(premises[j]) - first_record]
            out[j] = key == slot or (isinstance(value, dict) and slot in value)
        return out

    # -- stage 3 -----------------------------------------------------------------
    def answer_relevant(self, removed: np.ndarray) -> np.ndarray:
        seen = np.zeros(self.n, bool)
        seen[self.final] = True
        frontier = np.array([self.final])
        while len(frontier):
            e, _ = self.pred.edges_of(frontier)
            p = _distinct(self.src[e])
            p = p[~seen[p] & ~removed[p]]
            seen[p] = True
            frontier = p
        return seen & self.unsupported & self.is_step & ~self.fault_mask

    def _actions(self) -> _CSR:
        """Each tool action's unsupported observations (not faults), by its produce
        edges, in dependent order: what replaying the action refreshes."""
        if self._action_obs is None:
            produce_obs = (self.label == _PRODUCE) & (self.type[self.dst] == _OBS) & \
                self.unsupported[self.dst] & ~self.fault_mask[self.dst]
            action_edges = np.flatnonzero(produce_obs)
            act_order = action_edges[np.lexsort((self.dep_rank[self.dst[action_edges]],
                                                 self.src[action_edges]))]
            self._action_obs = _CSR(self.src, act_order, self.n)
        return self._action_obs

    def _close(self, replay: np.ndarray, frontier: np.ndarray, never: np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray]:
        """`_plan._close`: the walk of `_plan.replay_closure` from `frontier` (members of
        `replay`, in id order), adding to `replay` in place; `replay` is closed already
        but for them. Returns the steps added, level by level, and the step that pulled
        in each. `never`: the steps never added (`fixed`)."""
        actions = self._actions()
        added: list[np.ndarray] = []
        by: list[np.ndarray] = []
        while len(frontier):
            e, pos = self.pred.edges_of(frontier)
            p = self.src[e]
            is_obs = self.type[frontier] == _OBS
            ok = self.is_step[p] & ~replay[p] & ~self.fault_mask[p] & (
                self.unsupported[p] | (is_obs[pos] & (self.label[e] == _PRODUCE)))
            if never is not None:
                ok &= ~never[p]
            cand_a, pos_a = p[ok], pos[ok]
            ea, pos_b = actions.edges_of(frontier)
            cand_b = self.dst[ea]
            keep_b = (self.type[frontier][pos_b] == _ACTION) & ~replay[cand_b]
            cand_b, pos_b = cand_b[keep_b], pos_b[keep_b]
            cand = np.concatenate([cand_a, cand_b])
            pos = np.concatenate([pos_a, pos_b])
            part = np.concatenate([np.zeros(len(cand_a), np.int8), np.ones(len(cand_b), np.int8)])
            order = np.lexsort((part, pos))  # stable: each part keeps its edge order
            cand, pos = cand[order], pos[order]
            first = _first_occurrences(cand)
            nxt = cand[first]
            replay[nxt] = True
            added.append(nxt)
            by.append(frontier[pos[first]])
            frontier = nxt
        if not added:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(added), np.concatenate(by)

    def _rederivable(self, quarantined: np.ndarray, producers: _CSR, readers: np.ndarray
                     ) -> dict[int, int]:
        """`_plan.rederivable_producers` of the steps `readers`: each unsupported write
        producing a quarantined record one of them reads -> that record."""
        # readers in id order, each reader's premises in its premise order; the first
        # (reader, record) pair that names a producer wins (setdefault)
        readers = readers[np.argsort(self.id_rank[readers], kind="stable")]
        e, _ = self.pred.edges_of(readers)
        reads = e[quarantined[self.src[e]]]
        if not len(reads):
            return {}
        e, pos = producers.edges_of(self.src[reads])
        first = _first_occurrences(self.src[e])
        return dict(zip(self.src[e][first].tolist(), self.src[reads][pos[first]].tolist(),
                        strict=True))

    def replay_set(self, start: np.ndarray, quarantined: np.ndarray,
                   only: np.ndarray | None = None, never: np.ndarray | None = None
                   ) -> tuple[np.ndarray, dict[int, int]]:
        """`_plan.replay_set`: the closure of `start`, grown by the producers of the
        quarantined records it reads (of `only`) until none is left; and, for each added
        step, the step (or record) that pulled it in."""
        if never is not None:
            start = start[~never[start]]
        replay = np.zeros(self.n, bool)
        frontier = start[np.argsort(self.id_rank[start])]
        replay[frontier] = True
        nodes, by = self._close(replay, frontier, never)
        why = dict(zip(nodes.tolist(), by.tolist(), strict=True))
        # each quarantined record's unsupported producing writes, in its premise order
        made = np.flatnonzero(self.makes & self.unsupported[self.src]
                              & (self.type[self.src] == _WRITE) & quarantined[self.dst])
        producers_of = _CSR(self.dst, made, self.n)  # edges are grouped by dependent already
        # A round reads only the steps the round before added, and closes from its
        # producers only (as `_plan.replay_set`): a producer an earlier step reads was
        # added or refused then. Each round reading and closing the whole set cost a
        # chain of records the fault reaches its length squared.
        added = np.concatenate([frontier, nodes])
        while True:
            producers = {p: r for p, r in self._rederivable(quarantined, producers_of,
                                                            added).items()
                         if not replay[p] and (never is None or not never[p])
                         and (only is None or only[p])}
            if not producers:
                return replay, why
            new = np.array(list(producers), np.int64)
            new = new[np.argsort(self.id_rank[new])]
            replay[new] = True
            nodes, by = self._close(replay, new, never)
            # what pulled a step in first stays; then a producer's record; then the walk's
            for p, r in producers.items():
                why.setdefault(p, r)
            for v, p in zip(nodes.tolist(), by.tolist(), strict=True):
                why.setdefault(v, p)
            added = np.concatenate([new, nodes])

    # -- store and both objectives ---------------------------------------------------
    def cleanable(self) -> np.ndarray:
        """`_plan.cleanable_steps` as a reachability: an unsupported step (not a fault)
        is cleanable when a premise other than `initiate` is clean (not a fault or a
        carrier, and unaffected or kept, or a memory read), or is a cleanable step, or is
        an unsupported record produced by one. Premises are earlier, so this is the
        verdict of the networkx planner's one pass in seq order."""
        src, dst, label = self.src, self.dst, self.label
        unsupported = self.unsupported
        dirty = self.fault_mask | self.carried_mask
        target = unsupported & self.is_step & ~self.fault_mask
        inputs = (label != _INITIATE) & target[dst] & ~dirty[src]
        clean_now = ~unsupported | (self.is_step & (self.type == _READ))
        ok = np.zeros(self.n, bool)
        ok[dst[inputs & clean_now[src]]] = True
        # what a newly cleanable step makes clean: its dependents, and through the
        # unsupported records it produces, theirs
        step_in = _CSR(src, _grouped(src, np.flatnonzero(inputs)), self.n)
        produced = self.makes & self.is_record[dst] & \
            unsupported[dst] & ~dirty[dst]
        makes = _CSR(src, _grouped(src, np.flatnonzero(produced)), self.n)
        frontier = np.flatnonzero(ok)
        while len(frontier):
            e, _ = step_in.edges_of(frontier)
            r, _ = makes.edges_of(frontier)
            e2, _ = step_in.edges_of(_distinct(dst[r]))
            nxt = _distinct(np.concatenate([dst[e], dst[e2]]))
            nxt = nxt[~ok[nxt]]
            ok[nxt] = True
            frontier = nxt
        return ok

    def store_producers(self, quarantined: np.ndarray, cleanable: np.ndarray
                        ) -> dict[int, int]:
        """`_plan.store_producers`: each cleanable memory write producing a quarantined
        record -> the first such record by id."""
        src, dst = self.src, self.dst
        e = np.flatnonzero(self.makes & quarantined[dst] & cleanable[src]
                           & (self.type[src] == _WRITE))
        e = e[np.lexsort((e, self.id_rank[dst[e]]))]
        first = _first_occurrences(src[e])
        return dict(zip(src[e][first].tolist(), dst[e][first].tolist(), strict=True))

    # -- reasons -----------------------------------------------------------------
    def paths(self, nodes: np.ndarray) -> dict[int, str]:
        """`Analysis.path_from_fault(node, 5)` joined with arrows, for each of `nodes`."""
        return dict(zip(nodes.tolist(), self.path_texts(nodes), strict=True))

    def path_texts(self, nodes: np.ndarray, limit: int = _PATH_LIMIT, before: str = "",
                   after: str = "") -> list[str]:
        """`before + " → ".join(Analysis.path_from_fault(node, limit)) + after` for each
        of `nodes`, in order. The ancestors are looked up a level at a time for all of
        them together, and the texts are cut out of one buffer of their UTF-8 bytes
        (`_json_rows.RowTable`), so no Python code runs per node (the ids' strings,
        scattered in memory, are never touched; `before` and `after` are put in around
        the NULs between the texts)."""
        if len(nodes) > _TEXT_ROWS:  # a block at a time (bounds the token rows' memory)
            return [text for lo in range(0, len(nodes), _TEXT_ROWS)
                    for text in self.path_texts(nodes[lo:lo + _TEXT_ROWS], limit, before,
                                                after)]
        if not len(nodes):
            return []
        tokens = self.path_tokens(nodes, limit, end=True)
        table = self._text_table()
        if table is None:
            strings = [*self.ids, " → ", "…", "", ""]
            return [before + "".join(map(strings.__getitem__, row)) + after
                    for row in tokens.tolist()]
        joined = table.render(tokens).decode()
        if before or after:  # neither holds a NUL: they are the planner's own words
            joined = before + joined.replace("\0", f"{after}\0{before}")
        out = joined.split("\0")
        out.pop()  # after the last NUL
        return out

    def path_tokens(self, nodes: np.ndarray, limit: int = _PATH_LIMIT, end: bool = False
                    ) -> np.ndarray:
        """The text of :meth:`path_texts` of each of `nodes` as a row of tokens: a node
        (its id), ` → ` (n), `…` (n + 1), the end of a row (n + 2, with `end`) or
        nothing (n + 3), n the number of nodes."""
        if self._parent is None:
            self._parent = np.append(self.o_parent, -1)  # parent[-1] == -1
        parent = self._parent
        levels = [nodes]
        for _ in range(limit):
            levels.append(parent[levels[-1]])
        beyond = parent[levels[-1]] >= 0  # the path is longer than shown: elided
        # fault and start as the origin of the last node shown says (a carrier's start
        # is its fault, not the carrier its own dependents were reached from)
        last = nodes.copy()
        for level in levels[1:]:
            last = np.where(level >= 0, level, last)
        fault, start = self.o_fault[last], self.o_start[last]
        n = self.n
        arrow, dots, row_end, none = range(n, n + 4)
        with_fault = fault != start
        columns = [np.where(with_fault, fault, none), np.where(with_fault, arrow, none),
                   np.where(beyond, start, none), np.where(beyond, arrow, none),
                   np.where(beyond, dots, none), np.where(beyond, arrow, none)]
        for j in reversed(range(limit + 1)):
            shown = levels[j] >= 0
            columns.append(np.where(shown, levels[j], none))
            if j:
                columns.append(np.where(shown, arrow, none))
        if end:
            columns.append(np.full(len(nodes), row_end))
        return np.stack(columns, axis=1)

    def _text_table(self) -> RowTable | None:
        """The tokens of :meth:`path_texts` as the rows of a table of their UTF-8 bytes
        (the ids, then " → ", "…", the end of a row and nothing), None when an id cannot
        be told apart in it (it holds a NUL, or a lone surrogate)."""
        if self._texts is None and self.id_matrix is not None:
            assert self.id_lengths is not None
            self._texts = RowTable(self.id_matrix, self.id_lengths,
                                   [" → ".encode(), "…".encode(), b"\0", b""])
        return self._texts


def columnar_plan_report(c: CaseColumns, objective: str = "answer", *, ops: bool = False,
                         suspects: str = "quarantine", not_suspect: Iterable[str] = (),
                         clean_source: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The plan report of the case in `c` for `objective` (answer, store or both), as
    `plan_case(case, objective=objective).report().model_dump(mode="json")` gives it;
    with `ops`, carrying the plan's operations as `dgrr plan --json --ops` does.
    `suspects`, `not_suspect`, `clean_source`: as `plan_case`'s."""
    return _decide(c, objective, suspects, not_suspect, clean_source).report(ops)


def columnar_plan_json_bytes(c: CaseColumns, objective: str = "answer", *,
                             ops: bool = False, suspects: str = "quarantine",
                             not_suspect: Iterable[str] = (),
                             clean_source: Mapping[str, str] | None = None,
                             let_go: bool = False) -> Iterator[bytes]:
    """`report_json_bytes(columnar_plan_report(c, objective, ops=ops))`, the same bytes,
    with the report's large members written from rows of tokens (`_json_rows`) instead
    of dicts of strings where the ids allow it (no quote, backslash or control
    character in any) and the operations are not asked for. `let_go`: empty the
    columns only deciding reads (`_DECIDING_ONLY`) once the plan is decided, before
    the report is made, in `c` as well: the caller reads them no more."""
    decided = _decide(c, objective, suspects, not_suspect, clean_source)
    if let_go:
        for cols in (c, decided.pl.c):
            for name in (*_DECIDING_ONLY, *(() if ops else ("step_tool",))):
                getattr(cols, name).clear()
    if ops or not decided.pl.plain_ids:
        return report_json_bytes(decided.report(ops))
    return decided.json_bytes()


_DECIDING_ONLY = ("contents", "carry_texts", "carry_hits", "record_kv", "record_slots",
                  "record_created", "claim_key", "observations", "fault_outputs")
"""The columns read to decide the plan and never to write its report (`step_tool` is
read for the operations too): at 1M steps, about 250 MB of strings and tuples, which the
report's table of tokens, made next, can then reuse."""


_INVALID_BEFORE = "affected via "
_INVALID_AFTER = "; no independent support; "


@dataclass
class _Decided:
    """What the planner decided for a case, before it is written as a report."""

    pl: _Planner
    objective: str
    seeds: dict[int, int]
    relevant: np.ndarray
    memory: dict[int, str]
    """Decision of each record not simply kept."""
    steps: dict[int, str]
    """Decision of each step not simply kept, but the `invalidated` ones."""
    reasons: dict[int, str]
    """Reason of each node that has one, but the `invalidated` steps."""
    invalidated: np.ndarray
    """The unsupported steps invalidated in bulk, in seq order."""
    endings: list[str]
    """The ends of the invalidated steps' reasons (after their paths)."""
    ending_of: np.ndarray
    """Which of `endings` each invalidated step's reason has."""
    replay: np.ndarray
    suspected: list[Suspected] = field(default_factory=list)
    """Suspected sources, then carriers (`_suspects`)."""
    revoked: list[int] = field(default_factory=list)
    """The faults revoked as steps or turns, in `plan_ops`' order: the diagnosed ones,
    then the cleaned suspected sources."""

    def suspected_json(self) -> list[dict[str, Any]]:
        # `dataclasses.asdict` without its deep copy: every field is a string or a number
        return [dict(vars(s)) for s in self.suspected]

    def invalidated_reasons(self) -> list[str]:
        """The reason of each invalidated step: its path from the fault, then its ending."""
        nodes, ending_of = self.invalidated, self.ending_of
        if len(self.endings) == 1:
            return self.pl.path_texts(nodes, before=_INVALID_BEFORE, after=self.endings[0])
        texts = np.empty(len(nodes), object)
        for k, ending in enumerate(self.endings):
            rows = np.flatnonzero(ending_of == k)
            texts[rows] = np.fromiter(self.pl.path_texts(nodes[rows], before=_INVALID_BEFORE,
                                                         after=ending), object, len(rows))
        return texts.tolist()  # type: ignore[no-any-return]

    def order(self) -> np.ndarray:
        """The nodes with a reason in the report's order: records (store order), then
        steps (seq order)."""
        pl = self.pl
        with_reason = np.zeros(pl.n, bool)
        with_reason[np.fromiter(self.reasons, np.int64, len(self.reasons))] = True
        with_reason[self.invalidated] = True
        seq_order = pl.c.step_seq_order
        return np.concatenate([np.flatnonzero(with_reason & pl.is_record),
                               seq_order[with_reason[seq_order]]])

    def listed(self) -> dict[str, np.ndarray]:
        """The nodes of the report's lists, each sorted by id."""
        pl = self.pl
        order = pl.id_order
        return {name: order[mask[order]] for name, mask in (
            ("affected", pl.affected), ("supported", pl.affected & pl.kept),
            ("unsupported", pl.unsupported), ("answer_relevant", self.relevant))}

    def head(self) -> dict[str, Any]:
        ids = self.pl.ids
        return {"case_id": self.pl.c.case_id,
                "seeds": {ids[f]: ids[s] for f, s in self.seeds.items()}}

    def report(self, ops: bool = False) -> dict[str, Any]:
        """The report as data (`PlanReport.model_dump(mode="json")`)."""
        pl, n = self.pl, self.pl.n
        c = pl.c
        invalidated_reasons = self.invalidated_reasons()
        reason_of = np.empty(n, object)
        for nodes, texts in ((np.fromiter(self.reasons, np.int64, len(self.reasons)),
                              self.reasons.values()),
                             (self.invalidated, invalidated_reasons)):
            reason_of[nodes] = np.fromiter(texts, object, len(nodes))
        order = self.order()
        id_objects = pl.id_objects
        first_record = c.n_turns + c.n_steps
        report = self.head()
        report.update({name: id_objects[nodes].tolist()
                       for name, nodes in self.listed().items()})
        report["memory"] = _with_decisions(pl, np.arange(first_record, n), self.memory)
        report["steps"] = _with_decisions(pl, c.step_seq_order, self.steps, self.invalidated)
        report["reasons"] = dict(zip(id_objects[order].tolist(), reason_of[order].tolist(),
                                     strict=True))
        if self.objective != "answer":
            report["objective"] = self.objective
        if self.suspected:
            report["suspected"] = self.suspected_json()
        if ops:
            invalid = self.invalidated.tolist()
            report["ops"] = _ops(
                pl, self.memory, {**self.steps, **dict.fromkeys(invalid, "invalidate")},
                {**self.reasons, **dict(zip(invalid, invalidated_reasons, strict=True))},
                self.replay, self.suspected, self.revoked)
        return report

    def json_bytes(self) -> Iterator[bytes]:
        """:func:`report_json_bytes` of :meth:`report`, its lists, `memory`, `steps` and
        `reasons` written from rows of tokens (only for plain ids: `_Planner.plain_ids`)."""
        pl = self.pl
        c = pl.c
        n = pl.n
        assert pl.id_matrix is not None and pl.id_lengths is not None
        bulk = np.zeros(n, bool)
        bulk[self.invalidated] = True
        custom = [r for r in self.reasons if not bulk[r]]
        names = _decision_names({**self.memory, **self.steps})
        # the table's rows: the ids, then the path's tokens (as `path_tokens` numbers
        # them), the punctuation, the decisions, the reasons' words, each custom reason
        fixed = [" → ", "…", "", "", "\n  \"", "\": \"", "\","]
        pieces = [escaped(t) if k < 2 else t.encode() for k, t in enumerate(fixed)]
        pieces += map(escaped, [*names, _INVALID_BEFORE, *self.endings])
        pieces += map(escaped, map(self.reasons.__getitem__, custom))
        table = RowTable(pl.id_matrix, pl.id_lengths, pieces)
        empty, opening, separator, closing = 3, 4, 5, 6
        first_name = len(fixed)
        before = first_name + len(names)
        first_ending = before + 1
        first_custom = first_ending + len(self.endings)
        rows = table.first
        piece_of = np.full(n, -1, np.int64)
        piece_of[np.array(custom, np.int64)] = first_custom + np.arange(len(custom))

        def listed(nodes: np.ndarray) -> Iterator[bytes]:
            tokens = np.empty((len(nodes), 3), np.int64)
            tokens[:, 0], tokens[:, 1], tokens[:, 2] = rows[opening], nodes, rows[closing]
            return member(table.render_blocks(tokens), b"[]")

        def decided(nodes: np.ndarray, decisions: dict[int, str],
                    invalidated: np.ndarray | None = None) -> Iterator[bytes]:
            code = _decision_codes(n, names, decisions, invalidated)
            words = table.padded(first_name + np.arange(len(names)), empty)
            value = words[code[nodes]]
            tokens = np.empty((len(nodes), 3 + value.shape[1] + 1), np.int64)
            tokens[:, 0], tokens[:, 1], tokens[:, 2] = rows[opening], nodes, rows[separator]
            tokens[:, 3:-1], tokens[:, -1] = value, rows[closing]
            return member(table.render_blocks(tokens), b"{}")

        def reasons(order: np.ndarray) -> Iterator[bytes]:
            ending_of = np.zeros(n, np.int64)
            ending_of[self.invalidated] = self.ending_of
            endings = table.padded(first_ending + np.arange(len(self.endings)), empty) \
                if self.endings else np.zeros((0, 0), np.int64)
            before_rows = table.tokens(before)
            # tokens of each entry's value (four more go around it)
            widths = np.where(bulk[order], len(before_rows) + _PATH_COLUMNS + endings.shape[1],
                              table.counts[np.maximum(piece_of[order], 0)])
            lo = 0
            while lo < len(order):
                window = widths[lo:lo + _REASON_ROWS]
                step = max(1, _BLOCK_TOKENS // (4 + int(window.max())))
                block, width = order[lo:lo + step], int(window[:step].max())
                lo += len(block)
                tokens = np.full((len(block), 3 + width + 1), rows[empty], np.int64)
                tokens[:, 0], tokens[:, 1], tokens[:, 2] = rows[opening], block, \
                    rows[separator]
                tokens[:, -1] = rows[closing]
                is_bulk = bulk[block]
                if is_bulk.any():
                    nodes = block[is_bulk]
                    path = pl.path_tokens(nodes)
                    value = np.concatenate([np.broadcast_to(before_rows, (len(nodes),
                                                                          len(before_rows))),
                                            path, endings[ending_of[nodes]]], axis=1)
                    tokens[is_bulk, 3:3 + value.shape[1]] = value
                if not is_bulk.all():
                    own = ~is_bulk
                    value = table.padded(piece_of[block[own]], empty)
                    tokens[own, 3:3 + value.shape[1]] = value
                yield table.render(tokens)

        first_record = c.n_turns + c.n_steps
        report: dict[str, Any] = self.head()
        report.update({name: _Written(listed(nodes)) for name, nodes in self.listed().items()})
        report["memory"] = _Written(decided(np.arange(first_record, n), self.memory))
        report["steps"] = _Written(decided(c.step_seq_order, self.steps, self.invalidated))
        report["reasons"] = _Written(member(reasons(self.order()), b"{}"))
        if self.objective != "answer":
            report["objective"] = self.objective
        if self.suspected:
            report["suspected"] = self.suspected_json()
        return report_json_bytes(report)


_REASON_ROWS = 16_384
"""Reasons looked at a time to size a block of them (the longest sets its width)."""
_BLOCK_TOKENS = 1 << 19
"""Tokens of a block of reasons (bounds its memory: 8 bytes of each, and the rows)."""


@dataclass
class _Written:
    """A report member's value already written as JSON text (at its depth), in pieces."""

    parts: Iterator[bytes]


def _decide(c: CaseColumns, objective: str, suspects: str = "quarantine",
            not_suspect: Iterable[str] = (),
            clean_source: Mapping[str, str] | None = None) -> _Decided:
    if objective not in ("answer", "store", "both"):
        raise ValueError(f"objective: expected answer, store or both, got {objective!r}")
    if suspects not in ("quarantine", "flag", "off"):
        raise ValueError(f"suspects: expected quarantine, flag or off, got {suspects!r}")
    unmarked = frozenset(not_suspect)
    cleaned_by = dict(clean_source or {})
    diagnosed = list(c.faults)
    sigs: dict[str, Any] = {}
    sources: dict[str, Suspected] = {}
    node_of: dict[str, int] = {}
    made_by: dict[int, list[int]] = {}  # the diagnosed records' producers
    inputs: dict[str, list[tuple[int, ProducerInput]]] = {}
    derived_from: dict[str, list[str]] = {}
    if suspects != "off":
        from ._suspects import find_sources

        made_by = _producers(c, sorted(c.faults))
        sigs = _signatures(c, made_by)
        inputs = _producer_inputs(c, made_by)
        node_of = {x.id: node for rows in inputs.values() for node, x in rows}
        sources = find_sources(
            sigs, {f: [x for _n, x in rows] for f, rows in inputs.items()},
            {c.ids[f] for f in diagnosed}, unmarked, suspects,  # type: ignore[arg-type]
            cleaned_by, derived_from)
        cleaned = [node_of[n] for n, s in sources.items() if s.action == "clean"]
        if cleaned:
            c = _with_faults(c, cleaned)
    elif cleaned_by:  # refused as find_sources refuses it: no suspects to clean
        from ._suspects import cleaned_by_reviewer

        cleaned_by_reviewer({}, cleaned_by, unmarked, suspects)
    pl = _Planner(c)
    seeds = {int(f): pl.seed_of(int(f)) for f in pl.faults}
    carried = pl.carriers(seeds)
    pl.reach(seeds, carried)
    seed_nodes = np.array(sorted(set(seeds.values())), np.int64)
    pl.support(seed_nodes)
    unsupported = pl.unsupported
    path = pl.paths(np.flatnonzero(unsupported & ~pl.is_step))  # steps': _step_actions
    memory, reasons = _memory_dispositions(pl, seeds, path)
    kept_as_written: list[int] = []
    if suspects == "quarantine" and sigs:
        kept_as_written = _keep_rejecting(c, sigs, memory, reasons, path)
    held: dict[int, tuple[str, tuple[str, ...]]] = {}  # _plan's held_back, by node
    if suspects == "quarantine":
        from ._suspects import held_seeds, same_inputs

        refreshed = {x.id for rows in inputs.values() for q, x in rows if unsupported[q]}
        same = same_inputs({f: [x for _n, x in rows] for f, rows in inputs.items()},
                           sources, {c.ids[f] for f in diagnosed}, unmarked, refreshed,
                           "quarantine")
        seed_node = {c.ids[seeds[f]]: seeds[f] for f in made_by if f in seeds}
        fault_node = {c.ids[f]: f for f in made_by}
        by_id = held_seeds({c.ids[f]: c.ids[seeds[f]] for f in made_by if f in seeds},
                           {c.ids[f]: [c.ids[p] for p in ps] for f, ps in made_by.items()},
                           same)
        held = {seed_node[seed]: v for seed, v in by_id.items()}
        for seed, (fault, same_ids) in by_id.items():
            reasons[fault_node[fault]] = fault_record_reason(seed, same_ids)

    n = pl.n
    removed = np.zeros(n, bool)
    quarantined = np.zeros(n, bool)
    for r, d in memory.items():
        if d in ("delete", "quarantine"):
            removed[r] = True
        if d == "quarantine":
            quarantined[r] = True
    cut = removed.copy()
    cut[kept_as_written] = True  # _plan: a record kept for rejecting a fault is read as written
    relevant = pl.answer_relevant(cut)
    start = relevant.copy()
    start[pl.final] = True
    # a fault that is a step (an observation) is dropped, never replayed
    seed_steps = np.array([s for f, s in seeds.items()
                           if s != f and pl.is_step[s] and s not in held], np.int64)
    start[seed_steps] = True
    need: dict[int, str] | None = None
    never = None
    if held:
        never = np.zeros(n, bool)
        never[list(held)] = True
    if objective == "answer":
        replay, why = pl.replay_set(np.flatnonzero(start), quarantined, never=never)
    else:  # _plan._objective_replay
        sets: dict[str, np.ndarray] = {}
        why = {}
        cleanable = pl.cleanable()
        producers = pl.store_producers(quarantined, cleanable)
        if objective != "store":
            sets["answer"], why = pl.replay_set(np.flatnonzero(start), quarantined,
                                                only=cleanable, never=never)
        store_start = np.zeros(n, bool)
        store_start[seed_steps] = True
        store_start[list(producers)] = True
        sets["store"], store_why = pl.replay_set(np.flatnonzero(store_start), quarantined,
                                                 only=cleanable, never=never)
        why = {**store_why, **producers, **why}
        replay = np.logical_or.reduce(list(sets.values()))
        # each replayed step -> the objectives that need it, joined ("answer and store"):
        # the sets it is in as the bits of an index into every such text
        names = list(sets)
        joined = [" and ".join(o for k, o in enumerate(names) if bits >> k & 1)
                  for bits in range(1 << len(names))]
        replayed = np.flatnonzero(replay)
        bits = sum(m[replayed].astype(np.int64) << k for k, m in enumerate(sets.values()))
        need = dict(zip(replayed.tolist(),
                        np.fromiter(joined, object, len(joined))[bits].tolist(), strict=True))
        _store_record_reasons(pl, quarantined, replay, path, reasons)
    steps, invalidated, endings, ending_of = _step_actions(pl, seeds, relevant, replay, why,
                                                           path, reasons, need)
    if kept_as_written:  # _plan: the writers of records kept as written say so
        from ._reasons import kept_as_written_reason

        row_of = {v: k for k, v in enumerate(invalidated.tolist())}
        for r in sorted(kept_as_written, key=pl.ids.__getitem__):
            e, _ = pl.pred.edges_of(np.array([r]))
            rows = [row_of[p] for p in pl.src[e][pl.makes[e]].tolist() if p in row_of]
            if rows:
                endings.append(f"{_INVALID_AFTER}{kept_as_written_reason(pl.ids[r])}")
                ending_of[rows] = len(endings) - 1
    if held:  # their own reasons, not the bulk's
        own = np.array([s for s in held if not replay[s]], np.int64)
        keep = ~np.isin(invalidated, own)
        invalidated, ending_of = invalidated[keep], ending_of[keep]
        for seed in own.tolist():
            steps[seed] = "invalidate"
            reasons[seed] = held_seed_reason(*held[seed])
    _kept_reasons(pl, reasons)
    carriers: list[Suspected] = []
    if sigs:
        from ._suspects import carrier_reason, source_reason

        producers_of = {c.ids[f]: [c.ids[p] for p in ps] for f, ps in made_by.items()}
        for name, src in sources.items():
            if src.action == "clean" and src.kind != "turn":  # a turn has no decision
                reasons[node_of[name]] = source_reason(src, producers_of.get(src.fault, []),
                                                       cleaned_by.get(name))
        rederived: dict[str, str] = {}
        writes = _CarrierProducers(c)
        carriers = _carriers(pl, seeds, diagnosed, sigs, sources, unmarked, node_of, memory,
                             objective, suspects, writes, derived_from, rederived)
        first_record = c.n_turns + c.n_steps
        at = writes.record_at() if carriers else {}
        wanted = set(rederived.values())
        writers = {w: i for i, w in enumerate(c.ids[c.n_turns:first_record], c.n_turns)
                   if w in wanted} if wanted else {}
        if writers:
            replay = replay.copy()  # once: the arrays passed in are not ours to change
        for s in carriers:
            if s.action == "quarantine":
                memory[at[s.id]] = "quarantine"
                reasons[at[s.id]] = carrier_reason(s)
                if s.id in rederived:  # _plan.plan_case: its producer writes it again
                    from ._carrier_producers import rederive_reason

                    writer = writers[rederived[s.id]]
                    steps[writer] = "replay"
                    replay[writer] = True
                    reasons[writer] = rederive_reason(s.id, s.fault)
        _restore_carrier_superseded(pl, carriers, at, memory, reasons)
    revoked = [*diagnosed, *(node_of[n] for n, s in sources.items() if s.action == "clean")]
    return _Decided(pl=pl, objective=objective, seeds=seeds, relevant=relevant,
                    memory=memory, steps=steps, reasons=reasons, invalidated=invalidated,
                    endings=endings, ending_of=ending_of, replay=replay,
                    suspected=[*sources.values(), *carriers], revoked=revoked)


# -- suspects (`_suspects`, the module both planners share) --------------------------

def _signatures(c: CaseColumns, made_by: dict[int, list[int]]) -> dict[str, Any]:
    """`content.signatures(case)`: each diagnosed fault's signature, from the columns
    (`made_by`: `_producers` of the faults)."""
    from ..content import signatures_from

    first_record = c.n_turns + c.n_steps
    parts: dict[str, tuple[str, str | None, Any]] = {}
    for f in c.faults:
        text = c.carry_texts[f]
        if f >= first_record:
            key, value = c.record_slots[f - first_record]
            parts[c.ids[f]] = (text, key, value)
        elif f >= c.n_turns:
            output = c.fault_outputs.get(f)
            parts[c.ids[f]] = (text, None, None if isinstance(output, str) else output)
        else:
            parts[c.ids[f]] = (text, None, None)
    turns = {c.ids[t]: c.contents[t] for t in range(c.n_turns)}
    # `content.written_at`: a record's created_seq, else its earliest producer's seq
    written: dict[str, float] = {}
    for f in c.faults:
        created = c.record_created[f - first_record] if f >= first_record else int(c.seq[f])
        made = made_by.get(f)
        written[c.ids[f]] = float(created) if created is not None else float(
            min(int(c.seq[p]) for p in made)) if made else float("-inf")

    def stored() -> Iterator[str]:
        """`content.stored_texts`: the records the store held before the run (read only
        when a signature asks)."""
        derived = np.zeros(c.n_nodes, bool)
        derived[c.dst] = True
        faulty = set(c.faults)
        yield from (c.contents[r] for r in range(first_record, c.n_nodes)
                    if c.record_created[r - first_record] is None and not derived[r]
                    and r not in faulty)

    return signatures_from(parts, turns, c.contents,
                           turn_seq={c.ids[t]: int(c.seq[t]) for t in range(c.n_turns)},
                           written=written, stored=stored())


def _producers(c: CaseColumns, faults: list[int]) -> dict[int, list[int]]:
    """`_plan._producers`: each diagnosed record -> its producing steps, by seq."""
    first_record = c.n_turns + c.n_steps
    wanted = np.zeros(c.n_nodes, bool)
    wanted[[f for f in faults if f >= first_record]] = True
    # one pass over the edges, not one per fault
    edges = np.flatnonzero(wanted[c.dst] & (c.label == _PRODUCE))
    found: dict[int, set[int]] = {f: set() for f in faults if f >= first_record}
    for p, f in zip(c.src[edges].tolist(), c.dst[edges].tolist(), strict=True):
        if c.n_turns <= p < first_record:
            found[f].add(p)
    return {f: sorted(ps, key=lambda p: (int(c.seq[p]), c.ids[p])) for f, ps in found.items()}


def _producer_inputs(c: CaseColumns, made_by: dict[int, list[int]]
                     ) -> dict[str, list[tuple[int, ProducerInput]]]:
    """`_plan._producer_inputs`, each input with its node (`made_by`: `_producers` of the
    faults, in store order)."""
    from ._suspects import ProducerInput

    first_record = c.n_turns + c.n_steps
    out: dict[str, list[tuple[int, ProducerInput]]] = {}
    # three passes over the edges, each for every node of its round together: the
    # producers' premises, the premises of the reads among them, the inputs' dependents
    premises = _listed_ends(c.dst, c.src, {p for ps in made_by.values() for p in ps},
                            c.n_nodes)
    reads = {q for qs in premises.values() for q in qs
             if c.n_turns <= q < first_record and c.type_code[q] == _READ}
    premises.update(_listed_ends(c.dst, c.src, reads - premises.keys(), c.n_nodes))
    found: list[tuple[int, list[int], dict[int, tuple[str | None, str]]]] = []
    for f, producers in made_by.items():
        seen: dict[int, tuple[str | None, str]] = {}  # node -> (the read it came through, kind)
        found.append((f, producers, seen))
        for p in producers:
            for q in premises[p]:
                kind = "record" if q >= first_record else "turn" if q < c.n_turns else "step"
                if kind == "step" and c.type_code[q] == _READ:
                    for r in premises[q]:
                        # none when also a direct input, else the first read by id
                        if r >= first_record and (r not in seen or (
                                (was := seen[r][0]) is not None and c.ids[q] < was)):
                            seen[r] = (c.ids[q], "record")
                    continue
                if kind == "step" and c.type_code[q] != _OBS:
                    continue
                seen[q] = (None, kind)
    dependents_of = _listed_ends(c.src, c.dst, {q for *_, seen in found for q in seen},
                                 c.n_nodes)
    for f, producers, seen in found:
        skip = {*producers, f}
        rows: list[tuple[int, ProducerInput]] = []
        for q, (via, kind) in seen.items():
            dependents = set(dependents_of[q])
            rows.append((q, ProducerInput(
                id=c.ids[q], kind=kind, content=c.contents[q], via=via,  # type: ignore[arg-type]
                derived=tuple(sorted(c.ids[x] for x in dependents
                                     if x not in skip and c.ids[x] != via)))))
        out[c.ids[f]] = rows
    return out


def _with_faults(c: CaseColumns, more: list[int]) -> CaseColumns:
    """`c` with `more` faults (suspected sources cleaned like faults), as the reader gives
    them with `faults_override` (`with_faults`' order), the text they carry searched."""
    from ..analysis._carry import text_hits

    first_record = c.n_turns + c.n_steps
    faults = sorted(set(c.faults) | set(more), key=lambda i: (
        (0, i) if i >= first_record else (1, int(c.seq[i])) if i >= c.n_turns
        else (2, int(c.seq[i]))))
    candidates = [*c.observations, *range(first_record, c.n_nodes)]

    def time_of(node: int) -> float:
        if node < first_record:
            return int(c.seq[node])
        created = c.record_created[node - first_record]
        return float("-inf") if created is None else created

    found = text_hits({f: c.carry_texts[f] for f in faults},
                      [c.carry_texts[n] for n in candidates])
    hits = [(candidates[i], time_of(candidates[i]), fs) for i, fs in found]
    keys = {c.record_slots[f - first_record][0] for f in faults if f >= first_record}
    keys.discard(None)
    record_kv = {first_record + i: kv for i, kv in enumerate(c.record_slots)
                 if kv[0] in keys} if keys else {}
    return dataclasses.replace(c, faults=faults, carry_hits=hits, record_kv=record_kv)


def _carriers(pl: _Planner, seeds: dict[int, int], diagnosed: list[int],
              sigs: dict[str, Any], sources: dict[str, Suspected], unmarked: frozenset[str],
              source_nodes: Mapping[str, int], memory: dict[int, str], objective: str,
              suspects: str, writes: _CarrierProducers,
              derived_from: Mapping[str, list[str]],
              rederived: dict[str, str] | None = None) -> list[Suspected]:
    """`_plan._carriers` over the columns (`source_nodes`: each suspected source's node)."""
    from ._suspects import carrier_bounds, find_carriers

    c = pl.c
    first_record = c.n_turns + c.n_steps
    skip = pl.affected | pl.fault_mask
    if sources or unmarked:
        skip = skip.copy()
        skip[[source_nodes[x] for x in sources]] = True
        if unmarked:  # a reviewer's few ids, looked for among every node's
            skip[[i for i, x in enumerate(c.ids) if x in unmarked]] = True
    records = np.flatnonzero(~skip[first_record:]) + first_record
    steps = c.step_seq_order[~skip[c.step_seq_order]]
    nodes = [*records.tolist(), *steps.tolist()]
    in_store = (records - first_record).tolist()
    never = float("-inf")  # a record without a created_seq
    times = [never if t is None else float(t)
             for t in map(c.record_created.__getitem__, in_store)]
    times += c.seq[steps].astype(float).tolist()
    quarantinable: set[int] = set()
    if objective != "answer":  # the active records the plan keeps
        decided = np.zeros(pl.n, bool)
        decided[np.fromiter(memory, np.int64, len(memory))] = True
        quarantinable.update(np.flatnonzero(c.active[records] & ~decided[records]).tolist())

    def time_of(source: str) -> float | None:  # a step's seq, a record's write
        node = source_nodes[source]
        at = c.seq[node] if node < first_record else c.record_created[node - first_record]
        return None if at is None else float(at)

    bounds = carrier_bounds({c.ids[f]: pl.bound(seeds[f]) for f in diagnosed if f in seeds},
                            derived_from, time_of)
    return find_carriers(
        sigs, bounds, [*map(c.ids.__getitem__, nodes)],
        ["record"] * len(records) + ["step"] * len(steps), times,
        [*map(c.contents.__getitem__, nodes)],
        dict(enumerate(map(c.record_slots.__getitem__, in_store))),
        quarantinable, suspects,  # type: ignore[arg-type]
        producer_of=writes.of, not_suspect=unmarked, rederived=rederived)


def _restore_carrier_superseded(pl: _Planner, carriers: list[Suspected], at: dict[str, int],
                                memory: dict[int, str], reasons: dict[int, str]) -> None:
    """`_plan._restore_carrier_superseded` over the columns (rule
    `memory.carrier-superseded`)."""
    removed = {at[s.id]: s.fault for s in carriers if s.action == "quarantine" and s.id in at}
    if not removed:
        return
    from ._reasons import carrier_superseded_reason

    c = pl.c
    first_record = c.n_turns + c.n_steps
    src, dst, label = c.src, c.dst, c.label
    is_carrier = np.zeros(c.n_nodes, bool)
    is_carrier[list(removed)] = True
    e = np.flatnonzero(is_carrier[dst] & ((label == _PRODUCE) | (label == _UPDATE))
                       & (src >= c.n_turns) & (src < first_record))
    writers: dict[int, list[int]] = {}
    for r, w in zip(dst[e].tolist(), src[e].tolist(), strict=True):
        if c.type_code[w] == _WRITE:
            writers.setdefault(r, []).append(w)
    by = is_carrier.copy()
    by[[w for ws in writers.values() for w in ws]] = True
    retiring = np.flatnonzero(by[src] & (label == _DELETE) & (dst >= first_record))
    deleted_by: dict[int, set[int]] = {}
    for w, r in zip(src[retiring].tolist(), dst[retiring].tolist(), strict=True):
        deleted_by.setdefault(w, set()).add(r)
    read = np.flatnonzero(by[dst] & ~is_carrier[dst] & (src >= first_record))
    read_by: dict[int, set[int]] = {}
    for r, w in zip(src[read].tolist(), dst[read].tolist(), strict=True):
        read_by.setdefault(w, set()).add(r)
    gone = {r for r, d in memory.items() if d in ("delete", "quarantine")}
    fault_records = [f for f in sorted(pl.faults.tolist()) if f >= first_record]
    slots = c.record_slots

    def poisoned(r: int) -> bool:  # _plan._poisoned_value
        if pl.carried_mask[r]:
            return True
        key, value = slots[r - first_record]
        return key is not None and any(
            slots[f - first_record][0] == key and slots[f - first_record][1] == value
            and value is not None for f in fault_records)

    for cr in sorted(removed, key=lambda r: c.ids[r]):
        ws = writers.get(cr, [])
        olds = set(deleted_by.get(cr, ()))
        key = slots[cr - first_record][0]
        for w in ws:
            olds |= deleted_by.get(w, set())
            if key is not None:
                olds |= {r for r in read_by.get(w, ()) if slots[r - first_record][0] == key}
        for old in sorted(olds - {cr}, key=lambda r: c.ids[r]):
            if (c.active[old] or pl.fault_mask[old] or old in removed
                    or memory.get(old, "keep") != "keep"):
                continue
            into = np.flatnonzero((dst == old) & (label == _DELETE))
            if any(r not in gone and not pl.unsupported[r] and r != cr and r not in ws
                   for r in src[into].tolist()):
                continue
            if poisoned(old):
                continue
            memory[old] = "restore"
            reasons[old] = carrier_superseded_reason(c.ids[cr], removed[cr])


class _CarrierProducers:
    """`_plan._carrier_producer` over the columns (asked only about a carrier that folds a
    fault into other facts): the edges are grouped on the first question; the records'
    index by id is made on first use, once for these questions and the carriers'
    decisions."""

    def __init__(self, c: CaseColumns) -> None:
        self.c = c
        self._at: dict[str, int] | None = None
        self.by_dst: _CSR | None = None
        self.by_src: _CSR | None = None

    def record_at(self) -> dict[str, int]:
        """Each record's id -> its node."""
        if self._at is None:
            c = self.c
            first_record = c.n_turns + c.n_steps
            self._at = dict(zip(c.ids[first_record:], range(first_record, c.n_nodes),
                                strict=True))
        return self._at

    def of(self, record_id: str) -> Any:
        from ._carrier_producers import CarrierProducer, WriterInput

        c = self.c
        first_record = c.n_turns + c.n_steps
        if self.by_dst is None or self.by_src is None:
            every = np.arange(len(c.dst))
            self.by_dst = _CSR(c.dst, _grouped(c.dst, every), c.n_nodes)
            self.by_src = _CSR(c.src, _grouped(c.src, every), c.n_nodes)
        by_dst, by_src = self.by_dst, self.by_src
        record = self.record_at()[record_id]
        e, _ = by_dst.edges_of(np.array([record]))
        made = {int(p) for p, lb in zip(c.src[e].tolist(), c.label[e].tolist(), strict=True)
                if lb == _PRODUCE and c.n_turns <= p < first_record}
        if len(made) != 1:
            return None
        (writer,) = made
        if c.type_code[writer] != _WRITE:
            return None
        out, _ = by_src.edges_of(np.array([writer]))
        if any(lb == _PRODUCE and d >= first_record and d != record
               for d, lb in zip(c.dst[out].tolist(), c.label[out].tolist(), strict=True)):
            return None

        def premises(node: int) -> list[int]:
            return c.src[by_dst.edges_of(np.array([node]))[0]].tolist()

        seen: dict[int, None] = {}
        for q in premises(writer):
            if c.n_turns <= q < first_record and c.type_code[q] == _READ:
                seen.update((r, None) for r in premises(q) if r >= first_record)
            else:
                seen.setdefault(q, None)
        return CarrierProducer(c.ids[writer], tuple(
            WriterInput(c.ids[q], bool(c.n_turns <= q < first_record
                                       and c.type_code[q] == _OBS), c.contents[q],
                        q < c.n_turns)
            for q in seen))


def _ops(pl: _Planner, memory: dict[int, str], steps: dict[int, str],
         reasons: dict[int, str], replay: np.ndarray, suspected: list[Suspected],
         revoked: list[int]) -> list[dict[str, Any]]:
    """`_plan_ops.plan_ops` as JSON data: the suspects, store edits, invalidations, effects
    needing a human, then replays in trajectory order with the inputs each drops or
    replaces."""
    c, ids = pl.c, pl.ids
    n_t, first_record = c.n_turns, c.n_turns + c.n_steps
    out: list[dict[str, Any]] = [
        {"op": "suspect", "id": s.id, "kind": s.kind, "role": s.role, "fault": s.fault,
         "action": s.action, "evidence": s.evidence} for s in suspected]
    for f in revoked:
        if f < first_record:
            out.append({"op": "revoke", "id": ids[f], "kind": "turn" if f < n_t else "step",
                        "reason": reasons.get(f, "diagnosed fault")})
    for r in sorted(memory):  # store order
        action, why = memory[r], reasons.get(r, "")
        if action == "delete":
            out.append({"op": "revoke", "id": ids[r], "kind": "record", "reason": why})
        elif action == "quarantine":
            out.append({"op": "quarantine", "record": ids[r], "reason": why})
        elif action == "restore":
            out.append({"op": "restore", "record": ids[r], "version": ids[r], "reason": why})
    seq_order = c.step_seq_order.tolist()
    fault = pl.fault_mask
    for s in seq_order:
        if steps.get(s) == "invalidate" and not fault[s]:
            out.append({"op": "invalidate", "step": ids[s], "reason": reasons.get(s, "")})
    tools = c.tools
    actions = pl.is_step & (pl.type == _ACTION) & ~c.failed & pl.unsupported
    for s in seq_order:
        if actions[s]:
            tool = c.step_tool[s - n_t]
            if tools.get(tool or "", "irreversible") == "irreversible":
                out.append({"op": "needs_human", "step": ids[s], "reason": (
                    f"tool '{tool or ''}' is irreversible (or undeclared): its call in the "
                    "failed run cannot be undone or re-issued")})
    # _plan_ops.cleaned_inputs: each replayed step's premises (one per premise, by id)
    src, dst = pl.src, pl.dst
    removed = np.zeros(pl.n, bool)
    removed[[r for r, d in memory.items() if d in ("delete", "quarantine")]] = True
    invalid = np.zeros(pl.n, bool)
    invalid[[s for s, d in steps.items() if d == "invalidate"]] = True
    redo = np.full(pl.n, -1, np.int64)  # a removed record's first replayed producer by id
    e = np.flatnonzero(pl.makes & removed[dst] & replay[src])
    e = e[np.lexsort((pl.id_rank[src[e]], dst[e]))]
    first = _first_occurrences(dst[e])
    redo[dst[e][first]] = src[e][first]
    e = np.flatnonzero(replay[dst])  # edges are grouped by dependent, premises by id
    keep = np.ones(len(e), bool)
    keep[1:] = (src[e][1:] != src[e][:-1]) | (dst[e][1:] != dst[e][:-1])
    e = e[keep]
    inputs: dict[int, list[int]] = {}
    for d, p in zip(dst[e].tolist(), src[e].tolist(), strict=True):
        inputs.setdefault(d, []).append(p)
    replay_l, removed_l, fault_l = replay.tolist(), removed.tolist(), fault.tolist()
    invalid_l, redo_l = invalid.tolist(), redo.tolist()
    for s in seq_order:
        if not replay_l[s]:
            continue
        drop: list[str] = []
        replace: dict[str, str] = {}
        for p in inputs.get(s, []):
            if replay_l[p]:
                replace[ids[p]] = ids[p]
            elif removed_l[p]:
                if redo_l[p] >= 0 and not fault_l[p]:
                    replace[ids[p]] = ids[redo_l[p]]
                else:
                    drop.append(ids[p])
            elif fault_l[p] or invalid_l[p]:
                drop.append(ids[p])
        out.append({"op": "replay", "step": ids[s], "refresh": steps.get(s) == "refresh",
                    "drop": drop, "replace": replace, "reason": reasons.get(s, "")})
    return out


def _decision_names(decisions: dict[int, str]) -> list[str]:
    """The decisions' words, numbered: keep, invalidate, then the others by name."""
    return ["keep", "invalidate", *sorted(set(decisions.values()) - {"keep", "invalidate"})]


def _decision_codes(n: int, names: list[str], decisions: dict[int, str],
                    invalidated: np.ndarray | None = None) -> np.ndarray:
    """Each node's decision as its number in `names`: keep, but for the nodes
    `decisions` names and the `invalidated` ones."""
    code = np.zeros(n, np.int64)
    if decisions:
        code[np.fromiter(decisions, np.int64, len(decisions))] = np.fromiter(
            map(names.index, decisions.values()), np.int64, len(decisions))
    if invalidated is not None:
        code[invalidated] = 1
    return code


def _with_decisions(pl: _Planner, nodes: np.ndarray, decisions: dict[int, str],
                    invalidated: np.ndarray | None = None) -> dict[str, str]:
    """The id of every one of `nodes` -> keep, but for the nodes `decisions` names and
    the `invalidated` ones."""
    names = _decision_names(decisions)
    code = _decision_codes(pl.n, names, decisions, invalidated)
    values = np.fromiter(names, object, len(names))[code[nodes]].tolist()
    return dict(zip(pl.id_objects[nodes].tolist(), values, strict=True))


def _store_record_reasons(pl: _Planner, quarantined: np.ndarray, replay: np.ndarray,
                          path: dict[int, str], reasons: dict[int, str]) -> None:
    """`_plan._store_record_reasons`: a quarantined record's reason says whether the store
    objective re-derives it."""
    ids, src, dst = pl.ids, pl.src, pl.dst
    e = np.flatnonzero(pl.makes & quarantined[dst])
    e = e[np.lexsort((pl.id_rank[src[e]], dst[e]))]
    producers: dict[int, list[int]] = {}
    for r, p in zip(dst[e].tolist(), src[e].tolist(), strict=True):
        producers.setdefault(r, []).append(p)
    replay_l = replay.tolist()
    for r in np.flatnonzero(quarantined).tolist():
        prods = producers.get(r, [])
        reasons[r] = store_quarantine_reason(path[r], [ids[p] for p in prods],
                                             [ids[p] for p in prods if replay_l[p]])


def _memory_dispositions(pl: _Planner, seeds: dict[int, int], path: dict[int, str]
                         ) -> tuple[dict[int, str], dict[int, str]]:
    """`_plan._memory_dispositions` for the records that are not simply kept."""
    c, ids = pl.c, pl.ids
    n, first_record = pl.n, c.n_turns + c.n_steps
    src, dst, label = pl.src, pl.dst, pl.label
    affected, unsupported = pl.affected, pl.unsupported
    active = c.active
    in_a0 = affected[src]
    a0_count = np.bincount(dst[in_a0], minlength=n)
    a0_delete = np.bincount(dst[in_a0 & (label == _DELETE)], minlength=n)
    fault_records = [f for f in sorted(pl.faults.tolist()) if f >= first_record]
    undone = _undone_updates(pl, fault_records)
    memory: dict[int, str] = {}
    reasons: dict[int, str] = {}

    touched = pl.fault_mask | unsupported | (affected & ~active)
    touched[list(undone)] = True
    touched[:first_record] = False
    # the delete premises of the touched records, in their premise order
    retired_by: dict[int, list[int]] = {}
    deletes = np.flatnonzero((label == _DELETE) & touched[dst])
    for r, p in zip(dst[deletes].tolist(), src[deletes].tolist(), strict=True):
        retired_by.setdefault(r, []).append(p)

    def retirers(r: int) -> list[int]:
        return retired_by.get(r, [])

    def poisoned_value(r: int, faulty: list[int]) -> str | None:  # _plan._poisoned_value
        if pl.carried_mask[r]:
            return f"it carries the text of {ids[pl.o_fault[r]]}"
        kv = c.record_kv.get(r)
        if kv is None:  # no key, or a key no faulty record has
            return None
        for f in faulty:
            fkv = c.record_kv.get(f)
            if fkv is not None and fkv[0] == kv[0] and fkv[1] == kv[1] and fkv[1] is not None:
                return f"same {kv[0]} = {kv[1]!r} as diagnosed {ids[f]}"
        return None

    records = np.flatnonzero(touched)
    for r, r_active, r_fault, r_unsupported, r_affected, r_a0, r_a0_delete in zip(
            records.tolist(), *(x[records].tolist() for x in (
                active, pl.fault_mask, unsupported, affected, a0_count, a0_delete)),
            strict=True):
        if r in undone and not r_active and not r_fault:
            poisoned = poisoned_value(r, fault_records)
            memory[r] = "keep" if poisoned else "restore"
            reasons[r] = undone_update_reason(ids[undone[r]], poisoned)
            continue
        if r_fault:
            memory[r] = "delete"
            seed = seeds[r]
            reasons[r] = fault_record_reason(None if seed == r else ids[seed])
            continue
        if not r_unsupported:
            if r_affected and not r_active:  # _plan._restore_kept
                by = retirers(r)
                if by and all(unsupported[p] for p in by):
                    memory[r] = "restore"
                    reasons[r] = retired_reason(", ".join(sorted({ids[p] for p in by})),
                                                None, True, False, kept_by_support=True)
            continue
        if r_a0 and r_a0 == r_a0_delete:
            by = retirers(r)
            names = ", ".join(sorted({ids[p] for p in by}))
            poisoned = poisoned_value(r, []) if not r_active else None
            restored = (poisoned is None and not r_active
                        and all(unsupported[p] for p in by))
            memory[r] = "restore" if restored else "keep"
            reasons[r] = retired_reason(names, poisoned, restored, r_active)
            continue
        memory[r] = "quarantine"
        reasons[r] = quarantine_reason(path[r])
    return memory, reasons


def _keep_rejecting(c: CaseColumns, sigs: dict[str, Any], memory: dict[int, str],
                    reasons: dict[int, str], path: dict[int, str]) -> list[int]:
    """`_plan._keep_rejecting`: keep, flagged, each record quarantined for its lineage
    that quotes a fault to reject it (rule `suspect.rejecting-affected`). Returns their
    nodes."""
    from ._reasons import rejecting_reason
    from ._suspects import rejecting_records

    first_record = c.n_turns + c.n_steps
    held = sorted(r for r, d in memory.items() if d == "quarantine" and r >= first_record)
    found = rejecting_records(sigs, [c.ids[r] for r in held], [c.contents[r] for r in held],
                              {i: c.record_slots[r - first_record] for i, r in enumerate(held)},
                              {i for i, r in enumerate(held)
                               if c.record_created[r - first_record] is not None})
    at = {c.ids[r]: r for r in held}
    for rid, (fault, word) in found.items():
        memory[at[rid]] = "keep"
        reasons[at[rid]] = rejecting_reason(path[at[rid]], fault, word)
    return [at[rid] for rid in found]


def _undone_updates(pl: _Planner, fault_records: list[int]) -> dict[int, int]:
    """`_plan._undone_updates`: each record retired by the latest successful update write
    into a faulty record that no step produced -> that write."""
    src, dst, label = pl.src, pl.dst, pl.label
    writes: list[int] = []  # of each faulty record in turn that has one
    for f in fault_records:
        e, _ = pl.pred.edges_of(np.array([f]))
        if (label[e] == _PRODUCE).any():
            continue
        w = src[e][label[e] == _UPDATE]
        w = w[pl.is_step[w] & ~pl.c.failed[w] & (pl.type[w] == _WRITE)]
        if len(w):
            writes.append(int(w[np.argmax(pl.seq[w])]))  # seqs of steps are unique
    # the records each write retires, in edge order (one scan of the edges for all)
    e = np.flatnonzero(np.isin(src, writes) & (label == _DELETE) & pl.is_record[dst])
    retired: dict[int, list[int]] = {}
    for write, old in zip(src[e].tolist(), dst[e].tolist(), strict=True):
        retired.setdefault(write, []).append(old)
    out: dict[int, int] = {}
    for write in writes:
        for old in retired.get(write, []):
            out.setdefault(old, write)
    return out


def _step_actions(pl: _Planner, seeds: dict[int, int], relevant: np.ndarray,
                  replay: np.ndarray, why: dict[int, int], path: dict[int, str],
                  reasons: dict[int, str], need: dict[int, str] | None = None
                  ) -> tuple[dict[int, str], np.ndarray, list[str], np.ndarray]:
    """`_plan._step_actions` for the steps that are not simply kept: the decisions (their
    reasons go into `reasons`) but for the unsupported steps invalidated, most of them,
    which are returned apart as an array (in seq order), with the ends of their reasons
    and which end each one's has (`_Decided.invalidated_reasons`)."""
    c, ids = pl.c, pl.ids
    n_t = c.n_turns
    seq_order = c.step_seq_order
    steps: dict[int, str] = {}
    seed_fault: dict[int, int] = {}  # a seed of several faults names the first by id
    for fault in sorted(seeds, key=ids.__getitem__):
        seed_fault.setdefault(seeds[fault], fault)
    tools = c.tools
    final = pl.final
    types = pl.type.tolist()
    relevant_l, unsupported_l = relevant.tolist(), pl.unsupported.tolist()
    replayed = seq_order[replay[seq_order]]
    # the steps not replayed are invalidated in bulk (faults, then unsupported ones)
    dropped = ~replay & pl.fault_mask
    faults = seq_order[dropped[seq_order]].tolist()
    steps.update(dict.fromkeys(faults, "invalidate"))
    reasons.update(dict.fromkeys(faults, FAULT_STEP))
    invalidated = seq_order[(pl.unsupported & ~replay & ~dropped)[seq_order]]
    # their reasons: "affected via <path>" and one of `endings`
    if need is None:
        endings = [f"{_INVALID_AFTER}{NOT_REACHING}"]
        ending_of = np.zeros(len(invalidated), np.int64)
    else:
        # _plan._objective_of(need): a both plan replays the final answer
        not_needed = not_needed_reason(
            "both" if any("answer" in v for v in need.values()) else "store")
        endings = [f"{_INVALID_AFTER}{not_needed}", f"{_INVALID_AFTER}{PAST_ANSWER}"]
        ending_of = (pl.type[invalidated] == _ANSWER).astype(np.int64)
    path = {**path, **pl.paths(replayed[pl.unsupported[replayed]])}
    for sn in replayed.tolist():
        step_type = types[sn]
        if step_type == _OBS:
            steps[sn] = "refresh"
            reason = REFRESHED
        else:
            steps[sn] = "replay"
            if sn == final:
                reason = FINAL_ANSWER
            elif sn in seed_fault:
                reason = seed_reason(ids[seed_fault[sn]])
            elif relevant_l[sn] and (need is None or "answer" in need[sn]):
                reason = REACHES_ANSWER
            elif sn in why and pl.is_record[why[sn]]:
                reason = producer_reason(ids[why[sn]],
                                         store=need is not None and "store" in need[sn])
            else:
                reason = closure_reason(ids[why[sn]] if sn in why else "?")
        reason = replayed_reason(
            reason, path[sn] if unsupported_l[sn] and sn not in seed_fault else None,
            None if need is None else need[sn])
        if step_type == _ACTION:
            tool = c.step_tool[sn - n_t]
            if tools.get(tool or "", "irreversible") == "irreversible":
                reason += irreversible_note(tool)
        reasons[sn] = reason
    return steps, invalidated, endings, ending_of


def _kept_reasons(pl: _Planner, reasons: dict[int, str]) -> None:
    """`_plan._kept_reason` for every kept candidate without a reason yet."""
    ids, src = pl.ids, pl.src
    for v in np.flatnonzero(pl.kept).tolist():
        if v in reasons:
            continue
        if pl.inherited[v]:
            e, _ = pl.pred.edges_of(np.array([v]))
            prods = sorted({ids[p] for p in src[e][pl.makes[e]].tolist()})
            reasons[v] = f"affected but kept: every producer ({', '.join(prods)}) is kept"
        else:
            lb = _LABEL_NAMES[int(pl.support_label[v])]
            suffix = ", sufficient" if lb == "cite" else ""
            reasons[v] = (f"affected but kept: independent support from "
                          f"{ids[int(pl.support_premise[v])]} ({lb}{suffix})")


def report_json(report: dict[str, Any]) -> str:
    """`to_json(report)` (indent 1, UTF-8) for a plan report, at C speed (json's indenting
    encoder is pure Python)."""
    return b"".join(report_json_bytes(report)).decode()


def report_json_bytes(report: dict[str, Any]) -> Iterator[bytes]:
    """The UTF-8 text of :func:`report_json` in pieces, one per top-level field: each
    field of strings is encoded and indented by msgspec (whose compact encoding and
    `format(indent=1)` give exactly what `json.dumps(indent=1, ensure_ascii=False)` gives
    for strings, lists and objects of strings: tests/test_columnar_plan.py checks it on
    random text); `ops` (objects with numbers) by json's own encoder, one level deeper;
    members already written (`_Written`) as they are."""
    yield b"{"
    last = len(report) - 1
    for k, (key, value) in enumerate(report.items()):
        comma = b"," if k < last else b""
        if key == "ops":
            head = "\n " + json.dumps(key) + ": "
            yield (head + json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")
                   ).encode() + comma
            continue
        if isinstance(value, _Written):  # `_Decided.json_bytes`
            yield b"\n " + json.dumps(key).encode() + b": "
            yield from value.parts
            yield comma
            continue
        if isinstance(value, float):  # json and msgspec may spell a float differently
            raise TypeError(f"unexpected value in a plan report: {type(value).__name__}")
        # '{\n "key": ...\n}' -> '\n "key": ...', the member at its depth
        text = msgspec.json.format(msgspec.json.encode({key: value}), indent=1)
        yield b"".join((memoryview(text)[1:-2], comma))  # one copy, not two
    yield b"\n}\n"
