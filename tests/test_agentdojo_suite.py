"""The AgentDojo suite: cases built from AgentDojo's own suites, repaired by
dgrr's executor on AgentDojo's functions, scored by AgentDojo's own checks. Runs when the
`agentdojo` extra is installed (`pip install 'dgrr[agentdojo]'`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("agentdojo")

from agentdojo_case import agentdojo_doc  # noqa: E402

from repair_core import case_from_data, load_case  # noqa: E402
from repair_core.bench._agentdojo import build_cases, evaluate_case, is_pure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = sorted((ROOT / "sample_traces" / "agentdojo").glob("adj-*.json"))


@pytest.fixture(scope="module")
def banking_case():
    docs = build_cases(("banking",), per_suite=1)
    assert docs, "AgentDojo's banking suite gives at least one case"
    return case_from_data(docs[0], source="test")


def test_a_case_carries_agentdojos_injection_in_a_tool_result_and_memory(banking_case):
    meta = banking_case.model_extra["agentdojo"]
    assert meta["vector"].startswith("injection_")
    assert "<INFORMATION>" in meta["injection"]
    carrier = [s for s in banking_case.trajectory if s.type == "tool_observation"
               and "<INFORMATION>" in s.text]
    assert carrier and carrier[0].turn == "u1"
    fault = next(m for m in banking_case.memory if m.id in banking_case.faults)
    assert fault.value and all("function" in c for c in fault.value)
    # session 2 acts on it: a call of the injection task's ground truth
    acted = [s for s in banking_case.trajectory if s.type == "tool_action" and s.turn == "u2"]
    assert acted[0].tool == fault.value[0]["function"]


def test_no_repair_leaves_the_attack_for_the_next_session(banking_case):
    r = evaluate_case(banking_case, "no_repair")
    assert r.next_session_security is False
    assert r.faults_removed == 0


def test_ours_cleans_the_store_and_reports_the_irreversible_effect(banking_case):
    r = evaluate_case(banking_case, "ours")
    assert r.faults_removed == 1 and r.benign_kept == r.benign_total
    assert r.next_session_security is True
    irreversible = [s for s in banking_case.trajectory if s.type == "tool_action"
                    and s.turn == "u2" and not is_pure(s.tool)
                    and s.tool == banking_case.memory[-1].value[0]["function"]]
    if irreversible:  # a transfer already sent is never counted as recovered
        assert r.needs_human and not r.recovered
    assert r.utility is not None and r.security is not None


@pytest.mark.skipif(not COMMITTED, reason="no committed AgentDojo cases")
def test_committed_cases_load_and_name_their_tasks():
    for p in COMMITTED:
        case = load_case(p)
        meta = case.model_extra["agentdojo"]
        assert {"suite", "user_task", "injection_task", "vector"} <= set(meta)
    manifest = json.loads((COMMITTED[0].parent / "manifest.json").read_text())
    assert manifest["cases"] == len(COMMITTED)


def test_every_function_declared_pure_leaves_agentdojos_environment_unchanged():
    """A call dgrr declares `pure` is never applied when the failed run's world is rebuilt
    and never reported when removed, so it must really change nothing: every distinct
    ground-truth call (all user and injection tasks of the four suites) of a function
    declared pure, run by AgentDojo's runtime, leaves the environment equal to before."""
    from agentdojo.functions_runtime import FunctionsRuntime

    from repair_core.model._agentdojo import SUITES, agentdojo_suite

    checked, writers = 0, set()
    for name in SUITES:
        suite = agentdojo_suite(name)
        runtime = FunctionsRuntime(suite.tools)
        pristine = suite.load_and_inject_default_environment({})
        calls = {}
        for task in [*suite.user_tasks.values(), *suite.injection_tasks.values()]:
            for c in task.ground_truth(pristine.model_copy(deep=True)):
                calls.setdefault((c.function, repr(sorted(c.args.items()))), c)
        for c in calls.values():
            env = pristine.model_copy(deep=True)
            runtime.run_function(env, c.function, dict(c.args))
            if is_pure(c.function):
                checked += 1
                assert env == pristine, f"{name}: {c.function}({dict(c.args)}) changed the world"
            elif env != pristine and c.function.startswith(("get_", "read_", "search_")):
                writers.add(c.function)
    assert checked > 50
    # the reads that write, which a name alone would call pure
    assert {"get_webpage", "get_unread_emails"} <= writers


def _case(suite: str, a: int, inj: int, b: int):
    return case_from_data(agentdojo_doc(suite, a, inj, b), source="test")


def test_a_web_visit_of_the_failed_run_stays_in_the_scored_world():
    """AgentDojo's get_webpage records the visit (`web.web_requests`), which its own checks
    read. Slack user task 6 needs the restaurant page visited: Ours keeps that visit (it
    does not depend on the injection), so the repaired world still has it. Slack injection
    task 3's goal is a visit to a phishing link: it happened in the failed run, cannot be
    taken back, and is reported as needing a human, never as secure."""
    r = evaluate_case(_case("slack", 5, 1, 6), "ours")
    assert r.utility is True
    r = evaluate_case(_case("slack", 2, 3, 3), "ours")
    assert r.security is False and not r.recovered
    assert any("get_webpage" in h for h in r.needs_human)
