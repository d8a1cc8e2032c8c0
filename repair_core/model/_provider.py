"""litellm plumbing: the lazy import and the `dgrr/...` custom providers."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

__all__ = ["import_litellm", "register_provider", "REFERENCE_MODEL"]

REFERENCE_MODEL = "dgrr/reference"
_HANDLERS: dict[str, Callable[[list[dict[str, Any]]], str]] = {}


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


def _builtin_reply(messages: list[dict[str, Any]], model: str = "reference") -> str:
    """Serve `dgrr/<policy>[/noise=P]` through `_builtin.resolve_builtin`."""
    from ._builtin import resolve_builtin

    reply = resolve_builtin(f"dgrr/{model}")
    assert reply is not None
    return reply(messages)


def register_provider(provider: str, reply: Callable[[list[dict[str, Any]]], str]) -> None:
    """Serve `provider/<anything>` from `reply(messages) -> text` (tests use this to
    register deliberately broken models)."""
    _install(import_litellm(), provider, reply)


def _install(litellm: Any, provider: str, reply: Callable[[list[dict[str, Any]]], str]) -> None:
    from litellm import CustomLLM

    from ._reference import count_tokens

    class _Handler(CustomLLM):  # type: ignore[misc]
        def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            model_response = kwargs.get("model_response")
            if model_response is None:
                model_response = litellm.ModelResponse()
            text = (_builtin_reply(messages, model) if reply is _builtin_reply
                    else reply(messages))
            prompt = sum(count_tokens(str(m.get("content") or "")) for m in messages)
            model_response.choices[0].message.content = text
            model_response.model = f"{provider}/{model}"
            model_response.created = int(time.time())
            model_response.usage = litellm.Usage(  # type: ignore[attr-defined]
                prompt_tokens=prompt, completion_tokens=count_tokens(text),
                total_tokens=prompt + count_tokens(text))
            return model_response

    _HANDLERS[provider] = reply
    entries = [e for e in (litellm.custom_provider_map or []) if e.get("provider") != provider]
    entries.append({"provider": provider, "custom_handler": _Handler()})
    litellm.custom_provider_map = entries
    litellm.utils.custom_llm_setup()
