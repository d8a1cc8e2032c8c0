"""The one wrapper every model call goes through."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from .._errors import ModelError
from ._builtin import resolve_builtin, usage
from ._contracts import ReplyError, evidence_ids, render_prompt, validate_reply
from ._provider import REFERENCE_MODEL, import_litellm
from ._reference import count_tokens

__all__ = ["ModelClient", "CallRecord", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 60.0
"""Seconds one model call may take before it is abandoned."""

# Exceptions (by class name anywhere in their MRO) that mean no reply came back at all:
# refused or dropped connections and timeouts, from litellm, the openai SDK, httpx or Python.
_CONNECTION_FAILURES = frozenset({
    "APIConnectionError", "APITimeoutError", "Timeout", "TimeoutException", "ConnectError",
    "ReadTimeout", "ConnectTimeout", "RemoteProtocolError", "ConnectionError", "TimeoutError",
})


def connection_failure(exc: BaseException) -> BaseException | None:
    """The root cause of `exc` when it says the model never answered (a refused or dropped
    connection, a timeout), or None when the model answered with an error. litellm wraps a
    refused connection in an InternalServerError and a provider's own error in an
    APIConnectionError, so the root of the chain decides."""
    seen: set[int] = set()
    root = exc
    while id(root) not in seen:
        seen.add(id(root))
        nxt = root.__cause__ or root.__context__
        if nxt is None:
            break
        root = nxt
    if any(c.__name__ in _CONNECTION_FAILURES for c in type(root).__mro__):
        return root
    return None


class DeadlinePassed(Exception):
    """The client's overall deadline left no time for another call."""


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
    connection_failed: bool = False
    """True when no reply came back (refused or dropped connection, timeout): such a call
    is counted in `ModelClient.connection_failures`, not in `ModelClient.calls`."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Caller context, e.g. the step id being replayed."""


