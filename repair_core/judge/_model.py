"""The model judge: a model (through litellm) asked whether texts carry a fault's
content, only about the texts the lexical judge cannot settle.

- questions are put to it together (`judge_all`): each distinct (fault, text) pair is
  asked once however often it recurs (by the sha256 of the fault's text and the text),
  several to a call (`batch`), and at most `budget` calls are made; before the first call
  the judge works out what it will spend (`JudgeEstimate`, handed to `on_estimate`), and a
  question the budget leaves unasked stays `unsure`, marked `unasked`;
- the prompt is `prompts/carries.v2.txt`; the faults and the texts go in as JSON data
  after it, never as instructions; the model answers `{"answers": [{"id", "verdict",
  "evidence"}]}` (a call holding one question may be answered by that one object, as the
  single-question `carries.v1` prompt asked), and an answer that is missing or not that is
  `unsure`, saying so;
- answers are kept by the sha256 of the prompt's version, the model, the fault's text and
  the text, in memory and, with `cache_dir`, on disk (one file per answer, written
  atomically), so a second run asks nothing; an answer kept under `carries.v1` (the same
  question, asked alone) is read too;
- calls, tokens and cost (litellm's cost function; 0 when it does not know the model) are
  counted.

litellm is imported on the first call only (and for the estimate's price, when there is
something to ask), with its offline settings.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._io import atomic_write_text
from ..content import ContentSignature, instruction_markers
from ._estimate import ANSWER_TOKENS, JudgeEstimate, estimated_tokens, model_price
from ._lexical import LexicalJudge
from ._verdict import Judgement

__all__ = ["ModelJudge", "Question", "DEFAULT_BUDGET", "DEFAULT_BATCH", "PROMPT_VERSION",
           "describe_fault", "parse_reply", "parse_answers", "Completion"]

PROMPT_VERSION = "carries.v2"
"""The prompt's file name stem under `repair_core/prompts/` (part of every cache key)."""
EARLIER_VERSIONS = ("carries.v1",)
"""Prompts whose cached answers are still read: they asked the same question, one text
at a time."""
DEFAULT_BUDGET = 300
"""Model calls one judge makes at most (`--judge-budget`): a few hundred, whatever the
size of the case, since only what the lexical judge cannot settle is asked about, each
distinct question once, `DEFAULT_BATCH` to a call."""
DEFAULT_BATCH = 8
"""Questions one call holds at most."""
BATCH_CHARS = 24_000
"""Characters of texts and fault descriptions one call holds at most (a question longer
than that goes alone): a batch stays well inside a small model's context."""
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
Price = Callable[[str], "tuple[float, float] | None"]
"""model -> (USD per prompt token, USD per completion token), or None when unknown."""


@dataclass(frozen=True)
class Question:
    """One question for the model judge: does `text` carry `fault`'s content?"""

    text: str
    """The text to judge."""
    fault: ContentSignature
    """The fault's content signature."""
    lexical: Judgement | None = None
    """What the lexical judge said of it (kept as the answer when the question is left
    unasked); None: not judged lexically."""


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


def parse_answers(reply: str, ids: Sequence[str]) -> dict[str, tuple[str, str]] | None:
    """Question id -> (verdict, evidence) from a reply to a call holding `ids`, or None
    when it is not the JSON asked for. A reply to one question may be that answer's own
    object (`{"verdict", "evidence"}`); an answer naming no question asked is ignored."""
    if len(ids) == 1:
        single = parse_reply(reply)
        if single is not None:
            return {ids[0]: single}
    try:
        data = json.loads(reply)
    except ValueError:
        return None
    answers = data.get("answers") if isinstance(data, dict) else None
    if not isinstance(answers, list):
        return None
    wanted = set(ids)
    found: dict[str, tuple[str, str]] = {}
    for a in answers:
        if not isinstance(a, dict) or a.get("id") not in wanted or a["id"] in found:
            continue
        parsed = parse_reply(json.dumps({"verdict": a.get("verdict"),
                                         "evidence": a.get("evidence", "")}))
        if parsed is not None:
            found[a["id"]] = parsed
    return found


