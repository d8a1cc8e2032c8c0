"""What a model call's span recorded of the call itself: the model, and the messages it
was sent and answered, each as a role and its text, by whichever convention the span
follows (OpenInference `llm.*_messages.N.*`, OTel GenAI `gen_ai.*.messages` and
`gen_ai.system_instructions`, OpenLLMetry `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`,
the Vercel AI SDK's `ai.prompt.messages` / `ai.response.*`, and the message events of
GenAI semconv <= 1.36 and OpenLit). The case keeps them under the step's `trace` key so
the original run can be shown as a trace viewer shows it; no rule reads them.

A tool call in a reply is written as `call NAME(ARGUMENTS)` and a tool's result sent back
as `result of CALL_ID: RESULT`, so every message is one text. A message's text is kept up
to `MESSAGE_CHARS` characters and a side up to its last `MESSAGES` messages (a prompt
resends the whole conversation at every call; the rest is said to be left out).

>>> from repair_core.importers._otlp import Span
>>> span = Span(trace_id="t", span_id="s", parent_id=None, name="chat", start=0, end=1,
...             status_error=False,
...             attributes={"llm.model_name": "gpt-4o-mini",
...                         "llm.input_messages.0.message.role": "user",
...                         "llm.input_messages.0.message.content": "Book my seat.",
...                         "llm.output_messages.0.message.role": "assistant",
...                         "llm.output_messages.0.message.content": "Seat 31A."})
>>> m = call_messages(span)
>>> m.model, m.sent, m.answered
('gpt-4o-mini', [{'role': 'user', 'content': 'Book my seat.'}], [{'role': 'assistant', 'content': 'Seat 31A.'}])
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..case._json import json_or_text
from ._otlp import Span

__all__ = ["CallMessages", "call_messages", "MESSAGE_CHARS", "MESSAGES"]

MESSAGE_CHARS = 20_000
"""The longest message text kept; a longer one is cut and says how much was left out."""
MESSAGES = 100
"""The most messages kept of a side (the last ones of a prompt, the first of a reply)."""

_MODEL_KEYS = ("gen_ai.response.model", "gen_ai.request.model", "llm.model_name",
               "ai.response.model", "ai.model.id")
_PROVIDER_KEYS = ("gen_ai.provider.name", "gen_ai.system", "llm.provider", "ai.model.provider")
_OI = re.compile(r"llm\.(input|output)_messages\.(\d+)\.message\.(.+)$")
_OI_PART = re.compile(r"contents\.(\d+)\.message_content\.(text|type)$")
_OI_CALL = re.compile(r"tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)$")
_OLLM = re.compile(r"gen_ai\.(prompt|completion)\.(\d+)\.(role|content)$")
_OLLM_CALL = re.compile(r"gen_ai\.completion\.(\d+)\.tool_calls\.(\d+)\.(name|arguments)$")
_ROLE_EVENTS = {"gen_ai.system.message": "system", "gen_ai.user.message": "user",
                "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}


@dataclass(frozen=True)
class CallMessages:
    """What a model call's span recorded of the call."""

    model: str | None = None
    """The model named by the span (the response's model first, then the request's)."""
    provider: str | None = None
    """The provider or system the span names (`openai`, `anthropic`, ...)."""
    sent: list[dict[str, str]] = field(default_factory=list)
    """The prompt: `{role, content}` per message, in order."""
    answered: list[dict[str, str]] = field(default_factory=list)
    """The completion: `{role, content}` per message, in order."""


def call_messages(span: Span) -> CallMessages:
    """The model, provider and messages `span` recorded; empty parts when it has none."""
    a = span.attributes
    model = next((str(a[k]) for k in _MODEL_KEYS if isinstance(a.get(k), str) and a[k]), None)
    provider = next((str(a[k]) for k in _PROVIDER_KEYS if isinstance(a.get(k), str) and a[k]),
                    None)
    oi_in, oi_out = _openinference(a)
    ollm_in, ollm_out = _openllmetry(a)
    sent = _first(oi_in, lambda: _genai_prompt(a), lambda: ollm_in,
                  lambda: _messages(json_or_text(a.get("ai.prompt.messages"))),
                  lambda: _prompt_events(span))
    answered = _first(oi_out, lambda: _messages(json_or_text(a.get("gen_ai.output.messages"))),
                      lambda: ollm_out, lambda: _vercel_reply(a),
                      lambda: _completion_events(span))
    return CallMessages(model=model, provider=provider,
                        sent=_bounded(sent, keep_last=True),
                        answered=_bounded(answered, keep_last=False))


