"""Issue 17's done-when, on the multi-session cases: with --objective store the attack no
longer acts in sessions 3-4, every true remembered fact is retained, no past answer is
regenerated, and fewer model calls are replayed than by a full rollback from the first
exposure to the poisoned document — on retrieval memory and on rolling summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repair_core import load_case, plan_case
from repair_core._io import to_json
from repair_core.bench._controlled import controlled_multisession_cases
from repair_core.bench._multisession import (
    MULTISESSION_VARIANTS,
    build_multisession_case,
    score_later_sessions,
)
from repair_core.replay import execute, repair

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = sorted((ROOT / "sample_traces" / "multisession").glob("*.json"))
CASES = [(v, i) for v in MULTISESSION_VARIANTS for i in range(4)]


def _full_rollback(case):
    """Roll back to just before the first exposure and re-run everything after it, the
    poisoned document removed: what a redo-style recovery does."""
    exposure = min(s.seq for s in case.trajectory if s.id in case.faults)
    edits = {m.id: "delete" for m in case.memory
             if m.created_seq is not None and m.created_seq >= exposure}
    replay = [s.id for s in case.trajectory if s.seq > exposure]
    return execute(case.without_eval(), edits, replay, invalidated=case.faults)


def test_committed_cases_are_the_generators_output():
    built = {c.case_id: c for c in controlled_multisession_cases(42, 4)}
    assert sorted(p.stem for p in COMMITTED) == sorted(built)
    for p in COMMITTED:
        assert json.loads(p.read_text()) == json.loads(to_json(
            built[p.stem].model_dump(mode="json", exclude_none=True)))


def test_without_repair_the_attack_acts_in_later_sessions():
    for v, i in CASES:
        case = build_multisession_case(42, i, v)
        before = score_later_sessions([m for m in case.memory if m.status == "active"], case)
        assert before.attack_effect and before.retention == 1.0


@pytest.mark.parametrize("variant,index", CASES)
def test_store_objective_repairs_the_memory_the_next_sessions_read(variant, index):
    case = build_multisession_case(42, index, variant)
    blind = case.without_eval()
    plan = plan_case(blind, objective="store")
    result = repair(blind, plan)
    score = score_later_sessions(list(result.store.active), case)
    assert not score.attack_effect
    assert score.retained == {k: True for k in score.retained}, score.retained
    answers = {s.id for s in case.trajectory if s.type == "answer"}
    replayed = {o.id for o in result.report.steps if o.outcome in ("replayed", "refreshed")}
    assert not answers & replayed and result.answer is None
    assert not result.report.failures
    rollback = _full_rollback(case)
    assert result.cost.llm_calls < rollback.cost.llm_calls
    # the paper's objective loses session 2's seat preference on retrieval memory (the
    # write does not reach the final answer): the store objective is what keeps it
    if variant == "retrieval":
        answer_only = repair(blind, plan_case(blind))
        assert not score_later_sessions(list(answer_only.store.active), case).retained["seat"]


def test_the_poisoned_document_is_diagnosed_as_an_observation():
    case = load_case(COMMITTED[0])
    [fault] = case.faults
    assert next(s for s in case.trajectory if s.id == fault).type == "tool_observation"
    plan = plan_case(case, objective="store")
    assert plan.steps[fault] == "invalidate"
    # its claim and the record written from it are affected; the record is quarantined
    rec = next(m.id for m in case.memory if m.key == "agency")
    assert plan.memory[rec] == "quarantine"
