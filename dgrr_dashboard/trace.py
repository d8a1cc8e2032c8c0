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

    def shown(node: str, decision: str) -> bool:
        """Count the node; whether it gets a row (the filter, then the row limit)."""
        nonlocal total, kept_rows
        total += 1
        if (changed_only and decision == "keep" and node not in affected) or kept_rows >= limit:
            return False
        kept_rows += 1
        return True

    for s in case.steps_in_order():
        if shown(s.id, plan.steps[s.id]):
            by_turn[s.turn].append({"id": s.id, "type": s.type, "seq": s.seq,
                                    "decision": plan.steps[s.id],
                                    "outcome": outcome.get(s.id, ""), "text": _short(s.text)})
    memory = [{"id": m.id, "type": "record", "seq": m.created_seq, "decision": plan.memory[m.id],
               "outcome": "fault" if m.id in case.faults else "", "text": _short(m.text)}
              for m in case.memory if shown(m.id, plan.memory[m.id])]
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
    types = {r["type"] for g in groups for r in g["rows"]}
    note = None
    if kept_rows < total:
        why = "only affected or changed nodes" if changed_only else ""
        over = f"the first {limit}" if kept_rows >= limit else ""
        note = (f"{kept_rows} of {total} steps and records shown ("
                + "; ".join(x for x in (why, over) if x) + ").")
    return {"groups": groups, "timeline": timeline,
            "types": sorted(types), "decisions": [d for d in DECISION_COLOURS
                                                   if any(r["decision"] == d for g in groups
                                                          for r in g["rows"])],
            "colours": DECISION_COLOURS, "note": note}
