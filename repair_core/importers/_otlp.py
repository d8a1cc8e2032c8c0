"""Reading OTLP JSON: one `{"resourceSpans": ...}` object per line (the OTel SDK's file
exporter, collectors' file exporters; hex ids) or one such document (the protobuf JSON
mapping, `MessageToDict`; base64 ids), into plain :class:`Span` values with hex ids."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._errors import CaseError

__all__ = ["Span", "SpanLink", "parse_otlp", "looks_like_otlp"]

_HEX = re.compile(r"[0-9a-f]+")


@dataclass(frozen=True)
class SpanLink:
    """A link from a span to another span, with its attributes."""

    trace_id: str
    """Hex trace id of the linked span."""
    span_id: str
    """Hex span id of the linked span."""
    attributes: dict[str, Any] = field(default_factory=dict)
    """The link's attributes (e.g. `dgrr.dep.label`)."""


@dataclass(frozen=True)
class Span:
    """One span as recorded, with ids in lowercase hex whatever the file used."""

    trace_id: str
    """Hex trace id (32 digits)."""
    span_id: str
    """Hex span id (16 digits)."""
    parent_id: str | None
    """Hex id of the parent span, None for a root span."""
    name: str
    """Span name."""
    start: int
    """Start time, nanoseconds since the epoch."""
    end: int
    """End time, nanoseconds since the epoch."""
    status_error: bool
    """The span's status is ERROR."""
    attributes: dict[str, Any]
    """Attributes as Python values (arrays as lists)."""
    links: tuple[SpanLink, ...] = ()
    """Links to other spans."""
    resource: dict[str, Any] = field(default_factory=dict)
    """Attributes of the resource that emitted the span."""


def looks_like_otlp(raw: bytes) -> bool:
    """True when `raw` starts like OTLP JSON (an object with `resourceSpans`)."""
    head = raw[:4096].lstrip()
    return head.startswith(b"{") and b'"resourceSpans"' in head


