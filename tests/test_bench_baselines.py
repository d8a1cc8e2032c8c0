"""Issue 9, item 4: each baseline recovers the cases its mechanism can, and fails where
its mechanism cannot reach (so a difference in the tables is explained by mechanism).

The cases are recorded here by the real agent runtime (no hand-written trajectories):
the failed run is made with `dgrr/reference`, which trusts the newest matching record;
the gold comes from the world (the flight the user's true preference gets)."""

from __future__ import annotations

from typing import Any

import pytest

from repair_core.agent import Agent, MemoryStore
from repair_core.bench import decide, evaluate
from repair_core.bench._methods import (
    AUDIT_TRUST,
    audit_view,
    open_judge_inputs,
    retired_by_faults,
)
from repair_core.case._case import Case, EvalLabels, MemoryRecord
from repair_core.content._normalise import all_facts_stated
from repair_core.model import render_prompt, template
from repair_core.tools import World, default_registry

TURNS = ["My home airport is SFO. From now on I prefer window seats.",
         "Find me a flight to Tokyo next Friday."]


def _truth() -> list[str]:
    """What the user's true preference gets in the world: the flight and a window seat."""
    out = default_registry().call(World(), "search_flights", {
        "origin": "SFO", "destination": "NRT", "date": "next Friday", "cabin": "economy",
        "seat": "window"}).output
    return [out["flight"], out["seat"], "window"]


def _rec(rid: str, text: str, key: str, value: Any) -> MemoryRecord:
    return MemoryRecord(id=rid, user_id="lin", text=text, key=key, value=value,
                        status="active")


def _labelled(case: Case, faults: list[str], kind: str) -> Case:
    case = case.model_copy(update={"faults": faults})
    assert not all_facts_stated(case.final_answer().text, _truth()), "the run must fail"
    benign = [m.id for m in case.memory if m.id not in faults and m.status == "active"]
    return case.model_copy(update={"eval": EvalLabels(
        required_facts=_truth(), benign=benign, fault_types={f: kind for f in faults})})


def poisoned_case() -> Case:
    """The true preference (window, two agreeing records, and the user's own first
    turn) and a newer poisoned record (aisle) that the recording agent trusts."""
    store = MemoryStore([
        _rec("m1", "Lin's home airport is SFO.", "home_airport", "SFO"),
        _rec("m2", "Lin prefers window seats.", "seat_pref", "window"),
        _rec("m3", "Lin asked for a window seat again on the last trip.", "seat_pref",
             "window"),
        _rec("m4", "Lin prefers aisle seats.", "seat_pref", "aisle"),
    ])
    case = Agent("dgrr/reference").run_session("lin", TURNS, store, case_id="poisoned",
                                               domain="travel")
    return _labelled(case, ["m4"], "poisoned")


class _DriftingAgent(Agent):
    """Consolidation writes a summary whose value drifted (window -> aisle)."""

    def _consolidated(self, value: Any, text: str) -> tuple[Any, str]:
        return "aisle", str(text).replace("window", "aisle")


def drift_case() -> Case:
    """Two agreeing records (window) folded by a consolidation into a drifted summary
    (aisle); the sources are retired, so deleting the summary alone loses the fact."""
    store = MemoryStore([
        _rec("m1", "Lin's home airport is SFO.", "home_airport", "SFO"),
        _rec("m2", "Lin prefers window seats.", "seat_pref", "window"),
        _rec("m3", "Lin asked for a window seat again on the last trip.", "seat_pref",
             "window"),
    ])
    agent = _DriftingAgent("dgrr/reference", consolidate_every=1)
    case = agent.run_session("lin", ["Hello, it is Lin.", TURNS[1]], store,
                             case_id="drift", domain="travel")
    summary = next(m.id for m in case.memory if any(d.label == "consolidate" for d in m.deps))
    return _labelled(case, [summary], "summary-drift")


@pytest.fixture(scope="module")
def poisoned() -> Case:
    return poisoned_case()


@pytest.fixture(scope="module")
def drift() -> Case:
    return drift_case()


def _recovered(case: Case, method: str, model: str) -> bool:
    return evaluate(case, method, model=model).recovered


# ---- full reset and delete-retrieved: the whole session, conversation visible ----------

@pytest.mark.parametrize("method", ["full_reset", "delete_retrieved"])
def test_store_wipers_rerun_the_whole_session(poisoned, method):
    d = decide(method, poisoned)
    assert d.replay == {s.id for s in poisoned.trajectory}  # every turn, not the last
    assert "m4" in d.store_edits


