"""What a model span's input messages say: the user's message, and the tool results the
framework sent back to the model (`role: tool` messages, GenAI `tool_call_response`
parts) with the calls they answer. Instrumentors that record no tool span (the OpenAI
client's GenAI instrumentation) carry a tool's result only there."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..case._json import json_or_text

__all__ = ["MessageToolResult", "first_user_text", "tool_results", "unwrap_blocks",
           "unwrap_input"]

_OI_MSG = re.compile(r"llm\.input_messages\.(\d+)\.message\.(role|content|tool_call_id|name)$")
_OI_MSG_CALL = re.compile(r"llm\.input_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\."
                          r"(id|function\.name|function\.arguments)$")
_OLLM_PROMPT = re.compile(r"gen_ai\.prompt\.(\d+)\.(role|content)$")
_INPUT_KEYS = ("message", "task", "input", "query", "question", "content", "text", "prompt",
               "user_input", "new_message")
_USER_ROLES = ("user", "human")


@dataclass(frozen=True)
class MessageToolResult:
    """A tool's result as the framework sent it back to the model."""

    call_id: str
    """The call id it answers."""
    name: str
    """The tool's name (from the call, else from the result message)."""
    args: Any
    """The call's arguments, when the same messages hold the call."""
    result: Any
    """What the tool returned (parsed from JSON when it is JSON text)."""


def unwrap_input(value: Any) -> str:
    """The user's text in an agent's input: the text itself, or the `message`, `task`,
    `input`, `query` (...) string of a JSON object, possibly nested one level (a LlamaIndex
    chat's `{"message": ...}`, smolagents' `{"task": ...}`); "" when there is none.

    >>> unwrap_input('{"message": "Book my seat."}'), unwrap_input('{"kwargs": {"task": "Hi"}}')
    ('Book my seat.', 'Hi')
    """
    parsed = json_or_text(value)
    if isinstance(parsed, str):
        return parsed.strip()
    if isinstance(parsed, Mapping):
        for key in _INPUT_KEYS:
            v = parsed.get(key)
            if isinstance(v, str) and v.strip():
                return v.strip()
            if isinstance(v, Mapping):  # ADK's new_message {"parts": [{"text"}]}
                text = _parts_text(v.get("parts"))
                if text:
                    return text
        for v in parsed.values():
            if isinstance(v, Mapping):
                for key in _INPUT_KEYS:
                    if isinstance(v.get(key), str) and v[key].strip():
                        return str(v[key]).strip()
    return ""


def unwrap_blocks(value: Any) -> Any:
    """A provider's content blocks as what they hold: a list of `{"text": ...}` blocks
    (Bedrock's and Strands' shape, as Strands records a tool's result or a message) is its
    text, parsed when it is JSON; a lone `{"json": ...}` block is its value; anything else
    is returned as it is.

    >>> unwrap_blocks([{"text": '{"seat": "31A"}'}]), unwrap_blocks([{"json": [1]}])
    ({'seat': '31A'}, [1])
    """
    value = json_or_text(value)
    if not isinstance(value, list) or not value or not all(
            isinstance(b, Mapping) and len(b) == 1 and ("text" in b or "json" in b)
            for b in value):
        return value
    if len(value) == 1 and "json" in value[0]:
        return value[0]["json"]
    texts = [b["text"] for b in value if isinstance(b.get("text"), str)]
    if len(texts) != len(value):
        return value
    return json_or_text("\n".join(texts))


def _parts_text(parts: Any) -> str:
    if not isinstance(parts, list):
        return ""
    texts = []
    for p in parts:
        if isinstance(p, Mapping):
            t = p.get("content") if p.get("type") == "text" else p.get("text")
            if isinstance(t, str) and t:
                texts.append(t)
    return "\n".join(texts)


def _oi_messages(a: Mapping[str, Any]) -> list[dict[str, Any]]:
    msgs: dict[int, dict[str, Any]] = {}
    for key, value in a.items():
        if not key.startswith("llm.input_messages."):
            continue
        m = _OI_MSG.match(key)
        if m:
            msgs.setdefault(int(m[1]), {})[m[2]] = value
            continue
        c = _OI_MSG_CALL.match(key)
        if c:
            calls = msgs.setdefault(int(c[1]), {}).setdefault("calls", {})
            calls.setdefault(int(c[2]), {})[c[3]] = value
    return [m for _, m in sorted(msgs.items())]


