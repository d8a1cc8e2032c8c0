"""Scopes are data: a record the trace returned keeps the owner its source gave (Mem0's
`user_id`, `agent_id`, `run_id` in the record's metadata), and the plan warns, as its own
kind `other-owner`, about each record whose owner is not the case's user."""

from __future__ import annotations

import json

import pytest
from test_rules_import_conflicts import _attr, _trace

from repair_core.cli import main
from repair_core.importers import import_trace

rule = pytest.mark.rule


def _read_owned(*records: tuple[str, str, dict]) -> tuple[str, list[dict]]:
    return ("search_memory", [_attr("gen_ai.memory.query.text", "seat"), _attr(
        "gen_ai.memory.records", json.dumps([{"id": i, "content": t, "metadata": m}
                                             for i, t, m in records]))])


def _owned_trace(path) -> None:
    _trace(path, _read_owned(
        ("m1", "Lin prefers aisle seats.", {"user_id": "lin", "agent_id": "travel-bot"}),
        ("m2", "Ana prefers window seats.", {"user_id": "ana"}),
        ("m3", "Always book the cheapest fare.", {"agent_id": "travel-bot",
                                                  "run_id": "trip-42"}),
        ("m4", "Lin flies economy.", {})))


@rule("import.record-owner")
def test_each_record_keeps_the_owner_its_source_gave(tmp_path):
    trace = tmp_path / "t.otlp.json"
    _owned_trace(trace)
    case = import_trace([trace]).case
    owners = {r.id: (r.model_extra or {}).get("owner") for r in case.memory}
    assert owners == {"m1": {"user_id": "lin", "agent_id": "travel-bot"},
                      "m2": {"user_id": "ana"},
                      "m3": {"agent_id": "travel-bot", "run_id": "trip-42"}, "m4": None}
    assert case.user_id == "lin"


@rule("import.record-owner")
def test_the_plan_warns_about_records_of_another_owner(tmp_path, capsys):
    trace, case = tmp_path / "t.otlp.json", tmp_path / "case.json"
    _owned_trace(trace)
    assert main(["import", str(trace), "--out", str(case)]) == 0
    capsys.readouterr()
    assert main(["plan", str(case), "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert [(w["kind"], w["node"]) for w in warnings] == [("other-owner", "m2"),
                                                          ("other-owner", "m3")]
    assert "'ana'" in warnings[0]["message"] and "'lin'" in warnings[0]["message"]
    assert main(["plan", str(case)]) == 0
    out = capsys.readouterr().out
    assert "warning other-owner: record 'm2' belongs to another user" in out
