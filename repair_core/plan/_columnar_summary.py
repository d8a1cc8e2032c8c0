"""The readable plan of a large case from the columnar planner: `plan_summary`'s
`PlanSummary` of the networkx plan, the same data (`tests/test_columnar_plan.py` compares
them), with reasons worked out only for the decisions shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain

import numpy as np

from ..case._columns import TYPE_NAMES, CaseColumns
from ._columnar_plan import _INVALID_BEFORE, _decide, _Decided
from ._summary import (
    MAX_ROWS,
    FaultLine,
    PlanSummary,
    SummaryRow,
    seed_description,
    suspect_lines,
)

__all__ = ["columnar_plan_summary"]


def columnar_plan_summary(c: CaseColumns, objective: str = "answer",
                          max_rows: int = MAX_ROWS, *, suspects: str = "quarantine",
                          not_suspect: Iterable[str] = (),
                          clean_source: Mapping[str, str] | None = None) -> PlanSummary:
    """`plan_summary(plan_case(case, objective=objective), max_rows)` of the case in `c`,
    which must have been read with its texts (`read_columns(..., keep_text=True)`)."""
    if len(c.texts) != c.n_nodes:
        raise ValueError("columnar_plan_summary: the columns were read without their texts")
    d = _decide(c, objective, suspects, not_suspect, clean_source)
    pl = d.pl
    n, ids, texts = pl.n, pl.ids, c.texts
    first_record = c.n_turns + c.n_steps
    seq_order = c.step_seq_order

    def type_of(node: int) -> str:
        return TYPE_NAMES[int(pl.type[node])]

    faults = []
    for f, s in d.seeds.items():
        if pl.is_step[f] or pl.is_turn[f]:
            what = type_of(f).replace("_", " ") if pl.is_step[f] else "user turn"
            faults.append(FaultLine(ids[f], texts[f], what, ""))
        else:
            faults.append(FaultLine(ids[f], texts[f], None, seed_description(
                ids[f], ids[s], failed=bool(c.failed[s]), seq=int(pl.seq[s]),
                type=type_of(s))))

    has_reason = np.zeros(n, bool)
    has_reason[np.fromiter(d.reasons, np.int64, len(d.reasons))] = True
    has_reason[d.invalidated] = True
    shown = has_reason.copy()
    decided = [node for node, action in chain(d.memory.items(), d.steps.items())
               if action != "keep"]
    shown[np.array(decided, np.int64)] = True
    records = first_record + np.flatnonzero(shown[first_record:])[:max_rows + 1]
    steps = seq_order[shown[seq_order]][:max_rows + 1]
    reason, invalid = _reasons_of(d, np.concatenate([records[:max_rows], steps[:max_rows]]))

    def step_action(node: int) -> str:
        return d.steps.get(node) or ("invalidate" if node in invalid else "keep")

    memory_rows = [SummaryRow(ids[r], d.memory.get(r, "keep"), texts[r], reason.get(r, ""))
                   for r in records[:max_rows].tolist()]
    step_rows = [SummaryRow(ids[s], step_action(s), texts[s], reason.get(s, ""),
                            int(pl.seq[s]), type_of(s)) for s in steps[:max_rows].tolist()]
    replayed = seq_order[d.replay[seq_order]].tolist()
    n_records = n - first_record
    return PlanSummary(
        case_id=c.case_id, domain=c.domain, user_id=c.user_id, steps=c.n_steps,
        records=n_records, faults=len(c.faults), objective=objective, fault_lines=faults,
        affected=int(pl.affected.sum()), supported=int((pl.affected & pl.kept).sum()),
        unsupported=int(pl.unsupported.sum()), answer_relevant=int(d.relevant.sum()),
        memory_counts=_counts(d.memory.values(), n_records),
        memory_rows=memory_rows, more_records=len(records) > max_rows,
        records_with_reasons=int(has_reason[first_record:].sum()),
        step_counts=_counts([*d.steps.values(), *["invalidate"] * len(d.invalidated)],
                            c.n_steps),
        step_rows=step_rows, more_steps=len(steps) > max_rows,
        replay=[(ids[s], d.steps.get(s) == "refresh") for s in replayed],
        suspected=suspect_lines(d.suspected))


def _reasons_of(d: _Decided, nodes: np.ndarray) -> tuple[dict[int, str], set[int]]:
    """The reasons of `nodes` (those of the steps invalidated in bulk worked out here),
    and which of them are invalidated in bulk."""
    out = {node: d.reasons[node] for node in nodes.tolist() if node in d.reasons}
    position = np.full(d.pl.n, -1, np.int64)
    position[d.invalidated] = np.arange(len(d.invalidated))
    bulk = nodes[position[nodes] >= 0]
    for k, ending in enumerate(d.endings):
        these = bulk[d.ending_of[position[bulk]] == k]
        out.update(zip(these.tolist(), d.pl.path_texts(these, before=_INVALID_BEFORE,
                                                        after=ending), strict=True))
    return out, set(bulk.tolist())


def _counts(actions: Iterable[str], total: int) -> dict[str, int]:
    """Nodes per action, in name order: `actions` of the nodes decided, the rest of
    `total` kept."""
    counts = Counter(actions)
    counts["keep"] += total - sum(counts.values())
    return {k: v for k, v in sorted(counts.items()) if v}