def parse_otlp(raw: bytes | str, source: str | None = None) -> tuple[list[Span], str]:
    """Spans of OTLP JSON text: one document, or one document per line."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise CaseError([f"not UTF-8 text (byte {exc.start})"], source=source) from None
    problems: list[str] = []
    documents: list[tuple[str, Any]] = []
    try:
        documents.append(("", json.loads(text)))
    except json.JSONDecodeError as whole_exc:
        lines = text.splitlines()
        if len(lines) < 2:
            raise CaseError([f"line {whole_exc.lineno}, column {whole_exc.colno}: invalid JSON: "
                             f"{whole_exc.msg}"], source=source) from None
        for n, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                documents.append((f"line {n}: ", json.loads(line)))
            except json.JSONDecodeError as exc:
                problems.append(f"line {n}, column {exc.colno}: invalid JSON: {exc.msg}")
    if problems:
        raise CaseError(problems, source=source)
    spans: list[Span] = []
    encodings: set[str] = set()
    for where, doc in documents:
        if not isinstance(doc, Mapping) or not isinstance(doc.get("resourceSpans"), list):
            problems.append(f"{where}(root): expected an OTLP JSON object with a "
                            "'resourceSpans' list")
            continue
        for item in _spans_of(doc, where, problems, encodings):
            spans.append(item)
    if not problems and not spans:
        problems.append("(root): no spans in the file")
    if problems:
        raise CaseError(problems, source=source)
    encoding = "hex" if encodings <= {"hex"} else "base64" if encodings == {"base64"} else "mixed"
    return spans, encoding


def _spans_of(doc: Mapping[str, Any], where: str, problems: list[str],
              encodings: set[str]) -> Iterator[Span]:
    for i, rs in enumerate(doc["resourceSpans"]):
        at_rs = f"resourceSpans[{i}]"
        if not isinstance(rs, Mapping):
            problems.append(f"{where}{at_rs}: expected an object")
            continue
        resource = _attributes((rs.get("resource") or {}).get("attributes"),
                               f"{where}{at_rs}.resource.attributes", problems)
        for j, ss in enumerate(rs.get("scopeSpans") or []):
            at_ss = f"{at_rs}.scopeSpans[{j}]"
            if not isinstance(ss, Mapping) or not isinstance(ss.get("spans", []), list):
                problems.append(f"{where}{at_ss}: expected an object with a 'spans' list")
                continue
            for k, sp in enumerate(ss.get("spans", [])):
                span = _span(sp, f"{where}{at_ss}.spans[{k}]", resource, problems, encodings)
                if span is not None:
                    yield span


def _span(sp: Any, at: str, resource: dict[str, Any], problems: list[str],
          encodings: set[str]) -> Span | None:
    if not isinstance(sp, Mapping):
        problems.append(f"{at}: expected a span object")
        return None
    before = len(problems)
    trace_id = _id(sp.get("traceId"), 16, f"{at}.traceId", problems, encodings)
    span_id = _id(sp.get("spanId"), 8, f"{at}.spanId", problems, encodings)
    parent = sp.get("parentSpanId")
    parent_id = _id(parent, 8, f"{at}.parentSpanId", problems, encodings) if parent else None
    name = sp.get("name")
    if not isinstance(name, str):
        problems.append(f"{at}.name: expected a string, got {_show(name)}")
    start = _nanos(sp.get("startTimeUnixNano"), f"{at}.startTimeUnixNano", problems)
    end = _nanos(sp.get("endTimeUnixNano", sp.get("startTimeUnixNano")),
                 f"{at}.endTimeUnixNano", problems)
    attributes = _attributes(sp.get("attributes"), f"{at}.attributes", problems)
    links = []
    for n, link in enumerate(sp.get("links") or []):
        la = f"{at}.links[{n}]"
        if not isinstance(link, Mapping):
            problems.append(f"{la}: expected an object")
            continue
        lt = _id(link.get("traceId"), 16, f"{la}.traceId", problems, encodings)
        ls = _id(link.get("spanId"), 8, f"{la}.spanId", problems, encodings)
        if lt and ls:
            links.append(SpanLink(lt, ls, _attributes(link.get("attributes"),
                                                      f"{la}.attributes", problems)))
    status = sp.get("status") or {}
    code = status.get("code") if isinstance(status, Mapping) else None
    if len(problems) > before or trace_id is None or span_id is None:
        return None
    return Span(trace_id=trace_id, span_id=span_id, parent_id=parent_id, name=str(name),
                start=start, end=end, status_error=code in (2, "STATUS_CODE_ERROR"),
                attributes=attributes, links=tuple(links), resource=resource)


def _id(value: Any, size: int, at: str, problems: list[str], encodings: set[str]) -> str | None:
    """A trace (16 bytes) or span (8 bytes) id in hex, from hex or base64 text."""
    if isinstance(value, str):
        low = value.lower()
        if len(low) == 2 * size and _HEX.fullmatch(low):
            encodings.add("hex")
            return low
        try:
            decoded = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            decoded = b""
        if len(decoded) == size:
            encodings.add("base64")
            return decoded.hex()
    what = "trace" if size == 16 else "span"
    problems.append(f"{at}: not a {what} id in hex ({2 * size} digits) or base64 "
                    f"({size} bytes): {_show(value)}")
    return None


def _nanos(value: Any, at: str, problems: list[str]) -> int:
    if isinstance(value, bool) or value is None:
        problems.append(f"{at}: expected nanoseconds, got {_show(value)}")
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    problems.append(f"{at}: expected nanoseconds, got {_show(value)}")
    return 0


def _attributes(items: Any, at: str, problems: list[str]) -> dict[str, Any]:
    if items is None:
        return {}
    if not isinstance(items, list):
        problems.append(f"{at}: expected a list of key/value objects, got {_show(items)}")
        return {}
    out: dict[str, Any] = {}
    for n, kv in enumerate(items):
        if not isinstance(kv, Mapping) or not isinstance(kv.get("key"), str):
            problems.append(f"{at}[{n}]: expected {{key, value}}, got {_show(kv)}")
            continue
        out[kv["key"]] = _any_value(kv.get("value"))
    return out


def _any_value(value: Any) -> Any:
    """An OTLP AnyValue as a Python value."""
    if not isinstance(value, Mapping):
        return None
    if "stringValue" in value:
        return value["stringValue"]
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "intValue" in value:
        try:
            return int(value["intValue"])
        except (TypeError, ValueError):
            return value["intValue"]
    if "doubleValue" in value:
        return value["doubleValue"]
    if "arrayValue" in value:
        return [_any_value(v) for v in (value["arrayValue"] or {}).get("values", [])]
    if "kvlistValue" in value:
        return {kv.get("key"): _any_value(kv.get("value"))
                for kv in (value["kvlistValue"] or {}).get("values", [])
                if isinstance(kv, Mapping)}
    if "bytesValue" in value:
        return value["bytesValue"]
    return None


def _show(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value) if not isinstance(value, str) else repr(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
