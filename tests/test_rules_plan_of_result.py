"""The plan a result says it was replayed from (`plan.plan_of_result`), which verify,
approve and apply make the result's decisions into: a decision that the others bring
about is no edit of its own."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from repair_core import DgrrError, apply_edits, case_from_data, plan_case
from repair_core.cli import main as dgrr
from repair_core.plan._of_result import plan_of_result
from repair_core.replay import repair, replay_again

rule = pytest.mark.rule

ROOT = Path(__file__).resolve().parent.parent
EDITS = {"s11": "replay"}


def with_action(result: dict, node: str, action: str) -> dict:
    """A copy of the result `result` whose decision on `node` says `action`."""
    edited = copy.deepcopy(result)
    for d in edited["report"]["decisions"]:
        if d["id"] == node:
            d["action"] = action
    return edited


@pytest.fixture(scope="module")
def stale_two_faults() -> tuple[dict, dict]:
    """cs-stale-address with m6 diagnosed beside m1, repaired with s11 replayed: the
    replay makes s15 a suspected source, which the plan refreshes to clean it."""
    data = json.loads((ROOT / "sample_traces" / "cs-stale-address.json").read_text())
    data["faults"] = ["m1", "m6"]
    case = case_from_data(data)
    plan = apply_edits(plan_case(case), EDITS)
    assert plan.steps["s15"] == "refresh" and plan_case(case).steps["s15"] != "refresh"
    result = repair(plan.case, plan)
    return data, json.loads(result.model_dump_json())


@rule("plan.of-result-follows")
def test_a_decision_that_follows_from_the_edits_is_not_an_edit(stale_two_faults, tmp_path,
                                                               capsys):
    data, result = stale_two_faults
    case = case_from_data(data)
    made = plan_of_result(case, result)
    decided = {d["id"]: d["action"] for d in result["report"]["decisions"]}
    assert {**made.memory, **made.steps} == {k: decided.get(k, v) for k, v in
                                            {**made.memory, **made.steps}.items()}
    edited = [e.node for e in made.edits]
    assert "s11" in edited and "s15" not in edited  # s15's refresh is the plan's own
    replay_again(case, result)  # the same repair, made again: nothing refused
    # verify reads it (on the code before this rule: exit 2, "no plan of the case takes
    # them", s15 "is a diagnosed fault"), and approve asks for its carriers instead
    case_file, out = tmp_path / "case.json", tmp_path / "result.json"
    case_file.write_text(json.dumps(data))
    out.write_text(json.dumps(result))
    capsys.readouterr()
    assert dgrr(["verify", str(out), "--case", str(case_file)]) in (0, 1, 3)
    assert "no plan of the case takes them" not in capsys.readouterr().err


@rule("plan.of-result-follows")
def test_a_consequence_without_its_cause_is_still_refused(stale_two_faults):
    data, result = stale_two_faults
    case = case_from_data(data)
    # s15's refresh without the replay of s11 that brings it about: no plan takes it
    alone = with_action(result, "s11", plan_case(case).steps["s11"])
    with pytest.raises(DgrrError, match=r"(?s)no plan of the case takes them .*s15: is a "
                                        "diagnosed fault"):
        plan_of_result(case, alone)
    # and a decision refused as an edit that the others do not bring about either
    kept = with_action(result, "m1", "keep")
    with pytest.raises(DgrrError, match="(?s)no plan of the case takes them .*m1: is a "
                                        "diagnosed fault"):
        plan_of_result(case, kept)
