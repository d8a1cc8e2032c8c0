"""What a model's tokens cost, in US dollars, by litellm's own price table: the
`litellm.model_cost` of an offline litellm, which is the table litellm installs beside its
code (`model_prices_and_context_window_backup.json`). When litellm is already imported its
`model_cost` is read; otherwise that file is read itself (importing litellm costs seconds
of CPU), and never fetched. A model the table does not list has no price: the caller says
"price unknown", nothing is guessed from a similar name.

>>> table = {"gpt-4o-mini": {"input_cost_per_token": 1.5e-07, "output_cost_per_token": 6e-07,
...                          "litellm_provider": "openai"}}
>>> p = token_price("openai/gpt-4o-mini", table=table)
>>> p.key, round(p.cost(1000, 100), 8)
('gpt-4o-mini', 0.00021)
>>> token_price("gpt-4o-mini-fancy", table=table) is None
True
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["TokenPrice", "token_price", "price_table"]


@dataclass(frozen=True)
class TokenPrice:
    """One model's price per token in litellm's table."""

    key: str
    """The table's entry that priced it (the model's own name, or `provider/model`)."""
    input_per_token: float
    """US dollars per prompt token."""
    output_per_token: float
    """US dollars per completion token."""

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """US dollars for a call of these many prompt and completion tokens."""
        return input_tokens * self.input_per_token + output_tokens * self.output_per_token


_TABLE_FILE = "model_prices_and_context_window_backup.json"
"""The price table litellm installs and loads when offline."""


@cache
def price_table() -> Mapping[str, Any]:
    """litellm's model price table as installed (read once; no network); {} when litellm
    is not installed."""
    loaded = sys.modules.get("litellm")
    table = getattr(loaded, "model_cost", None) if loaded is not None else None
    if isinstance(table, Mapping) and table:
        return table
    spec = importlib.util.find_spec("litellm")  # finds the package without running it
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder) / _TABLE_FILE
        if path.is_file():
            found = json.loads(path.read_bytes())
            return found if isinstance(found, dict) else {}
    return {}


def _entry(table: Mapping[str, Any], key: str) -> TokenPrice | None:
    entry = table.get(key)
    if not isinstance(entry, Mapping):
        return None
    prices = [v for v in (entry.get("input_cost_per_token"), entry.get("output_cost_per_token"))
              if isinstance(v, int | float) and not isinstance(v, bool) and v >= 0]
    if len(prices) != 2:
        return None
    return TokenPrice(key=key, input_per_token=float(prices[0]),
                      output_per_token=float(prices[1]))


def token_price(model: str | None, provider: str | None = None, *,
                table: Mapping[str, Any] | None = None) -> TokenPrice | None:
    """The price of `model` in litellm's table (or `table`): its own entry, else
    `provider/model`'s, else, for a `provider/name` model, `name`'s when the table says
    that entry is the provider's; None when none of these is listed with both prices."""
    if not model:
        return None
    table = price_table() if table is None else table
    found = _entry(table, model)
    if found is None and provider:
        found = _entry(table, f"{provider}/{model}")
    if found is None and "/" in model:
        prefix, name = model.split("/", 1)
        entry = table.get(name)
        if isinstance(entry, Mapping) and entry.get("litellm_provider") == prefix:
            found = _entry(table, name)
    return found
