"""What an imported trace recorded of a step's span beyond its content: its name, when it
ran, the tokens it used, what it cost. The case format has no field for it, so the importer writes
it under the step's own `trace` key (unknown fields are kept, see `_case._Model`); repair
never reads it.

>>> from repair_core.case._case import Claim
>>> s = Claim(id="s1", seq=1, turn="u1", type="claim", text="x",
...           trace={"start_ns": 1_000_000_000, "end_ns": 1_250_000_000, "input_tokens": 12})
>>> u = step_trace(s)
>>> u.seconds, u.input_tokens, u.output_tokens
(0.25, 12, None)
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["StepTrace", "TraceMessage", "TRACE_FIELD", "span_label", "span_labels", "span_name",
           "step_trace"]

TRACE_FIELD = "trace"
"""The step's key the importer writes `StepTrace` under."""


class TraceMessage(BaseModel):
    """One message of a model call as its span recorded it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    role: str
    """Who it is from (`system`, `user`, `assistant`, `tool`, ...; "" when not recorded)."""
    content: str
    """Its text; a tool call as `call NAME(ARGUMENTS)`, a tool's result as `result of
    CALL_ID: RESULT` (repair_core.importers._call_messages)."""


class StepTrace(BaseModel):
    """What the trace recorded of one step's span (each field only when it did)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    span_name: str | None = None
    """The span's name as the trace viewer lists it (`generation`, `book_seat`, `chat
    gpt-4o`): what tells a person which span a hex id is."""
    operation: str | None = None
    """What the span says it does (`gen_ai.operation.name`, else
    `openinference.span.kind`): `chat`, `execute_tool`, `LLM`, `TOOL`..."""
    start_ns: int | None = None
    """When the span started, nanoseconds since the epoch (UTC)."""
    end_ns: int | None = None
    """When it ended, nanoseconds since the epoch (UTC)."""
    input_tokens: int | None = None
    """Prompt tokens (`gen_ai.usage.input_tokens`, `gen_ai.usage.prompt_tokens`,
    `llm.token_count.prompt`)."""
    output_tokens: int | None = None
    """Completion tokens (`gen_ai.usage.output_tokens`, `gen_ai.usage.completion_tokens`,
    `llm.token_count.completion`)."""
    cost: float | None = None
    """What the call cost as the instrumentor priced it (`gen_ai.usage.cost`, OpenLit;
    `llm.cost.total`, OpenInference), in its currency (US dollars for both)."""
    model: str | None = None
    """The model a model call's span names (`gen_ai.response.model`,
    `gen_ai.request.model`, `llm.model_name`, `ai.model.id`)."""
    provider: str | None = None
    """The provider or system it names (`gen_ai.provider.name`, `gen_ai.system`,
    `llm.provider`)."""
    input_messages: tuple[TraceMessage, ...] = ()
    """The prompt the model call was sent, message by message."""
    output_messages: tuple[TraceMessage, ...] = ()
    """What the model answered, message by message."""

    @property
    def label(self) -> str | None:
        """What names the span to a person, for beside its hex id: its name, then its
        operation in parentheses when the name does not already say it (`generation
        (LLM)`, `chat`); None when the trace recorded neither.

        >>> StepTrace(span_name="chat gpt-4o", operation="chat").label
        'chat gpt-4o'
        >>> StepTrace(operation="TOOL").label
        'TOOL'
        """
        return _label(self.span_name, self.operation)

    @property
    def seconds(self) -> float | None:
        """How long the span took, when both ends are known."""
        if self.start_ns is None or self.end_ns is None:
            return None
        return (self.end_ns - self.start_ns) / 1e9


    def describe(self) -> str:
        """One line for a person.

        >>> StepTrace(start_ns=1_700_000_000_123_000_000, end_ns=1_700_000_000_218_000_000,
        ...           input_tokens=12, output_tokens=9, cost=0.00031).describe()
        'started 2023-11-14 22:13:20.123 UTC · took 0.095 s · 12 input + 9 output tokens · cost 0.00031'
        """
        parts = [] if self.label is None else [f"span {self.label}"]
        if self.start_ns is not None:
            when = datetime.fromtimestamp(self.start_ns // 1_000_000_000, tz=UTC)
            parts.append(f"started {when:%Y-%m-%d %H:%M:%S}."
                         f"{self.start_ns // 1_000_000 % 1000:03d} UTC")
        if self.seconds is not None:
            parts.append(f"took {self.seconds:.3f} s")
        if self.input_tokens is not None or self.output_tokens is not None:
            parts.append(" + ".join(f"{n:,} {what}" for n, what in (
                (self.input_tokens, "input"), (self.output_tokens, "output"))
                if n is not None) + " tokens")
        if self.cost is not None:
            parts.append(f"cost {self.cost:.6g}")
        return " · ".join(parts)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else None


def _amount(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


_LAST_NS = int(datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()) * 1_000_000_000
"""The latest instant a timestamp may name: later ones cannot be shown as a date."""


def _instant(value: Any) -> int | None:
    found = _count(value)
    return found if found is not None and found <= _LAST_NS else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


NAME_CHARS = 80
"""The longest span name or operation kept: a label beside an id, not content."""


def _name(value: Any) -> str | None:
    """A span name or operation as one line of at most `NAME_CHARS` characters: the name
    is case data, so control characters (a newline, an escape sequence) become spaces."""
    if not isinstance(value, str):
        return None
    line = " ".join("".join(c if c.isprintable() else " " for c in value[:4 * NAME_CHARS])
                    .split())
    if not line:
        return None
    return line if len(line) <= NAME_CHARS else line[:NAME_CHARS - 1] + "…"


def span_label(step: Any) -> str | None:
    """The name of `step`'s span for beside its id (`StepTrace.label`); None when its
    trace recorded no name or operation, or it has no trace.

    >>> span_label({"trace": {"span_name": "book_seat", "operation": "TOOL"}})
    'book_seat (TOOL)'
    >>> span_label({"id": "s1"}) is None
    True
    """
    data = _trace_data(step)
    return None if data is None else _label(_name(data.get("span_name")),
                                             _name(data.get("operation")))


def span_name(step: Any) -> str | None:
    """The name of `step`'s span, else its operation, as one short line (`span_label`
    without the operation beside the name): what a graph node, which has little room,
    shows in place of a machine id. None when the trace recorded neither.

    >>> span_name({"trace": {"span_name": "book\\nseat", "operation": "TOOL"}})
    'book seat'
    >>> span_name({"trace": {"operation": "TOOL"}})
    'TOOL'
    """
    data = _trace_data(step)
    return None if data is None else (_name(data.get("span_name"))
                                      or _name(data.get("operation")))


def span_labels(steps: Iterable[Any], only: Container[str] | None = None) -> dict[str, str]:
    """Step id -> `span_label` of each of `steps` (those whose id is in `only`, when
    given) whose trace named its span: what the readable plan, the Plan and Replay pages
    put beside an imported step's hex id.

    >>> span_labels([{"id": "a1", "trace": {"span_name": "chat"}}, {"id": "s2"}])
    {'a1': 'chat'}
    """
    out = {}
    for step in steps:
        sid = step["id"] if isinstance(step, dict) else step.id
        if only is None or sid in only:
            label = span_label(step)
            if label is not None:
                out[sid] = label
    return out


def _label(name: str | None, operation: str | None) -> str | None:
    if name is None:
        return operation
    if operation is None or operation.casefold() in name.casefold():
        return name
    return f"{name} ({operation})"


def _trace_data(step: Any) -> dict[str, Any] | None:
    """The raw `trace` key of `step` (a Step or its JSON), None when it has none."""
    data = (step.get(TRACE_FIELD) if isinstance(step, dict)
            else (getattr(step, "model_extra", None) or {}).get(TRACE_FIELD))
    return data if isinstance(data, dict) else None


def _messages(value: Any) -> tuple[TraceMessage, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(TraceMessage(role=m["role"], content=m["content"]) for m in value
                 if isinstance(m, dict) and isinstance(m.get("role"), str)
                 and isinstance(m.get("content"), str))


def step_trace(step: Any) -> StepTrace | None:
    """The `trace` key of `step` (a Step or its JSON) as a StepTrace; None when the step
    has none. The key is case data, so anything not of its shape (a negative count, text
    where a number belongs, an end before the start, a message without a string role and
    content) is left out, never shown."""
    data = _trace_data(step)
    if data is None:
        return None
    start, end = _instant(data.get("start_ns")), _instant(data.get("end_ns"))
    if start is not None and end is not None and end < start:
        start = end = None
    found = StepTrace(span_name=_name(data.get("span_name")),
                      operation=_name(data.get("operation")),
                      start_ns=start, end_ns=end,
                      input_tokens=_count(data.get("input_tokens")),
                      output_tokens=_count(data.get("output_tokens")),
                      cost=_amount(data.get("cost")), model=_text(data.get("model")),
                      provider=_text(data.get("provider")),
                      input_messages=_messages(data.get("input_messages")),
                      output_messages=_messages(data.get("output_messages")))
    return found if found != StepTrace() else None
