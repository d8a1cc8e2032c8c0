"""Issue 12, the fault invariant under --force: a forced edit never re-admits a diagnosed
fault, its comment is the reviewer's own, and the report's decisions match the outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repair_core import PlanEditError, apply_edits, load_case, load_example, plan_case
from repair_core.cli import main
from repair_core.plan._edit import STEP_ACTIONS
from repair_core.replay import repair

ROOT = Path(__file__).resolve().parent.parent
FIG1 = str(ROOT / "sample_traces" / "figure1-travel.json")
SAMPLES = ["figure1-travel", "travel-two-faults", "cs-stale-address", "shop-summary-drift"]


@pytest.mark.parametrize("action", ["keep", "restore"])
def test_a_forced_edit_that_readmits_a_fault_is_refused(action):
    case = load_example()
    if action == "restore":  # a retired fault brought back
        case = case.model_copy(update={"memory": [
            m.model_copy(update={"status": "superseded"}) if m.id == "m3" else m
            for m in case.memory]})
    p = plan_case(case)
    with pytest.raises(PlanEditError) as err:
        apply_edits(p, {"m3": action}, force=True, comment="I am sure")
    [problem] = err.value.problems
    assert problem.startswith("m3: is a diagnosed fault") and "unmark the fault instead" in problem
    assert "apply with force" not in str(err.value)


def test_cli_refuses_a_forced_fault_readmission(tmp_path, capsys):
    assert main(["plan", FIG1, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    report["memory"]["m3"] = "keep"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(report))
    assert main(["repair", FIG1, "--plan", str(edited), "--force", "--comment", "sure",
                 "--json"]) == 2
    err = capsys.readouterr().err
    assert "m3: is a diagnosed fault" in err and "--faults" in err and "Traceback" not in err


def test_cli_force_needs_the_reviewers_own_comment(tmp_path, capsys):
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({"edits": {"s3": "keep"}}))
    assert main(["repair", FIG1, "--plan", str(edited), "--force", "--json"]) == 2
    assert "--force needs --comment" in capsys.readouterr().err
    assert main(["repair", FIG1, "--plan", str(edited), "--force", "--comment",
                 "claim checked by phone", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    reasons = {d["id"]: d["reason"] for d in data["report"]["decisions"]}
    assert reasons["s3"] == "reviewer edit: keep (computed: replay) — claim checked by phone"
    assert not any("edited plan" in r for r in reasons.values())


def _agree(decision: str, outcome: str) -> bool:
    if decision == "keep":
        return outcome == "kept"
    if decision == "invalidate":
        return outcome == "invalidated"
    return outcome not in ("kept", "invalidated")


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_forced_step_edits_report_decisions_that_match_outcomes(name):
    case = load_case(ROOT / "sample_traces" / f"{name}.json")
    base = plan_case(case)
    checked = 0
    for step in case.steps_in_order():
        for action in STEP_ACTIONS:
            if base.steps[step.id] == action:
                continue
            try:
                plan = apply_edits(base, {step.id: action}, force=True, comment="test")
            except PlanEditError:
                continue
            result = repair(case, plan)
            for o in result.report.steps:
                assert _agree(plan.steps[o.id], o.outcome), (
                    step.id, action, o.id, plan.steps[o.id], o.outcome)
            checked += 1
    assert checked >= 5
