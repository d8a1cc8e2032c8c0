"""Property: `verify` finds any carrier planted into a repaired store. A fault's distinctive
token (or, for a fault without one, its text) written into any active record a replayed
write added, anywhere in its text, makes that record a carrier of that fault — whatever
the result's own `verification` section says; written into a record of the case (whose
text the apply leaves as it is), it makes the result refused by the gate, naming it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repair_core import load_case
from repair_core.content import match, signatures
from repair_core.content._tokens import STRONG_KINDS
from repair_core.plan._plan import plan_case
from repair_core.replay import repair
from repair_core.verification import InconsistentResult, verify_result

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted([*(ROOT / "sample_traces" / "agentdojo").glob("adj-*.json"),
                *(ROOT / "sample_traces" / "controlled").glob("ctl-00*.json"),
                ROOT / "sample_traces" / "cs-stale-address.json",
                ROOT / "repair_core" / "fixtures" / "figure1-travel.json"])


@cache
def repaired(i: int) -> tuple[object, dict, list[tuple[str, str]]]:
    """(case, its repaired result as JSON, [(fault, text to plant)]): a strong token of
    the fault's signature, or the fault's text when that alone carries it."""
    case = load_case(CASES[i])
    objective = "store" if "agentdojo" in str(CASES[i]) else "both"
    result = repair(case, plan_case(case, objective=objective))  # type: ignore[arg-type]
    texts = {**{m.id: m.text for m in case.memory}, **{s.id: s.text for s in case.trajectory}}
    plants = []
    for fault, sig in signatures(case).items():
        strong = sorted(t for t, k in sig.tokens.items() if k in STRONG_KINDS)
        if strong:
            plants += [(fault, t) for t in strong]
        elif match(sig, texts[fault]) is not None:
            plants.append((fault, texts[fault]))
    return case, json.loads(result.model_dump_json()), plants


def test_the_cases_have_something_to_plant():
    planted = [i for i in range(len(CASES)) if repaired(i)[2] and repaired(i)[1]["store"]["active"]]
    assert len(planted) >= len(CASES) * 3 // 4
    agentdojo = [i for i, p in enumerate(CASES) if "agentdojo" in str(p)]
    assert agentdojo and all(repaired(i)[2] for i in agentdojo)  # each injection has a token


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_verify_finds_any_carrier_planted_into_a_repaired_store(data):
    i = data.draw(st.sampled_from([i for i in range(len(CASES))
                                   if repaired(i)[2] and repaired(i)[1]["store"]["active"]]))
    case, result, plants = repaired(i)
    result = json.loads(json.dumps(result))  # a copy to plant into
    fault, planted = data.draw(st.sampled_from(plants))
    active = result["store"]["active"]
    rec = active[data.draw(st.integers(0, len(active) - 1))]
    words = rec["text"].split(" ")
    at = data.draw(st.integers(0, len(words)))
    rec["text"] = " ".join([*words[:at], planted, *words[at:]])
    if rec["id"] in {m.id for m in case.memory}:  # type: ignore[attr-defined]
        # a record of the case: the apply leaves the case's text, so the result is refused
        with pytest.raises(InconsistentResult) as refused:
            verify_result(case, result)  # type: ignore[arg-type]
        assert (refused.value.rule, refused.value.record) == ("gate.active-matches-plan",
                                                              rec["id"])
        return
    v = verify_result(case, result)  # type: ignore[arg-type]
    assert f"{rec['id']}:{fault}" in {c.id for c in v.carriers}, (rec["text"], fault)
    assert not v.clean
