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

__all__ = ["POLICIES", "PREFIX", "ReplyFn", "builtin_salt", "parse_builtin", "resolve_builtin",
           "usage"]

PREFIX = "dgrr/"
"""Model strings with this prefix are built-in models."""

ReplyFn = Callable[[list[dict[str, Any]]], str]
"""A model: the rendered messages in, the reply text out."""


def _salted(name: str, salt: str) -> str:
    # no salt keeps the policy's own name as the noise seed: every committed run stays
    return name if not salt else f"{name}#{salt}"


def _reference(noise: float, salt: str = "") -> ReplyFn:
    from ._noise import with_noise
    from ._reference import reference_reply

    return with_noise(reference_reply, noise, salt=_salted("reference", salt))


def _reference_b(noise: float, salt: str = "") -> ReplyFn:
    from ._noise import with_noise
    from ._reference_b import reference_b_reply

    return with_noise(reference_b_reply, noise, salt=_salted("reference-b", salt))


def _rolling(vulnerable: bool) -> Callable[..., ReplyFn]:
    def factory(noise: float, salt: str = "") -> ReplyFn:
        from ._noise import with_noise
        from ._rolling import rolling_reply

        def reply(messages: list[dict[str, Any]]) -> str:
            return rolling_reply(messages, vulnerable)

        name = "rolling-vulnerable" if vulnerable else "rolling"
        return with_noise(reply, noise, salt=_salted(name, salt))

    return factory


POLICIES: dict[str, Callable[..., ReplyFn]] = {
    "reference": _reference,
    "reference-b": _reference_b,
    "rolling": _rolling(False),
    "rolling-vulnerable": _rolling(True),
    "agentdojo-vulnerable": lambda noise, salt="": _agentdojo_reply(),
}


def _agentdojo_reply() -> ReplyFn:
    from ._agentdojo import agentdojo_reply

    return agentdojo_reply
"""Policy name -> factory (noise rate -> reply function)."""


def parse_builtin(model: str) -> tuple[str, float] | None:
    """(policy, noise rate) of a built-in model string; None for any other model string.
    The noise salt (`builtin_salt`) is left out.

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
    parsed = _parse(model)
    return None if parsed is None else parsed[:2]


def builtin_salt(model: str) -> str:
    """The noise salt of a built-in model string (`dgrr/<policy>/noise=P/salt=S`; "" when
    none is given, and for any other model string).

    >>> builtin_salt("dgrr/reference/noise=0.1/salt=7")
    '7'
    >>> builtin_salt("dgrr/reference/noise=0.1")
    ''
    """
    parsed = _parse(model)
    return "" if parsed is None else parsed[2]


def _parse(model: str) -> tuple[str, float, str] | None:
    if not model.startswith(PREFIX):
        return None
    policy, *options = model[len(PREFIX):].split("/")
    if policy not in POLICIES:
        raise ModelError(f"model {model!r}: unknown built-in policy {policy!r} "
                         f"(known: {', '.join(sorted(POLICIES))})")
    noise, salt = 0.0, ""
    for option in options:
        key, sep, value = option.partition("=")
        if key == "salt" and sep:
            if not value or len(value) > 32 or not all(
                    c.isascii() and (c.isalnum() or c in "-_") for c in value):
                raise ModelError(f"model {model!r}: salt={value!r} must be 1 to 32 letters, "
                                 "digits, '-' or '_'")
            salt = value
            continue
        if key != "noise" or not sep:
            raise ModelError(f"model {model!r}: unknown option {option!r} "
                             "(the options are noise=P with P in [0, 1] and salt=S)")
        try:
            noise = float(value)
        except ValueError:
            noise = math.nan
        if not 0.0 <= noise <= 1.0:  # also refuses NaN
            raise ModelError(f"model {model!r}: noise={value!r} is not a number in [0, 1]")
    return policy, noise, salt


def resolve_builtin(model: str) -> ReplyFn | None:
    """The reply function of a built-in model string; None for any other model string.

    Raises ModelError for an unknown policy or a bad option.

    >>> callable(resolve_builtin("dgrr/reference-b/noise=0.1"))
    True
    """
    parsed = _parse(model)
    if parsed is None:
        return None
    policy, noise, salt = parsed
    # a policy registered with a one-argument factory (noise) still works without a salt
    return POLICIES[policy](noise, salt) if salt else POLICIES[policy](noise)


def usage(messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
    """(prompt tokens, completion tokens) of a built-in model's call, counted the same way
    on every path (in-process, litellm custom provider, `dgrr serve-model`)."""
    prompt = sum(count_tokens(str(m.get("content") or "")) for m in messages
                 if isinstance(m, dict))
    return prompt, count_tokens(text)
