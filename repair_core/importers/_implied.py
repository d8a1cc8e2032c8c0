"""Steps a framework's trace implies without a span of their own:

- a tool's result that only the next model call's input messages carry (the OpenAI
  client's GenAI instrumentation records no tool span): a tool call and its observation,
  matched to the plan by call id;
- a final-answer tool (smolagents' `final_answer`): the turn's answer, its text the
  tool's `answer` argument, else its result;
- an agent span's own output (`output.value`), when no model call of the turn answered.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ._otlp import Span
from ._semconv import Operation

__all__ = ["message_tool_ops", "final_answer_op", "is_final_answer_tool", "agent_answer_op"]

_FINAL = re.compile(r"(?:final_?answer(?:_?tool)?|submit_final_answer)", re.I)
_SAFE = re.compile(r"[^A-Za-z0-9_.:-]")


def is_final_answer_tool(name: str) -> bool:
    """A tool whose call gives the agent's answer (`final_answer`, `FinalAnswerTool`...)."""
    return bool(_FINAL.fullmatch(name))


def final_answer_op(op: Operation) -> Operation:
    """A final-answer tool's call as the turn's answer."""
    answer = op.args.get("answer")
    if not isinstance(answer, str):
        answer = op.result if isinstance(op.result, str) else "" if op.result is None \
            else str(op.result)
    return replace(op, kind="chat", text=answer, step_type="answer", tool_calls=(),
                   missing=None if answer else "the final answer (the final_answer tool's "
                   "answer argument or result)")


def _step_part(call_id: str) -> str:
    """A call id as part of a step id: itself when short and plain, else a plain prefix and
    a digest (two ids never share a step id)."""
    safe = _SAFE.sub("_", call_id)[:48]
    if safe == call_id:
        return safe
    return f"{safe}-{hashlib.sha256(call_id.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


def message_tool_ops(ops: Sequence[Operation]) -> list[Operation]:
    """Tool calls whose results only model calls' input messages carry, one per call id,
    placed just before the first model call that was sent the result. A call id that a
    tool span answered, or a tool name that has tool spans of its own, adds nothing."""
    answered = {op.call_id for op in ops if op.kind == "tool" and op.call_id is not None}
    spanned = {op.tool for op in ops if op.kind == "tool"}
    # the plans' own tool calls name the tool when the messages kept only the result
    planned = {c.id: c for op in ops if op.kind == "chat" for c in op.tool_calls
               if c.id is not None}
    out: list[Operation] = []
    for op in ops:
        if op.kind != "chat":
            continue
        for r in op.message_results:
            call = planned.get(r.call_id)
            name = r.name or (call.name if call is not None else "")
            if r.call_id in answered or (name and name in spanned):
                continue
            answered.add(r.call_id)
            span = Span(trace_id=op.span.trace_id, span_id=f"call-{_step_part(r.call_id)}",
                        parent_id=op.span.parent_id, name=name or "tool",
                        start=max(op.span.start - 1, 0), end=max(op.span.start - 1, 0),
                        status_error=False, attributes={}, resource=op.span.resource)
            args = r.args if isinstance(r.args, dict) else {"input": r.args} \
                if r.args is not None else dict(call.args) if call is not None else {}
            out.append(Operation(span, "tool", op.convention, tool=name or "tool",
                                 call_id=r.call_id, args=args, result=r.result))
    return out


def agent_answer_op(agent: Operation) -> Operation:
    """The agent span's own output as its turn's answer (placed at the span's end)."""
    span = Span(trace_id=agent.span.trace_id, span_id=f"{agent.span.span_id}-answer",
                parent_id=agent.span.span_id, name="answer", start=agent.span.end,
                end=agent.span.end, status_error=False, attributes={},
                resource=agent.span.resource)
    return Operation(span, "chat", agent.convention, text=agent.output, step_type="answer")


def answered_turns(ops: Iterable[Operation], turn_of: Any) -> set[str]:
    """Turns that hold a model call that can be their answer (text without tool calls,
    or an explicit answer)."""
    return {turn_of(op) for op in ops if op.kind == "chat" and (
        op.step_type == "answer" or (op.text and not op.tool_calls))}