def _first(found: list[dict[str, str]], *rest: Callable[[], list[dict[str, str]]]
           ) -> list[dict[str, str]]:
    for more in rest:
        if found:
            break
        found = more()
    return found


def _cut(text: str) -> str:
    if len(text) <= MESSAGE_CHARS:
        return text
    return f"{text[:MESSAGE_CHARS]}… [{len(text) - MESSAGE_CHARS:,} more characters not kept]"


def _bounded(messages: list[dict[str, str]], *, keep_last: bool) -> list[dict[str, str]]:
    messages = [{"role": m["role"], "content": _cut(m["content"])} for m in messages
                if m["content"] or m["role"]]
    if len(messages) <= MESSAGES:
        return messages
    left = len(messages) - (MESSAGES - 1)
    note = {"role": "dgrr", "content": f"[{left:,} {'earlier' if keep_last else 'later'} "
                                       f"messages not kept]"}
    return [note, *messages[left:]] if keep_last else [*messages[:MESSAGES - 1], note]


def _json(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return str(value)


def _call(name: Any, arguments: Any) -> str:
    args = json_or_text(arguments)
    return f"call {name if isinstance(name, str) else _json(name)}({_json(args if args is not None else {})})"


def _part_text(part: Any) -> str:
    """One content part or block as text."""
    if isinstance(part, str):
        return part
    if not isinstance(part, Mapping):
        return _json(part)
    kind = part.get("type")
    if kind == "tool_call" or kind == "tool-call":
        return _call(part.get("name", part.get("toolName")),
                     part.get("arguments", part.get("input", part.get("args"))))
    if kind in ("tool_call_response", "tool-result"):
        return (f"result of {part.get('id', part.get('toolCallId', '?'))}: "
                f"{_json(json_or_text(part.get('response', part.get('output', part.get('result')))))}")
    if isinstance(part.get("toolUse"), Mapping):  # Bedrock-style blocks (Strands)
        use = part["toolUse"]
        return _call(use.get("name"), use.get("input"))
    if isinstance(part.get("toolResult"), Mapping):
        res = part["toolResult"]
        return f"result of {res.get('toolUseId', '?')}: {_content_text(res.get('content'))}"
    for key in ("content", "text"):
        if isinstance(part.get(key), str):
            return str(part[key])
    return _json(part)


def _content_text(content: Any) -> str:
    """A message's content (a string, a list of parts or blocks, anything else) as text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(t for t in (_part_text(p) for p in content) if t)
    return _part_text(content)


def _message(m: Any, role: str = "") -> dict[str, str] | None:
    if isinstance(m, str):
        return {"role": role, "content": m}
    if not isinstance(m, Mapping):
        return None
    texts = [_content_text(m.get("parts") if "parts" in m else m.get("content"))]
    for c in m.get("tool_calls") or () if isinstance(m.get("tool_calls"), list) else ():
        fn = c.get("function") if isinstance(c, Mapping) else None
        if isinstance(fn, Mapping):
            texts.append(_call(fn.get("name"), fn.get("arguments")))
    if m.get("tool_call_id") is not None and texts[0]:
        texts[0] = f"result of {m['tool_call_id']}: {texts[0]}"
    who = m.get("role", role)
    return {"role": who if isinstance(who, str) else _json(who),
            "content": "\n".join(t for t in texts if t)}


def _messages(value: Any, role: str = "") -> list[dict[str, str]]:
    """A list of messages (any of the conventions' shapes) as `{role, content}`."""
    if isinstance(value, Mapping):
        value = value.get("messages", [value])
    if isinstance(value, str):
        return [{"role": role, "content": value}] if value else []
    if not isinstance(value, list):
        return []
    if value and all(isinstance(p, Mapping) and "role" not in p for p in value):
        return [{"role": role, "content": _content_text(value)}]  # one message's blocks
    return [m for m in (_message(v, role) for v in value) if m is not None]


def _indexed(a: Mapping[str, Any], pattern: re.Pattern[str]) -> dict[tuple[str, int], dict]:
    found: dict[tuple[str, int], dict] = {}
    for key, value in a.items():
        hit = pattern.match(key)
        if hit:
            found.setdefault((hit[1], int(hit[2])), {})[hit[3]] = value
    return found


def _openinference(a: Mapping[str, Any]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    sides: dict[str, list[dict[str, str]]] = {"input": [], "output": []}
    for (side, _), fields in sorted(_indexed(a, _OI).items()):
        parts: dict[int, str] = {}
        calls: dict[int, dict[str, Any]] = {}
        for rest, value in fields.items():
            part = _OI_PART.match(rest)
            if part and part[2] == "text":
                parts[int(part[1])] = _content_text(value)
            call = _OI_CALL.match(rest)
            if call:
                calls.setdefault(int(call[1]), {})[call[2]] = value
        texts = [_content_text(json_or_text(fields["content"]))
                 if not isinstance(fields.get("content"), str) else fields["content"]] \
            if "content" in fields else []
        texts += [t for _, t in sorted(parts.items())]
        texts += [_call(c.get("function.name"), c.get("function.arguments"))
                  for _, c in sorted(calls.items())]
        text = "\n".join(t for t in texts if t)
        if fields.get("tool_call_id") is not None and text:
            text = f"result of {fields['tool_call_id']}: {text}"
        role = fields.get("role")
        sides[side].append({"role": role if isinstance(role, str) else "", "content": text})
    return sides["input"], sides["output"]


def _openllmetry(a: Mapping[str, Any]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    calls = _indexed(a, _OLLM_CALL)
    sides: dict[str, list[dict[str, str]]] = {"prompt": [], "completion": []}
    for (side, n), fields in sorted(_indexed(a, _OLLM).items()):
        texts = [_content_text(fields.get("content"))]
        texts += [_call(c.get("name"), c.get("arguments"))
                  for (at, _), c in sorted(calls.items()) if side == "completion" and at == str(n)]
        role = fields.get("role")
        sides[side].append({"role": role if isinstance(role, str) else "",
                            "content": "\n".join(t for t in texts if t)})
    return sides["prompt"], sides["completion"]


def _genai_prompt(a: Mapping[str, Any]) -> list[dict[str, str]]:
    found = _messages(json_or_text(a.get("gen_ai.input.messages")), "user")
    system = json_or_text(a.get("gen_ai.system_instructions"))
    if system is not None and system != "":
        found = [{"role": "system", "content": _content_text(system)}, *found]
    return found


def _vercel_reply(a: Mapping[str, Any]) -> list[dict[str, str]]:
    texts = []
    if isinstance(a.get("ai.response.text"), str):
        texts.append(a["ai.response.text"])
    calls = json_or_text(a.get("ai.response.toolCalls"))
    for c in calls if isinstance(calls, list) else ():
        if isinstance(c, Mapping):
            texts.append(_call(c.get("toolName"), c.get("input", c.get("args"))))
    text = "\n".join(t for t in texts if t)
    return [{"role": "assistant", "content": text}] if text else []


def _events(span: Span, names: Iterable[str]) -> Iterable[tuple[str, Mapping[str, Any]]]:
    wanted = set(names)
    return ((e.name, e.attributes) for e in span.events if e.name in wanted)


def _prompt_events(span: Span) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []
    for name, attrs in _events(span, [*_ROLE_EVENTS, "gen_ai.content.prompt"]):
        if name == "gen_ai.content.prompt":
            for key in ("gen_ai.prompt", "gen_ai.input.messages"):
                if key in attrs:
                    found += _messages(json_or_text(attrs[key]), "user")
                    break
            continue
        value = json_or_text(attrs.get("content", attrs.get("gen_ai.event.content")))
        message = _message(value, _ROLE_EVENTS[name]) if isinstance(value, Mapping) \
            and "role" in value else {"role": _ROLE_EVENTS[name], "content": _content_text(value)}
        if message is not None:
            found.append(message)
    return found


def _completion_events(span: Span) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []
    for name, attrs in _events(span, ("gen_ai.choice", "gen_ai.content.completion")):
        keys = ("gen_ai.completion", "gen_ai.output.messages") \
            if name == "gen_ai.content.completion" else ("message", "content",
                                                          "gen_ai.event.content")
        for key in keys:
            if key in attrs:
                value = json_or_text(attrs[key])
                if isinstance(value, Mapping) and "message" in value:
                    value = value["message"]
                found += _messages(value, "assistant") if not isinstance(value, Mapping) \
                    else [m for m in [_message(value, "assistant")] if m is not None]
                break
    return found
