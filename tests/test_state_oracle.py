"""The state oracle (docs/benchmark.md, "The state oracle"): the tool world a repair
leaves, judged against `eval.required_state` from the world's truth."""

from __future__ import annotations

from pathlib import Path

from repair_core import load_case
from repair_core.bench._runner import evaluate
from repair_core.bench._state import state_verdict

CASE = Path(__file__).resolve().parent.parent / "sample_traces" / "controlled" / \
    "ctl-001-travel-wrong-user.json"


def test_the_failed_runs_hold_fails_the_state_rule_and_ours_passes():
    case = load_case(CASE)
    assert case.eval is not None and case.eval.required_state == ["hold UA511 22C"]
    failed = evaluate(case, "no_repair")
    assert failed.final_state == ["hold UA511 22B"]
    assert failed.state_ok is False and failed.state_forbidden == ["22B"]
    assert failed.state_missing == ["hold UA511 22C"]
    ours = evaluate(case, "ours")
    assert ours.state_ok is True and "hold UA511 22C" in ours.final_state
    assert "hold UA511 22B" not in ours.final_state  # the wrong hold was released


def test_right_values_on_another_object_do_not_count():
    missing, bad = state_verdict(["hold JL5 22C", "cart UA511 size M"], ["hold UA511 22C"], [])
    assert missing == ["hold UA511 22C"] and bad == []


def test_a_suite_without_tool_state_is_not_judged():
    adapted = sorted((CASE.parent.parent / "adapted").glob("adp-001*.json"))[0]
    assert evaluate(load_case(adapted), "ours").state_ok is None
