"""Dependencies a span did not record, guessed and marked `inferred: true`.

Only for steps whose span carries no `dgrr.*` provenance. The guesses are generous on
purpose (recall first): an inferred edge carries harm but never vouches for support
(method.md, "Inferred edges"), so a generous guess can only make the repair redo more.

- a model call (claim, plan, answer) cites every memory read, tool observation and claim
  before it in the same turn (what its context held);
- a tool call is produced by the plan whose output holds its call id, else by the latest
  plan before it in the same turn that called the same tool, else by the latest plan;
- a memory write cites every model call before it in the same turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._semconv import Operation

__all__ = ["infer_deps"]

_MODEL_STEPS = ("claim", "plan", "answer")


def infer_deps(trajectory: list[dict[str, Any]], step_op: Mapping[str, Operation]) -> None:
    """Add inferred deps, in place, to the steps of `trajectory` without provenance (the
    `_provenance` marker is removed on the way)."""
    earlier: dict[str, list[dict[str, Any]]] = {}  # turn -> steps so far, in seq order
    for s in sorted(trajectory, key=lambda s: s["seq"]):
        before = earlier.setdefault(s["turn"], [])
        if not s.pop("_provenance", False):
            have = {(d["id"], d["label"]) for d in s["deps"]}
            for dep in _guess(s, before, step_op):
                if (dep["id"], dep["label"]) not in have:
                    have.add((dep["id"], dep["label"]))
                    s["deps"].append({**dep, "inferred": True})
        before.append(s)


def _guess(s: dict[str, Any], before: list[dict[str, Any]],
           step_op: Mapping[str, Operation]) -> list[dict[str, Any]]:
    kind = s["type"]
    if kind in _MODEL_STEPS:
        return [{"id": p["id"], "label": "cite"} for p in before
                if p["type"] in ("memory_read", "tool_observation", "claim")]
    if kind == "tool_action":
        op = step_op[s["id"]]
        plans = [p for p in before if p["type"] == "plan"]
        if op.call_id is not None:
            by_call = [p for p in plans
                       if any(c.id == op.call_id for c in step_op[p["id"]].tool_calls)]
            if by_call:
                return [{"id": by_call[-1]["id"], "label": "produce"}]
        same_tool = [p for p in plans if p.get("tool") == s.get("tool")]
        chosen = same_tool or plans
        return [{"id": chosen[-1]["id"], "label": "produce"}] if chosen else \
            [{"id": s["turn"], "label": "initiate"}]
    if kind == "memory_write":
        calls = [{"id": p["id"], "label": "cite"} for p in before if p["type"] in _MODEL_STEPS]
        return calls or [{"id": s["turn"], "label": "initiate"}]
    return []
