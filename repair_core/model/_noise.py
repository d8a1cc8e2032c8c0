"""Seeded noise for the built-in policies: the slips real models make, at rate P.

`with_noise(reply, p)` wraps a policy's reply function. For each reply it may make one
slip, chosen by the stage:

- claim: copy the wrong retrieved record (another record of the evidence; its value,
  cited as the support), or paraphrase the value (`_paraphrase.py`);
- plan: drop one tool argument;
- answer: omit one fact (a sentence), or paraphrase a value;
- other stages are left alone.

Each slip happens with probability P, decided by a hash of the prompt (the messages'
text) and P, never by global randomness: the same prompt at the same rate always slips
the same way, so runs and litellm's disk cache stay deterministic.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from typing import Any

from ._contracts import ReplyError, parse_prompt
from ._paraphrase import paraphrase

__all__ = ["with_noise", "prompt_rng"]

Reply = Callable[[list[dict[str, Any]]], str]


def prompt_rng(messages: list[dict[str, Any]], p: float, salt: str = "") -> random.Random:
    """A random generator seeded by the prompt's text, the rate and `salt`."""
    text = json.dumps([str(m.get("content") or "") for m in messages], ensure_ascii=False)
    digest = hashlib.sha256(f"{salt}|{p!r}|{text}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def with_noise(reply: Reply, p: float, *, salt: str = "") -> Reply:
    """`reply` with slips at rate `p` (0 returns `reply` itself)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"noise rate must be in [0, 1], got {p}")
    if p == 0.0:
        return reply

    def noisy(messages: list[dict[str, Any]]) -> str:
        text = reply(messages)
        rng = prompt_rng(messages, p, salt)
        if rng.random() >= p:
            return text
        try:
            stage, inputs = parse_prompt(messages)
            out = json.loads(text)
        except (ReplyError, ValueError):
            return text
        slip = _SLIPS.get(stage)
        if slip is None or not isinstance(out, dict):
            return text
        return json.dumps(slip(out, inputs, rng), ensure_ascii=False)

    noisy.__doc__ = f"{getattr(reply, '__name__', 'reply')} with noise {p}"
    return noisy


def _claim_slip(out: dict[str, Any], inputs: dict[str, Any], rng: random.Random
                ) -> dict[str, Any]:
    records = [e for e in inputs.get("evidence") or [] if isinstance(e, dict)
               and e.get("kind") == "record" and e.get("id") not in (out.get("cites") or [])]
    if records and rng.random() < 0.5:
        wrong = rng.choice(records)
        value = wrong.get("value")
        slot = inputs.get("slot")
        if isinstance(value, dict) and slot in value:
            value = value[slot]
        return {**out, "value": value, "text": str(wrong.get("text") or value),
                "cites": [wrong["id"]], "support": wrong["id"]}
    if isinstance(out.get("value"), str):
        changed = paraphrase(out["value"], drop_commas=True)
        return {**out, "value": changed, "text": str(out.get("text") or "").replace(
            out["value"], changed)}
    return out


def _plan_slip(out: dict[str, Any], inputs: dict[str, Any], rng: random.Random
               ) -> dict[str, Any]:
    args = dict(out.get("args") or {})
    if not args:
        return out
    args.pop(rng.choice(sorted(args)))
    return {**out, "args": args}


_SENT = re.compile(r"[^.!?]*[.!?]+(?:\s+|$)|[^.!?]+$")


def _answer_slip(out: dict[str, Any], inputs: dict[str, Any], rng: random.Random
                 ) -> dict[str, Any]:
    text = str(out.get("text") or "")
    sentences = [s for s in _SENT.findall(text) if s.strip()]
    if len(sentences) > 1 and rng.random() < 0.5:
        sentences.pop(rng.randrange(len(sentences)))
        return {**out, "text": "".join(sentences).strip()}
    return {**out, "text": paraphrase(text, drop_commas=True)}


_SLIPS: dict[str, Callable[[dict[str, Any], dict[str, Any], random.Random], dict[str, Any]]] = {
    "claim": _claim_slip,
    "plan": _plan_slip,
    "answer": _answer_slip,
}
