"""Built-in models: `dgrr/<policy>` with an optional noise suffix `dgrr/<policy>/noise=P`.

`POLICIES` maps a policy name to a factory taking the noise rate and returning the reply
function `messages -> text`. `resolve_builtin` parses a model string; the in-process path
and the litellm custom provider both call it. The policies are deterministic: noise is
seeded from the message content (`_noise.py`), never from global randomness.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._errors import ModelError

__all__ = ["POLICIES", "resolve_builtin"]

Reply = Callable[[list[dict[str, Any]]], str]


def _reference(noise: float) -> Reply:
    from ._noise import with_noise
    from ._reference import reference_reply

    return with_noise(reference_reply, noise, salt="reference")


def _reference_b(noise: float) -> Reply:
    from ._noise import with_noise
    from ._reference_b import reference_b_reply

    return with_noise(reference_b_reply, noise, salt="reference-b")


POLICIES: dict[str, Callable[[float], Reply]] = {
    "reference": _reference,
    "reference-b": _reference_b,
}
"""Policy name -> factory (noise rate -> reply function)."""

_MODEL = re.compile(r"^dgrr/(?P<policy>[^/]+)(?:/noise=(?P<noise>[^/]*))?$")


def resolve_builtin(model: str) -> Reply | None:
    """The reply function of a built-in model string; None for a model that is not
    `dgrr/...`; ModelError for an unknown policy or a bad noise rate.

    >>> resolve_builtin("openai/gpt-4o") is None
    True
    >>> callable(resolve_builtin("dgrr/reference-b/noise=0.1"))
    True
    """
    if not model.startswith("dgrr/"):
        return None
    m = _MODEL.match(model)
    if m is None:
        raise ModelError(f"model {model!r}: expected dgrr/<policy> or dgrr/<policy>/noise=P")
    policy = m.group("policy")
    if policy not in POLICIES:
        raise ModelError(f"model {model!r}: unknown built-in policy {policy!r}; known: "
                         f"{', '.join(POLICIES)}")
    noise = 0.0
    if m.group("noise") is not None:
        try:
            noise = float(m.group("noise"))
        except ValueError:
            noise = -1.0
        if not 0.0 <= noise <= 1.0:
            raise ModelError(f"model {model!r}: noise must be a number in [0, 1], got "
                             f"{m.group('noise')!r}")
    return POLICIES[policy](noise)
