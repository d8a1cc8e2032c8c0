"""Which nodes of a case descend from an untrusted input: a tool observation (a tool's
result, a retrieved document, an e-mail) or any node whose recorded premises reach one,
through reads to the records they returned and writes to the records they made.

The lexical judge's confident "no" about such a text is not proof that it is free of a
fault: a payload restated in another language shares no token with it. The model judge
can be asked about these texts too (`ModelJudge(untrusted=True)`, `--judge-untrusted`).

Edges that bring no content into their dependent are not followed: `initiate` (a user
turn starting a step: the user's own words), `delete` and `supersede` (a write retiring a
record, newer evidence replacing an older one). One pass over the nodes and edges.
"""

from __future__ import annotations

from ..case._case import Case

__all__ = ["untrusted_lineage", "CONTENTLESS_LABELS"]

CONTENTLESS_LABELS = frozenset({"initiate", "delete", "supersede"})
"""Edge labels whose premise writes nothing of itself into the dependent."""


def untrusted_lineage(case: Case) -> frozenset[str]:
    """The ids of every tool observation of `case` and of every step or record whose
    premises, followed back, reach one."""
    premises: dict[str, list[str]] = {}
    untrusted: set[str] = set()
    for s in case.trajectory:
        premises[s.id] = [d.id for d in s.deps if d.label not in CONTENTLESS_LABELS]
        if s.type == "tool_observation":
            untrusted.add(s.id)
    for m in case.memory:
        premises[m.id] = [d.id for d in m.deps if d.label not in CONTENTLESS_LABELS]
    reached: dict[str, bool] = {n: True for n in untrusted}
    for start in premises:
        if start in reached:
            continue
        # iterative depth-first search: a node is decided once all its premises are
        stack: list[tuple[str, int]] = [(start, 0)]
        reached[start] = False  # in progress: a cycle through it reaches nothing new
        while stack:
            node, at = stack[-1]
            deps = premises.get(node, ())
            while at < len(deps) and deps[at] in reached:
                if reached[deps[at]]:
                    reached[node] = True
                at += 1
            if at < len(deps):
                stack[-1] = (node, at)
                nxt = deps[at]
                reached[nxt] = False
                stack.append((nxt, 0))
                continue
            stack.pop()
            if stack and reached[node]:
                reached[stack[-1][0]] = True
    return frozenset(n for n, hit in reached.items() if hit)
