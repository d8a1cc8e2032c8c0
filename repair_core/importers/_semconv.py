"""What a span means: OTel GenAI (`gen_ai.*`) and OpenInference (`openinference.*`)
attributes mapped onto a few operations dgrr understands, plus the `dgrr.*` provenance
an agent may add (see docs/import.md). Spans that are neither are reported, not fatal."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from .._json import json_or_text
from ._otlp import Span

__all__ = ["Operation", "ToolCall", "Retrieved", "classify"]

OpKind = Literal["agent", "chat", "tool", "memory_search", "memory_write"]

# gen_ai.operation.name -> dgrr's operation (and, for writes, the write op)
_GENAI_OPS: dict[str, tuple[OpKind, str | None]] = {
    "invoke_agent": ("agent", None),
    "chat": ("chat", None),
    "text_completion": ("chat", None),
    "generate_content": ("chat", None),
    "execute_tool": ("tool", None),
    "search_memory": ("memory_search", None),
    "create_memory": ("memory_write", "add"),
    "update_memory": ("memory_write", "update"),
    "upsert_memory": ("memory_write", "update"),
    "delete_memory": ("memory_write", "delete"),
}
_OI_KINDS: dict[str, OpKind] = {
    "AGENT": "agent", "LLM": "chat", "TOOL": "tool", "RETRIEVER": "memory_search",
}
_OI_DOC = re.compile(r"retrieval\.documents\.(\d+)\.document\.(id|content|score|metadata)$")
_OI_CALL = re.compile(
    r"llm\.output_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)$")


@dataclass(frozen=True)
class ToolCall:
    """A tool call a model asked for."""

    id: str | None
    """The call id (OTel GenAI has one; OpenInference often not)."""
    name: str
    """Tool name."""
    args: dict[str, Any]
    """Arguments, parsed from JSON when given as text."""


@dataclass(frozen=True)
class Retrieved:
    """A record a memory search returned."""

    id: str
    """The source's record id."""
    content: str
    """The record's text."""
    metadata: dict[str, Any] = field(default_factory=dict)
    """Metadata the source gave with it."""


@dataclass(frozen=True)
class Operation:
    """A span read as one of dgrr's operations."""

    span: Span
    """The span it came from."""
    kind: OpKind
    """agent, chat, tool, memory_search or memory_write."""
    convention: Literal["gen_ai", "openinference"]
    """Which semantic convention the span followed."""
    text: str = ""
    """chat: the model's output text; agent: the user's input."""
    tool_calls: tuple[ToolCall, ...] = ()
    """chat: the tool calls in its output."""
    tool: str = ""
    """tool: the tool's name."""
    call_id: str | None = None
    """tool: the call id it answered, when recorded."""
    args: dict[str, Any] = field(default_factory=dict)
    """tool: the arguments sent."""
    result: Any = None
    """tool: what the tool returned."""
    query: str = ""
    """memory_search: the query."""
    records: tuple[Retrieved, ...] = ()
    """memory_search: records returned, in rank order; memory_write: the record written."""
    write_op: str | None = None
    """memory_write: add, update or delete."""
    record_id: str | None = None
    """memory_write: the record's id."""
    skipped_documents: int = 0
    """memory_search: returned documents without an id (they cannot be named)."""


def classify(span: Span) -> Operation | str:
    """The operation a span records, or why it is skipped (a short reason)."""
    a = span.attributes
    op_name = a.get("gen_ai.operation.name")
    if isinstance(op_name, str):
        known = _GENAI_OPS.get(op_name)
        if known is None:
            return f"unknown gen_ai operation '{op_name}'"
        return _genai(span, *known)
    oi_kind = a.get("openinference.span.kind")
    if isinstance(oi_kind, str):
        kind = _OI_KINDS.get(oi_kind.upper())
        if kind is None:
            if oi_kind.upper() == "CHAIN" and span.parent_id is None:
                kind = "agent"  # a framework's root chain (e.g. LangGraph) is the agent turn
            else:
                return f"OpenInference {oi_kind.upper()} span"
        return _openinference(span, kind)
    return "not a GenAI span"


def _text_parts(messages: Any, role: str | None) -> str:
    """Text of the messages (of `role`, when given), in GenAI's `parts` or plain shape."""
    if not isinstance(messages, list):
        return messages if isinstance(messages, str) else ""
    texts: list[str] = []
    for m in messages:
        if not isinstance(m, dict) or (role and m.get("role") != role):
            continue
        parts = m.get("parts")
        if isinstance(parts, list):
            texts += [str(p.get("content", "")) for p in parts
                      if isinstance(p, dict) and p.get("type") == "text"]
        elif isinstance(m.get("content"), str):
            texts.append(m["content"])
    return "\n".join(t for t in texts if t)


def _args(value: Any) -> dict[str, Any]:
    parsed = json_or_text(value)
    return parsed if isinstance(parsed, dict) else ({} if parsed in (None, "") else {"input": parsed})


