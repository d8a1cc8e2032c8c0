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

__all__ = ["Span", "SpanEvent", "SpanLink", "parse_otlp", "looks_like_otlp"]

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
class SpanEvent:
    """An event recorded on a span (some instrumentors put message content there)."""

    name: str
    """Event name, e.g. `gen_ai.content.completion`."""
    time: int
    """Nanoseconds since the epoch."""
    attributes: dict[str, Any] = field(default_factory=dict)
    """The event's attributes."""


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
    events: tuple[SpanEvent, ...] = ()
    """Events recorded on the span, in order."""


def looks_like_otlp(raw: bytes) -> bool:
    """True when `raw` starts like OTLP JSON (an object with `resourceSpans`)."""
    head = raw[:4096].lstrip()
    return head.startswith(b"{") and b'"resourceSpans"' in head


def json_documents(raw: bytes | str, source: str | None, problems: list[str]
                   ) -> Iterator[tuple[str, Any]]:
    """(where, document) for OTLP JSON text: the one document (where ""), or one per line
    (where "line N: "), each parsed only when it is reached so a large file is never held
    twice as parsed JSON. A line that is not JSON is a problem appended to `problems`;
    text that is neither one document nor lines is a CaseError."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise CaseError([f"not UTF-8 text (byte {exc.start})"], source=source) from None
    try:
        whole = json.loads(text)
    except RecursionError:
        raise CaseError(["(root): JSON nested too deep"], source=source) from None
    except json.JSONDecodeError as whole_exc:
        if text.count("\n", 0, len(text.rstrip())) < 1:
            raise CaseError([f"line {whole_exc.lineno}, column {whole_exc.colno}: invalid JSON: "
                             f"{whole_exc.msg}"], source=source) from None
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                doc = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"line {n}, column {exc.colno}: invalid JSON: {exc.msg}")
                continue
            except RecursionError:
                problems.append(f"line {n}: JSON nested too deep")
                continue
            yield f"line {n}: ", doc
            del doc
    else:
        yield "", whole
        del whole


def parse_otlp(raw: bytes | str, source: str | None = None) -> tuple[list[Span], str]:
    """Spans of OTLP JSON text: one document, or one document per line."""
    problems: list[str] = []
    spans: list[Span] = []
    encodings: set[str] = set()
    for where, doc in json_documents(raw, source, problems):
        if not isinstance(doc, Mapping) or not isinstance(doc.get("resourceSpans"), list):
            problems.append(f"{where}(root): expected an OTLP JSON object with a "
                            "'resourceSpans' list")
            continue
        spans.extend(_spans_of(doc, where, problems, encodings))
    if not problems and not spans:
        problems.append("(root): no spans in the file")
    if problems:
        raise CaseError(problems, source=source)
    encoding = "hex" if encodings <= {"hex"} else "base64" if encodings == {"base64"} else "mixed"
    return spans, encoding


def _spans_of(doc: Mapping[str, Any], where: str, problems: list[str],
              encodings: set[str]) -> Iterator[Span]:
    for i, rs in enumerate(doc["resourceSpans"]):
        at_rs = f"{where}resourceSpans[{i}]"
        if not isinstance(rs, Mapping):
            problems.append(f"{at_rs}: expected an object, got {_show(rs)}")
            continue
        res = rs.get("resource")
        resource: dict[str, Any] = {}
        if res is not None and not isinstance(res, Mapping):
            problems.append(f"{at_rs}.resource: expected an object, got {_show(res)}")
        elif res is not None:
            resource = _attributes(res.get("attributes"), f"{at_rs}.resource.attributes",
                                   problems)
        for j, ss in enumerate(_list(rs.get("scopeSpans"), f"{at_rs}.scopeSpans", problems)):
            at_ss = f"{at_rs}.scopeSpans[{j}]"
            if not isinstance(ss, Mapping):
                problems.append(f"{at_ss}: expected an object with a 'spans' list, got "
                                f"{_show(ss)}")
                continue
            for k, sp in enumerate(_list(ss.get("spans"), f"{at_ss}.spans", problems)):
                span = _span(sp, f"{at_ss}.spans[{k}]", resource, problems, encodings)
                if span is not None:
                    yield span


def _list(value: Any, at: str, problems: list[str]) -> list[Any]:
    """`value` when it is a list; absent or null is empty; anything else is a problem."""
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"{at}: expected a list, got {_show(value)}")
        return []
    return value


def _span(sp: Any, at: str, resource: dict[str, Any], problems: list[str],
          encodings: set[str]) -> Span | None:
    if not isinstance(sp, Mapping):
        problems.append(f"{at}: expected a span object, got {_show(sp)}")
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
    end_raw = sp.get("endTimeUnixNano")
    end = start if end_raw is None else _nanos(end_raw, f"{at}.endTimeUnixNano", problems)
    if end < start:
        problems.append(f"{at}.endTimeUnixNano: {end} is before startTimeUnixNano {start}")
    attributes = _attributes(sp.get("attributes"), f"{at}.attributes", problems)
    links = []
    for n, link in enumerate(_list(sp.get("links"), f"{at}.links", problems)):
        la = f"{at}.links[{n}]"
        if not isinstance(link, Mapping):
            problems.append(f"{la}: expected an object, got {_show(link)}")
            continue
        lt = _id(link.get("traceId"), 16, f"{la}.traceId", problems, encodings)
        ls = _id(link.get("spanId"), 8, f"{la}.spanId", problems, encodings)
        la_attrs = _attributes(link.get("attributes"), f"{la}.attributes", problems)
        if lt and ls:
            links.append(SpanLink(lt, ls, la_attrs))
    events = []
    for n, event in enumerate(_list(sp.get("events"), f"{at}.events", problems)):
        ea = f"{at}.events[{n}]"
        if not isinstance(event, Mapping) or not isinstance(event.get("name"), str):
            problems.append(f"{ea}: expected an object with a 'name' string, got "
                            f"{_show(event)}")
            continue
        t = event.get("timeUnixNano")
        events.append(SpanEvent(event["name"],
                                start if t is None else _nanos(t, f"{ea}.timeUnixNano",
                                                              problems),
                                _attributes(event.get("attributes"), f"{ea}.attributes",
                                            problems)))
    status = sp.get("status")
    code = None
    if status is not None and not isinstance(status, Mapping):
        problems.append(f"{at}.status: expected an object, got {_show(status)}")
    elif status is not None:
        code = status.get("code")
        if code is not None and code not in _STATUS_CODES:
            problems.append(f"{at}.status.code: expected one of 0, 1, 2 or "
                            f"STATUS_CODE_UNSET/OK/ERROR, got {_show(code)}")
    if len(problems) > before or trace_id is None or span_id is None:
        return None
    return Span(trace_id=trace_id, span_id=span_id, parent_id=parent_id, name=str(name),
                start=start, end=end, status_error=code in (2, "STATUS_CODE_ERROR"),
                attributes=attributes, links=tuple(links), resource=resource,
                events=tuple(events))


_STATUS_CODES = (0, 1, 2, "STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR")
# nanoseconds since the epoch fit in a fixed64 (protobuf's type for them)
_MAX_NANOS = 2**64 - 1


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
    """Nanoseconds since the epoch: a non-negative integer or its decimal text."""
    n: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        n = int(value)
    if n is None or not 0 <= n <= _MAX_NANOS:
        problems.append(f"{at}: expected nanoseconds since the epoch (a non-negative integer), "
                        f"got {_show(value)}")
        return 0
    return n


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
        out[kv["key"]] = _any_value(kv.get("value"), f"{at}[{n}].value", problems)
    return out


_SCALARS: dict[str, tuple[type, ...]] = {"stringValue": (str,), "boolValue": (bool,),
                                         "bytesValue": (str,)}


def _any_value(value: Any, at: str, problems: list[str], depth: int = 0) -> Any:
    """An OTLP AnyValue as a Python value; a malformed one is a problem naming `at`."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        problems.append(f"{at}: expected an AnyValue object, got {_show(value)}")
        return None
    if depth > _MAX_DEPTH:
        problems.append(f"{at}: values nested more than {_MAX_DEPTH} deep")
        return None
    known = [k for k in value if k in _VALUE_KINDS]
    if len(known) > 1:
        problems.append(f"{at}: more than one value ({', '.join(sorted(known))})")
        return None
    if not known:
        return None  # an empty AnyValue (the attribute was set to nothing)
    kind = known[0]
    v = value[kind]
    if kind in _SCALARS:
        if not isinstance(v, _SCALARS[kind]):
            problems.append(f"{at}.{kind}: expected a {'boolean' if kind == 'boolValue' else 'string'}"
                            f", got {_show(v)}")
            return None
        return v
    if kind == "intValue":
        if isinstance(v, int) and not isinstance(v, bool):
            return v
        if isinstance(v, str) and re.fullmatch(r"-?[0-9]{1,20}", v):
            return int(v)
        problems.append(f"{at}.intValue: expected an integer, got {_show(v)}")
        return None
    if kind == "doubleValue":
        if isinstance(v, str) and v in ("NaN", "Infinity", "-Infinity"):
            v = float(v)  # the protobuf JSON mapping's spelling
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        problems.append(f"{at}.doubleValue: expected a number, got {_show(v)}")
        return None
    if v is None:
        return [] if kind == "arrayValue" else {}
    if not isinstance(v, Mapping):
        problems.append(f"{at}.{kind}: expected an object with a 'values' list, got {_show(v)}")
        return None
    items = _list(v.get("values"), f"{at}.{kind}.values", problems)
    if kind == "arrayValue":
        return [_any_value(x, f"{at}.arrayValue.values[{n}]", problems, depth + 1)
                for n, x in enumerate(items)]
    out: dict[str, Any] = {}
    for n, kv in enumerate(items):
        kat = f"{at}.kvlistValue.values[{n}]"
        if not isinstance(kv, Mapping) or not isinstance(kv.get("key"), str):
            problems.append(f"{kat}: expected {{key, value}}, got {_show(kv)}")
            continue
        out[kv["key"]] = _any_value(kv.get("value"), f"{kat}.value", problems, depth + 1)
    return out


_VALUE_KINDS = ("stringValue", "boolValue", "intValue", "doubleValue", "arrayValue",
                "kvlistValue", "bytesValue")
_MAX_DEPTH = 32


def _show(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value) if not isinstance(value, str) else repr(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
