"""benchmarks/failed_call_premise.py: the copy it repairs differs from the committed case
by the answer's edges to its turn's failed calls, and nothing else."""

from __future__ import annotations

import json

from script_module import ROOT, load_script

from repair_core import plan_case
from repair_core.case._load import parse_case

premise = load_script("benchmarks/failed_call_premise.py")
NOISY = ROOT / "sample_traces" / "controlled-noisy"


def _case(prefix: str) -> dict:
    path = next(NOISY.glob(f"{prefix}-*.json"))
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_answer_cites_its_turns_failed_lookup_and_the_planner_then_replays_it() -> None:
    original = _case("ctl-006")
    before = json.dumps(original, sort_keys=True)
    cited, added = premise.with_failed_calls_cited(original)
    assert added == ["s16"]  # get_shipment failed: the noisy plan dropped the order id
    assert json.dumps(original, sort_keys=True) == before  # the committed case is untouched
    answer = next(s for s in cited["trajectory"] if s["id"] == "s20")
    assert answer["deps"][-1] == {"id": "s16", "label": "cite", "sufficient": False}
    others = [s for s in cited["trajectory"] if s["id"] != "s20"]
    assert others == [s for s in original["trajectory"] if s["id"] != "s20"]
    committed_plan = plan_case(parse_case(json.dumps(original)))
    cited_plan = plan_case(parse_case(json.dumps(cited)))
    assert "s14" not in committed_plan.answer_relevant  # the method as the spec has it
    assert committed_plan.steps["s14"] == "invalidate"
    assert {"s14", "s15"} <= set(cited_plan.answer_relevant)
    assert cited_plan.steps["s14"] == "replay"


def test_a_case_without_a_failed_call_in_its_final_turn_is_copied_unchanged() -> None:
    for path in sorted(NOISY.glob("ctl-*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        last = case["session"][-1]["id"]
        if not any(s["type"] == "tool_observation" and s["turn"] == last
                   and s["status"] == "failed" for s in case["trajectory"]):
            break
    else:
        raise AssertionError("every noisy case has a failed call in its final turn")
    copy, added = premise.with_failed_calls_cited(case)
    assert added == [] and copy == case


def test_report_counts_gains_and_losses() -> None:
    text = premise.report({"added": {"ctl-001-a": ["s3"], "ctl-002-b": ["s9"]},
                           "committed": {"ctl-001-a": False, "ctl-002-b": True,
                                         "ctl-003-c": True, "ctl-004-d": False},
                           "cited": {"ctl-001-a": True, "ctl-002-b": False,
                                     "ctl-003-c": True, "ctl-004-d": False}})
    row = text.splitlines()[-1]
    assert row == "| 4 | 2 | 0.500 | 0.500 | `ctl-001` | `ctl-002` |"
