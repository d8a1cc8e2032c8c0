"""The session as a tree (turn → steps, and the memory store) with a timeline, as data
for the trace component: each row carries its decision (and replay outcome) so the
component colours, searches and filters it. Pure: no Streamlit here."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from repair_core import RepairPlan

__all__ = ["DECISION_COLOURS", "trace_data"]

DECISION_COLOURS: dict[str, str] = {
    "keep": "#c7c7c7",
    "invalidate": "#f2c12e",
    "replay": "#ff7f0e",
    "refresh": "#17becf",
    "delete": "#d62728",
    "quarantine": "#9467bd",
    "restore": "#2ca02c",
}
_TEXT = 160


def _short(text: object, width: int = _TEXT) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def trace_data(plan: RepairPlan, result: Any = None, *, changed_only: bool = False,
               limit: int = 5000) -> dict[str, Any]:
    """Groups (one per user turn, then the memory store) of rows `{id, type, seq,
    decision, outcome, text}`, the timeline (steps in trajectory order), the types and
    decisions present, and a note when rows are left out.

    `changed_only` keeps the affected nodes and every node whose decision is not keep;
    at most `limit` rows are sent (the component runs in the browser).
    """
    case = plan.case
    affected = plan.analysis.affected
    outcome = ({o.id: o.outcome for o in result.report.steps} if result is not None else {})
    by_turn: dict[str, list[dict[str, Any]]] = defaultdict(list)
    total = 0
    kept_rows = 0
    for s in case.steps_in_order():
        total += 1
        decision = plan.steps[s.id]
        if changed_only and decision == "keep" and s.id not in affected:
            continue
        if kept_rows >= limit:
            continue
        kept_rows += 1
        by_turn[s.turn].append({"id": s.id, "type": s.type, "seq": s.seq, "decision": decision,
                                "outcome": outcome.get(s.id, ""), "text": _short(s.text)})
    memory = []
    for m in case.memory:
        total += 1
        decision = plan.memory[m.id]
        if changed_only and decision == "keep" and m.id not in affected:
            continue
        if kept_rows >= limit:
            continue
        kept_rows += 1
        memory.append({"id": m.id, "type": "record", "seq": m.created_seq, "decision": decision,
                       "outcome": "fault" if m.id in case.faults else "",
                       "text": _short(m.text)})
    small = kept_rows <= 400
    groups = []
    for t in sorted(case.session, key=lambda t: t.seq):
        rows = by_turn.get(t.id, [])
        if not rows:
            continue
        changed = sum(r["decision"] != "keep" for r in rows)
        groups.append({"title": f"turn {t.id} · {_short(t.text, 90)} · {len(rows)} steps, "
                                f"{changed} changed",
                       "open": small or changed > 0, "rows": rows})
    if memory:
        groups.append({"title": f"memory store · {len(memory)} records", "open": small,
                       "rows": memory})
    timeline = [r for g in groups[:-1 if memory else None] for r in g["rows"]]
    timeline.sort(key=lambda r: r["seq"])
    shown = {r["type"] for g in groups for r in g["rows"]}
    note = None
    if kept_rows < total:
        why = "only affected or changed nodes" if changed_only else ""
        over = f"the first {limit}" if kept_rows >= limit else ""
        note = (f"{kept_rows} of {total} steps and records shown ("
                + "; ".join(x for x in (why, over) if x) + ").")
    return {"groups": groups, "timeline": timeline,
            "types": sorted(shown), "decisions": [d for d in DECISION_COLOURS
                                                   if any(r["decision"] == d for g in groups
                                                          for r in g["rows"])],
            "colours": DECISION_COLOURS, "note": note}