class ModelJudge:
    """A model asked about what the lexical judge cannot settle (see the module's
    docstring). `fault_texts`: fault id -> its text, for the prompt (else the fault is
    described by its signature alone). `complete` replaces the litellm call (tests);
    `guard` runs each litellm call (else it is made as it is); `price_of` gives the
    estimate its price (litellm's table by default); `on_estimate` is handed the estimate
    before the first call of each `judge_all` that asks anything; `untrusted`: a check
    also puts to it the texts written at or after a fault whose lineage reaches an
    untrusted input, even where the lexical judge says no (`judge._untrusted`)."""

    def __init__(self, model: str, *, api_base: str | None = None,
                 budget: int = DEFAULT_BUDGET, cache_dir: str | Path | None = None,
                 timeout: float = DEFAULT_TIMEOUT, api_key: str | None = None,
                 fault_texts: Mapping[str, str] | None = None,
                 complete: Completion | None = None, guard: Guard | None = None,
                 batch: int = DEFAULT_BATCH, untrusted: bool = False,
                 price_of: Price = model_price,
                 on_estimate: Callable[[JudgeEstimate], None] | None = None) -> None:
        if not model or not isinstance(model, str):
            raise ValueError(f"model {model!r}: a litellm model string is needed")
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
            raise ValueError(f"budget {budget!r}: must be a whole number of calls, 0 or more")
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch {batch!r}: must be a whole number of questions, 1 or more")
        self.model = model
        self.name = f"model:{model}"
        self.api_base = api_base
        self.api_key = api_key
        self.budget = budget
        self.batch = batch
        self.untrusted = untrusted
        self.timeout = float(timeout)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.fault_texts: dict[str, str] = dict(fault_texts or {})
        self.lexical = LexicalJudge()
        self.on_estimate = on_estimate
        self._complete = complete or self._litellm
        self._guard = guard
        self._price_of = price_of
        self._prices: dict[str, tuple[float, float] | None] = {}
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
        self.estimates: list[JudgeEstimate] = []
        """The estimate of every `judge_all` that had questions, in order."""

    def carries(self, text: str, fault: ContentSignature) -> Judgement:
        """The lexical judgement, or the model's where the lexical judge is unsure."""
        lexical = self.lexical.carries(text, fault)
        return lexical if lexical.verdict != "unsure" else self.ask(text, fault, lexical)

    def ask(self, text: str, fault: ContentSignature, lexical: Judgement | None = None
            ) -> Judgement:
        """The model's judgement of `text` against `fault` (cached, within the budget);
        `lexical`: what the lexical judge said, kept as the answer when the budget is
        spent."""
        return self.judge_all([Question(text, fault, lexical)])[0]

    def judge_all(self, questions: Sequence[Question]) -> list[Judgement]:
        """The judgement of each question, in order: each distinct one answered from the
        cache or asked once, `batch` to a call, in the order given (put first what
        matters most), as far as the budget goes; the estimate is made (and handed to
        `on_estimate`) before the first call."""
        keys = [self._key(q) for q in questions]
        distinct: dict[str, Question] = {}
        for k, q in zip(keys, questions, strict=True):
            distinct.setdefault(k, q)
        answered = {k: a for k, q in distinct.items() if (a := self._answer(k, q)) is not None}
        batches = self._batches([k for k in distinct if k not in answered], distinct)
        room = max(0, self.budget - self.calls)
        asked, left = batches[:room], batches[room:]
        if questions:
            estimate = self._estimate(len(questions), len(distinct), len(answered),
                                      asked, left, distinct)
            self.estimates.append(estimate)
            if self.on_estimate is not None:
                self.on_estimate(estimate)
        failed: dict[str, str] = {}
        for batch in asked:
            self._ask_batch(batch, distinct, answered, failed)
        unasked = {k for b in left for k in b}
        fresh = {k for b in asked for k in b if k in answered}  # answered by a call now
        out: list[Judgement] = []
        for k, q in zip(keys, questions, strict=True):
            if k in answered:
                if k in fresh:
                    fresh.discard(k)  # the question the call answered; a repeat is a hit
                else:
                    self.cache_hits += 1
                verdict, evidence = answered[k]
                out.append(Judgement(verdict=verdict, evidence=evidence,  # type: ignore[arg-type]
                                     judge=self.name))
            elif k in unasked:
                self.unasked += 1
                said = q.lexical.evidence if q.lexical is not None else "not judged"
                out.append(Judgement(
                    verdict="unsure", judge=q.lexical.judge if q.lexical else self.name,
                    unasked=True, evidence=f"{said}; the model judge's budget of "
                    f"{self.budget} call(s) was spent before it was asked"))
            else:
                out.append(Judgement(verdict="unsure", judge=self.name, evidence=failed[k]))
        return out

    def _fault_text(self, fault: ContentSignature) -> str:
        return self.fault_texts.get(fault.node) or json.dumps(
            describe_fault(fault), sort_keys=True, default=str)

    def _key(self, q: Question, version: str = PROMPT_VERSION) -> str:
        # the model is part of the key: one cache folder may serve several --judge
        # models, and an answer is labelled with the model that gave it
        return hashlib.sha256("\0".join(
            (version, self.model, self._fault_text(q.fault), q.text)).encode()).hexdigest()

    def _batches(self, keys: list[str], distinct: Mapping[str, Question]
                 ) -> list[list[str]]:
        """`keys` in calls of at most `batch` questions and `BATCH_CHARS` characters,
        in the order given (of each call's first question); a text with an instruction
        marker (`content.instruction_markers`) in a call of its own."""
        out: list[list[str]] = []
        alone: list[list[str]] = []
        chars = 0
        for k in keys:
            q = distinct[k]
            if instruction_markers(q.text):
                # a text that gives the model orders is asked on its own: an injection
                # in it can then sway only the answer about itself
                alone.append([k])
                continue
            size = len(q.text) + len(self._fault_text(q.fault))
            if not out or len(out[-1]) >= self.batch or chars + size > BATCH_CHARS:
                out.append([])
                chars = 0
            out[-1].append(k)
            chars += size
        return _in_order([*out, *alone], keys)

    def _estimate(self, questions: int, distinct: int, cached: int,
                  asked: list[list[str]], left: list[list[str]],
                  by_key: Mapping[str, Question]) -> JudgeEstimate:
        prompt = answers = 0
        for batch in asked:
            messages = self._messages([(f"q{i + 1}", by_key[k]) for i, k in enumerate(batch)])
            prompt += estimated_tokens(sum(len(m["content"]) for m in messages))
            answers += ANSWER_TOKENS * len(batch)
        cost: float | None = 0.0
        if asked:
            if self.model not in self._prices:
                self._prices[self.model] = self._price_of(self.model)
            price = self._prices[self.model]
            cost = None if price is None else round(prompt * price[0] + answers * price[1], 6)
        return JudgeEstimate(model=self.model, questions=questions, distinct=distinct,
                             cached=cached, to_ask=sum(map(len, asked)),
                             unasked=sum(map(len, left)), calls=len(asked), batch=self.batch,
                             budget=self.budget, tokens=prompt + answers, cost=cost)

    def _ask_batch(self, batch: list[str], by_key: Mapping[str, Question],
                   answered: dict[str, tuple[str, str]], failed: dict[str, str]) -> None:
        """One call about `batch`: the answers go into `answered` (and the cache), a
        question left without one into `failed` with why."""
        ids = {k: f"q{i + 1}" for i, k in enumerate(batch)}
        self.calls += 1
        try:
            reply, tokens, cost = self._complete(self._messages(
                [(ids[k], by_key[k]) for k in batch]))
        except Exception as exc:  # noqa: BLE001 - any failed call leaves its texts unsure
            self.failures += 1
            for k in batch:
                failed[k] = f"the model could not be asked: {type(exc).__name__}"
            return
        self.tokens += int(tokens)
        self.cost += float(cost)
        found = parse_answers(reply, list(ids.values()))
        if found is None:
            self.failures += 1
            for k in batch:
                failed[k] = ("the model's reply was not the JSON asked for "
                             '({"answers": [{"id", "verdict": "yes|no|unsure", '
                             '"evidence"}]})')
            return
        for k in batch:
            got = found.get(ids[k])
            if got is None:
                failed[k] = "the model's reply gave no answer to this question"
            else:
                answered[k] = got
                self._store(k, got)

    def _messages(self, questions: list[tuple[str, Question]]) -> list[dict[str, str]]:
        faults = {q.fault.node: describe_fault(q.fault, self.fault_texts.get(q.fault.node))
                  for _, q in questions}
        data = {"faults": faults,
                "questions": [{"id": i, "fault": q.fault.node, "text": q.text}
                              for i, q in questions]}
        return [{"role": "system", "content": self._template},
                {"role": "user", "content": _INPUT_MARK + json.dumps(data, default=str,
                                                                     ensure_ascii=False)}]

    def _answer(self, key: str, q: Question) -> tuple[str, str] | None:
        """The kept answer to `q` (`key`: its key under the current prompt), under the
        current prompt or an earlier one that asked the same question."""
        found = self._cached(key)
        for version in EARLIER_VERSIONS:
            if found is not None:
                break
            found = self._cached(self._key(q, version))
        return found

    def _cached(self, key: str) -> tuple[str, str] | None:
        if key in self._memory:
            return self._memory[key]
        if self.cache_dir is None:
            return None
        try:
            found = parse_reply((self.cache_dir / f"{key}.json").read_text(encoding="utf-8"))
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



def _in_order(batches: list[list[str]], keys: list[str]) -> list[list[str]]:
    """`batches` sorted by where their first key stands in `keys`."""
    at = {k: i for i, k in enumerate(keys)}
    return sorted(batches, key=lambda b: at[b[0]])


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
