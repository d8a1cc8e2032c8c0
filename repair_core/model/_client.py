"""The one wrapper every model call goes through."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from .._errors import ModelError
from ._contracts import ReplyError, evidence_ids, render_prompt, validate_reply
from ._provider import REFERENCE_MODEL, import_litellm
from ._reference import count_tokens

__all__ = ["ModelClient", "CallRecord"]


class CallRecord(BaseModel):
    """One model call as sent and received."""

    stage: str
    """Prompt stage (claim, plan, answer, memory_write, consolidate)."""
    attempt: int
    """1 for the first try, 2 for the retry."""
    messages: list[dict[str, Any]]
    """The messages sent."""
    reply: str | None = None
    """The reply text (None when the call itself failed)."""
    error: str | None = None
    """Why the reply was refused, if it was."""
    tokens: int = 0
    """Prompt plus completion tokens of this call."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Caller context, e.g. the step id being replayed."""


class ModelClient:
    """Calls a litellm model with temperature 0 and a fixed seed, asks for JSON, validates
    the reply against the stage's contract and retries once; counts calls and tokens itself.

    >>> c = ModelClient()
    >>> out = c.complete_json("answer", {"request": {"id": "u1", "text": "hi"}, "evidence": []})
    >>> c.calls, out.cites
    (1, [])
    """

    def __init__(self, model: str = REFERENCE_MODEL, api_base: str | None = None, *,
                 seed: int = 42, max_retries: int = 1, api_key: str | None = None,
                 timeout: float = 120.0) -> None:
        self.model = model
        self.api_base = api_base
        self.seed = seed
        self.max_retries = max_retries
        self.api_key = api_key
        self.timeout = timeout
        self.calls = 0
        self.tokens = 0
        self.log: list[CallRecord] = []
        self.tags: dict[str, str] = {}

    def complete_json(self, stage: str, inputs: dict[str, Any], *,
                      evidence: Iterable[str] | None = None) -> Any:
        """The stage's validated output; raises ModelError after `max_retries` retries."""
        allowed = list(evidence) if evidence is not None else evidence_ids(inputs)
        messages = render_prompt(stage, inputs)
        problems: list[str] = []
        for attempt in range(1, self.max_retries + 2):
            record = CallRecord(stage=stage, attempt=attempt, messages=list(messages),
                                tags=dict(self.tags))
            self.log.append(record)
            try:
                reply = self._send(messages, record)
            except Exception as exc:  # a transport or provider error is a failed call
                record.error = f"call failed: {type(exc).__name__}: {exc}"
                problems.append(record.error)
                continue
            try:
                return validate_reply(stage, reply, allowed)
            except ReplyError as exc:
                record.error = str(exc)
                problems.append(str(exc))
                messages = [*messages, {"role": "assistant", "content": reply},
                            {"role": "user", "content":
                             f"Your reply was refused: {exc}. Reply again with one JSON object "
                             "that follows the contract, citing only ids from the INPUT."}]
        distinct = list(dict.fromkeys(problems))
        raise ModelError(f"{stage}: no valid reply after {len(problems)} attempt(s): "
                         + " | ".join(distinct)
                         + (" (every attempt)" if len(distinct) < len(problems) else ""))

    def _send(self, messages: list[dict[str, Any]], record: CallRecord) -> str:
        litellm = import_litellm()
        kwargs: dict[str, Any] = {
            "model": self.model, "messages": messages, "temperature": 0, "seed": self.seed,
            "response_format": {"type": "json_object"}, "timeout": self.timeout,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
            kwargs["api_key"] = self.api_key or os.environ.get("OPENAI_API_KEY") or "dgrr-local"
        elif self.api_key:
            kwargs["api_key"] = self.api_key
        self.calls += 1
        response = litellm.completion(**kwargs)
        text = response.choices[0].message.content or ""
        usage = getattr(response, "usage", None)
        total = getattr(usage, "total_tokens", None) if usage is not None else None
        if not total:
            total = sum(count_tokens(str(m.get("content") or "")) for m in messages) \
                + count_tokens(text)
        self.tokens += int(total)
        record.tokens = int(total)
        record.reply = text
        return text

    def prompts(self) -> list[str]:
        """Every message text sent so far (for tests and audits)."""
        return [str(m.get("content") or "") for r in self.log for m in r.messages]
