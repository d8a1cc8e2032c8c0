"""What the model judge expects to spend on a set of questions, worked out before its
first call: how many questions, how many of them are new (not answered by its cache, each
asked once however often it recurs), how many calls they take once batched, how many of
those its budget allows, and the tokens and dollars those calls should cost.

Tokens are counted from the messages' characters (`CHARS_PER_TOKEN`) plus a short answer
per question (`ANSWER_TOKENS`); dollars use litellm's price table (`litellm.model_cost`,
read offline) when it knows the model, else the cost is left unknown (None).
"""

from __future__ import annotations

import math

from pydantic import BaseModel

from .._prices import token_price

__all__ = ["JudgeEstimate", "CHARS_PER_TOKEN", "ANSWER_TOKENS", "model_price",
           "estimated_tokens"]

CHARS_PER_TOKEN = 4
"""Characters of prompt per token, as an estimate (English text and JSON average about
four)."""
ANSWER_TOKENS = 60
"""Tokens one answer takes, as an estimate (an id, a verdict and one sentence)."""


class JudgeEstimate(BaseModel):
    """The model judge's plan for one check, made before its first call."""

    model: str
    """The litellm model string asked."""
    questions: int
    """(text, fault) pairs put to the model judge, before deduplication."""
    distinct: int
    """Of those, the distinct ones (by the hash of the fault and the text)."""
    cached: int
    """Distinct questions its cache already answers: no call."""
    to_ask: int
    """Distinct questions the model is asked within the budget."""
    unasked: int
    """Distinct questions beyond the budget: left not certified ("judge budget spent")."""
    calls: int
    """Calls the questions to ask take, batched (at most `budget` minus calls already
    made)."""
    batch: int
    """Questions one call holds at most."""
    budget: int
    """The judge's budget in calls (`--judge-budget`), for the whole run."""
    tokens: int
    """Prompt plus answer tokens the calls should take (an estimate)."""
    cost: float | None
    """USD the calls should cost at litellm's price for the model; None when litellm does
    not know its price."""

    def line(self) -> str:
        """The estimate as one line of plain text."""
        cost = "price unknown" if self.cost is None else f"~${self.cost:.4f}"
        return (f"model judge {self.model}: {self.questions} question(s), {self.distinct} "
                f"distinct, {self.cached} cached; asking {self.to_ask} in {self.calls} "
                f"call(s) of up to {self.batch}, ~{self.tokens} tokens, {cost}; "
                f"{self.unasked} left unasked by the budget of {self.budget} call(s)")


def estimated_tokens(chars: int) -> int:
    """Tokens `chars` characters of prompt take, as an estimate."""
    return math.ceil(chars / CHARS_PER_TOKEN)


def model_price(model: str) -> tuple[float, float] | None:
    """(USD per prompt token, USD per completion token) of `model` in litellm's price
    table, read offline (`repair_core._prices`: the table litellm installs, without
    importing litellm), or None when the table does not know it."""
    price = token_price(model)
    return None if price is None else (price.input_per_token, price.output_per_token)
