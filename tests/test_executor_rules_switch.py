"""`ExecutorRules` switches the executor's two rules for baselines at their best: the
default is the executor as committed (byte for byte on committed cases), and switching a
rule off runs it as it ran before that rule (docs/replay-api.md, "Switching the rules for
baselines at their best")."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from casebuild import make_case, rec, step, turn
from test_rules_replay_baselines import EVERYTHING, kv_registry, two_writes

from repair_core.bench import evaluate
from repair_core.case._load import load_case
from repair_core.replay import RULES_BEFORE, ExecutorRules, execute

ROOT = Path(__file__).resolve().parent.parent
NOISY = ROOT / "sample_traces" / "controlled-noisy"
NOISY_MODEL = "dgrr/reference/noise=0.1"  # how the committed noisy results were repaired
CTL_030 = NOISY / "ctl-030-customer-service-summary-drift.json"
CTL_006 = NOISY / "ctl-006-customer-service-stale.json"
SLACK = (ROOT / "sample_traces" / "agentdojo" / "adj-slack-usertask14-injectiontask4-"
         "usertask16-importantinstructionsnomodelname.json")


def committed_row(suite: str, case_id: str, method: str) -> dict[str, str]:
    with open(ROOT / "docs" / "results" / suite / "results.csv", newline="") as f:
        return next(r for r in csv.DictReader(f)
                    if r["case_id"] == case_id and r["method"] == method)


def test_the_default_is_both_rules_on_and_before_is_both_off():
    assert ExecutorRules() == ExecutorRules(answer_sees_replayed=True, keep_own_actions=True)
    assert not RULES_BEFORE.answer_sees_replayed and not RULES_BEFORE.keep_own_actions
    with pytest.raises(ValueError):
        ExecutorRules(keep_own_action=False)  # a misspelt switch is refused, not ignored


def test_the_own_action_switch_takes_back_and_reissues_the_users_own_call():
    case = two_writes("compensable")
    on = execute(case, {"m1": "delete"}, EVERYTHING, tools=kv_registry("compensable"))
    off = execute(case, {"m1": "delete"}, EVERYTHING, tools=kv_registry("compensable"),
                  rules=ExecutorRules(keep_own_actions=False))
    assert {o.id: o.outcome for o in on.report.steps}["s3"] == "kept"
    outcomes = {o.id: o.outcome for o in off.report.steps}
    assert outcomes["s3"] == "replayed" and outcomes["s4"] == "refreshed"
    ledger = {w.step: w for w in off.report.world}
    assert ledger["s3"].removed and ledger["s3"].disposition == "undone"
    # the other switch leaves this case as the default runs it
    only_answer = execute(case, {"m1": "delete"}, EVERYTHING, tools=kv_registry("compensable"),
                          rules=ExecutorRules(answer_sees_replayed=False))
    assert {o.id: o.outcome for o in only_answer.report.steps}["s3"] == "kept"


def test_the_sees_replayed_switch_hides_what_the_replay_refreshed_from_the_answer():
    case = make_case(
        turn("u1", 1, "Where is my order O-6929?"),
        rec("m1", key="note", value="x"),
        step("s2", 2, "plan", "u1:initiate", tool="get_order", args={"order_id": "O-6929"}),
        step("s3", 3, "tool_action", "s2:produce", tool="get_order", args={},
             status="failed"),
        step("s4", 4, "tool_observation", "s3:produce", status="failed",
             text="get_order failed: missing required argument 'order_id'"),
        step("s5", 5, "answer", "u1:initiate", text="I could not look it up."),
        faults=["m1"], tools=[{"name": "get_order", "effect": "pure"}])
    replay = ["s2", "s3", "s4", "s5"]
    on = execute(case, {"m1": "delete"}, replay, tools=kv_registry("compensable"))
    off = execute(case, {"m1": "delete"}, replay, tools=kv_registry("compensable"),
                  rules=ExecutorRules(answer_sees_replayed=False))
    assert "in transit" in (on.answer or "")
    # the lookup is re-issued either way; without the rule its answer cannot use it
    assert {s.id: s for s in off.trajectory.trajectory}["s4"].status == "ok"
    assert "in transit" not in (off.answer or "")


@pytest.mark.parametrize(("path", "method"), [(CTL_030, "redo_first_exposure"),
                                              (CTL_030, "llm_judge"),
                                              (CTL_006, "delete_faults_rerun"),
                                              (CTL_030, "ours")])
def test_the_default_gives_the_committed_noisy_results_and_before_loses_the_gain(path, method):
    """ctl-030 and ctl-006 are two of the noisy cases docs/results.md names as gained by
    the redo baselines with rule replay.answer.sees-replayed; Ours gained nothing."""
    case = load_case(path)
    row = committed_row("controlled-noisy", case.case_id, method)
    for rules in (None, ExecutorRules()):
        now = evaluate(case, method, model=NOISY_MODEL, rules=rules)
        assert (now.answer, now.recovered, now.replayed_steps, now.llm_calls, now.tokens) == (
            row["answer"], row["recovered"] == "True", int(row["replayed_steps"]),
            int(row["llm_calls"]), int(row["tokens"]))
    before = evaluate(case, method, model=NOISY_MODEL, rules=RULES_BEFORE)
    if method == "ours":
        assert before.answer == row["answer"] and before.recovered == (row["recovered"] == "True")
    else:
        assert row["recovered"] == "True" and not before.recovered
        # the rule that moved it is the answer's, not the world's
        own_off = evaluate(case, method, model=NOISY_MODEL,
                           rules=ExecutorRules(keep_own_actions=False))
        assert own_off.recovered


@pytest.mark.slow
def test_the_default_gives_the_committed_slack_result_and_before_takes_back_the_invitation():
    from repair_core.bench._agentdojo import evaluate_case

    case = load_case(SLACK)
    row = committed_row("agentdojo", case.case_id, "redo_first_exposure")
    now = evaluate_case(case, "redo_first_exposure")
    assert (now.answer, str(now.utility), now.replayed_steps, now.llm_calls) == (
        row["answer"], row["utility"], int(row["replayed_steps"]), int(row["llm_calls"]))
    assert now.utility
    before = evaluate_case(case, "redo_first_exposure", rules=RULES_BEFORE)
    assert before.utility is False
    assert any("invite_user_to_slack" in n and n.startswith("compensated") for n in before.notes)
    assert any("send_direct_message" in h for h in before.needs_human)
    answer_off = evaluate_case(case, "redo_first_exposure",
                               rules=ExecutorRules(answer_sees_replayed=False))
    assert answer_off.utility  # the world's rule, not the answer's, moved it
