"""The replays a session keeps of one plan: each result with the model that replayed it,
when it finished, how long it took, its model calls, tokens and what they cost, so Compare
can set any two side by side; the last one as the server keeps it for a reload. No
Streamlit here (`state` keeps the list)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from repair_core import RepairResult
from repair_core._prices import token_price
from repair_core.model._reference import count_tokens

__all__ = ["KeptReplay", "ReplayOfPlan", "kept_replay", "replay_cost", "REPLAYS_KEPT"]

REPLAYS_KEPT = 5
"""How many replays of one plan a session keeps (the oldest goes first)."""

_BUILTIN = "dgrr/"


class KeptReplay(BaseModel):
    """One replay the session keeps."""

    model_config = ConfigDict(frozen=True)

    number: int
    """Its number in this session's replays of the plan, from 1 (stays with it when older
    ones are dropped)."""
    model: str
    """The model string that replayed it."""
    finished: dt.datetime
    """When it finished (UTC)."""
    seconds: float
    """How long it ran, wall clock."""
    llm_calls: int
    """Model calls that got a reply (retries included)."""
    tokens: int
    """Prompt plus completion tokens of those calls."""
    dollars: float | None
    """What the calls cost in US dollars by litellm's price table: 0 for a built-in
    offline model, None when the table does not price the model."""
    result: RepairResult
    """The repair result itself."""
    restored: bool = Field(default=False, exclude=True)
    """True when it was read back from the server after a reload of the page (run by an
    earlier session at the same address), not run in this session."""

    @property
    def label(self) -> str:
        """How a picker names it (plain text: the model string is the reviewer's)."""
        return f"Replay {self.number} · {self.model} · {self.finished:%H:%M:%S}"


class ReplayOfPlan(BaseModel):
    """The last replay of a plan as the server keeps it for a reload (`kept_cases`)."""

    model_config = ConfigDict(frozen=True)

    plan_key: str
    """`state.plan_key` of the plan it replayed: after a reload it is the current result
    only while the plan is that one again."""
    replay: KeptReplay
    """The replay."""


def replay_cost(model: str, log: Any, *, table: Mapping[str, Any] | None = None
                ) -> float | None:
    """US dollars of the calls in `log` (`ModelClient.log`) at `model`'s token prices.

    The log keeps each call's total tokens; the prompt's share is counted from the messages
    sent (as the client counts a reply without usage), the rest priced as completion."""
    if model.startswith(_BUILTIN):
        return 0.0
    price = token_price(model, table=table)
    if price is None:
        return None
    dollars = 0.0
    for record in log:
        prompt = sum(count_tokens(str(m.get("content") or "")) for m in record.messages)
        prompt = min(prompt, record.tokens)
        dollars += price.cost(prompt, record.tokens - prompt)
    return dollars


def kept_replay(number: int, result: RepairResult, client: Any, seconds: float,
                *, finished: dt.datetime | None = None) -> KeptReplay:
    """`result`, replayed by `client` (a `ModelClient`) in `seconds`, as replay `number`."""
    model = str(getattr(client, "model", "") or result.report.model)
    return KeptReplay(number=number, model=model,
                      finished=finished or dt.datetime.now(dt.UTC), seconds=seconds,
                      llm_calls=result.cost.llm_calls, tokens=result.cost.tokens,
                      dollars=replay_cost(model, getattr(client, "log", [])),
                      result=result)
