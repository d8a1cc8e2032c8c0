"""Import is strict about types: dgrr provenance booleans are JSON booleans, every
malformed OTLP shape is refused with its field path, and nothing raises a traceback
(a hypothesis fuzz over OTLP documents); inference stays linear in the spans."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repair_core._errors import DgrrError
from repair_core.cli import main
from repair_core.importers import import_trace
from repair_core.importers._infer import WINDOW

T = "0123456789abcdef0123456789abcdef"


def _span(sid: str, name: str, attrs: dict, parent: str | None = None, start: int = 1,
          **extra) -> dict:
    def value(v):
        if isinstance(v, bool):
            return {"boolValue": v}
        if isinstance(v, int):
            return {"intValue": str(v)}
        return {"stringValue": v if isinstance(v, str) else json.dumps(v)}
    span = {"traceId": T, "spanId": sid, "name": name, "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + 1),
            "attributes": [{"key": k, "value": value(v)} for k, v in attrs.items()]}
    if parent:
        span["parentSpanId"] = parent
    span.update(extra)
    return span


def _doc(*spans: dict) -> dict:
    return {"resourceSpans": [{"resource": {"attributes": []},
                               "scopeSpans": [{"scope": {"name": "t"}, "spans": list(spans)}]}]}


def _turn(claim_attrs: dict | None = None, claim_extra: dict | None = None) -> dict:
    out = json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "ok"}]}])
    return _doc(
        _span("a" * 16, "invoke_agent", {"gen_ai.operation.name": "invoke_agent"}),
        _span("b" * 16, "search_memory", {
            "gen_ai.operation.name": "search_memory",
            "gen_ai.memory.records": [{"id": "m1", "content": "Lin prefers aisle."}]},
            parent="a" * 16, start=2),
        _span("c" * 16, "chat", {"gen_ai.operation.name": "chat",
                                 "gen_ai.output.messages": out, **(claim_attrs or {})},
              parent="a" * 16, start=3, **(claim_extra or {})),
        _span("d" * 16, "chat", {"gen_ai.operation.name": "chat",
                                 "gen_ai.output.messages": out, "dgrr.step.type": "answer"},
              parent="a" * 16, start=4))


def _write(tmp_path: Path, doc: dict | str, name: str = "t.json") -> Path:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return p


def _refused(tmp_path: Path, capsys, doc: dict | str) -> str:
    path = _write(tmp_path, doc)
    out = tmp_path / "case.json"
    assert main(["import", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and not out.exists()
    return err


def test_a_well_formed_turn_imports(tmp_path):
    case = import_trace([_write(tmp_path, _turn({"dgrr.step.type": "claim",
                                                 "dgrr.claim.verified": True}))]).case
    claim = case.steps_in_order()[1]
    assert claim.type == "claim" and claim.verified is True


# --- dgrr provenance: booleans are booleans -------------------------------------------

@pytest.mark.parametrize("attrs, expected", [
    ({"dgrr.step.type": "claim",
      "dgrr.deps": [{"id": "m1", "label": "cite", "sufficient": "false"}]},
     "dgrr.deps[0].sufficient: expected a boolean (true or false), got \"false\""),
    ({"dgrr.step.type": "claim",
      "dgrr.deps": '[{"id": "m1", "label": "cite", "sufficient": NaN}]'},
     "dgrr.deps[0].sufficient: expected a boolean (true or false), got NaN"),
    ({"dgrr.step.type": "claim",
      "dgrr.deps": [{"id": "m1", "label": "cite", "sufficient": 1}]},
     "dgrr.deps[0].sufficient: expected a boolean (true or false), got 1"),
    ({"dgrr.step.type": "claim", "dgrr.claim.verified": "false"},
     "dgrr.claim.verified: expected a boolean (true or false), got \"false\""),
])
def test_provenance_booleans_must_be_json_booleans(tmp_path, capsys, attrs, expected):
    err = _refused(tmp_path, capsys, _turn(attrs))
    assert f"span {'c' * 16}: {expected}" in err


def test_a_link_flag_must_be_a_boolean(tmp_path, capsys):
    link = {"traceId": T, "spanId": "b" * 16, "attributes": [
        {"key": "dgrr.dep.label", "value": {"stringValue": "cite"}},
        {"key": "dgrr.dep.sufficient", "value": {"stringValue": "false"}}]}
    err = _refused(tmp_path, capsys, _turn({"dgrr.step.type": "claim"},
                                           {"links": [link]}))
    assert f"link to span {'b' * 16}: dgrr.dep.sufficient: expected a boolean" in err


# --- every malformed OTLP shape names its field ----------------------------------------

def _mutate(path: str, value) -> dict:
    doc = _turn()
    node = doc
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if k.isdigit() else node[k]
    last = keys[-1]
    if last.isdigit():
        node[int(last)] = value
    else:
        node[last] = value
    return doc


SPAN = "resourceSpans.0.scopeSpans.0.spans.0"


@pytest.mark.parametrize("path, value, expected", [
    ("resourceSpans.0.resource", "svc", "resourceSpans[0].resource: expected an object"),
    ("resourceSpans.0.scopeSpans", 3, "resourceSpans[0].scopeSpans: expected a list, got 3"),
    ("resourceSpans.0.scopeSpans.0.spans", {"a": 1},
     "resourceSpans[0].scopeSpans[0].spans: expected a list"),
    (f"{SPAN}.links", 7, "spans[0].links: expected a list, got 7"),
    (f"{SPAN}.links", [5], "spans[0].links[0]: expected an object, got 5"),
    (f"{SPAN}.events", "x", "spans[0].events: expected a list"),
    (f"{SPAN}.attributes.0.value", {"arrayValue": [1, 2]},
     "spans[0].attributes[0].value.arrayValue: expected an object with a 'values' list"),
    (f"{SPAN}.attributes.0.value", {"kvlistValue": {"values": [{"value": {"intValue": 1}}]}},
     "spans[0].attributes[0].value.kvlistValue.values[0]: expected {key, value}"),
    (f"{SPAN}.attributes.0.value", {"boolValue": "false"},
     "spans[0].attributes[0].value.boolValue: expected a boolean"),
    (f"{SPAN}.attributes.0.value", {"intValue": "12abc"},
     "spans[0].attributes[0].value.intValue: expected an integer"),
    (f"{SPAN}.attributes.0.value", {"stringValue": "a", "intValue": 1},
     "spans[0].attributes[0].value: more than one value"),
    (f"{SPAN}.attributes.0.value", "chat", "spans[0].attributes[0].value: expected an AnyValue"),
    (f"{SPAN}.startTimeUnixNano", "-5", "spans[0].startTimeUnixNano: expected nanoseconds"),
    (f"{SPAN}.startTimeUnixNano", 1.5, "spans[0].startTimeUnixNano: expected nanoseconds"),
    (f"{SPAN}.startTimeUnixNano", "1e9", "spans[0].startTimeUnixNano: expected nanoseconds"),
    (f"{SPAN}.startTimeUnixNano", "9" * 30, "spans[0].startTimeUnixNano: expected nanoseconds"),
    (f"{SPAN}.endTimeUnixNano", "0", "spans[0].endTimeUnixNano: 0 is before startTimeUnixNano"),
    (f"{SPAN}.status", "ERROR", "spans[0].status: expected an object"),
    (f"{SPAN}.status", {"code": "bad"}, "spans[0].status.code: expected one of"),
    (f"{SPAN}.traceId", 12, "spans[0].traceId: not a trace id"),
])
def test_malformed_otlp_shapes_are_refused_with_the_field_path(tmp_path, capsys, path, value,
                                                                expected):
    err = _refused(tmp_path, capsys, _mutate(path, value))
    assert expected in err, err


def test_deeply_nested_attribute_values_are_refused(tmp_path, capsys):
    value: dict = {"stringValue": "x"}
    for _ in range(40):
        value = {"arrayValue": {"values": [value]}}
    err = _refused(tmp_path, capsys, _mutate(f"{SPAN}.attributes.0.value", value))
    assert "nested more than" in err


# --- fuzz: no traceback whatever the OTLP --------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8)
_PATHS = [
    "resourceSpans", "resourceSpans.0", "resourceSpans.0.resource",
    "resourceSpans.0.resource.attributes", "resourceSpans.0.scopeSpans",
    "resourceSpans.0.scopeSpans.0", "resourceSpans.0.scopeSpans.0.spans",
    *(f"resourceSpans.0.scopeSpans.0.spans.{i}" for i in range(4)),
    *(f"{SPAN}.{k}" for k in ("traceId", "spanId", "parentSpanId", "name",
                               "startTimeUnixNano", "endTimeUnixNano", "attributes",
                               "links", "events", "status")),
    *(f"{SPAN}.attributes.{i}" for i in range(1)),
    *(f"{SPAN}.attributes.0.{k}" for k in ("key", "value")),
    *(f"resourceSpans.0.scopeSpans.0.spans.{i}.attributes.0.value" for i in range(1, 4)),
    *(f"resourceSpans.0.scopeSpans.0.spans.{i}.attributes.1.value" for i in range(1, 4)),
    *(f"resourceSpans.0.scopeSpans.0.spans.{i}.parentSpanId" for i in range(1, 4)),
]
_BASE = _turn({"dgrr.step.type": "claim",
               "dgrr.deps": [{"id": "m1", "label": "cite", "sufficient": True}]})


def _set(doc: dict, path: str, value) -> None:
    node = doc
    keys = path.split(".")
    for k in keys[:-1]:
        try:  # an earlier edit may have replaced the way down: then there is nothing to set
            node = node[int(k)] if k.isdigit() else node[k]
        except (LookupError, TypeError, ValueError):
            return
        if not isinstance(node, (dict, list)):
            return
    last = keys[-1]
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value
    elif isinstance(node, dict) and not last.isdigit():
        node[last] = value


_values = _json | st.sampled_from([
    {"arrayValue": {"values": [{"kvlistValue": {"values": [{"key": "k"}]}}]}},
    {"kvlistValue": {"values": [{"value": {"stringValue": "v"}}]}}, {"arrayValue": []},
    {"intValue": "NaN"}, {"doubleValue": "Infinity"}, {"stringValue": "[{\"id\": 1}]"},
    "AAAAAAAAAAAAAAAAAAAAAA==", "aaaaaaaaaaaaaaaa", "-1", "18446744073709551616",
    {"key": "dgrr.deps", "value": {"stringValue": "[{\"id\": \"m1\", \"label\": 3}]"}},
    {"key": "gen_ai.operation.name", "value": {"stringValue": "update_memory"}},
    {"key": "gen_ai.memory.records", "value": {"stringValue": "[{\"content\": null}]"}},
])


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.sampled_from(_PATHS), _values), min_size=1, max_size=4))
def test_fuzzed_otlp_never_raises_anything_but_a_dgrr_error(tmp_path_factory, edits):
    doc = copy.deepcopy(_BASE)
    for path, value in edits:
        _set(doc, path, value)
    path = tmp_path_factory.getbasetemp() / "fuzz.json"
    try:
        text = json.dumps(doc)
    except ValueError:
        return
    path.write_text(text, encoding="utf-8")
    with contextlib.suppress(DgrrError):
        import_trace([path])


# --- inference is bounded by evidence -----------------------------------------------

def _long_turn(groups: int) -> dict:
    spans = [_span("f" * 16, "invoke_agent", {"gen_ai.operation.name": "invoke_agent"})]
    out = lambda text: json.dumps([{"role": "assistant",  # noqa: E731
                                    "parts": [{"type": "text", "content": text}]}])
    n = 0
    for g in range(groups):
        for kind in ("read", "claim", "write", "answer"):
            n += 1
            sid = f"{n:016x}"
            if kind == "read":
                attrs = {"gen_ai.operation.name": "search_memory", "gen_ai.memory.records":
                         [{"id": f"m{g}", "content": f"Lin likes city {g}."}]}
            elif kind == "write":
                attrs = {"gen_ai.operation.name": "create_memory",
                         "gen_ai.memory.record.id": f"w{g}",
                         "gen_ai.memory.content": "Lin booked a seat." if g % 2 else
                         f"Lin likes city {g} in spring."}
            else:
                attrs = {"gen_ai.operation.name": "chat",
                         "gen_ai.output.messages": out(f"Lin likes city {g}." if kind == "claim"
                                                       else "Done.")}
            spans.append(_span(sid, "op", attrs, parent="f" * 16, start=n + 1))
    return _doc(*spans)


def test_inferred_edges_are_at_most_a_constant_times_the_spans(tmp_path):
    for groups in (10, 200):
        imported = import_trace([_write(tmp_path, _long_turn(groups), f"long{groups}.json")])
        spans = imported.summary.spans_read
        assert imported.summary.deps_inferred <= (WINDOW + 1) * spans
        inferred = [d for s in imported.case.trajectory for d in s.deps if d.inferred]
        assert inferred and all(d.inferred_by is not None for d in inferred)
    # every model call reaches back at most WINDOW context steps
    case = imported.case
    assert max(sum(1 for d in s.deps if d.inferred) for s in case.trajectory) <= WINDOW


def test_a_write_cites_only_the_model_calls_its_text_overlaps(tmp_path):
    case = import_trace([_write(tmp_path, _long_turn(2))]).case
    steps = case.steps_in_order()
    writes = [s for s in steps if s.type == "memory_write"]
    # the first write repeats the claim "Lin likes city 0": evidence by text overlap
    assert [(d.label, d.inferred_by) for d in writes[0].deps if d.inferred] == \
        [("cite", "text-overlap")]
    cited = {d.id for d in writes[0].deps if d.inferred}
    assert {s.text for s in steps if s.id in cited} == {"Lin likes city 0."}
    # the second shares no words with any model output: only the latest model call
    assert [d.inferred_by for d in writes[1].deps if d.inferred] == ["latest-model-call"]
