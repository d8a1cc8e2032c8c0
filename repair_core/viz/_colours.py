"""The one colour code of the plan's decisions, shared by every picture and table of the
dashboard (graph, trace, plan, compare, approve): a node's colour says what the plan does
with it; an affected node kept by independent support is told apart from an unaffected
one."""

from __future__ import annotations

from typing import Any

__all__ = ["DECISION_STYLES", "decision_key", "decision_keys", "decision_legend"]

# key -> (colour, legend label, meaning), in legend order.
DECISION_STYLES: dict[str, tuple[str, str, str]] = {
    "delete": ("#d62728", "delete", "diagnosed fault, removed from the active store"),
    "quarantine": ("#9467bd", "quarantine", "record kept for audit, never retrieved"),
    "restore": ("#17becf", "restore", "record back in the active store"),
    "replay": ("#ff7f0e", "replay", "step re-run for the corrected answer"),
    "refresh": ("#1f77b4", "refresh", "tool observation fetched again"),
    "invalidate": ("#f2c12e", "invalidate", "affected and unsupported, not re-run"),
    "kept": ("#2ca02c", "keep (supported)", "affected but kept by independent support"),
    "suspect": ("#e377c2", "suspect", "no lineage names it, but it carries a fault's content: "
                "a suspected source (cleaned like a fault) or a flagged carrier"),
    "keep": ("#c7c7c7", "keep", "unaffected"),
}


def _suspects(plan: Any) -> set[str]:
    """The suspects the colour marks: every suspected source or carrier but a quarantined
    record (its decision's colour says it already)."""
    return {s.id for s in getattr(plan, "suspected", ()) if s.action != "quarantine"}


def decision_key(plan: Any, node: str) -> str:
    """The colour key of `node`: its decision in the plan, with `kept` for an affected node
    kept by independent support (turns, never decided on, are `keep`) and `suspect` for a
    suspected source or flagged carrier (docs/method.md, "Suspects")."""
    if node in _suspects(plan):
        return "suspect"
    decision = plan.memory.get(node) or plan.steps.get(node) or "keep"
    if decision == "keep" and node in plan.analysis.supported:
        return "kept"
    return decision if decision in DECISION_STYLES else "keep"


def decision_keys(plan: Any) -> dict[str, str]:
    """:func:`decision_key` of every record and step."""
    supported = plan.analysis.supported
    out = {}
    for table in (plan.memory, plan.steps):
        for node, decision in table.items():
            out[node] = ("kept" if decision == "keep" and node in supported
                         else decision if decision in DECISION_STYLES else "keep")
    out.update(dict.fromkeys(_suspects(plan), "suspect"))
    return out


def decision_legend() -> list[tuple[str, str, str, str]]:
    """(key, colour, label, meaning) per entry, in legend order."""
    return [(k, c, label, meaning) for k, (c, label, meaning) in DECISION_STYLES.items()]
