"""The model judge of answers: did an answer recover (every required fact told as true
and done, no forbidden fact asserted), in any wording or language? Asked about what the
benchmark's lexical answer reader cannot read (`repair_core.bench.judge_recovery`), or
about every answer when told so.

The prompt is `prompts/recovered.v1.txt`; the answer and the facts go in as JSON data
after it, never as instructions. Each distinct question is asked once (by the sha256 of
the prompt's version, the model, the answer and the facts), within a budget of calls;
answers are kept in memory and, with `cache_dir`, on disk. The call and the cache are the
carries judge's (`ModelJudge`: litellm with its offline settings, or `complete`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from ._model import DEFAULT_BUDGET, DEFAULT_TIMEOUT, Completion, Guard, ModelJudge, parse_reply

__all__ = ["RecoveryJudge", "RECOVERY_PROMPT_VERSION"]

RECOVERY_PROMPT_VERSION = "recovered.v1"
"""The prompt's file name stem under `repair_core/prompts/` (part of every cache key)."""
_PROMPT = Path(__file__).resolve().parent.parent / "prompts" / f"{RECOVERY_PROMPT_VERSION}.txt"


class RecoveryJudge:
    """A model asked whether answers recovered; `name` labels its verdicts."""

    def __init__(self, model: str, *, api_base: str | None = None, api_key: str | None = None,
                 budget: int = DEFAULT_BUDGET, cache_dir: str | Path | None = None,
                 timeout: float = DEFAULT_TIMEOUT, complete: Completion | None = None,
                 guard: Guard | None = None) -> None:
        if cache_dir is not None:
            Path(cache_dir).mkdir(parents=True, exist_ok=True)
        # the carries judge's call and its answer cache (memory and disk, by key): the
        # keys differ by the prompt's version, so one folder may hold both judges' answers
        self._call = ModelJudge(model, api_base=api_base, api_key=api_key, budget=budget,
                                timeout=timeout, complete=complete, guard=guard,
                                cache_dir=cache_dir)
        self.model, self.name, self.budget = model, f"model:{model}", budget
        self._template = _PROMPT.read_text(encoding="utf-8")
        self.calls = 0
        """Model calls made (a kept answer makes none)."""
        self.tokens = 0
        """Prompt plus completion tokens of every call."""
        self.cost = 0.0
        """USD, as litellm prices the calls."""

    def recovered(self, answer: str, required: Sequence[str], forbidden: Sequence[str]
                  ) -> tuple[str, str]:
        """(verdict, evidence): `yes` (recovered), `no` or `unsure` (the budget spent, the
        call failed or the reply was not the JSON asked for, saying which)."""
        data = {"answer": answer, "required": list(required), "forbidden": list(forbidden)}
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
        key = hashlib.sha256("\0".join((RECOVERY_PROMPT_VERSION, self.model, text))
                             .encode()).hexdigest()
        kept = self._call._cached(key)
        if kept is not None:
            return kept
        if self.calls >= self.budget:
            return "unsure", f"the answer judge's budget of {self.budget} call(s) was spent"
        self.calls += 1
        messages = [{"role": "system", "content": self._template},
                    {"role": "user", "content": "INPUT:\n" + text}]
        try:
            reply, tokens, cost = self._call._complete(messages)
        except Exception as exc:  # noqa: BLE001 - a failed call leaves the answer unsure
            return "unsure", f"the model could not be asked: {type(exc).__name__}"
        self.tokens += int(tokens)
        self.cost += float(cost)
        found = parse_reply(reply)
        if found is None:
            return "unsure", ('the model\'s reply was not the JSON asked for ({"verdict": '
                              '"yes|no|unsure", "evidence"})')
        self._call._store(key, found)
        return found