class ModelClient:
    """Calls a model with temperature 0 and a fixed seed, asks for JSON, validates the reply
    against the stage's contract and retries once; counts calls and tokens itself.

    A built-in model (`dgrr/<policy>`, see `_builtin`) is called in-process without
    importing litellm, unless `via_litellm` asks for litellm's custom-provider path; any
    other model string goes through `litellm.completion`.

    Every call is bounded: `timeout` seconds per call (the SDK's own retries are turned
    off; this client's retry is the only one), and `deadline` seconds for all calls of the
    client together, counted from its first call. A call that gets no reply at all is
    counted in `connection_failures`, not in `calls`.

    Each call is kept in `log` (messages sent, reply, tokens) unless `keep_log` is False:
    `dgrr repair` reads none of it, and at 300k steps the log held 18,000 prompts.

    >>> c = ModelClient()
    >>> out = c.complete_json("answer", {"request": {"id": "u1", "text": "hi"}, "evidence": []})
    >>> c.calls, c.connection_failures, out.cites
    (1, 0, [])
    """

    def __init__(self, model: str = REFERENCE_MODEL, api_base: str | None = None, *,
                 seed: int = 42, max_retries: int = 1, api_key: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, deadline: float | None = None,
                 via_litellm: bool = False, keep_log: bool = True) -> None:
        if not timeout > 0:
            raise ModelError(f"timeout {timeout!r}: must be a positive number of seconds")
        if deadline is not None and not deadline > 0:
            raise ModelError(f"deadline {deadline!r}: must be a positive number of seconds")
        self.model = model
        self.api_base = api_base
        self.seed = seed
        self.max_retries = max_retries
        self.api_key = api_key
        self.timeout = float(timeout)
        self.deadline = None if deadline is None else float(deadline)
        self.builtin = None if via_litellm else resolve_builtin(model)
        self.calls = 0
        self.connection_failures = 0
        self.tokens = 0
        self.log: list[CallRecord] = []
        self.keep_log = keep_log
        self.tags: dict[str, str] = {}
        self._started: float | None = None
        self._last_timeout = self.timeout

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without a deadline)."""
        if self.deadline is None:
            return None
        if self._started is None:
            return self.deadline
        return self.deadline - (time.monotonic() - self._started)

    def complete_json(self, stage: str, inputs: dict[str, Any], *,
                      evidence: Iterable[str] | None = None) -> Any:
        """The stage's validated output; raises ModelError after `max_retries` retries."""
        allowed = list(evidence) if evidence is not None else evidence_ids(inputs)
        messages = render_prompt(stage, inputs)
        problems: list[str] = []
        for attempt in range(1, self.max_retries + 2):
            record = CallRecord(stage=stage, attempt=attempt, messages=list(messages),
                                tags=dict(self.tags)) if self.keep_log else _unlogged()
            if self.keep_log:
                self.log.append(record)
            try:
                reply = self._send(messages, record)
            except DeadlinePassed as exc:  # no call made, so none counted
                record.error = str(exc)
                problems.append(record.error)
                break
            except Exception as exc:  # a transport or provider error is a failed call
                record.error = self._describe_failure(exc, record)
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

    def _describe_failure(self, exc: Exception, record: CallRecord) -> str:
        """Count a call that raised and say what happened, in one line."""
        cause = connection_failure(exc)
        if cause is not None:
            self.connection_failures += 1
            record.connection_failed = True
            where = self.api_base or self.model
            chain = f"{type(exc).__name__} {type(cause).__name__} {exc} {cause}".lower()
            if "timeout" in chain or "timed out" in chain:
                bound = "--timeout" if self._last_timeout >= self.timeout else "what --deadline left"
                return f"no reply from {where} within {self._last_timeout:g} s ({bound})"
            return f"cannot reach {where}: {type(cause).__name__}: {_first_line(cause)}"
        self.calls += 1  # the model answered, with an error
        return f"call failed: {type(exc).__name__}: {_first_line(exc)}"

    def _call_timeout(self) -> float:
        """This call's timeout: `timeout`, cut to what is left before the deadline."""
        if self._started is None:
            self._started = time.monotonic()
        left = self.remaining()
        if left is not None and left <= 0:
            raise DeadlinePassed(f"deadline of {self.deadline:g} s passed (--deadline); "
                                 "call not made")
        self._last_timeout = self.timeout if left is None else min(self.timeout, left)
        return self._last_timeout

    def _send(self, messages: list[dict[str, Any]], record: CallRecord) -> str:
        if self.builtin is not None:
            self._call_timeout()
            text = self.builtin(messages)
            prompt, completion = usage(messages, text)
            total = prompt + completion
        else:
            litellm = import_litellm()  # before the clock starts: importing takes seconds
            text, total = self._send_litellm(litellm, messages, self._call_timeout())
        self.calls += 1
        self.tokens += total
        record.tokens = total
        record.reply = text
        return text

    def _send_litellm(self, litellm: Any, messages: list[dict[str, Any]], timeout: float
                      ) -> tuple[str, int]:
        kwargs: dict[str, Any] = {
            "model": self.model, "messages": messages, "temperature": 0, "seed": self.seed,
            "response_format": {"type": "json_object"}, "timeout": timeout,
            "max_retries": 0, "num_retries": 0,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
            kwargs["api_key"] = self.api_key or os.environ.get("OPENAI_API_KEY") or "dgrr-local"
        elif self.api_key:
            kwargs["api_key"] = self.api_key
        from ._bounded import GRACE, install_no_redirects, within

        install_no_redirects(litellm)  # no prompt re-sent where a 3xx points
        # the SDK's timeout bounds each read; the wall clock bounds the call (a grace of
        # GRACE s lets the SDK's own, clearer timeout fire first on a silent server)
        response = within(timeout + GRACE, lambda: litellm.completion(**kwargs))
        text = response.choices[0].message.content or ""
        usage_ = getattr(response, "usage", None)
        total = getattr(usage_, "total_tokens", None) if usage_ is not None else None
        if not total:
            total = sum(count_tokens(str(m.get("content") or "")) for m in messages) \
                + count_tokens(text)
        return text, int(total)

    def prompts(self) -> list[str]:
        """Every message text sent so far (for tests and audits)."""
        return [str(m.get("content") or "") for r in self.log for m in r.messages]


def _unlogged() -> CallRecord:
    """A call's record that goes into no log: it carries the reply and the error while the
    call is made, not the messages."""
    return CallRecord.model_construct(stage="", attempt=0, messages=[], reply=None, error=None,
                                      tokens=0, connection_failed=False, tags={})


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else "(no message)"
