"""The original run's model calls and waterfall (`repair_core.viz.original_run`) as the
dashboard shows them: a wall-clock chart, a table of calls and a call's messages as one
text. Pure: no Streamlit here; every string from the case goes into a chart (drawn as
text) or a data frame (shown as it is), never into Markdown."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from repair_core.case._trace import TraceMessage
from repair_core.viz import OriginalRun, money

__all__ = ["WATERFALL_BARS", "KIND_COLOURS", "messages_text", "calls_frame",
           "waterfall_frame", "waterfall_chart"]

WATERFALL_BARS = 400
"""The most bars one waterfall draws (the rest are a page away)."""

# A step's kind on the waterfall -> its colour (a trace viewer colours by span kind).
KIND_COLOURS: dict[str, str] = {"model call": "#4c72b0", "tool": "#dd8452",
                                "memory": "#55a868", "other": "#8c8c8c"}


def _kind(step_type: str, model_call: bool) -> str:
    if model_call:
        return "model call"
    if step_type in ("tool_action", "tool_observation"):
        return "tool"
    if step_type in ("memory_read", "memory_write"):
        return "memory"
    return "other"


def messages_text(messages: Iterable[TraceMessage | dict[str, Any]]) -> str:
    """Messages as one text, each `[role]` on its own line then its content, the same
    shape the replay's prompts are shown in (so the two can be compared word by word).

    >>> messages_text([TraceMessage(role="user", content="Book it.")])
    '[user]\\nBook it.'
    """
    parts = []
    for m in messages:
        role, content = ((m.role, m.content) if isinstance(m, TraceMessage)
                         else (m.get("role", "?"), m.get("content") or ""))
        parts.append(f"[{role or '?'}]\n{content}")
    return "\n\n".join(parts)


def calls_frame(run: OriginalRun) -> pd.DataFrame:
    """One row per model call: seq, step, type, model, start, duration, tokens, cost by
    litellm's table (or why there is none) and the instrumentor's own cost."""
    return pd.DataFrame([{
        "seq": c.seq, "step": c.step, "type": c.type, "model": c.model or "—",
        "start (s)": c.start_s, "took (s)": c.seconds, "input tokens": c.input_tokens,
        "output tokens": c.output_tokens,
        "cost": money(c.cost) if c.cost is not None else c.price,
        "instrumentor's cost": c.recorded_cost} for c in run.calls],
        columns=["seq", "step", "type", "model", "start (s)", "took (s)", "input tokens",
                 "output tokens", "cost", "instrumentor's cost"])


def waterfall_frame(run: OriginalRun, first: int = 0, bars: int = WATERFALL_BARS
                    ) -> pd.DataFrame:
    """The waterfall's bars `first` .. `first + bars` (run order): the step, its label
    (`seq · id · type`), kind, start and end in seconds after the run's first span."""
    shown = run.waterfall[first:first + bars]
    by_step = {c.step: c for c in run.calls}
    # an instant (a read that took microseconds) is drawn a sliver wide, not invisible
    sliver = (run.seconds or 0.0) / 400
    rows = []
    for b in shown:
        call = by_step.get(b.step)
        rows.append({"step": b.step, "label": f"{b.seq} · {b.step} · {b.type}",
                     "kind": _kind(b.type, b.model_call), "start (s)": b.start_s,
                     "end (s)": b.end_s, "drawn end": max(b.end_s, b.start_s + sliver),
                     "took (s)": round(b.end_s - b.start_s, 6),
                     "model": (call.model or "—") if call is not None else "",
                     "cost": (money(call.cost) if call.cost is not None else call.price)
                     if call is not None else ""})
    return pd.DataFrame(rows, columns=["step", "label", "kind", "start (s)", "end (s)",
                                       "drawn end", "took (s)", "model", "cost"])


def waterfall_chart(frame: pd.DataFrame) -> Any:
    """The waterfall: one bar per step from its start to its end on the wall clock, in run
    order top to bottom, coloured by kind (model call, tool, memory, other)."""
    import altair as alt

    kinds = [k for k in KIND_COLOURS if k in set(frame["kind"])] or list(KIND_COLOURS)
    return alt.Chart(frame).mark_bar().encode(
        y=alt.Y("label:N", sort=None, title=None, axis=alt.Axis(labelLimit=320, labelOverlap=False)),
        x=alt.X("start (s):Q", title="seconds after the run's first span"),
        x2="drawn end:Q",
        color=alt.Color("kind:N", title="step", scale=alt.Scale(
            domain=kinds, range=[KIND_COLOURS[k] for k in kinds])),
        tooltip=["step", "kind", alt.Tooltip("start (s):Q", format=".3f"),
                 alt.Tooltip("took (s):Q", format=".3f"), "model", "cost"],
    ).properties(height=alt.Step(20), width="container")
