"""litellm plumbing: the lazy import and the custom providers.

litellm is imported only here, only when a call needs it (a model string that is not a
built-in `dgrr/...` model, or a test that asks for the litellm path), and always with the
offline settings: importing it takes seconds and must never reach the network.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from .._reference_model import REFERENCE_MODEL

__all__ = ["import_litellm", "register_provider", "REFERENCE_MODEL"]

_HANDLERS: dict[str, Callable[[list[dict[str, Any]], str], str]] = {}


def import_litellm() -> Any:
    """Import litellm with offline settings (it is slow and must not reach the network)."""
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    if "dgrr" not in _HANDLERS:
        _install(litellm, "dgrr", _builtin_reply)
    return litellm


def _builtin_reply(messages: list[dict[str, Any]], model: str) -> str:
    """The `dgrr` provider: the same reply function the in-process path calls."""
    from ._builtin import PREFIX, resolve_builtin

    reply = resolve_builtin(PREFIX + model)
    assert reply is not None
    return reply(messages)


def register_provider(provider: str, reply: Callable[[list[dict[str, Any]]], str]) -> None:
    """Serve `provider/<anything>` from `reply(messages) -> text` (tests use this to
    register deliberately broken models)."""
    _install(import_litellm(), provider, lambda messages, model: reply(messages))


def _install(litellm: Any, provider: str,
             reply: Callable[[list[dict[str, Any]], str], str]) -> None:
    from litellm import CustomLLM

    from ._builtin import usage

    class _Handler(CustomLLM):  # type: ignore[misc]
        def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            model_response = kwargs.get("model_response")
            if model_response is None:
                model_response = litellm.ModelResponse()
            text = reply(messages, model)
            prompt, completion = usage(messages, text)
            model_response.choices[0].message.content = text
            model_response.model = f"{provider}/{model}"
            model_response.created = int(time.time())
            model_response.usage = litellm.Usage(  # type: ignore[attr-defined]
                prompt_tokens=prompt, completion_tokens=completion,
                total_tokens=prompt + completion)
            return model_response

    _HANDLERS[provider] = reply
    entries = [e for e in (litellm.custom_provider_map or []) if e.get("provider") != provider]
    entries.append({"provider": provider, "custom_handler": _Handler()})
    litellm.custom_provider_map = entries
    litellm.utils.custom_llm_setup()
