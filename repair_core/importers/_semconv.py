"""What a span means: OTel GenAI (`gen_ai.*`) and OpenInference (`openinference.*`)
attributes mapped onto a few operations dgrr understands, plus the `dgrr.*` provenance
an agent may add (see docs/import.md). Spans that are neither are reported, not fatal."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..case._json import json_or_text
from ._messages import (
    MessageToolResult,
    first_user_text,
    tool_results,
    unwrap_blocks,
    unwrap_input,
)
from ._otlp import Span
from ._vercel import (
    first_user_message,
    metadata_value,
    prompt_text,
    response_tool_calls,
    vercel_kind,
)

__all__ = ["Operation", "ToolCall", "Retrieved", "classify", "content_id", "session_of",
           "user_of", "NOT_GENAI", "NEEDED"]

OpKind = Literal["agent", "chat", "tool", "memory_search", "memory_write"]

# gen_ai.operation.name -> dgrr's operation (and, for writes, the write op)
_GENAI_OPS: dict[str, tuple[OpKind, str | None]] = {
    "invoke_agent": ("agent", None),
    "invoke_workflow": ("agent", None),
    "retrieval": ("memory_search", None),
    "chat": ("chat", None),
    "text_completion": ("chat", None),
    "generate_content": ("chat", None),
    "execute_tool": ("tool", None),
    # Strands' memory manager names its own operations (no GenAI equivalent)
    "memory.search": ("memory_search", None),
    "memory.add": ("memory_write", "add"),
    "search_memory": ("memory_search", None),
    "create_memory": ("memory_write", "add"),
    "update_memory": ("memory_write", "update"),
    "upsert_memory": ("memory_write", "update"),
    "delete_memory": ("memory_write", "delete"),
}
_CONTAINER_OPS: dict[str, str] = {
    "execute_event_loop_cycle": "Strands event-loop cycle (its chat and tool spans are read)",
    "memory.inject": "Strands memory injection (the span does not record the entries it "
                     "put into the prompt)",
}
"""gen_ai.operation.name values of spans that are no step of their own, and why."""
_DETAILS_EVENT = "gen_ai.client.inference.operation.details"
_DETAILS_KEYS = ("gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions")
"""The GenAI conventions' event that carries a call's messages when they are not span
attributes (Strands with `gen_ai_latest_experimental`), and the attributes it holds."""
_OI_KINDS: dict[str, OpKind] = {
    "AGENT": "agent", "LLM": "chat", "TOOL": "tool", "RETRIEVER": "memory_search",
}
_OI_DOC = re.compile(r"retrieval\.documents\.(\d+)\.document\.(id|content|score|metadata)$")
_OLLM_MSG = re.compile(r"gen_ai\.(prompt|completion)\.(\d+)\.(role|content)$")
_OLLM_CALL = re.compile(r"gen_ai\.completion\.(\d+)\.tool_calls\.(\d+)\.(id|name|arguments)$")
# span events that carry message content (OpenLit; the GenAI event names of semconv <= 1.36)
_PROMPT_EVENTS: dict[str, tuple[str, ...]] = {"gen_ai.content.prompt": ("gen_ai.prompt", "gen_ai.input.messages"),
                  "gen_ai.user.message": ("content", "gen_ai.event.content")}
_COMPLETION_EVENTS: dict[str, tuple[str, ...]] = {"gen_ai.content.completion": ("gen_ai.completion",
                                                    "gen_ai.output.messages"),
                      "gen_ai.choice": ("message", "content", "gen_ai.event.content")}
NOT_GENAI = "not a GenAI span"
NEEDED = ("gen_ai.operation.name, openinference.span.kind, llm.request.type or "
          "gen_ai.completion.N.*, gen_ai.tool.name, gen_ai.agent.name, ai.operationId "
          "(Vercel AI SDK)")
"""What a span needs for dgrr to read it (any one of these)."""
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
    convention: Literal["gen_ai", "openinference", "openllmetry", "vercel_ai"]
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
    """memory_search: returned documents with neither an id nor content."""
    missing: str | None = None
    """What the span lacked (the attributes that would have carried it), when it is used
    without some of its content."""
    user_text: str = ""
    """chat: the first user message it was sent (the turn's text when the agent span
    records none)."""
    message_results: tuple[MessageToolResult, ...] = ()
    """chat: the tool results its input messages carry."""
    output: str = ""
    """agent: what the agent answered (`output.value`, `gen_ai.output.messages`)."""
    step_type: str | None = None
    """chat: the step type the framework implies (a final-answer tool's call is the
    answer), when `dgrr.step.type` gives none."""


def classify(span: Span) -> Operation | str:
    """The operation a span records, or why it is skipped (a short reason)."""
    span = _with_details(span)
    op = _classify(span)
    if isinstance(op, Operation) and op.kind == "chat":
        a = span.attributes
        op = replace(op, user_text=op.user_text or first_user_text(a, span.events),
                     message_results=tuple(tool_results(a)))
    return op


def _with_details(span: Span) -> Span:
    """`span` with the messages its `gen_ai.client.inference.operation.details` events
    carry as attributes it does not have itself (the first event holding each wins)."""
    lifted: dict[str, Any] = {}
    for event in span.events:
        if event.name == _DETAILS_EVENT:
            for key in _DETAILS_KEYS:
                if key in event.attributes and key not in span.attributes:
                    lifted.setdefault(key, event.attributes[key])
    return replace(span, attributes={**span.attributes, **lifted}) if lifted else span


def _event_value(span: Span, event_name: str, key: str) -> Any:
    """Attribute `key` of the first event `event_name` of `span` that has it, else None."""
    for event in span.events:
        if event.name == event_name and key in event.attributes:
            return event.attributes[key]
    return None


def _block_calls(value: Any) -> list[ToolCall]:
    """Tool calls in a `gen_ai.choice` event's message: Bedrock-style content blocks
    (`[{"toolUse": {"toolUseId", "name", "input"}}]`, Strands), or an OpenAI-style message's
    `tool_calls` (`{"id", "function": {"name", "arguments"}}`, Semantic Kernel's logs)."""
    blocks = json_or_text(value)
    calls = []
    if isinstance(blocks, dict):
        for c in blocks.get("tool_calls") or []:
            fn = c.get("function") if isinstance(c, dict) else None
            if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                calls.append(ToolCall(None if c.get("id") is None else str(c["id"]),
                                      fn["name"], _args(fn.get("arguments"))))
        return calls
    for b in blocks if isinstance(blocks, list) else []:
        use = b.get("toolUse") if isinstance(b, dict) else None
        if isinstance(use, dict) and isinstance(use.get("name"), str):
            cid = use.get("toolUseId")
            calls.append(ToolCall(None if cid is None else str(cid), use["name"],
                                  _args(use.get("input"))))
    return calls


def _classify(span: Span) -> Operation | str:
    a = span.attributes
    op_name = a.get("gen_ai.operation.name")
    if isinstance(op_name, str):
        if op_name in _CONTAINER_OPS:
            return _CONTAINER_OPS[op_name]
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
    vercel = vercel_kind(span)
    if vercel is not None:
        return _vercel_ai(span, vercel)
    # no operation name: OpenLLMetry's indexed prompt/completion attributes, pydantic-ai's
    # (and others') tool and agent-run spans
    request = a.get("llm.request.type")
    if request in ("chat", "completion") or (request is None and any(
            _OLLM_MSG.match(k) for k in a)):
        return _openllmetry(span)
    if isinstance(request, str):
        return f"OpenLLMetry {request} span"  # embedding, rerank: no step of the agent
    if isinstance(a.get("gen_ai.tool.name"), str):
        return _genai(span, "tool", None)
    if isinstance(a.get("gen_ai.agent.name") or a.get("agent_name"), str):
        return _genai(span, "agent", None)
    return NOT_GENAI


def _vercel_ai(span: Span, kind: str) -> Operation | str:
    a = span.attributes
    if kind == "agent":
        return Operation(span, "agent", "vercel_ai", text=prompt_text(a.get("ai.prompt")),
                         output=str(a.get("ai.response.text") or ""),
                         missing=None if a.get("ai.prompt") else "the user's message "
                         "(ai.prompt)")
    if kind == "chat":
        text = a.get("ai.response.text")
        text = text if isinstance(text, str) else ""
        calls = tuple(ToolCall(cid, name, _args(args))
                      for cid, name, args in response_tool_calls(a.get("ai.response.toolCalls")))
        return Operation(span, "chat", "vercel_ai", text=text, tool_calls=calls,
                         user_text=first_user_message(a.get("ai.prompt.messages")),
                         missing=None if text or calls else
                         "the model's output (ai.response.text, ai.response.toolCalls)")
    if kind == "tool":
        raw_args, result = a.get("ai.toolCall.args"), a.get("ai.toolCall.result")
        call_id = a.get("ai.toolCall.id")
        return Operation(span, "tool", "vercel_ai", tool=str(a.get("ai.toolCall.name", span.name)),
                         call_id=None if call_id is None else str(call_id),
                         args=_args(raw_args), result=json_or_text(json_or_text(result)),
                         missing=_tool_missing(raw_args, result, ("ai.toolCall.args",
                                                                  "ai.toolCall.result")))
    return kind


def content_id(text: str) -> str:
    """A record id made from its content (for sources that give none): the same text
    always gets the same id, in every import.

    >>> content_id("Lin prefers window seats.")
    'sha256:071042124af59398'
    """
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _json_obj(value: Any) -> dict[str, Any]:
    parsed = json_or_text(value)
    return parsed if isinstance(parsed, dict) else {}


def user_of(span: Span) -> str | None:
    """The user a span names: `user.id`, `enduser.id`, `gen_ai.user.id`, or `user_id` in
    the LangChain run metadata (`metadata`) the OpenInference instrumentor records."""
    a = span.attributes
    for key in ("user.id", "enduser.id", "gen_ai.user.id"):
        v = a.get(key)
        if isinstance(v, str) and v:
            return v
    v = _json_obj(a.get("metadata")).get("user_id")
    if isinstance(v, str) and v:
        return v
    return metadata_value(a, "userId", "user_id", "user")


def session_of(span: Span) -> str | None:
    """The session (conversation, thread) a span belongs to: `session.id`,
    `gen_ai.conversation.id`, or `session_id` / `thread_id` / `conversation_id` in the
    LangChain run metadata."""
    a = span.attributes
    for key in ("session.id", "gen_ai.conversation.id"):
        v = a.get(key)
        if isinstance(v, str) and v:
            return v
    meta = _json_obj(a.get("metadata"))
    for key in ("session_id", "thread_id", "conversation_id"):
        v = meta.get(key)
        if isinstance(v, str) and v:
            return v
    return metadata_value(a, "sessionId", "session_id", "threadId", "conversationId")


def _event_text(span: Span, events: dict[str, tuple[str, ...]], role: str | None) -> str:
    """Message text carried in span events (OpenLit's `gen_ai.content.*`, semconv's
    `gen_ai.choice` / `gen_ai.user.message`)."""
    texts = []
    for event in span.events:
        keys = events.get(event.name)
        for key in keys or ():
            value = json_or_text(event.attributes.get(key))
            if isinstance(value, dict):
                value = [value.get("message", value)] if "message" in value else [value]
            text = _text_parts(value, role) if isinstance(value, list) else value
            if isinstance(text, str) and text:
                texts.append(text)
                break
    return "\n".join(texts)


_MAX_REPR = 100_000
"""The longest `gen_ai.response.tool_calls` text read as a Python literal."""


def _openlit_calls(value: Any) -> list[ToolCall]:
    """Tool calls of OpenLit's `gen_ai.response.tool_calls` (OpenLit <= 1.3x): the OpenAI
    response's `tool_calls` as a Python repr (`str(list)`), or JSON. Read as data only
    (`ast.literal_eval` of a bounded text: literals, never code); anything else is none."""
    try:
        parsed = json_or_text(value)
    except RecursionError:
        return []
    if isinstance(parsed, str) and parsed.startswith("[") and len(parsed) <= _MAX_REPR:
        try:
            parsed = ast.literal_eval(parsed)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return []
    calls = []
    for c in parsed if isinstance(parsed, list) else []:
        fn = c.get("function") if isinstance(c, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            calls.append(ToolCall(None if c.get("id") is None else str(c["id"]), fn["name"],
                                  _args(fn.get("arguments"))))
    return calls


def _text_parts(messages: Any, role: str | None) -> str:
    """Text of the messages (of `role`, when given), in GenAI's `parts` or plain shape."""
    if not isinstance(messages, list):
        return messages if isinstance(messages, str) else ""
    texts: list[str] = []
    for m in messages:
        if not isinstance(m, dict) or (role and m.get("role", role) != role):
            continue
        parts = m.get("parts")
        if isinstance(parts, list):
            texts += [str(p.get("content", "")) for p in parts
                      if isinstance(p, dict) and p.get("type") == "text"]
        elif isinstance(m.get("content"), str):
            texts.append(m["content"])
        elif isinstance(m.get("text"), str):  # a content block (Strands: `[{"text": ...}]`)
            texts.append(m["text"])
    return "\n".join(t for t in texts if t)


def _args(value: Any) -> dict[str, Any]:
    parsed = json_or_text(value)
    return parsed if isinstance(parsed, dict) else ({} if parsed in (None, "") else {"input": parsed})


def _genai(span: Span, kind: OpKind, write_op: str | None) -> Operation:
    a = span.attributes
    if kind == "agent":
        messages = json_or_text(a.get("gen_ai.input.messages"))
        user = _text_parts(messages, "user") if isinstance(messages, list) else ""
        if not user:  # pydantic-ai keeps the run's messages here
            everything = json_or_text(a.get("pydantic_ai.all_messages"))
            users = [m for m in everything if isinstance(m, dict) and m.get("role") == "user"] \
                if isinstance(everything, list) else []
            user = _text_parts(users[:1], "user")
        user = user or _event_text(span, _PROMPT_EVENTS, "user")
        user = user or unwrap_input(a.get("input.value"))
        output = json_or_text(a.get("gen_ai.output.messages"))
        answer = _text_parts(output, "assistant") if isinstance(output, list) else ""
        answer = answer or unwrap_input(a.get("output.value")) or _event_text(
            span, _COMPLETION_EVENTS, "assistant")
        return Operation(span, kind, "gen_ai", text=user, output=answer,
                         missing=None if user else "the user's message (gen_ai.input.messages "
                         "or a gen_ai.content.prompt event)")
    if kind == "chat":
        out = json_or_text(a.get("gen_ai.output.messages"))
        calls: list[ToolCall] = []
        if isinstance(out, list):
            for m in out:
                for p in (m.get("parts") or []) if isinstance(m, dict) else []:
                    if isinstance(p, dict) and p.get("type") == "tool_call":
                        calls.append(ToolCall(None if p.get("id") is None else str(p["id"]),
                                              str(p.get("name", "")),
                                              _args(p.get("arguments"))))
        text = _text_parts(out, "assistant") or _event_text(span, _COMPLETION_EVENTS,
                                                            "assistant")
        if not calls:
            calls = _block_calls(_event_value(span, "gen_ai.choice", "message"))
        if not calls:
            calls = _openlit_calls(a.get("gen_ai.response.tool_calls"))
            if calls and text == "None":  # OpenLit writes str(None) for a tool call's content
                text = ""
        return Operation(span, kind, "gen_ai", text=text, tool_calls=tuple(calls),
                         missing=None if text or calls else _CHAT_NEEDS)
    if kind == "tool":
        call_id = a.get("gen_ai.tool.call.id")
        raw_args = a.get("gen_ai.tool.call.arguments", a.get("tool_arguments"))
        raw_result = a.get("gen_ai.tool.call.result", a.get("tool_response"))
        if raw_args is None:  # the per-message events of semconv <= 1.36 (Strands' default)
            raw_args = _event_value(span, "gen_ai.tool.message", "content")
        if raw_result is None:
            raw_result = _event_value(span, "gen_ai.choice", "message")
        result = unwrap_blocks(raw_result)
        return Operation(span, kind, "gen_ai", tool=str(a.get("gen_ai.tool.name", span.name)),
                         call_id=None if call_id is None else str(call_id),
                         args=_args(raw_args), result=result,
                         missing=_tool_missing(raw_args, result, _GENAI_TOOL_ATTRS))
    strands = a.get("gen_ai.operation.name") in ("memory.search", "memory.add")
    listed = a.get("gen_ai.memory.records", a.get("gen_ai.retrieval.documents"))
    if listed is None and strands:  # Strands: in events, or the span's `content`
        listed = _event_value(span, "memory.results", "content")
        if listed is None and isinstance(json_or_text(a.get("content")), list):
            listed = a.get("content")
    records, skipped = _genai_records(listed)
    if kind == "memory_search":
        query = a.get("gen_ai.memory.query.text", a.get("gen_ai.retrieval.query.text"))
        if query is None and strands:
            query = _event_value(span, "memory.query", "content")
        query = "" if query is None else query
        return Operation(span, kind, "gen_ai", query=str(query), records=records,
                         skipped_documents=skipped)
    record_id = a.get("gen_ai.memory.record.id")
    if record_id is None and len(records) == 1:
        record_id = records[0].id
    content = a.get("gen_ai.memory.content")
    if content is None and strands:
        content = _event_value(span, "memory.content", "content")
        if content is None and isinstance(a.get("content"), str):
            content = a["content"]
    if content is None and records:
        content = records[0].content
    if record_id is None and isinstance(content, str) and content:
        record_id = content_id(content)
    written = (Retrieved(str(record_id), str(content or "")),) if record_id is not None else ()
    return Operation(span, kind, "gen_ai", records=written, write_op=write_op,
                     record_id=None if record_id is None else str(record_id))


_GENAI_TOOL_ATTRS = ("gen_ai.tool.call.arguments", "gen_ai.tool.call.result")
_OI_TOOL_ATTRS = ("input.value", "output.value")


def _tool_missing(args: Any, result: Any, attrs: tuple[str, str]) -> str | None:
    """What a tool span lacks: its arguments, its result, or both (named by attribute)."""
    lacks = [what for what, value in (("arguments", args), ("result", result))
             if value is None]
    if not lacks:
        return None
    named = [attr for attr, value in zip(attrs, (args, result), strict=True) if value is None]
    return f"the tool's {' and '.join(lacks)} ({', '.join(named)})"


_CHAT_NEEDS = ("the model's output (gen_ai.output.messages, gen_ai.completion.N.content, "
               "llm.output_messages.N.message.content or a gen_ai.content.completion event)")


def _openllmetry(span: Span) -> Operation:
    """OpenLLMetry (traceloop) before the GenAI message attributes: indexed
    `gen_ai.prompt.N.{role,content}`, `gen_ai.completion.N.{role,content}` and
    `gen_ai.completion.N.tool_calls.M.{id,name,arguments}`."""
    a = span.attributes
    completions: dict[int, dict[str, Any]] = {}
    calls: dict[tuple[int, int], dict[str, Any]] = {}
    for key, value in a.items():
        m = _OLLM_MSG.match(key)
        if m and m[1] == "completion":
            completions.setdefault(int(m[2]), {})[m[3]] = value
            continue
        c = _OLLM_CALL.match(key)
        if c:
            calls.setdefault((int(c[1]), int(c[2])), {})[c[3]] = value
    texts = [c["content"] for _, c in sorted(completions.items())
             if isinstance(c.get("content"), str) and c.get("role", "assistant") == "assistant"]
    tool_calls = tuple(ToolCall(None if c.get("id") is None else str(c["id"]),
                                str(c.get("name", "")), _args(c.get("arguments")))
                       for _, c in sorted(calls.items()))
    text = "\n".join(t for t in texts if t) or _event_text(span, _COMPLETION_EVENTS,
                                                           "assistant")
    return Operation(span, "chat", "openllmetry", text=text, tool_calls=tool_calls,
                     missing=None if text or tool_calls else _CHAT_NEEDS)


def _genai_records(value: Any) -> tuple[tuple[Retrieved, ...], int]:
    items = json_or_text(value)
    out: list[Retrieved] = []
    skipped = 0
    for r in items if isinstance(items, list) else []:
        record = _record(r) if isinstance(r, dict) else None
        if record is None:
            skipped += 1
        else:
            out.append(record)
    return tuple(out), skipped


def _record(r: dict[str, Any], content_key: str = "content") -> Retrieved | None:
    """A returned record: its id, else (with content) an id made from the content."""
    meta = r.get("metadata")
    meta = json_or_text(meta)
    meta = meta if isinstance(meta, dict) else {}
    content = r.get(content_key)
    content = "" if content is None else content if isinstance(content, str) else \
        json.dumps(content)
    rid = r.get("id", meta.get("id"))
    if rid is None or rid == "":
        if not content:
            return None
        rid = content_id(content)
    return Retrieved(str(rid), content, meta)


def _openinference(span: Span, kind: OpKind) -> Operation:
    a = span.attributes
    if kind == "agent":
        text = _oi_user_text(a)
        if isinstance(json_or_text(text), (dict, list)):
            text = ""  # a serialized object (a node parser's nodes), not a user's message
        crew_text, crew_answer = _crew_turn(a)
        text = text or crew_text
        return Operation(span, kind, "openinference", text=text,
                         output=unwrap_input(a.get("output.value")) or crew_answer,
                         missing=None if text else "the user's message (input.value or "
                         "llm.input_messages.N.message.content)")
    if kind == "chat":
        calls: dict[tuple[int, int], dict[str, Any]] = {}
        for key, value in a.items():
            m = _OI_CALL.match(key)
            if m:
                calls.setdefault((int(m[1]), int(m[2])), {})[m[3]] = value
        tool_calls = tuple(ToolCall(None if c.get("id") is None else str(c["id"]),
                                    str(c.get("function.name", "")),
                                    _args(c.get("function.arguments")))
                           for _, c in sorted(calls.items()))
        content = a.get("llm.output_messages.0.message.content")
        # a reply that is only tool calls has no content; output.value is then the
        # framework's raw result object, not text
        text = content if isinstance(content, str) else \
            "" if tool_calls else _oi_output_text(a.get("output.value"))
        return Operation(span, kind, "openinference", text=text, tool_calls=tool_calls,
                         missing=None if text or tool_calls else _CHAT_NEEDS)
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
        args = _args(params)
        if isinstance(args.get("kwargs"), dict) and set(args) <= {"args", "kwargs",
                                                                  "sanitize_inputs_outputs"}:
            args = dict(args["kwargs"])  # smolagents records the Python call's arguments
        return Operation(span, kind, "openinference", tool=str(a.get("tool.name", span.name)),
                         call_id=None if call_id is None else str(call_id), args=args,
                         result=result,
                         missing=_tool_missing(a.get("input.value"), a.get("output.value"),
                                               _OI_TOOL_ATTRS))
    docs: dict[int, dict[str, Any]] = {}
    for key, value in a.items():
        m = _OI_DOC.match(key)
        if m:
            docs.setdefault(int(m[1]), {})[m[2]] = value
    # the LangChain instrumentor writes the ids only in output.value
    # ({"documents": [{"id", "page_content", "metadata"}]}), in the same order
    out = _json_obj(a.get("output.value")).get("documents")
    for n, d in enumerate(out if isinstance(out, list) else []):
        if not isinstance(d, dict):
            continue
        doc = docs.setdefault(n, {})
        if doc.get("id") is None and d.get("id") is not None:
            doc["id"] = d["id"]
        if "content" not in doc and isinstance(d.get("page_content"), str):
            doc["content"] = d["page_content"]
        if "metadata" not in doc and isinstance(d.get("metadata"), dict):
            doc["metadata"] = d["metadata"]
    records: list[Retrieved] = []
    skipped = 0
    for _, d in sorted(docs.items()):
        record = _record(d)
        if record is None:
            skipped += 1
        else:
            records.append(record)
    return Operation(span, kind, "openinference", query=_oi_input_text(a.get("input.value")),
                     records=tuple(records), skipped_documents=skipped)


_OI_IN = re.compile(r"llm\.input_messages\.(\d+)\.message\.(role|content)$")


def _oi_user_text(a: dict[str, Any]) -> str:
    """The user's message of an agent (or root chain) span: the last user message of
    `llm.input_messages.*`, else of `input.value` (LangChain-serialized messages too)."""
    msgs: dict[int, dict[str, Any]] = {}
    for key, value in a.items():
        m = _OI_IN.match(key)
        if m:
            msgs.setdefault(int(m[1]), {})[m[2]] = value
    users = [m["content"] for _, m in sorted(msgs.items())
             if m.get("role") in ("user", "human") and isinstance(m.get("content"), str)]
    return users[-1] if users else _oi_input_text(a.get("input.value"))


def _lc_message(m: Any) -> tuple[str, str] | None:
    """(role, text) of a message as LangChain serializes it: `{"type": "human", "data":
    {...}}`, `{"lc": 1, "type": "constructor", "id": [..., "HumanMessage"], "kwargs":
    {...}}`, `{"role", "content"}`, or a `(role, text)` pair."""
    if isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m):
        return m[0], m[1]
    if not isinstance(m, dict):
        return None
    body = m
    role = m.get("role") or m.get("type")
    if isinstance(m.get("kwargs"), dict):
        body = m["kwargs"]
        ids = m.get("id")
        role = body.get("type") or (ids[-1] if isinstance(ids, list) and ids else role)
    elif isinstance(m.get("data"), dict):
        body = m["data"]
        role = body.get("type") or role
    content = body.get("content")
    if isinstance(content, list):  # content blocks
        content = "\n".join(str(p.get("text", "")) for p in content
                            if isinstance(p, dict) and p.get("type") == "text")
    if not isinstance(content, str):
        return None
    role = str(role or "")
    role = {"human": "user", "HumanMessage": "user", "ai": "assistant",
            "AIMessage": "assistant"}.get(role, role)
    return role, content


def _oi_input_text(value: Any) -> str:
    parsed = json_or_text(value)
    if isinstance(parsed, str):
        return parsed
    if isinstance(parsed, dict):
        for key in ("input", "query", "content", "text", "question", "message", "task"):
            if isinstance(parsed.get(key), str):
                return parsed[key]
        msgs = parsed.get("messages")
        if isinstance(msgs, list):
            if len(msgs) == 1 and isinstance(msgs[0], list) and \
                    not all(isinstance(x, str) for x in msgs[0]):
                msgs = msgs[0]  # a chat model's input: one list per prompt
            read = [r for r in (_lc_message(m) for m in msgs) if r is not None]
            users = [t for role, t in read if role == "user"]
            return users[-1] if users else read[-1][1] if read else ""
    return "" if parsed is None else json.dumps(parsed)[:500]


def _crew_turn(a: dict[str, Any]) -> tuple[str, str]:
    """A CrewAI crew's kickoff span (OpenInference's CrewAI instrumentor: a root CHAIN with
    no `input.value`): the turn is its first task's `description` (`crew_tasks`), the
    answer the crew output's `raw` text (`output.value`); ("", "") for another span."""
    tasks = json_or_text(a.get("crew_tasks"))
    first = tasks[0] if isinstance(tasks, list) and tasks else None
    text = first.get("description") if isinstance(first, dict) else None
    output = json_or_text(a.get("output.value"))
    raw = output.get("raw") if isinstance(output, dict) and "crew_id" in a else None
    return (text if isinstance(text, str) else "", raw if isinstance(raw, str) else "")


def _oi_output_text(value: Any) -> str:
    """A model's reply in `output.value`: LangChain's `generations` (text or message), a
    serialized message, or text."""
    parsed = json_or_text(value)
    if isinstance(parsed, dict):
        gens = parsed.get("generations")
        if isinstance(gens, list) and gens and isinstance(gens[0], list) and gens[0]:
            g = gens[0][0]
            if isinstance(g, dict):
                if isinstance(g.get("text"), str) and g["text"]:
                    return g["text"]
                read = _lc_message(g.get("message"))
                if read:
                    return read[1]
        read = _lc_message(parsed)
        if read:
            return read[1]
    return _oi_input_text(value)
