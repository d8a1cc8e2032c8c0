"""The session as a tree (turn → steps, and the memory store) with a timeline, as data
for the trace component: each row carries its decision (and replay outcome) so the
component colours it. Search and filters run here, over every step and record of the case
(the component only shows the rows that match, at most `limit`). Pure: no Streamlit here."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from repair_core import RepairPlan
from repair_core._text import plural
from repair_core.case._trace import span_label
from repair_core.viz import DECISION_STYLES, decision_keys

__all__ = ["DECISION_COLOURS", "trace_rows", "trace_data"]

# The shared decision colours (repair_core.viz.DECISION_STYLES), by colour key.
DECISION_COLOURS: dict[str, str] = {k: c for k, (c, _, _) in DECISION_STYLES.items()}
_TEXT = 160


def _short(text: object, width: int = _TEXT) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def trace_rows(plan: RepairPlan, result: Any = None) -> list[dict[str, Any]]:
    """One row per step (trajectory order) then per record: `{id, type, seq, turn,
    decision, key, outcome, text}` (`key` is the colour key of the decision), and `span`,
    the span's name, on an imported step whose trace recorded one (`span_label`: a hex
    span id alone tells a person nothing)."""
    case = plan.case
    keys = decision_keys(plan)
    outcome = ({o.id: o.outcome for o in result.report.steps} if result is not None else {})
    rows = []
    for s in case.steps_in_order():
        row = {"id": s.id, "type": s.type, "seq": s.seq, "turn": s.turn,
               "decision": plan.steps[s.id], "key": keys[s.id],
               "outcome": outcome.get(s.id, ""), "text": _short(s.text)}
        span = span_label(s)
        if span is not None:
            row["span"] = span
        rows.append(row)
    faults = set(case.faults)
    rows += [{"id": m.id, "type": "record", "seq": m.created_seq, "turn": None,
              "decision": plan.memory[m.id], "key": keys[m.id],
              "outcome": "fault" if m.id in faults else "", "text": _short(m.text)}
             for m in case.memory]
    return rows


def _matches(row: dict[str, Any], needle: str, exact: bool) -> bool:
    if exact:
        return bool(row["id"].lower() == needle)
    return (needle in row["id"].lower() or needle in row["text"].lower()
            or needle in row.get("span", "").lower())


def trace_data(plan: RepairPlan, result: Any = None, *, changed_only: bool = False,
               limit: int = 5000, search: str = "", node_type: str = "", decision: str = "",
               rows: list[dict[str, Any]] | None = None, offset: int = 0) -> dict[str, Any]:
    """Groups (one per user turn, then the memory store) of the rows that pass the filters,
    the timeline (steps in trajectory order), the types and decisions present in the whole
    case, the number matching, and a note when rows are left out.

    `search` matches ids and text (case-insensitive; an id typed exactly puts that node
    first); `node_type` and `decision` keep one type or decision; `changed_only` keeps the
    affected nodes and every node whose decision is not keep. At most `limit` matching rows
    are sent (the component runs in the browser), from the `offset`-th on (a page of them).
    `rows` are :func:`trace_rows`, if already built.
    """
    case = plan.case
    affected = plan.analysis.affected
    every = rows if rows is not None else trace_rows(plan, result)
    needle = " ".join(search.split()).lower()

    def passes(r: dict[str, Any], changed: bool = changed_only) -> bool:
        return not ((changed and r["decision"] == "keep" and r["id"] not in affected)
                    or (node_type and r["type"] != node_type)
                    or (decision and r["decision"] != decision)
                    or (needle and not _matches(r, needle, False)))

    matching = 0
    picked: list[dict[str, Any]] = []
    for r in every:
        if passes(r):
            matching += 1
            if matching > offset and len(picked) < limit:
                picked.append(r)
    # an id typed exactly is shown first, even beyond `limit` or when unchanged
    exact = next((r for r in every if needle and r["id"].lower() == needle), None)
    if exact is not None and passes(exact, False):
        if exact in picked:
            picked.remove(exact)
        elif not passes(exact):
            matching += 1
        picked = [exact, *picked[:limit - 1]]
    by_turn: dict[str, list[dict[str, Any]]] = defaultdict(list)
    memory = []
    for r in picked:
        if r["type"] == "record":
            memory.append(r)
        else:
            by_turn[r["turn"]].append(r)
    small = len(picked) <= 400
    groups = []
    for t in sorted(case.session, key=lambda t: t.seq):
        group = by_turn.get(t.id, [])
        if not group:
            continue
        changed = sum(r["decision"] != "keep" for r in group)
        groups.append({"title": f"turn {t.id} · {_short(t.text, 90)} · "
                                f"{plural(len(group), 'step')}, {changed} changed",
                       "open": small or changed > 0 or bool(needle), "rows": group})
    if memory:
        groups.append({"title": f"memory store · {plural(len(memory), 'record')}",
                       "open": small or bool(needle), "rows": memory})
    timeline = sorted((r for r in picked if r["type"] != "record"), key=lambda r: r["seq"])
    total = len(every)
    note = None
    if len(picked) < total:
        why = [w for w in (
            "only affected or changed nodes" if changed_only else "",
            f"matching {search.strip()!r}" if needle else "",
            f"type {node_type}" if node_type else "",
            f"decision {decision}" if decision else "",
            (f"rows {offset + 1}–{offset + len(picked)} of the {matching} matching"
             if matching > limit else "")) if w]
        note = (f"{len(picked)} of {total} steps and records shown ("
                + "; ".join(why) + ")." if why else
                f"{len(picked)} of {total} steps and records shown.")
    present = {r["decision"] for r in every}
    return {"groups": groups, "timeline": timeline, "matching": matching,
            "types": sorted({r["type"] for r in every}),
            "decisions": [d for d in ("keep", "invalidate", "replay", "refresh", "delete",
                                      "quarantine", "restore") if d in present],
            "colours": DECISION_COLOURS,
            "legend": [[k, c, label] for k, (c, label, _) in DECISION_STYLES.items()],
            "note": note}
