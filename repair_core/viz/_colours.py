"""The colour codes of the dependency graph, shared by every picture and table of the
dashboard (graph, trace, plan, compare, approve). By decision (the default): a node's
colour says what the plan does with it; an affected node kept by independent support is
told apart from an unaffected one. By analysis: a node's class in stage 2 of the method
(docs/method.md) — fault, answer-relevant, kept by independent support, affected,
unaffected. A colour the two codes share means the same thing in both: red a diagnosed
fault, green an affected node kept by independent support, grey an unaffected node."""

from __future__ import annotations

from typing import Any, Literal

__all__ = ["DECISION_STYLES", "decision_key", "decision_keys", "decision_legend",
           "NODE_CLASSES", "NodeClass", "node_class", "node_classes", "ColourBy",
           "COLOUR_BY", "colour_of", "colour_legend", "colour_summary"]

ColourBy = Literal["decision", "analysis"]
COLOUR_BY: tuple[ColourBy, ...] = ("decision", "analysis")

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


NodeClass = Literal["fault", "answer-relevant", "kept", "affected", "unaffected"]

# class -> (colour, legend label, meaning), in legend order: stage 2's classes
NODE_CLASSES: dict[str, tuple[str, str, str]] = {
    "fault": (DECISION_STYLES["delete"][0], "fault", "a diagnosed fault (F)"),
    "answer-relevant": ("#8c564b", "answer-relevant",
                        "affected, unsupported, and the final answer depends on it"),
    "kept": (DECISION_STYLES["kept"][0], "kept (supported)",
             "affected but kept by independent support"),
    "affected": ("#bcbd22", "affected", "affected (in A0) and unsupported"),
    "unaffected": (DECISION_STYLES["keep"][0], "unaffected", "no fault reaches it"),
}


def node_class(plan: Any, node: str) -> NodeClass:
    """The class of `node` in the plan's analysis (first match wins): `fault`, then
    `answer-relevant` (`plan.answer_relevant` holds it), `kept` (supported), `affected`
    (the rest of A0), `unaffected`."""
    a = plan.analysis
    if node in a.faults:
        return "fault"
    if node in plan.answer_relevant:
        return "answer-relevant"
    if node in a.supported:
        return "kept"
    if node in a.affected:
        return "affected"
    return "unaffected"


def node_classes(plan: Any) -> dict[str, NodeClass]:
    """:func:`node_class` of every node of the plan's graph."""
    return {n: node_class(plan, n) for n in plan.analysis.graph.nodes}


def colour_of(plan: Any, node: str, by: ColourBy = "decision") -> str:
    """The colour of `node` when the picture is coloured `by` decision or analysis."""
    if by == "analysis":
        return NODE_CLASSES[node_class(plan, node)][0]
    return DECISION_STYLES[decision_key(plan, node)][0]


def colour_legend(by: ColourBy = "decision") -> list[tuple[str, str, str, str]]:
    """(key, colour, label, meaning) per entry of the legend of colouring `by`."""
    if by == "analysis":
        return [(k, c, label, meaning) for k, (c, label, meaning) in NODE_CLASSES.items()]
    return decision_legend()


def colour_summary(plan: Any, nodes: Any, by: ColourBy = "decision") -> str:
    """One line saying how many of `nodes` (ids of the plan's graph) each legend entry of
    colouring `by` covers, in legend order, entries with none left out.

    >>> from repair_core import load_example, plan_case
    >>> plan = plan_case(load_example())
    >>> colour_summary(plan, ["m3", "s2", "s3", "s8"], "analysis")
    'coloured by analysis: 1 fault, 1 answer-relevant, 1 kept (supported), 1 unaffected'
    """
    if by not in COLOUR_BY:
        raise ValueError(f"colour_by: unknown colouring '{by}' (expected one of "
                         f"{', '.join(COLOUR_BY)})")
    keys: list[str]
    if by == "analysis":
        keys = [node_class(plan, n) for n in nodes]
        entries = NODE_CLASSES
    else:
        keys = [decision_key(plan, n) for n in nodes]
        entries = DECISION_STYLES
    counts = {k: 0 for k in entries}
    for k in keys:
        counts[k] += 1
    shown = ", ".join(f"{n} {entries[k][1]}" for k, n in counts.items() if n)
    return f"coloured by {by}: {shown or 'no node'}"
