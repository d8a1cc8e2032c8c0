"""The built-in models: `dgrr/<policy>` strings answered in-process, without litellm.

A built-in model string is `dgrr/<policy>` with an optional noise suffix
`dgrr/<policy>/noise=P` (P a float in [0, 1]). `resolve_builtin` turns it into a reply
function `messages -> text`; the model client calls it directly (no litellm import) and the
litellm custom provider `dgrr` calls the same function, so both paths give one answer.

Built-in policies are deterministic: any noise is seeded from the message content, never
from global randomness.

>>> reply = resolve_builtin("dgrr/reference")
>>> reply is not None and callable(reply)
True
>>> resolve_builtin("gpt-4o") is None
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .._errors import ModelError
from ._reference import count_tokens, reference_reply

__all__ = ["POLICIES", "PREFIX", "ReplyFn", "resolve_builtin", "usage"]

PREFIX = "dgrr/"
"""Model strings with this prefix are built-in models."""

ReplyFn = Callable[[list[dict[str, Any]]], str]
"""A model: the rendered messages in, the reply text out."""


def _reference(noise: float) -> ReplyFn:
    if noise:
        raise ModelError("dgrr/reference: this policy has no noise (use noise=0 or omit it)")
    return reference_reply


POLICIES: dict[str, Callable[[float], ReplyFn]] = {
    "reference": _reference,
}
"""Policy name -> factory taking the noise level -> reply function."""


def resolve_builtin(model: str) -> ReplyFn | None:
    """The reply function of a built-in model string; None for any other model string.

    Raises ModelError for an unknown policy or a bad option.

    >>> resolve_builtin("dgrr/nope")
    Traceback (most recent call last):
    ModelError: model 'dgrr/nope': unknown built-in policy 'nope' (known: reference)
    """
    if not model.startswith(PREFIX):
        return None
    policy, *options = model[len(PREFIX):].split("/")
    factory = POLICIES.get(policy)
    if factory is None:
        raise ModelError(f"model {model!r}: unknown built-in policy {policy!r} "
                         f"(known: {', '.join(sorted(POLICIES))})")
    noise = 0.0
    for option in options:
        key, sep, value = option.partition("=")
        if key != "noise" or not sep:
            raise ModelError(f"model {model!r}: unknown option {option!r} "
                             "(the only option is noise=P with P in [0, 1])")
        try:
            noise = float(value)
        except ValueError:
            noise = math.nan
        if not 0.0 <= noise <= 1.0:  # also refuses NaN
            raise ModelError(f"model {model!r}: noise={value!r} is not a number in [0, 1]")
    return factory(noise)


def usage(messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
    """(prompt tokens, completion tokens) of a built-in model's call, counted the same way
    on every path (in-process, litellm custom provider, `dgrr serve-model`)."""
    prompt = sum(count_tokens(str(m.get("content") or "")) for m in messages
                 if isinstance(m, dict))
    return prompt, count_tokens(text)
