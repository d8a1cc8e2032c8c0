"""Memory that reaches the model only through its prompt: frameworks that put retrieved
memories into a system or developer message (AutoGen's `ListMemory`) record no memory
read, so nothing names the poisoned note. A block of such a message that starts with a
known header line is read as a memory read of one record per line, placed just before the
model call that was sent it.

    Relevant memory content (in chronological order):
    1. Lin prefers window seats.
    2. Lin's home airport is SFO.

Each line (its `1.`, `-` or `*` bullet left out) is a record whose id is its text's
content id, the same for the same text wherever it appears, so the same note sent to
three model calls is one record read three times. The block ends at a blank line, a
closing tag (`</…>`, as Agno closes `<memories_from_previous_interactions>`) or the
message's end. Headers are matched as whole lines, case-insensitively, without regular
expressions (the text is untrusted); `dgrr import --memory-in-prompt HEADER` adds one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..case._json import json_or_text
from ._otlp import Span
from ._semconv import Operation, Retrieved, content_id

__all__ = ["KNOWN_HEADERS", "prompt_memory_ops", "memory_lines"]

KNOWN_HEADERS = ("Relevant memory content (in chronological order):",
                 "<memories_from_previous_interactions>")
"""Headers recognised without a declaration: AutoGen's `ListMemory` (autogen-core 0.7),
Agno's user memories (`add_memories_to_context`, agno 3.1)."""

_PROMPT_ROLES = ("system", "developer")


def memory_lines(text: str, headers: Iterable[str]) -> list[str]:
    """The memory lines of every block of `text` under one of `headers`.

    >>> memory_lines("Intro\\nRelevant memory content (in chronological order):\\n"
    ...              "1. Lin prefers window seats.\\n2. Lin's home airport is SFO.\\n\\nEnd",
    ...              KNOWN_HEADERS)
    ['Lin prefers window seats.', "Lin's home airport is SFO."]
    """
    wanted = {h.strip().casefold() for h in headers if h.strip()}
    out: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.casefold() in wanted:
            inside = True
            continue
        if not inside:
            continue
        if not line or line.startswith("</"):  # a blank line, or the block's closing tag
            inside = False
            continue
        out.append(_unbullet(line))
    return [line for line in out if line]


def _unbullet(line: str) -> str:
    head, dot, rest = line.partition(". ")
    if dot and head.isdigit():
        return rest.strip()
    if line[:2] in ("- ", "* ", "• "):
        return line[2:].strip()
    return line


def _prompt_texts(op: Operation) -> list[str]:
    """The system and developer messages a model call was sent, in the conventions'
    shapes (OpenInference `llm.input_messages.N.message.*`, GenAI `gen_ai.input.messages`
    and `gen_ai.system_instructions`)."""
    a = op.span.attributes
    roles: dict[str, Any] = {}
    texts: list[str] = []
    for key, value in a.items():
        if key.startswith("llm.input_messages.") and key.endswith(".message.role"):
            roles[key[: -len("role")]] = value
    for prefix, role in roles.items():
        content = a.get(prefix + "content")
        if role in _PROMPT_ROLES and isinstance(content, str):
            texts.append(content)
    for key in ("gen_ai.input.messages", "gen_ai.system_instructions"):
        messages = json_or_text(a.get(key))
        for m in messages if isinstance(messages, list) else []:
            if not isinstance(m, dict):
                continue
            if key == "gen_ai.system_instructions" or m.get("role") in _PROMPT_ROLES:
                content = m.get("content")
                if isinstance(content, str):
                    texts.append(content)
                for part in m.get("parts") or []:
                    if isinstance(part, dict) and isinstance(part.get("content"), str):
                        texts.append(part["content"])
    return texts


def prompt_memory_ops(ops: Sequence[Operation], headers: Iterable[str] = ()
                      ) -> list[Operation]:
    """A memory read for each model call in `ops` whose system or developer message holds
    a memory block (under a known header or one of `headers`), placed just before it."""
    known = (*KNOWN_HEADERS, *headers)
    out: list[Operation] = []
    for op in ops:
        if op.kind != "chat":
            continue
        lines = [line for text in _prompt_texts(op) for line in memory_lines(text, known)]
        if not lines:
            continue
        records = tuple({content_id(line): Retrieved(content_id(line), line)
                         for line in lines}.values())
        span = Span(trace_id=op.span.trace_id, span_id=f"{op.span.span_id}-prompt-memory",
                    parent_id=op.span.parent_id, name="memory in the prompt",
                    start=op.span.start - 1, end=op.span.start - 1, status_error=False,
                    attributes={}, resource=op.span.resource)
        out.append(Operation(span, "memory_search", op.convention,
                             query="(memory in the model's prompt)", records=records))
    return out
