"""Prompt contracts: one versioned template per stage, its inputs and its JSON output.

A prompt is two messages: the stage's template as the system message (its first line is
`dgrr-prompt: <stage>/<version>`) and the inputs as a JSON document after `INPUT:` in the
user message. A reply is valid when it parses as JSON, matches the stage's schema and
cites only evidence ids that were in the input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .._io import indented_json

__all__ = [
    "STAGES",
    "PROMPT_VERSION",
    "ClaimOut",
    "PlanOut",
    "AnswerOut",
    "WrittenRecord",
    "MemoryWriteOut",
    "ConsolidateOut",
    "AuditOut",
    "JudgeOut",
    "RecordVerdict",
    "STAGE_VERSIONS",
    "OUTPUT_SCHEMAS",
    "template",
    "render_prompt",
    "parse_prompt",
    "validate_reply",
    "ReplyError",
    "evidence_ids",
]

PROMPT_VERSION = "v1"
STAGE_VERSIONS: dict[str, str] = {"judge": "v2"}
"""Stages whose current template is not PROMPT_VERSION (judge/v2: the open judge)."""
PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
_HEADER = re.compile(r"^dgrr-prompt: (\w+)/(v\d+)\s*$", re.M)
_INPUT_MARK = "INPUT:\n"


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ClaimOut(_Out):
    """A claim about the user for one slot."""

    text: str
    """The claim in one sentence."""
    key: str | None = None
    """The slot the claim is about."""
    value: Any = None
    """The claimed value (null when the evidence says nothing about the slot)."""
    cites: list[str] = Field(default_factory=list)
    """Evidence ids the claim relies on."""
    support: str | None = None
    """The single evidence id that alone justifies the claim."""


class PlanOut(_Out):
    """The next tool call, or none."""

    tool: str | None
    """Tool to call; null when no further tool is needed."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Arguments of the call."""
    text: str = ""
    """One sentence describing the call."""
    cites: list[str] = Field(default_factory=list)
    """Claims and observations whose values were used."""


class AnswerOut(_Out):
    """The answer to the user."""

    text: str
    """The answer text."""
    cites: list[str] = Field(default_factory=list)
    """Claims and observations used."""


class WrittenRecord(_Out):
    """One record the memory step wants written."""

    text: str
    """The record's content."""
    key: str | None = None
    """Structured key."""
    value: Any = None
    """Structured value."""
    cites: list[str] = Field(default_factory=list)
    """Evidence ids the record rests on."""
    derive: str | None = None
    """The single evidence id it is inferred from."""


class MemoryWriteOut(_Out):
    """Records to write (possibly none)."""

    records: list[WrittenRecord]
    """The records, in order."""


class ConsolidateOut(_Out):
    """One summary record folding several records of one key."""

    text: str
    """The summary record."""
    key: str | None = None
    """The key summarised."""
    value: Any = None
    """The current value."""
    cites: list[str]
    """Every record folded in."""


class AuditOut(_Out):
    """An auditor's verdict on one record."""

    suspicious: bool
    """The record should be removed."""
    reason: str = ""
    """Why, in one sentence."""
    cites: list[str] = Field(default_factory=list)
    """Records it conflicts with."""


class RecordVerdict(_Out):
    """An open judge's action on one record (judge/v2)."""

    id: str
    """The record."""
    action: Literal["keep", "delete", "revise", "restore"]
    """What to do with it."""
    reason: str = ""
    """Why."""


class JudgeOut(_Out):
    """A repair judge's decision over a failed run."""

    delete: list[str] = Field(default_factory=list)
    """Record ids to delete (judge/v1)."""
    revise: list[str] = Field(default_factory=list)
    """Step ids to re-run (judge/v1)."""
    records: list[RecordVerdict] = Field(default_factory=list)
    """Per-record actions (judge/v2)."""
    redo_from: str | None = None
    """The step the run is redone from (judge/v2); null: only the final turn."""
    reason: str = ""
    """Why, in one sentence."""
    cites: list[str] = Field(default_factory=list)
    """The faults the decision rests on."""