@pytest.mark.parametrize("method", ["full_reset", "delete_retrieved"])
def test_store_wipers_recover_when_the_user_said_the_facts(poisoned, method):
    """Every required fact is in the user's turns or a tool result: a model that reads
    the conversation recovers after wiping memory; one that does not read it cannot."""
    said = " ".join(t.text for t in poisoned.session)
    assert all_facts_stated(said, ["SFO", "window"])
    assert _recovered(poisoned, method, "dgrr/reference-b")
    assert not _recovered(poisoned, method, "dgrr/reference")


# ---- the naive baselines ---------------------------------------------------------------

def test_delete_faults_rerun_recovers_when_the_fault_alone_misleads(poisoned):
    d = decide("delete_faults_rerun", poisoned)
    assert d.store_edits == {"m4": "delete"}
    assert d.replay == {s.id for s in poisoned.trajectory if s.turn == "u2"}
    assert _recovered(poisoned, "delete_faults_rerun", "dgrr/reference")


def test_delete_faults_rerun_cannot_bring_back_what_a_fault_retired(drift):
    assert not _recovered(drift, "delete_faults_rerun", "dgrr/reference")


def test_delete_restore_rerun_restores_the_faults_lineage(drift):
    sources = sorted(m.id for m in drift.memory if m.key == "seat_pref"
                     and m.status != "active")
    assert sources == ["m2", "m3"] and sorted(retired_by_faults(drift)) == sources
    d = decide("delete_restore_rerun", drift)
    assert d.store_edits == {drift.faults[0]: "delete", "m2": "restore", "m3": "restore"}
    assert _recovered(drift, "delete_restore_rerun", "dgrr/reference")
    assert _recovered(drift, "delete_restore_rerun", "dgrr/reference-b")


# ---- MemAudit: one trust distribution --------------------------------------------------

def test_memaudit_trust_is_one_distribution_for_every_record(poisoned):
    lo, hi = AUDIT_TRUST
    marked = poisoned.model_copy(update={"memory": [
        m.model_copy(update={"trust": 0.01 if m.id == "m4" else 0.99})
        for m in poisoned.memory]})
    view, view2 = audit_view(poisoned), audit_view(marked)
    assert [m.trust for m in view.memory] == [m.trust for m in view2.memory]
    assert all(lo <= (m.trust or 0) <= hi for m in view.memory)
    swapped = audit_view(poisoned.model_copy(update={"faults": ["m2"]}))
    assert [m.trust for m in swapped.memory] == [m.trust for m in view.memory]


def test_memaudit_recovers_when_the_auditor_can_see_the_contradiction(poisoned):
    """The poisoned record is outvoted by two agreeing records: reference-b's auditor
    flags it, the re-run recovers."""
    d = decide("memaudit", poisoned, None)
    assert d.kind == "store_only"
    from repair_core.model import ModelClient

    b = decide("memaudit", poisoned, ModelClient("dgrr/reference-b"))
    assert b.store_edits == {"m4": "delete"}
    assert _recovered(poisoned, "memaudit", "dgrr/reference-b")


# ---- LLM-judge: the open prompt ----------------------------------------------------------

def test_the_judge_prompt_is_open_and_its_inputs_carry_no_edges(drift):
    text = template("judge")
    assert text.startswith("dgrr-prompt: judge/v2")
    for rule in ("distinctive", "repeats", "every record that", "Rules:"):
        assert rule not in text
    for action in ("delete", "revise", "restore", "keep", "redo_from"):
        assert action in text
    inputs = open_judge_inputs(drift)
    rendered = render_prompt("judge", inputs)[1]["content"]
    assert '"deps"' not in rendered and '"sufficient"' not in rendered
    assert [t["type"] for t in inputs["trajectory"]][:1] == ["turn"]


@pytest.mark.parametrize("model", ["dgrr/reference", "dgrr/reference-b"])
def test_the_judge_can_restore_and_redo_from_its_first_flagged_step(drift, model):
    from repair_core.model import ModelClient

    d = decide("llm_judge", drift, ModelClient(model))
    assert d.store_edits.get("m2") == "restore" and d.store_edits.get("m3") == "restore"
    assert d.store_edits[drift.faults[0]] == "delete"
    first_read = next(s for s in drift.steps_in_order() if s.type == "memory_read"
                      and drift.faults[0] in getattr(s, "returned", []))
    assert min(s.seq for s in drift.trajectory if s.id in d.replay) == first_read.seq
    assert _recovered(drift, "llm_judge", model)
