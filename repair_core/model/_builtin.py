"""The built-in models: `dgrr/<policy>` strings answered in-process, without litellm.

A built-in model string is `dgrr/<policy>` with an optional noise suffix
`dgrr/<policy>/noise=P` (P a float in [0, 1]). `POLICIES` maps a policy name to a factory
taking the noise rate and returning the reply function `messages -> text`;
`parse_builtin` splits a model string into policy and noise, `resolve_builtin` gives its
reply function. The model client calls the reply function directly
(no litellm import) and the litellm custom provider `dgrr` calls the same function, so both
paths give one answer.

Built-in policies are deterministic: noise is seeded from the message content
(`_noise.py`), never from global randomness.

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
from ._reference import count_tokens

__all__ = ["POLICIES", "PREFIX", "ReplyFn", "parse_builtin", "resolve_builtin", "usage"]

PREFIX = "dgrr/"
"""Model strings with this prefix are built-in models."""

ReplyFn = Callable[[list[dict[str, Any]]], str]
"""A model: the rendered messages in, the reply text out."""


def _reference(noise: float) -> ReplyFn:
    from ._noise import with_noise
    from ._reference import reference_reply

    return with_noise(reference_reply, noise, salt="reference")


def _reference_b(noise: float) -> ReplyFn:
    from ._noise import with_noise
    from ._reference_b import reference_b_reply

    return with_noise(reference_b_reply, noise, salt="reference-b")


def _rolling(vulnerable: bool) -> Callable[[float], ReplyFn]:
    def factory(noise: float) -> ReplyFn:
        from ._noise import with_noise
        from ._rolling import rolling_reply

        def reply(messages: list[dict[str, Any]]) -> str:
            return rolling_reply(messages, vulnerable)

        return with_noise(reply, noise, salt="rolling-vulnerable" if vulnerable else "rolling")

    return factory


POLICIES: dict[str, Callable[[float], ReplyFn]] = {
    "reference": _reference,
    "reference-b": _reference_b,
    "rolling": _rolling(False),
    "rolling-vulnerable": _rolling(True),
    "agentdojo-vulnerable": lambda noise: _agentdojo_reply(),
}


def _agentdojo_reply() -> ReplyFn:
    from ._agentdojo import agentdojo_reply

    return agentdojo_reply
"""Policy name -> factory (noise rate -> reply function)."""


def parse_builtin(model: str) -> tuple[str, float] | None:
    """(policy, noise rate) of a built-in model string; None for any other model string.

    Raises ModelError for an unknown policy or a bad option.

    >>> parse_builtin("dgrr/rolling/noise=0.1")
    ('rolling', 0.1)
    >>> parse_builtin("dgrr/reference")
    ('reference', 0.0)
    >>> parse_builtin("gpt-4o") is None
    True
    >>> parse_builtin("dgrr/nope")
    Traceback (most recent call last):
    ModelError: model 'dgrr/nope': unknown built-in policy 'nope' (known: agentdojo-vulnerable, reference, reference-b, rolling, rolling-vulnerable)
    """
    if not model.startswith(PREFIX):
        return None
    policy, *options = model[len(PREFIX):].split("/")
    if policy not in POLICIES:
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
    return policy, noise


def resolve_builtin(model: str) -> ReplyFn | None:
    """The reply function of a built-in model string; None for any other model string.

    Raises ModelError for an unknown policy or a bad option.

    >>> callable(resolve_builtin("dgrr/reference-b/noise=0.1"))
    True
    """
    parsed = parse_builtin(model)
    if parsed is None:
        return None
    policy, noise = parsed
    return POLICIES[policy](noise)


def usage(messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
    """(prompt tokens, completion tokens) of a built-in model's call, counted the same way
    on every path (in-process, litellm custom provider, `dgrr serve-model`)."""
    prompt = sum(count_tokens(str(m.get("content") or "")) for m in messages
                 if isinstance(m, dict))
    return prompt, count_tokens(text)
