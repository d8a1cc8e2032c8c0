"""OTLP JSON logs: the log records some frameworks write message content to instead of
the trace (Semantic Kernel's GenAI diagnostics log each chat message and choice as a
record named by its `event.name` attribute, tied to the model call's span).

A record with an `event.name` and a span id becomes an event of that span, named by
`event.name`, whose attributes are the record's with its body under `content` (a
`gen_ai.choice` record's body, `{"message": …, "finish_reason": …}`, gives `message` and
`finish_reason` instead), so the span readers find it as they find span events
(`dgrr import --logs FILE`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from .._errors import CaseError
from ..case._json import json_or_text
from ._otlp import (
    Span,
    SpanEvent,
    _any_value,
    _attributes,
    _id,
    _list,
    _nanos,
    _show,
    json_documents,
)

__all__ = ["looks_like_otlp_logs", "parse_otlp_logs", "with_log_events"]


def looks_like_otlp_logs(raw: bytes) -> bool:
    """True when `raw` starts like OTLP JSON logs (an object with `resourceLogs`)."""
    head = raw[:4096].lstrip()
    return head.startswith(b"{") and b'"resourceLogs"' in head


def parse_otlp_logs(raw: bytes, source: str | None = None
                    ) -> dict[str, list[SpanEvent]]:
    """Span id (hex) -> the events its log records make, in the file's order. A record
    without `event.name` or without a span id is no message of a span and is left out."""
    problems: list[str] = []
    events: dict[str, list[SpanEvent]] = {}
    encodings: set[str] = set()
    for where, doc in json_documents(raw, source, problems):
        if not isinstance(doc, Mapping) or not isinstance(doc.get("resourceLogs"), list):
            problems.append(f"{where}(root): expected an OTLP JSON object with a "
                            "'resourceLogs' list")
            continue
        for span_id, event in _records(doc, where, problems, encodings):
            events.setdefault(span_id, []).append(event)
    if problems:
        raise CaseError(problems, source=source)
    return events


def _records(doc: Mapping[str, Any], where: str, problems: list[str], encodings: set[str]
             ) -> Iterable[tuple[str, SpanEvent]]:
    for i, rl in enumerate(doc["resourceLogs"]):
        at_rl = f"{where}resourceLogs[{i}]"
        if not isinstance(rl, Mapping):
            problems.append(f"{at_rl}: expected an object, got {_show(rl)}")
            continue
        for j, sl in enumerate(_list(rl.get("scopeLogs"), f"{at_rl}.scopeLogs", problems)):
            at_sl = f"{at_rl}.scopeLogs[{j}]"
            if not isinstance(sl, Mapping):
                problems.append(f"{at_sl}: expected an object, got {_show(sl)}")
                continue
            for k, rec in enumerate(_list(sl.get("logRecords"), f"{at_sl}.logRecords",
                                          problems)):
                found = _record(rec, f"{at_sl}.logRecords[{k}]", problems, encodings)
                if found is not None:
                    yield found


def _record(rec: Any, at: str, problems: list[str], encodings: set[str]
            ) -> tuple[str, SpanEvent] | None:
    if not isinstance(rec, Mapping):
        problems.append(f"{at}: expected a log record object, got {_show(rec)}")
        return None
    attributes = _attributes(rec.get("attributes"), f"{at}.attributes", problems)
    name = attributes.get("event.name", rec.get("eventName"))
    if not isinstance(name, str) or not name or not rec.get("spanId"):
        return None
    span_id = _id(rec.get("spanId"), 8, f"{at}.spanId", problems, encodings)
    if span_id is None:
        return None
    time = _nanos(rec.get("timeUnixNano") or rec.get("observedTimeUnixNano") or 0,
                  f"{at}.timeUnixNano", problems)
    body = _any_value(rec.get("body"), f"{at}.body", problems) \
        if rec.get("body") is not None else None
    fields = dict(attributes)
    parsed = json_or_text(body)
    if name == "gen_ai.choice" and isinstance(parsed, Mapping) and "message" in parsed:
        fields["message"] = json.dumps(parsed["message"])
        if parsed.get("finish_reason") is not None:
            fields["finish_reason"] = str(parsed["finish_reason"])
    elif body is not None:
        fields["content"] = body if isinstance(body, str) else json.dumps(body)
    return span_id, SpanEvent(name=name, time=time, attributes=fields)


def with_log_events(spans: list[Span], events: Mapping[str, list[SpanEvent]]) -> list[Span]:
    """`spans` with each one's log events added after its own events (by time)."""
    if not events:
        return spans
    return [replace(s, events=(*s.events, *sorted(events[s.span_id], key=lambda e: e.time)))
            if s.span_id in events else s for s in spans]
