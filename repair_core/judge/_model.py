"""The model judge: a model (through litellm) asked whether a text carries a fault's
content, only about the texts the lexical judge leaves `unsure`.

- the prompt is `prompts/carries.v1.txt`; the fault and the text go in as JSON data after
  it, never as instructions; the model answers `{"verdict": ..., "evidence": ...}`, and a
  reply that is not that is `unsure`, saying so;
- each question is asked once: answers are kept by the sha256 of the prompt's version,
  the model, the fault's text and the text, in memory and, with `cache_dir`, on disk (one file per
  answer, written atomically), so a second run asks nothing;
- at most `budget` calls are made; a question the budget leaves unasked stays `unsure`;
- calls, tokens and cost (litellm's cost function; 0 when it does not know the model) are
  counted.

litellm is imported on the first call only, with its offline settings.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .._io import atomic_write_text
from ..content import ContentSignature
from ._lexical import LexicalJudge
from ._verdict import Judgement

__all__ = ["ModelJudge", "DEFAULT_BUDGET", "PROMPT_VERSION", "describe_fault",
           "parse_reply", "Completion"]

PROMPT_VERSION = "carries.v1"
"""The prompt's file name stem under `repair_core/prompts/` (part of every cache key)."""
DEFAULT_BUDGET = 300
"""Model calls one judge makes at most (`--judge-budget`): a few hundred, whatever the
size of the case, since only what the lexical judge leaves unsure is asked about."""
DEFAULT_TIMEOUT = 60.0
"""Seconds one call may take."""
_PROMPT = Path(__file__).resolve().parent.parent / "prompts" / f"{PROMPT_VERSION}.txt"
_INPUT_MARK = "INPUT:\n"
_EVIDENCE_CHARS = 300
_CACHE_NAME = re.compile(r"[0-9a-f]{64}")

Completion = Callable[[list[dict[str, str]]], tuple[str, int, float]]
"""A call of the model: messages -> (reply text, tokens used, cost in USD)."""
Guard = Callable[[Any, float, Callable[[], Any]], Any]
"""Runs one litellm call: (litellm, timeout, call) -> its response (the commands give
`repair_core.model`'s, which refuses redirects and bounds the wall clock)."""


def describe_fault(fault: ContentSignature, text: str | None = None) -> dict[str, Any]:
    """What the prompt says of a fault: its text when known, and what the lexical check
    found in it (distinctive tokens, slot, instruction markers, some of its wording)."""
    return {"id": fault.node, "text": text,
            "tokens": sorted(fault.tokens), "slot": None if fault.key is None else
            {"key": fault.key, "value": fault.value}, "markers": list(fault.markers),
            "wording": sorted(fault.shingles)[:8]}


def parse_reply(reply: str) -> tuple[str, str] | None:
    """(verdict, evidence) from a reply, or None when it is not the JSON asked for."""
    try:
        data = json.loads(reply)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("verdict") not in ("yes", "no", "unsure"):
        return None
    evidence = data.get("evidence", "")
    if not isinstance(evidence, str):
        return None
    line = " ".join(evidence.split())
    if len(line) > _EVIDENCE_CHARS:
        line = line[:_EVIDENCE_CHARS - 1] + "…"
    return data["verdict"], line


