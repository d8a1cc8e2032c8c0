"""The original run as trace viewers show it, as data: a waterfall of its steps by
wall-clock time (the spans' start and end an importer kept under each step's `trace`
key), and its model calls with their tokens and cost in US dollars, per step and in
total, priced with litellm's own price table (`repair_core._prices`; a model the table
does not list is "price unknown", never a guess). Linear in the number of steps.

>>> from repair_core.case._load import case_from_data
>>> from repair_core import load_example
>>> data = load_example().model_dump(mode="json")
>>> data["trajectory"][0]["trace"] = {"start_ns": 10**9, "end_ns": 3 * 10**9,
...     "model": "m-1", "input_tokens": 1000, "output_tokens": 10}
>>> run = original_run(case_from_data(data), table={"m-1": {
...     "input_cost_per_token": 1e-06, "output_cost_per_token": 2e-06}})
>>> [(c.step, c.cost, c.priced_as) for c in run.calls]
[('s1', 0.00102, 'm-1')]
>>> run.describe_total()
'1 model call · 1,000 input + 10 output tokens · $0.00102 (litellm prices)'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .._prices import token_price
from .._text import plural
from ..case._case import Case
from ..case._trace import StepTrace, TraceMessage, step_trace

__all__ = ["ModelCall", "WaterfallBar", "OriginalRun", "original_run", "money"]

PriceState = Literal["priced", "price unknown", "tokens not recorded", "no model named"]


def money(dollars: float | None) -> str:
    """US dollars for a person: `$0.00102`, `$12.50`; "—" for None.

    >>> money(0.001023456), money(0.0000288), money(12.5), money(0), money(None)
    ('$0.00102', '$0.0000288', '$12.50', '$0.00', '—')
    """
    if dollars is None:
        return "—"
    if dollars >= 0.1 or dollars <= 0:
        return f"${dollars:,.2f}"
    decimals = 2 - math.floor(math.log10(dollars))  # three significant digits
    return f"${dollars:.{decimals}f}"


class ModelCall(BaseModel):
    """One model call of the original run: a step whose span named a model or recorded
    messages or tokens."""

    model_config = ConfigDict(frozen=True)

    step: str
    """The step's id."""
    seq: int
    """The step's place in the run."""
    type: str
    """The step's type (claim, plan, answer, ...)."""
    model: str | None
    """The model the span named."""
    start_s: float | None
    """When the call started, seconds after the run's first span started."""
    seconds: float | None
    """How long it took."""
    input_tokens: int | None
    """Prompt tokens, as the span recorded them."""
    output_tokens: int | None
    """Completion tokens."""
    cost: float | None
    """US dollars by litellm's price table; None when it cannot be priced (`price`)."""
    price: PriceState
    """priced; price unknown (the table does not list the model); tokens not recorded;
    no model named."""
    priced_as: str | None
    """The price table's entry that priced it."""
    recorded_cost: float | None
    """What the instrumentor said the call cost, when it did (beside, never instead)."""
    sent: tuple[TraceMessage, ...]
    """The prompt, message by message (untrusted text)."""
    answered: tuple[TraceMessage, ...]
    """The completion, message by message (untrusted text)."""


class WaterfallBar(BaseModel):
    """One step of the original run on the wall clock."""

    model_config = ConfigDict(frozen=True)

    step: str
    """The step's id."""
    seq: int
    """The step's place in the run."""
    type: str
    """The step's type."""
    start_s: float
    """Seconds after the run's first span started."""
    end_s: float
    """Seconds after it when the step's span ended."""
    model_call: bool
    """The step is one of the run's model calls."""


class OriginalRun(BaseModel):
    """The original run's model calls and waterfall, with their totals."""

    calls: list[ModelCall]
    """The model calls, in run order."""
    waterfall: list[WaterfallBar]
    """Every step whose span's start and end are known, in run order."""
    started_ns: int | None
    """When the run's first span started (ns since the epoch); None with no timing."""
    input_tokens: int
    """Prompt tokens over the calls that recorded them."""
    output_tokens: int
    """Completion tokens over the calls that recorded them."""
    cost: float
    """US dollars over the calls litellm's table prices."""
    unpriced: int
    """Calls left out of `cost` (price unknown, tokens not recorded, no model named)."""
    unknown_models: list[str]
    """Models the price table does not list, each once."""

    @property
    def tokens_recorded(self) -> bool:
        """Whether any call recorded its tokens: the token totals over none are unknown,
        not zero."""
        return any(c.input_tokens is not None or c.output_tokens is not None
                   for c in self.calls)

    @property
    def priced_cost(self) -> float | None:
        """`cost`, or None when no call is priced: a sum over nothing priced is unknown,
        not a free run."""
        return self.cost if self.unpriced < len(self.calls) else None

    @property
    def seconds(self) -> float | None:
        """Wall-clock time from the first span's start to the last one's end."""
        return max((b.end_s for b in self.waterfall), default=None)

    def describe_total(self) -> str:
        """One line: calls, tokens and dollars, and what was not priced."""
        tokens = (f"{self.input_tokens:,} input + {self.output_tokens:,} output tokens"
                  if self.tokens_recorded else "tokens not recorded")
        parts = [plural(len(self.calls), "model call"), tokens,
                 f"{money(self.priced_cost)} (litellm prices)"]
        if self.unpriced:
            parts.append(f"{self.unpriced} not priced" + (
                f" (price unknown: {', '.join(self.unknown_models)})"
                if self.unknown_models else ""))
        return " · ".join(parts)


def _is_call(t: StepTrace) -> bool:
    return bool(t.model or t.input_messages or t.output_messages
                or t.input_tokens is not None or t.output_tokens is not None)


def original_run(case: Case, *, table: Mapping[str, Any] | None = None) -> OriginalRun:
    """The model calls and waterfall of `case`'s run, from what its importer kept of each
    step's span; priced with litellm's table (or `table`, a table of the same shape)."""
    traced = [(s, t) for s in case.steps_in_order() if (t := step_trace(s)) is not None]
    starts = [t.start_ns for _, t in traced if t.start_ns is not None]
    first = min(starts, default=None)

    def offset(ns: int | None) -> float | None:
        return None if ns is None or first is None else (ns - first) / 1e9

    calls: list[ModelCall] = []
    bars: list[WaterfallBar] = []
    unknown: dict[str, None] = {}
    prices: dict[tuple[str | None, str | None], Any] = {}
    for step, t in traced:
        is_call = _is_call(t)
        start, end = offset(t.start_ns), offset(t.end_ns)
        if start is not None and end is not None:
            bars.append(WaterfallBar(step=step.id, seq=step.seq, type=step.type,
                                     start_s=start, end_s=end, model_call=is_call))
        if not is_call:
            continue
        if (t.model, t.provider) not in prices:  # one look-up per model, not per call
            prices[(t.model, t.provider)] = token_price(t.model, t.provider, table=table)
        cost, state, key = _price_with(t, prices[(t.model, t.provider)])
        if state == "price unknown" and t.model:
            unknown[t.model] = None
        calls.append(ModelCall(step=step.id, seq=step.seq, type=step.type, model=t.model,
                               start_s=start, seconds=t.seconds, input_tokens=t.input_tokens,
                               output_tokens=t.output_tokens, cost=cost, price=state,
                               priced_as=key, recorded_cost=t.cost, sent=t.input_messages,
                               answered=t.output_messages))
    return OriginalRun(
        calls=calls, waterfall=bars, started_ns=first,
        input_tokens=sum(c.input_tokens or 0 for c in calls),
        output_tokens=sum(c.output_tokens or 0 for c in calls),
        cost=sum(c.cost for c in calls if c.cost is not None),
        unpriced=sum(c.cost is None for c in calls), unknown_models=list(unknown))


def _price_with(t: StepTrace, found: Any) -> tuple[float | None, PriceState, str | None]:
    if not t.model:
        return None, "no model named", None
    if t.input_tokens is None or t.output_tokens is None:
        return None, "tokens not recorded", None
    if found is None:
        return None, "price unknown", None
    return found.cost(t.input_tokens, t.output_tokens), "priced", found.key