def _genai(span: Span, kind: OpKind, write_op: str | None) -> Operation:
    a = span.attributes
    if kind == "agent":
        messages = json_or_text(a.get("gen_ai.input.messages"))
        user = _text_parts(messages, "user") if isinstance(messages, list) else ""
        return Operation(span, kind, "gen_ai", text=user or str(a.get("gen_ai.agent.name", "")))
    if kind == "chat":
        out = json_or_text(a.get("gen_ai.output.messages"))
        calls: list[ToolCall] = []
        if isinstance(out, list):
            for m in out:
                for p in (m.get("parts") or []) if isinstance(m, dict) else []:
                    if isinstance(p, dict) and p.get("type") == "tool_call":
                        calls.append(ToolCall(p.get("id"), str(p.get("name", "")),
                                              _args(p.get("arguments"))))
        return Operation(span, kind, "gen_ai", text=_text_parts(out, "assistant"),
                         tool_calls=tuple(calls))
    if kind == "tool":
        return Operation(span, kind, "gen_ai", tool=str(a.get("gen_ai.tool.name", span.name)),
                         call_id=a.get("gen_ai.tool.call.id"),
                         args=_args(a.get("gen_ai.tool.call.arguments")),
                         result=json_or_text(a.get("gen_ai.tool.call.result")))
    records, skipped = _genai_records(a.get("gen_ai.memory.records"))
    if kind == "memory_search":
        return Operation(span, kind, "gen_ai", query=str(a.get("gen_ai.memory.query.text", "")),
                         records=records, skipped_documents=skipped)
    record_id = a.get("gen_ai.memory.record.id")
    if record_id is None and len(records) == 1:
        record_id = records[0].id
    content = a.get("gen_ai.memory.content")
    if content is None and records:
        content = records[0].content
    written = (Retrieved(str(record_id), str(content or "")),) if record_id is not None else ()
    return Operation(span, kind, "gen_ai", records=written, write_op=write_op,
                     record_id=None if record_id is None else str(record_id))


def _genai_records(value: Any) -> tuple[tuple[Retrieved, ...], int]:
    items = json_or_text(value)
    out: list[Retrieved] = []
    skipped = 0
    for r in items if isinstance(items, list) else []:
        if isinstance(r, dict) and r.get("id") is not None:
            meta = r.get("metadata")
            out.append(Retrieved(str(r["id"]), str(r.get("content", "")),
                                 meta if isinstance(meta, dict) else {}))
        else:
            skipped += 1
    return tuple(out), skipped


def _openinference(span: Span, kind: OpKind) -> Operation:
    a = span.attributes
    if kind == "agent":
        return Operation(span, kind, "openinference", text=_oi_input_text(a.get("input.value")))
    if kind == "chat":
        calls: dict[tuple[int, int], dict[str, Any]] = {}
        for key, value in a.items():
            m = _OI_CALL.match(key)
            if m:
                calls.setdefault((int(m[1]), int(m[2])), {})[m[3]] = value
        tool_calls = tuple(ToolCall(c.get("id"), str(c.get("function.name", "")),
                                    _args(c.get("function.arguments")))
                           for _, c in sorted(calls.items()))
        text = a.get("llm.output_messages.0.message.content")
        if not isinstance(text, str):
            # a reply that is only tool calls has no content; output.value is then the
            # framework's raw result object, not text
            text = "" if tool_calls else _oi_input_text(a.get("output.value"))
        return Operation(span, kind, "openinference", text=text, tool_calls=tool_calls)
    if kind == "tool":
        params = a.get("input.value", a.get("tool.parameters"))
        result = json_or_text(a.get("output.value"))
        call_id = a.get("tool_call.id")
        # the LangChain instrumentor records the ToolMessage: the result is its content and
        # the call id it answered is only there
        message = result.get("data") if isinstance(result, dict) and result.get("type") == "tool" \
            else None
        if isinstance(message, dict) and "content" in message:
            result = json_or_text(message["content"])
            call_id = call_id or message.get("tool_call_id")
        return Operation(span, kind, "openinference", tool=str(a.get("tool.name", span.name)),
                         call_id=call_id, args=_args(params), result=result)
    docs: dict[int, dict[str, Any]] = {}
    for key, value in a.items():
        m = _OI_DOC.match(key)
        if m:
            docs.setdefault(int(m[1]), {})[m[2]] = value
    records: list[Retrieved] = []
    skipped = 0
    for _, d in sorted(docs.items()):
        meta = json_or_text(d.get("metadata"))
        meta = meta if isinstance(meta, dict) else {}
        rid = d.get("id", meta.get("id"))
        if rid is None:
            skipped += 1
            continue
        records.append(Retrieved(str(rid), str(d.get("content", "")), meta))
    return Operation(span, kind, "openinference", query=_oi_input_text(a.get("input.value")),
                     records=tuple(records), skipped_documents=skipped)


def _oi_input_text(value: Any) -> str:
    parsed = json_or_text(value)
    if isinstance(parsed, str):
        return parsed
    if isinstance(parsed, dict):
        for key in ("input", "query", "content", "text"):
            if isinstance(parsed.get(key), str):
                return parsed[key]
        msgs = parsed.get("messages")
        if isinstance(msgs, list):
            texts = []
            for m in msgs:
                if isinstance(m, dict) and isinstance(m.get("content"), str):
                    texts.append(m["content"])
                elif isinstance(m, list) and len(m) == 2 and isinstance(m[1], str):
                    texts.append(m[1])
            return texts[-1] if texts else ""
    return "" if parsed is None else json.dumps(parsed)[:500]
