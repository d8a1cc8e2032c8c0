"""Store-only baselines score 0 claim-invalidation F1 (method.md, Evaluation): they retry
the final turn as a fresh run on the edited store, which neither invalidates nor
re-derives the failed trajectory's claims, so their predicted set is empty by kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from repair_core import load_case
from repair_core.bench import decide
from repair_core.bench._metrics import claim_f1
from repair_core.bench._runner import evaluate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sample_traces" / "figure1-travel.json"
STORE_ONLY = ("no_repair", "full_reset", "delete_retrieved", "memaudit")


@pytest.mark.parametrize("name", STORE_ONLY)
def test_store_only_methods_predict_no_claims(name):
    case = load_case(EXAMPLE)
    d = decide(name, case)
    assert d.kind == "store_only"
    assert d.predicted_claims(case) == []
    if name != "no_repair":  # they do replay the final turn's claims, yet predict none
        claims = {s.id for s in case.trajectory if s.type == "claim"}
        assert claims & d.replay


@pytest.mark.parametrize("name", ["ours", "llm_judge", "agenttrace", "ours_no_planner"])
def test_rollback_methods_predict_the_claims_they_touch(name):
    case = load_case(EXAMPLE)
    d = decide(name, case)
    assert d.kind == "rollback"
    assert d.predicted_claims(case)


def test_full_reset_scores_zero_claim_f1_and_ours_does_not():
    case = load_case(EXAMPLE)
    reset, ours = evaluate(case, "full_reset"), evaluate(case, "ours")
    assert case.eval is not None and case.eval.gold_claims
    assert reset.predicted_claims == [] and reset.replayed_steps > 0
    assert claim_f1([reset]) == 0.0
    assert claim_f1([ours]) > 0.0