def _genai_messages(a: Mapping[str, Any]) -> list[Any]:
    value = json_or_text(a.get("gen_ai.input.messages"))
    return value if isinstance(value, list) else []


def first_user_text(a: Mapping[str, Any], events: Any = ()) -> str:
    """The first user message a model span was sent: `llm.input_messages.*`,
    `gen_ai.input.messages` (text parts), OpenLLMetry's `gen_ai.prompt.N.*`, a
    `gen_ai.user.message` / `gen_ai.content.prompt` event, else the messages of
    `input.value`; "" when it holds none."""
    for m in _oi_messages(a):
        if m.get("role") in _USER_ROLES and isinstance(m.get("content"), str) and m["content"]:
            return str(m["content"])
    for g in _genai_messages(a):
        if isinstance(g, Mapping) and g.get("role") in _USER_ROLES:
            text = _parts_text(g.get("parts")) or (g["content"] if isinstance(
                g.get("content"), str) else "")
            if text:
                return text
    prompts: dict[int, dict[str, Any]] = {}
    for key, value in a.items():
        hit = _OLLM_PROMPT.match(key)
        if hit:
            prompts.setdefault(int(hit[1]), {})[hit[2]] = value
    for _, prompt in sorted(prompts.items()):
        if prompt.get("role") in _USER_ROLES and isinstance(prompt.get("content"), str) \
                and prompt["content"]:
            return str(prompt["content"])
    for event in events:
        if event.name in ("gen_ai.user.message", "gen_ai.content.prompt"):
            for key in ("content", "gen_ai.event.content", "gen_ai.prompt",
                        "gen_ai.input.messages"):
                value = json_or_text(event.attributes.get(key))
                if isinstance(value, Mapping):
                    value = value.get("content", "")
                if isinstance(value, list) and not any(
                        isinstance(m, Mapping) and "role" in m for m in value):
                    value = _parts_text(value)  # the message's content blocks (Strands)
                elif isinstance(value, list):
                    users = [m for m in value if isinstance(m, Mapping)
                             and m.get("role") in _USER_ROLES]
                    value = (_parts_text(users[0].get("parts")) or users[0].get("content")) \
                        if users else ""
                if isinstance(value, str) and value:
                    return value
    parsed = json_or_text(a.get("input.value"))
    if isinstance(parsed, Mapping):
        parsed = parsed.get("messages")
    if isinstance(parsed, list):
        for m in parsed:
            if isinstance(m, Mapping) and m.get("role") in _USER_ROLES:
                content = m.get("content")
                text = content if isinstance(content, str) else _parts_text(content)
                if text:
                    return text
    return ""


def tool_results(a: Mapping[str, Any]) -> list[MessageToolResult]:
    """The tool results in a model span's input messages, in order, each with the call it
    answers when the same messages hold it."""
    calls: dict[str, tuple[str, Any]] = {}
    out: list[MessageToolResult] = []
    for m in _oi_messages(a):
        for _, c in sorted(m.get("calls", {}).items()):
            if c.get("id") is not None:
                calls[str(c["id"])] = (str(c.get("function.name", "")),
                                       json_or_text(c.get("function.arguments")))
        if m.get("role") == "tool" and m.get("tool_call_id") is not None:
            cid = str(m["tool_call_id"])
            name, args = calls.get(cid, (str(m.get("name") or ""), None))
            out.append(MessageToolResult(cid, name, args, json_or_text(m.get("content"))))
    for g in _genai_messages(a):
        if not isinstance(g, Mapping) or not isinstance(g.get("parts"), list):
            continue
        for p in g["parts"]:
            if not isinstance(p, Mapping) or p.get("id") is None:
                continue
            if p.get("type") == "tool_call":
                calls[str(p["id"])] = (str(p.get("name") or ""), json_or_text(p.get("arguments")))
            elif p.get("type") == "tool_call_response":
                cid = str(p["id"])
                name, args = calls.get(cid, (str(p.get("name") or ""), None))
                out.append(MessageToolResult(cid, name, args, unwrap_blocks(p.get("response"))))
    return out