OUTPUT_SCHEMAS: dict[str, type[_Out]] = {
    "claim": ClaimOut,
    "plan": PlanOut,
    "answer": AnswerOut,
    "memory_write": MemoryWriteOut,
    "consolidate": ConsolidateOut,
    "audit": AuditOut,
    "judge": JudgeOut,
}
STAGES: tuple[str, ...] = tuple(OUTPUT_SCHEMAS)


class ReplyError(ValueError):
    """A model reply that breaks the stage's contract."""


@cache
def template(stage: str) -> str:
    """The stage's versioned template text."""
    if stage not in OUTPUT_SCHEMAS:
        raise KeyError(f"unknown prompt stage {stage!r}; known: {', '.join(STAGES)}")
    version = STAGE_VERSIONS.get(stage, PROMPT_VERSION)
    return (PROMPTS_DIR / f"{stage}.{version}.txt").read_text(encoding="utf-8")


def render_prompt(stage: str, inputs: dict[str, Any]) -> list[dict[str, str]]:
    """The chat messages of one stage call."""
    body = indented_json(inputs, 1, default=str, allow_nan=True)
    return [
        {"role": "system", "content": template(stage)},
        {"role": "user", "content": f"{_INPUT_MARK}{body}"},
    ]


def parse_prompt(messages: Iterable[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """Recover (stage, inputs) from rendered messages, as the reference model reads them."""
    stage, inputs = None, None
    for msg in messages:
        content = msg.get("content") or ""
        if not isinstance(content, str):
            content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        if stage is None and (m := _HEADER.search(content)):
            stage = m.group(1)
        if _INPUT_MARK in content:
            inputs = json.loads(content.split(_INPUT_MARK, 1)[1])
    if stage is None or inputs is None:
        raise ReplyError("not a dgrr prompt: no 'dgrr-prompt:' header or no INPUT block")
    return stage, inputs


def validate_reply(stage: str, reply: str, evidence_ids: Iterable[str]) -> _Out:
    """Parse and check one reply; raise ReplyError saying what is wrong."""
    text = reply.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplyError(f"reply is not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ReplyError(f"reply is JSON {type(data).__name__}, not an object")
    try:
        out = OUTPUT_SCHEMAS[stage].model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '(root)'}: {e['msg']}"
                             for e in exc.errors())
        raise ReplyError(f"reply does not match the {stage} contract: {problems}") from None
    known = set(evidence_ids)
    unknown = sorted(set(_cited(out)) - known)
    if unknown:
        raise ReplyError(f"reply cites unknown evidence id(s): {', '.join(unknown)}")
    return out


def _cited(out: _Out) -> list[str]:
    ids: list[str] = []
    for name in ("cites", "delete", "revise"):
        ids.extend(getattr(out, name, None) or [])
    for name in ("support", "derive", "redo_from"):
        if (v := getattr(out, name, None)) is not None:
            ids.append(v)
    if isinstance(out, JudgeOut):
        ids.extend(v.id for v in out.records)
    if isinstance(out, MemoryWriteOut):
        for r in out.records:
            ids.extend(_cited(r))
    return ids


def evidence_ids(inputs: dict[str, Any]) -> list[str]:
    """Every id a reply to `inputs` may cite: the request and each evidence item or record."""
    ids: list[str] = []
    request = inputs.get("request")
    if isinstance(request, dict) and request.get("id"):
        ids.append(request["id"])
        ids.extend(t["id"] for t in request.get("earlier") or [] if isinstance(t, dict)
                   and "id" in t)
    for field in ("evidence", "records", "memory", "store", "faults", "trajectory", "flagged",
                  "retired"):
        ids.extend(item["id"] for item in inputs.get(field) or [] if isinstance(item, dict)
                   and "id" in item)
    record = inputs.get("record")
    if isinstance(record, dict) and record.get("id"):
        ids.append(record["id"])
    return ids
