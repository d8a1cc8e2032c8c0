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
the networkx planner on every committed case, synthetic cases and random ones).

Not handled here (the caller falls back to the networkx planner): inferred edges
(importers' guesses), reviewer edits, and any planning option other than the default.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import repeat
from typing import Any

import msgspec
import numpy as np

from ..case._columns import LABEL_CODE, TYPE_CODE, CaseColumns, _ranges

__all__ = ["columnar_plan_report", "report_json", "report_json_bytes", "report_json_parts"]

_CITE = LABEL_CODE["cite"]
_PRODUCE = LABEL_CODE["produce"]
_DELETE = LABEL_CODE["delete"]
_SUFFICIENT = np.array([LABEL_CODE[x] for x in ("support", "derive", "supersede")])
_LINEAGE = np.array([LABEL_CODE[x] for x in ("delete", "update", "consolidate")])
_CHECKABLE = np.array([TYPE_CODE[x] for x in ("claim", "plan", "answer", "memory_write")])
_OBS = TYPE_CODE["tool_observation"]
_ACTION = TYPE_CODE["tool_action"]
_CLAIM = TYPE_CODE["claim"]
_WRITE = TYPE_CODE["memory_write"]
_ANSWER = TYPE_CODE["answer"]
_LABEL_NAMES = sorted(LABEL_CODE, key=LABEL_CODE.__getitem__)


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
        self.is_step = kinds == 1
        self.is_record = kinds == 2
        self.type = c.type_code
        self.seq = c.seq
        # rank of each id in string order (networkx sorts deps by id; reports sort ids)
        id_order = np.argsort(np.array(c.ids), kind="stable")
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
        order = np.lexsort((label, self.id_rank[src], dst))
        src, dst, label, suff = src[order], dst[order], label[order], c.sufficient[order]
        if len(src):
            new = np.ones(len(src), bool)
            new[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1]) | (label[1:] != label[:-1])
            starts = np.flatnonzero(new)
            suff = np.logical_or.reduceat(suff, starts) if len(starts) else suff
            src, dst, label = src[starts], dst[starts], label[starts]
        # edges are now in each dependent's premise order (premise id, then label)
        self.src, self.dst, self.label, self.suff = src, dst, label, suff
        self.pred = _CSR(dst, np.arange(len(dst)), n)
        # successors of a premise in networkx's order: dependents in canonical order;
        # one entry per pair, with its first label
        sorder = np.lexsort((label, dep_rank[dst], src))
        if len(sorder):
            pair_new = np.ones(len(sorder), bool)
            pair_new[1:] = (src[sorder][1:] != src[sorder][:-1]) | \
                (dst[sorder][1:] != dst[sorder][:-1])
            sorder = sorder[pair_new]
        self.succ = _CSR(src, sorder, n)
        self.dep_rank = dep_rank
        answers = np.flatnonzero(self.type == _ANSWER)
        self.final = int(answers[np.argmax(self.seq[answers])])
        self.current_turn = int(c.step_turn[self.final - t])
        self.faults = np.array(c.faults, np.int64)
        self.fault_mask = np.zeros(n, bool)
        self.fault_mask[self.faults] = True

    # -- stage 2 -----------------------------------------------------------------
    def seed_of(self, record: int) -> int:
        lin = np.isin(self.label, _LINEAGE)
        ls, ld = self.src[lin], self.dst[lin]
        both_s, both_d = np.concatenate([ls, ld]), np.concatenate([ld, ls])
        adj = _CSR(both_s, np.argsort(both_s, kind="stable"), self.n)
        seen = np.zeros(self.n, bool)
        seen[record] = True
        frontier = np.array([record])
        while len(frontier):
            e, _ = adj.edges_of(frontier)
            nxt = np.unique(both_d[e])
            nxt = nxt[~seen[nxt]]
            seen[nxt] = True
            frontier = nxt
        lineage = np.flatnonzero(seen)
        failed = lineage[self.is_step[lineage] & self.c.failed[lineage]
                         & (self.type[lineage] == _WRITE)]
        if len(failed):
            return int(failed[np.argmin(self.seq[failed])])
        e, _ = self.pred.edges_of(np.array([record]))
        prods = self.src[e][(self.label[e] == _PRODUCE) & self.is_step[self.src[e]]]
        if len(prods):
            return int(prods[np.argmin(self.seq[prods])])
        return record

    def reach(self, seeds: dict[int, int]) -> None:
        n = self.n
        sources = []
        for fault, seed in seeds.items():
            bound = float(self.seq[seed]) if self.is_step[seed] else float("-inf")
            sources.append((bound, seed, fault))
            if seed != fault:
                sources.append((bound, fault, fault))
        ids = self.ids
        sources.sort(key=lambda x: (x[0], ids[x[2]], ids[x[1]]))
        self.o_fault = np.full(n, -1, np.int64)
        self.o_start = np.full(n, -1, np.int64)
        self.o_parent = np.full(n, -1, np.int64)
        self.o_label = np.full(n, -1, np.int8)
        reached = self.o_fault >= 0
        for bound, start, fault in sources:
            if reached[start]:
                continue
            reached[start] = True
            self.o_fault[start], self.o_start[start] = fault, start
            frontier = np.array([start])
            while len(frontier):
                e, pos = self.succ.edges_of(frontier)
                nxt = self.dst[e]
                ok = ~reached[nxt]
                if bound != float("-inf"):
                    ok &= ~(self.is_step[nxt] & (self.seq[nxt] < bound))
                e, pos, nxt = e[ok], pos[ok], nxt[ok]
                first = _first_occurrences(nxt)
                e, nxt = e[first], nxt[first]
                reached[nxt] = True
                self.o_fault[nxt], self.o_start[nxt] = fault, start
                self.o_parent[nxt] = frontier[pos[first]]
                self.o_label[nxt] = self.label[e]
                frontier = nxt
        self.affected = reached

    def support(self, seed_nodes: np.ndarray) -> None:
        n, src, dst, label = self.n, self.src, self.dst, self.label
        never = self.fault_mask.copy()
        never[seed_nodes] = True
        candidate = self.affected & ~never
        step_producer = (label == _PRODUCE) & self.is_step[src]
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
        admissible |= self.is_record & self.c.active & ~self.fault_mask
        admissible[self.current_turn] = True
        vouching = (np.isin(label, _SUFFICIENT) | ((label == _CITE) & self.suff))
        ok = check[dst] & ~self.affected[src] & ~never[src] & vouching & admissible[src]
        ok_idx = np.flatnonzero(ok)
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

    # -- stage 3 -----------------------------------------------------------------
    def answer_relevant(self, removed: np.ndarray) -> np.ndarray:
        seen = np.zeros(self.n, bool)
        seen[self.final] = True
        frontier = np.array([self.final])
        while len(frontier):
            e, _ = self.pred.edges_of(frontier)
            p = np.unique(self.src[e])
            p = p[~seen[p] & ~removed[p]]
            seen[p] = True
            frontier = p
        return seen & self.unsupported & self.is_step

    def replay_closure(self, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        replay = np.zeros(n, bool)
        pulled = np.full(n, -1, np.int64)
        frontier = start[np.argsort(self.id_rank[start])]
        replay[frontier] = True
        produce_obs = (self.label == _PRODUCE) & (self.type[self.dst] == _OBS) & \
            self.unsupported[self.dst]
        action_edges = np.flatnonzero(produce_obs)
        act_order = action_edges[np.lexsort((self.dep_rank[self.dst[action_edges]],
                                             self.src[action_edges]))]
        actions = _CSR(self.src, act_order, n)
        while len(frontier):
            e, pos = self.pred.edges_of(frontier)
            p = self.src[e]
            is_obs = self.type[frontier] == _OBS
            ok = self.is_step[p] & ~replay[p] & (
                self.unsupported[p] | (is_obs[pos] & (self.label[e] == _PRODUCE)))
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
            pulled[nxt] = frontier[pos[first]]
            frontier = nxt
        return replay, pulled

    def rederivable_producers(self, quarantined: np.ndarray, replay: np.ndarray
                              ) -> dict[int, int]:
        src, dst, label = self.src, self.dst, self.label
        reads = np.flatnonzero(quarantined[src] & replay[dst])
        if not len(reads):
            return {}
        # readers in id order, each reader's premises in its premise order
        reads = reads[np.argsort(self.id_rank[dst[reads]], kind="stable")]
        found: dict[int, int] = {}
        for rec in src[reads].tolist():
            e, _ = self.pred.edges_of(np.array([rec]))
            for p, lb in zip(src[e].tolist(), label[e].tolist(), strict=True):
                if (lb == _PRODUCE and self.is_step[p] and self.unsupported[p]
                        and self.type[p] == _WRITE):
                    found.setdefault(p, rec)
        return found

    def replay_set(self, start: np.ndarray, quarantined: np.ndarray
                   ) -> tuple[np.ndarray, dict[int, int]]:
        replay, pulled = self.replay_closure(start)
        why = {int(v): int(p) for v, p in zip(np.flatnonzero(pulled >= 0).tolist(),
                                               pulled[pulled >= 0].tolist(), strict=True)}
        while True:
            producers = {p: r for p, r in self.rederivable_producers(quarantined, replay).items()
                         if not replay[p]}
            if not producers:
                return replay, why
            more_start = replay.copy()
            more_start[list(producers)] = True
            replay, more = self.replay_closure(np.flatnonzero(more_start))
            more_why = {int(v): int(p) for v, p in zip(np.flatnonzero(more >= 0).tolist(),
                                                       more[more >= 0].tolist(), strict=True)}
            why = {**more_why, **producers, **why}

    # -- reasons -----------------------------------------------------------------
    def paths(self, nodes: np.ndarray, limit: int = 5) -> dict[int, str]:
        """`Analysis.path_from_fault(node, limit)` joined with arrows, for each of `nodes`
        (ancestors looked up a level at a time for all of them together)."""
        ids = self.ids
        parent = np.append(self.o_parent, -1)  # parent[-1] == -1
        levels = [nodes]
        for _ in range(limit):
            levels.append(parent[levels[-1]])
        beyond = parent[levels[-1]] >= 0  # the path is longer than shown: elided
        fault, start = self.o_fault[nodes], self.o_start[nodes]
        # the strings are joined in groups of the same shape (how many levels, which
        # heads), a whole column at a time, so no Python code runs per node
        depth = sum((level >= 0).astype(np.int64) for level in levels)
        shape = depth * 4 + (fault != start) * 2 + beyond
        name = ids.__getitem__
        out: dict[int, str] = {}
        for key in np.unique(shape).tolist():
            at = np.flatnonzero(shape == key)
            d, with_fault, elided = key // 4, key % 4 // 2, key % 2
            columns: list[Iterable[str]] = []
            if with_fault:
                columns.append(map(name, fault[at].tolist()))
            if elided:
                columns += [map(name, start[at].tolist()), repeat("…")]
            columns += [map(name, levels[j][at].tolist()) for j in reversed(range(d))]
            paths = map(" → ".join, zip(*columns, strict=False))  # "…" repeats
            out.update(zip(nodes[at].tolist(), paths, strict=True))
        return out


def columnar_plan_report(c: CaseColumns) -> dict[str, Any]:
    """The plan report of the case in `c`, as `RepairPlan.report().model_dump(mode="json")`
    gives it for the same case."""
    pl = _Planner(c)
    ids = c.ids
    n_t, n_s = c.n_turns, c.n_steps
    seeds = {int(f): pl.seed_of(int(f)) for f in pl.faults}
    pl.reach(seeds)
    seed_nodes = np.array(sorted(set(seeds.values())), np.int64)
    pl.support(seed_nodes)
    affected, unsupported, kept = pl.affected, pl.unsupported, pl.kept

    # memory dispositions
    n = pl.n
    src, dst, label = pl.src, pl.dst, pl.label
    in_a0 = affected[src]
    a0_count = np.bincount(dst[in_a0], minlength=n)
    a0_delete = np.bincount(dst[in_a0 & (label == _DELETE)], minlength=n)
    record_ids = ids[n_t + n_s:]
    memory: dict[str, str] = dict.fromkeys(record_ids, "keep")
    reasons: dict[str, str] = {}
    seed_of_fault = {f: s for f, s in seeds.items()}
    path = pl.paths(np.flatnonzero(unsupported))
    for r in np.flatnonzero(pl.fault_mask | unsupported).tolist():
        if r < n_t + n_s:
            continue
        rid = ids[r]
        if pl.fault_mask[r]:
            memory[rid] = "delete"
            seed = seed_of_fault[r]
            reasons[rid] = "diagnosed fault: leaves the active store" + (
                "" if seed == r else f" (seed {ids[seed]} is replayed)")
            continue
        if a0_count[r] and a0_count[r] == a0_delete[r]:
            e, _ = pl.pred.edges_of(np.array([r]))
            retirers = sorted({ids[p] for p, lb in zip(src[e].tolist(), label[e].tolist(),
                                                        strict=True) if lb == _DELETE})
            retirer_nodes = [p for p, lb in zip(src[e].tolist(), label[e].tolist(), strict=True)
                             if lb == _DELETE]
            status = c.record_status[r - n_t - n_s]
            if status != "active" and all(unsupported[p] for p in retirer_nodes):
                memory[rid] = "restore"
                reasons[rid] = (f"retired only by unsupported mutation(s) {', '.join(retirers)}: "
                                "restored to the active store with its content")
            else:
                memory[rid] = "keep"
                reasons[rid] = ("affected only through delete edges: keeps its content and "
                                "status (a mutation that retired it still stands)"
                                if status != "active" else
                                "affected only through delete edges and still active: kept")
            continue
        memory[rid] = "quarantine"
        reasons[rid] = (f"affected via {path[r]}; no independent support: quarantined "
                        "(kept for audit, never retrieved)")
    removed = np.zeros(n, bool)
    quarantined = np.zeros(n, bool)
    for r in np.flatnonzero(pl.fault_mask | unsupported).tolist():
        d = memory.get(ids[r])
        if d in ("delete", "quarantine"):
            removed[r] = True
        if d == "quarantine":
            quarantined[r] = True
    relevant = pl.answer_relevant(removed)
    start = relevant.copy()
    start[pl.final] = True
    seed_steps = seed_nodes[pl.is_step[seed_nodes]]
    start[seed_steps] = True
    replay, why = pl.replay_set(np.flatnonzero(start), quarantined)

    # step actions, in seq order
    seq_order = c.step_seq_order
    steps: dict[str, str] = dict.fromkeys([ids[i] for i in seq_order.tolist()], "keep")
    step_reasons: dict[str, str] = {}
    seed_fault = {s: f for f, s in seeds.items()}
    tools = c.tools
    final = pl.final
    types = pl.type.tolist()
    replay_l, unsupported_l, relevant_l = replay.tolist(), unsupported.tolist(), relevant.tolist()
    touched = seq_order[(replay | unsupported)[seq_order]]
    for sn in touched.tolist():
        sid = ids[sn]
        if replay_l[sn]:
            step_type = types[sn]
            if step_type == _OBS:
                steps[sid] = "refresh"
                reason = "observation re-produced by replaying its action"
            else:
                steps[sid] = "replay"
                if sn == final:
                    reason = "final answer: always regenerated"
                elif sn in seed_fault:
                    reason = (f"seed of fault {ids[seed_fault[sn]]}: replayed so the store gets "
                              "the correct record")
                elif relevant_l[sn]:
                    reason = "reaches the final answer"
                elif sn in why and pl.is_record[why[sn]]:
                    reason = (f"producer of quarantined record {ids[why[sn]]}, which a replayed "
                              "step reads: replayed so the store gets it re-derived")
                else:
                    puller = ids[why[sn]] if sn in why else "?"
                    reason = f"premise of replayed step {puller} (execution closure)"
            if unsupported_l[sn] and sn not in seed_fault:
                reason = f"affected via {path[sn]}; no independent support; {reason}"
            if step_type == _ACTION:
                tool = c.step_tool[sn - n_t]
                if tools.get(tool or "", "irreversible") == "irreversible":
                    reason += (f"; its tool '{tool}' is irreversible (or undeclared): the "
                               "executor will not re-issue it and reports the effect")
            step_reasons[sid] = reason
        else:
            steps[sid] = "invalidate"
            step_reasons[sid] = (f"affected via {path[sn]}; no independent support; does "
                                 "not reach the final answer once faults are cut: invalidated, "
                                 "not replayed")
    reasons.update(step_reasons)
    for v in np.flatnonzero(kept).tolist():
        vid = ids[v]
        if vid in reasons:
            continue
        if pl.inherited[v]:
            e, _ = pl.pred.edges_of(np.array([v]))
            prods = sorted({ids[p] for p, lb in zip(src[e].tolist(), label[e].tolist(),
                                                     strict=True)
                            if lb == _PRODUCE and pl.is_step[p]})
            reasons[vid] = f"affected but kept: every producer ({', '.join(prods)}) is kept"
        else:
            lb = _LABEL_NAMES[int(pl.support_label[v])]
            suffix = ", sufficient" if lb == "cite" else ""
            reasons[vid] = (f"affected but kept: independent support from "
                            f"{ids[int(pl.support_premise[v])]} ({lb}{suffix})")
    # records (store order), then steps (seq order): every node that got a reason above
    with_reason = (pl.fault_mask | unsupported | kept) & pl.is_record
    step_with_reason = (replay | unsupported | kept) & pl.is_step
    order = np.concatenate([np.flatnonzero(with_reason), seq_order[step_with_reason[seq_order]]])
    ordered = {node: reasons[node] for node in map(ids.__getitem__, order.tolist())}

    def sorted_ids(mask: np.ndarray) -> list[str]:
        order = pl.id_order[mask[pl.id_order]]
        return [ids[i] for i in order.tolist()]

    return {
        "case_id": c.case_id,
        "seeds": {ids[f]: ids[s] for f, s in seeds.items()},
        "affected": sorted_ids(affected),
        "supported": sorted_ids(affected & kept),
        "unsupported": sorted_ids(unsupported),
        "answer_relevant": sorted_ids(relevant),
        "memory": memory,
        "steps": steps,
        "reasons": ordered,
    }


def report_json(report: dict[str, Any]) -> str:
    """`to_json(report)` (indent 1, UTF-8) for a plan report, at C speed (json's indenting
    encoder is pure Python)."""
    return b"".join(report_json_bytes(report)).decode()


def report_json_parts(report: dict[str, Any]) -> Iterator[str]:
    """The text of :func:`report_json` in pieces (one per top-level field), to write a
    large report without holding it twice."""
    return (part.decode() for part in report_json_bytes(report))


def report_json_bytes(report: dict[str, Any]) -> Iterator[bytes]:
    """The UTF-8 text of :func:`report_json` in pieces, one per top-level field: each
    field is encoded and indented by msgspec (whose compact encoding and `format(indent=1)`
    give exactly what `json.dumps(indent=1, ensure_ascii=False)` gives for strings, lists
    and objects; tests/test_columnar_plan.py checks it on random text)."""
    yield b"{"
    last = len(report) - 1
    for k, (key, value) in enumerate(report.items()):
        if isinstance(value, float):  # json and msgspec may spell a float differently
            raise TypeError(f"unexpected value in a plan report: {type(value).__name__}")
        # '{\n "key": ...\n}' -> '\n "key": ...', the member at its depth
        text = msgspec.json.format(msgspec.json.encode({key: value}), indent=1)
        yield text[1:-2] + (b"," if k < last else b"")
    yield b"\n}\n"
