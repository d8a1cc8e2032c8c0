"""The two time bounds of text carried from a fault: `fault.carried-text` (the affected
set, from the fault's seed) and `suspect.carrier` (a content rule outside it, from the
sources the fault was derived from)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repair_core import load_case, plan_case

rule = pytest.mark.rule

CASE = Path(__file__).resolve().parents[1] / "benchmarks/carriers/cases/" \
    "cb-378-carrier-written-before-fault-same-mail.json"


@rule("fault.carried-text")
def test_text_carried_before_the_seed_is_left_to_the_carrier_rule(tmp_path):
    # m_april (seq 5) copies the fault's whole text from the mail (seq 4) the fault
    # (seq 6, seed t1w5) came from: before the seed, so not affected by its text (the
    # affected set keeps the paper's time bound), yet a suspected carrier, whose bound
    # starts at the mail
    raw = json.loads(CASE.read_text(encoding="utf-8"))
    fault = next(m for m in raw["memory"] if m["id"] == "m_neu")
    april = next(m for m in raw["memory"] if m["id"] == "m_april")
    april["text"] = f"Noted for April: {fault['text']}"
    where = tmp_path / "case.json"
    where.write_text(json.dumps(raw), encoding="utf-8")
    case = load_case(str(where))
    for objective in ("answer", "store"):
        plan = plan_case(case, objective=objective)
        assert plan.analysis.seeds["m_neu"] == "t1w5"
        assert "m_april" not in plan.analysis.carried
        assert "m_april" not in plan.analysis.affected
        carriers = {s.id: s for s in plan.suspected if s.role == "carrier"}
        assert carriers["m_april"].fault == "m_neu", objective
        assert carriers["m_april"].action == ("quarantine" if objective == "store" else "flag")
    # written after the seed, the same copy is affected by the fault's text
    april["created_seq"] = 8
    raw["trajectory"].append({"id": "t1w8", "type": "memory_write", "text": "add: m_april",
                              "op": "add", "target": ["m_april"], "seq": 8, "turn": "u1",
                              "deps": [{"id": "m_miete", "label": "cite"},
                                       {"id": "u1", "label": "initiate"}]})
    april["deps"] = [{"id": "t1w8", "label": "produce"}]
    raw["trajectory"] = [s for s in raw["trajectory"] if s["id"] != "t1w4"]
    where.write_text(json.dumps(raw), encoding="utf-8")
    assert "m_april" in plan_case(load_case(str(where))).analysis.carried
