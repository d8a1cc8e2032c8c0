"""Dependencies a span did not record, inferred from evidence and marked `inferred: true`
with how each was inferred (`inferred_by`).

Only for steps whose span carries no `dgrr.*` provenance, and only where the trace holds
evidence; every step gets at most :data:`WINDOW` + 1 inferred premises, so the edges grow
linearly with the spans (never with their square):

- a model call (claim, plan, answer) cites the memory reads, tool observations and claims
  of its own turn among the last :data:`WINDOW` of them before it (`context-window`: what
  its context held);
- a tool call is produced by the plan whose output holds its call id (`call-id`), else by
  the latest plan of its turn that called the same tool (`same-tool`), else by the latest
  model call among the last :data:`WINDOW` of its turn whose output holds code calling
  that tool, `NAME(` (`code-call`: a code-writing agent's model wrote the call), else by
  the latest plan of its turn (`latest-plan`), else it was started by its turn
  (`turn-start`);
- a memory write cites the model calls among the last :data:`WINDOW` of its turn whose
  output shares words with what it wrote (`text-overlap`), else the latest model call of
  its turn (`latest-model-call`), else it was started by its turn (`turn-start`).

An inferred edge carries harm but never vouches for support (method.md, "Inferred
edges"), so a guess can only make the repair redo more; the evidence rules keep it from
redoing everything.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from typing import Any

from ._semconv import Operation

__all__ = ["infer_deps", "WINDOW", "INFERRED_BY"]

WINDOW = 4
"""How many earlier context steps (or model calls) of a turn an inferred edge may reach."""

INFERRED_BY = ("context-window", "call-id", "same-tool", "code-call", "latest-plan",
               "text-overlap", "latest-model-call", "turn-start")
"""The ways an edge is inferred (the values of a dep's `inferred_by`)."""

_MODEL_STEPS = ("claim", "plan", "answer")
_CONTEXT_STEPS = ("memory_read", "tool_observation", "claim")
_WORD = re.compile(r"[^\W_]{3,}")
_STOP = frozenset(["the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not", "you", "your", "but", "his", "her", "its", "their", "they", "them", "our"])


class _Turn:
    """What inference remembers of one turn: bounded windows and last-seen indexes."""

    __slots__ = ("context", "models", "plan", "plan_by_tool", "plan_by_call")

    def __init__(self) -> None:
        self.context: deque[dict[str, Any]] = deque(maxlen=WINDOW)
        self.models: deque[tuple[dict[str, Any], frozenset[str]]] = deque(maxlen=WINDOW)
        self.plan: dict[str, Any] | None = None
        self.plan_by_tool: dict[str, dict[str, Any]] = {}
        self.plan_by_call: dict[str, dict[str, Any]] = {}


def infer_deps(trajectory: list[dict[str, Any]], step_op: Mapping[str, Operation]) -> None:
    """Add inferred deps, in place, to the steps of `trajectory` without provenance (the
    `_provenance` marker is removed on the way). Linear in the steps."""
    turns: dict[str, _Turn] = {}
    for s in sorted(trajectory, key=lambda s: s["seq"]):
        turn = turns.get(s["turn"])
        if turn is None:
            turn = turns[s["turn"]] = _Turn()
        if not s.pop("_provenance", False):
            have = {(d["id"], d["label"]) for d in s["deps"]}
            for dep in _guess(s, turn, step_op):
                if (dep["id"], dep["label"]) not in have:
                    have.add((dep["id"], dep["label"]))
                    s["deps"].append({**dep, "inferred": True})
        _remember(s, turn, step_op)


def _remember(s: dict[str, Any], turn: _Turn, step_op: Mapping[str, Operation]) -> None:
    kind = s["type"]
    if kind in _CONTEXT_STEPS:
        turn.context.append(s)
    if kind in _MODEL_STEPS:
        turn.models.append((s, words(s.get("text", ""))))
    if kind == "plan":
        turn.plan = s
        if s.get("tool"):
            turn.plan_by_tool[s["tool"]] = s
        for call in step_op[s["id"]].tool_calls:
            if call.id is not None:
                turn.plan_by_call[call.id] = s


def _edge(node: dict[str, Any] | str, label: str, how: str) -> dict[str, Any]:
    return {"id": node if isinstance(node, str) else node["id"], "label": label,
            "inferred_by": how}


def _guess(s: dict[str, Any], turn: _Turn, step_op: Mapping[str, Operation]
           ) -> list[dict[str, Any]]:
    kind = s["type"]
    if kind in _MODEL_STEPS:
        return [_edge(p, "cite", "context-window") for p in turn.context]
    if kind == "tool_action":
        op = step_op[s["id"]]
        if op.call_id is not None and op.call_id in turn.plan_by_call:
            return [_edge(turn.plan_by_call[op.call_id], "produce", "call-id")]
        same = turn.plan_by_tool.get(s.get("tool", ""))
        if same is not None:
            return [_edge(same, "produce", "same-tool")]
        writer = _code_caller(turn, s.get("tool", ""))
        if writer is not None:
            return [_edge(writer, "produce", "code-call")]
        if turn.plan is not None:
            return [_edge(turn.plan, "produce", "latest-plan")]
        return [_edge(s["turn"], "initiate", "turn-start")]
    if kind == "memory_write":
        written = words(s.get("text", ""))
        overlapping = [m for m, w in turn.models if _overlaps(written, w)]
        if overlapping:
            return [_edge(m, "cite", "text-overlap") for m in overlapping]
        if turn.models:
            return [_edge(turn.models[-1][0], "cite", "latest-model-call")]
        return [_edge(s["turn"], "initiate", "turn-start")]
    return []


def _code_caller(turn: _Turn, tool: str) -> dict[str, Any] | None:
    """The latest of the turn's last model calls whose output calls `tool` in code
    (`tool(` after no letter, digit or `_`: `rebook_seat(` is not `book_seat(`), or None."""
    if not tool:
        return None
    call = re.compile(r"(?<!\w)" + re.escape(tool) + r"\s*\(")
    for model, _words in reversed(turn.models):
        text = model.get("text")
        if isinstance(text, str) and call.search(text):
            return model
    return None


def words(text: Any) -> frozenset[str]:
    """The content words of `text` (lowercase, 3+ letters, a few stop words left out).

    >>> sorted(words("Lin prefers WINDOW seats, and the aisle."))
    ['aisle', 'lin', 'prefers', 'seats', 'window']
    """
    if not isinstance(text, str):
        return frozenset()
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in _STOP)


def _overlaps(written: frozenset[str], output: frozenset[str]) -> bool:
    """A write overlaps a model output when they share at least two content words, or
    half of the write's words when it has fewer than four."""
    if not written or not output:
        return False
    shared = len(written & output)
    return shared >= 2 or shared * 2 >= len(written)