class ModelJudge:
    """A model asked about what the lexical judge leaves unsure (see the module's
    docstring). `fault_texts`: fault id -> its text, for the prompt (else the fault is
    described by its signature alone). `complete` replaces the litellm call (tests);
    `guard` runs each litellm call (else it is made as it is)."""

    def __init__(self, model: str, *, api_base: str | None = None,
                 budget: int = DEFAULT_BUDGET, cache_dir: str | Path | None = None,
                 timeout: float = DEFAULT_TIMEOUT, api_key: str | None = None,
                 fault_texts: Mapping[str, str] | None = None,
                 complete: Completion | None = None, guard: Guard | None = None) -> None:
        if not model or not isinstance(model, str):
            raise ValueError(f"model {model!r}: a litellm model string is needed")
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
            raise ValueError(f"budget {budget!r}: must be a whole number of calls, 0 or more")
        self.model = model
        self.name = f"model:{model}"
        self.api_base = api_base
        self.api_key = api_key
        self.budget = budget
        self.timeout = float(timeout)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.fault_texts: dict[str, str] = dict(fault_texts or {})
        self.lexical = LexicalJudge()
        self._complete = complete or self._litellm
        self._guard = guard
        self._template = _PROMPT.read_text(encoding="utf-8")
        self._memory: dict[str, tuple[str, str]] = {}
        self.calls = 0
        """Model calls made (a cached answer makes none)."""
        self.cache_hits = 0
        """Questions answered from the cache."""
        self.tokens = 0
        """Prompt plus completion tokens of every call."""
        self.cost = 0.0
        """USD, as litellm prices the calls (0 for a model it does not know)."""
        self.unasked = 0
        """Questions left unsure because the budget was spent."""
        self.failures = 0
        """Calls that got no usable reply (an error, or not the JSON asked for)."""

    def carries(self, text: str, fault: ContentSignature) -> Judgement:
        """The lexical judgement, or the model's where the lexical judge is unsure."""
        lexical = self.lexical.carries(text, fault)
        return lexical if lexical.verdict != "unsure" else self.ask(text, fault, lexical)

    def ask(self, text: str, fault: ContentSignature, lexical: Judgement | None = None
            ) -> Judgement:
        """The model's judgement of `text` against `fault` (cached, within the budget);
        `lexical`: what the lexical judge said, kept as the answer when the budget is
        spent."""
        # the model is part of the key: one cache folder may serve several --judge
        # models, and an answer is labelled with the model that gave it
        key = hashlib.sha256("\0".join(
            (PROMPT_VERSION, self.model, self.fault_texts.get(fault.node) or json.dumps(
                describe_fault(fault), sort_keys=True, default=str), text)).encode()
        ).hexdigest()
        cached = self._cached(key)
        if cached is not None:
            self.cache_hits += 1
            return Judgement(verdict=cached[0], evidence=cached[1],  # type: ignore[arg-type]
                             judge=self.name)
        if self.calls >= self.budget:
            self.unasked += 1
            said = lexical.evidence if lexical is not None else "not judged"
            return Judgement(verdict="unsure", judge=lexical.judge if lexical else self.name,
                             evidence=f"{said}; the model judge's budget of {self.budget} "
                                      "call(s) was spent before it was asked")
        self.calls += 1
        try:
            reply, tokens, cost = self._complete(self._messages(text, fault))
        except Exception as exc:  # noqa: BLE001 - any failed call leaves the text unsure
            self.failures += 1
            return Judgement(verdict="unsure", judge=self.name,
                             evidence=f"the model could not be asked: {type(exc).__name__}")
        self.tokens += int(tokens)
        self.cost += float(cost)
        parsed = parse_reply(reply)
        if parsed is None:
            self.failures += 1
            return Judgement(verdict="unsure", judge=self.name,
                             evidence="the model's reply was not the JSON asked for "
                                      '({"verdict": "yes|no|unsure", "evidence": ...})')
        self._store(key, parsed)
        return Judgement(verdict=parsed[0], evidence=parsed[1],  # type: ignore[arg-type]
                         judge=self.name)

    def _messages(self, text: str, fault: ContentSignature) -> list[dict[str, str]]:
        data = {"fault": describe_fault(fault, self.fault_texts.get(fault.node)),
                "text": text}
        return [{"role": "system", "content": self._template},
                {"role": "user", "content": _INPUT_MARK + json.dumps(data, default=str,
                                                                     ensure_ascii=False)}]

    def _cached(self, key: str) -> tuple[str, str] | None:
        if key in self._memory:
            return self._memory[key]
        if self.cache_dir is None:
            return None
        path = self.cache_dir / f"{key}.json"
        try:
            found = parse_reply(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return None
        if found is not None:
            self._memory[key] = found
        return found

    def _store(self, key: str, answer: tuple[str, str]) -> None:
        self._memory[key] = answer
        if self.cache_dir is not None and _CACHE_NAME.fullmatch(key):
            atomic_write_text(self.cache_dir / f"{key}.json",
                              json.dumps({"verdict": answer[0], "evidence": answer[1]}),
                              "--judge-cache")

    def _litellm(self, messages: list[dict[str, str]]) -> tuple[str, int, float]:
        litellm = _import_litellm()
        kwargs: dict[str, Any] = {
            "model": self.model, "messages": messages, "temperature": 0, "seed": 42,
            "response_format": {"type": "json_object"}, "timeout": self.timeout,
            "max_retries": 0, "num_retries": 0}
        if self.api_base:
            kwargs["api_base"] = self.api_base
            kwargs["api_key"] = self.api_key or os.environ.get("OPENAI_API_KEY") or "dgrr-local"
        elif self.api_key:
            kwargs["api_key"] = self.api_key
        if self._guard is not None:
            response = self._guard(litellm, self.timeout, lambda: litellm.completion(**kwargs))
        else:
            response = litellm.completion(**kwargs)
        text = response.choices[0].message.content or ""
        usage = getattr(response, "usage", None)
        tokens = int(getattr(usage, "total_tokens", 0) or 0) if usage is not None else 0
        try:
            cost = float(litellm.completion_cost(completion_response=response) or 0.0)
        except Exception:  # noqa: BLE001 - litellm does not know every model's price
            cost = 0.0
        return text, tokens, cost


def _import_litellm() -> Any:
    """litellm with its offline settings (as `repair_core.model` imports it: the judge is
    a lower layer and cannot import that package)."""
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm
