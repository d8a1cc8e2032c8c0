"""The Vercel AI SDK's own spans (`experimental_telemetry`), told by `ai.operationId`:

- `ai.generateText` / `ai.streamText` (and `generateObject` / `streamObject`): the agent
  turn; its text the `prompt` (or the first user message) of `ai.prompt`, its output
  `ai.response.text`;
- `ai.generateText.doGenerate` / `ai.streamText.doStream`: a model call; its output
  `ai.response.text` and `ai.response.toolCalls` (`[{toolCallId, toolName, input}]`),
  the user's message the first user message of `ai.prompt.messages`;
- `ai.toolCall`: a tool call (`ai.toolCall.name`, `.id`, `.args`, `.result`);
- `ai.embed`, `ai.embedMany` and their `doEmbed`: embeddings, no step of the agent.

Sessions and users come from `ai.telemetry.metadata.*` (`sessionId`, `userId`...)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..case._json import json_or_text
from ._otlp import Span

__all__ = ["AI_OPERATION", "vercel_kind", "prompt_text", "first_user_message",
           "response_tool_calls", "metadata_value"]

AI_OPERATION = "ai.operationId"
_AGENT = ("ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject")
_CHAT = ("ai.generateText.doGenerate", "ai.streamText.doStream",
         "ai.generateObject.doGenerate", "ai.streamObject.doStream")


def vercel_kind(span: Span) -> str | None:
    """agent, chat or tool for a Vercel AI SDK span; a skip reason for its other spans;
    None for a span that is not the AI SDK's."""
    op = span.attributes.get(AI_OPERATION)
    if not isinstance(op, str):
        return None
    if op in _AGENT:
        return "agent"
    if op in _CHAT:
        return "chat"
    if op == "ai.toolCall":
        return "tool"
    return f"Vercel AI SDK {op.split('.')[1] if op.count('.') else op} span (no agent step)"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text")) for p in content
                         if isinstance(p, Mapping) and p.get("type") == "text"
                         and isinstance(p.get("text"), str))
    return ""


def first_user_message(messages: Any) -> str:
    """The first user message's text of AI SDK messages (`content` text or parts)."""
    messages = json_or_text(messages)
    for m in messages if isinstance(messages, list) else []:
        if isinstance(m, Mapping) and m.get("role") == "user":
            text = _content_text(m.get("content"))
            if text:
                return text
    return ""


def prompt_text(value: Any) -> str:
    """The user's text of `ai.prompt` (`{"system", "prompt"}` or `{"messages"}`)."""
    prompt = json_or_text(value)
    if isinstance(prompt, str):
        return prompt
    if not isinstance(prompt, Mapping):
        return ""
    text = _content_text(prompt.get("prompt"))
    return text or first_user_message(prompt.get("messages"))


def response_tool_calls(value: Any) -> list[tuple[str | None, str, Any]]:
    """(call id, tool name, arguments) of `ai.response.toolCalls`."""
    calls = json_or_text(value)
    out = []
    for c in calls if isinstance(calls, list) else []:
        if isinstance(c, Mapping) and isinstance(c.get("toolName"), str):
            cid = c.get("toolCallId")
            out.append((None if cid is None else str(cid), str(c["toolName"]),
                        c.get("input", c.get("args"))))
    return out


def metadata_value(a: Mapping[str, Any], *keys: str) -> str | None:
    """The first of `ai.telemetry.metadata.<key>` that is a non-empty string."""
    for key in keys:
        v = a.get(f"ai.telemetry.metadata.{key}")
        if isinstance(v, str) and v:
            return v
    return None
