"""One record id returned by the trace's memory reads with two different texts: the case
keeps the first, and says so, as the warning `conflicting-texts`, at import and on the
plan (readable and JSON). A text a write set in between is no conflict."""

from __future__ import annotations

import json

import pytest

from repair_core.cli import main
from repair_core.importers import import_trace

rule = pytest.mark.rule
TRACE_ID, ROOT = "K6H0fp1998X0EiydPZrjag==", "6vo/X3Ksq9c="
SPAN_IDS = ["FzEuqNUtHuU=", "Z5kkoR2TOWo=", "AAAAAAAAAAE=", "AAAAAAAAAAI=", "AAAAAAAAAAM="]


def _attr(key: str, value: str) -> dict:
    return {"key": key, "value": {"stringValue": value}}


def _trace(path, *ops: tuple[str, list[dict]]) -> None:
    """An agent turn, then each (operation, attributes) as a span, then the answer."""
    def span(sid, name, n, attrs, parent=ROOT):
        return {"traceId": TRACE_ID, "spanId": sid, "name": name, "kind": "SPAN_KIND_INTERNAL",
                **({"parentSpanId": parent} if parent else {}),
                "startTimeUnixNano": str(1796059008583000000 + 1000 * n),
                "endTimeUnixNano": str(1796059008583000000 + 1000 * n + 500),
                "attributes": [_attr("gen_ai.operation.name", name), *attrs], "status": {}}

    answer = [{"role": "assistant", "parts": [{"type": "text", "content": "Window seat."}]}]
    spans = [span(ROOT, "invoke_agent", 0, [_attr("user.id", "lin")], None)]
    spans += [span(SPAN_IDS[i], name, i + 1, attrs) for i, (name, attrs) in enumerate(ops)]
    spans.append(span(SPAN_IDS[len(ops)], "chat", len(ops) + 1,
                      [_attr("gen_ai.output.messages", json.dumps(answer))]))
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                                   "scopeSpans": [{"scope": {"name": "t"},
                                                                   "spans": spans}]}]}))


def _read(*records: tuple[str, str]) -> tuple[str, list[dict]]:
    return ("search_memory", [_attr("gen_ai.memory.query.text", "seat"), _attr(
        "gen_ai.memory.records", json.dumps([{"id": i, "content": t} for i, t in records]))])


@rule("import.conflicting-texts")
def test_a_record_returned_with_two_texts_is_a_named_warning_at_import(tmp_path, capsys):
    trace = tmp_path / "t.otlp.json"
    _trace(trace, _read(("m1", "Lin prefers aisle seats."), ("m2", "Lin flies economy.")),
           _read(("m1", "Lin prefers window seats.\x1b[31m")))
    imported = import_trace([trace])
    [warning] = imported.summary.warnings
    assert warning.kind == "conflicting-texts" and warning.record == "m1"
    assert warning.kept == "Lin prefers aisle seats."
    assert warning.others == ["Lin prefers window seats.\x1b[31m"]
    m1 = next(r for r in imported.case.memory if r.id == "m1")
    assert m1.text == "Lin prefers aisle seats."
    assert main(["import", str(trace), "--out", str(tmp_path / "case.json")]) == 0
    out = capsys.readouterr().out
    assert "warning conflicting-texts: record 'm1'" in out and "window seats" in out
    assert "\x1b" not in out  # the other text is shown escaped


@rule("import.conflicting-texts")
def test_the_plan_warns_about_the_conflicting_texts(tmp_path, capsys):
    trace, case = tmp_path / "t.otlp.json", tmp_path / "case.json"
    _trace(trace, _read(("m1", "Lin prefers aisle seats.")),
           _read(("m1", "Lin prefers window seats.")))
    assert main(["import", str(trace), "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["plan", str(case)]) == 0
    out = capsys.readouterr().out
    assert "Warnings" in out and "conflicting-texts" in out and "window seats" in out
    assert main(["plan", str(case), "--json"]) == 0
    [warning] = json.loads(capsys.readouterr().out)["warnings"]
    assert warning["kind"] == "conflicting-texts" and warning["node"] == "m1"


@rule("import.conflicting-texts")
def test_a_text_a_write_set_between_the_reads_is_no_conflict(tmp_path):
    trace = tmp_path / "t.otlp.json"
    _trace(trace, _read(("m1", "Lin prefers aisle seats.")),
           ("update_memory", [_attr("gen_ai.memory.record.id", "m1"),
                              _attr("gen_ai.memory.content", "Lin prefers window seats.")]),
           _read(("m1", "Lin prefers window seats.")))
    imported = import_trace([trace])
    assert imported.summary.warnings == []
    assert "conflicting_texts" not in (next(
        r for r in imported.case.memory if r.id == "m1").model_extra or {})


def test_a_plan_of_a_case_without_conflicts_has_no_warnings_key(tmp_path, capsys):
    trace, case = tmp_path / "t.otlp.json", tmp_path / "case.json"
    _trace(trace, _read(("m1", "Lin prefers aisle seats.")))
    assert main(["import", str(trace), "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["plan", str(case), "--json"]) == 0
    assert "warnings" not in json.loads(capsys.readouterr().out)
