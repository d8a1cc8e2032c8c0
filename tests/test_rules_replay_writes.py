"""Stage 4 rules of replayed memory writes (docs/rules.md): `replay.write.supersedes-own`
(a replayed write supersedes the record it produced in the failed run),
`replay.write.no-value` and `replay.write.retire-current`."""

from __future__ import annotations

from pathlib import Path

import pytest
from casebuild import make_case, rec, step, turn

from repair_core import apply_edits, case_from_data, load_case, plan_case
from repair_core.agent import LexicalRetriever, recurrence_probe
from repair_core.replay import execute, repair
from tests.test_rules_update_writer import NEW_ADDRESS, REQUEST, update_case_data

rule = pytest.mark.rule
CONTROLLED = Path(__file__).resolve().parent.parent / "sample_traces" / "controlled"
MULTI = Path(__file__).resolve().parent.parent / "sample_traces" / "multisession"


def _write_case():
    # s2 reads the (faulty) m1, s3 remembers what it read as m2 (an `add`), s4 answers.
    return make_case(
        turn("u1", 1, "What is my colour? It is green."),
        rec("m1", text="The user's colour is red.", key="colour", value="red"),
        rec("m2", "s3:produce", text="The user's colour is red (remembered).",
            key="colour_note", value="red", created_seq=3),
        step("s2", 2, "memory_read", "u1:initiate m1:cite", returned=["m1"], query="colour"),
        step("s3", 3, "memory_write", "s2:cite u1:initiate", target=["m2"]),
        step("s4", 4, "answer", "s2:cite"),
        faults=["m1"],
    )


@rule("replay.write.supersedes-own")
def test_replayed_add_retires_the_record_it_wrote_in_the_failed_run():
    case = _write_case()
    # Without the replay the failed run's m2 stays (nothing touched s3).
    kept = execute(case, {"m1": "delete"}, ["s4"])
    assert "m2" in {r.id for r in kept.store.active}
    redone = execute(case, {"m1": "delete"}, ["s2", "s3", "s4"])
    active = {r.id for r in redone.store.active}
    assert "m2" not in active
    m2 = next(r for r in redone.trajectory.memory if r.id == "m2")
    assert m2.status == "superseded"
    assert "m2" in redone.report.store_changes.retired


@rule("replay.write.supersedes-own")
def test_a_redo_of_a_generated_case_leaves_none_of_its_range_writes_active():
    path = CONTROLLED / "ctl-001-travel-wrong-user.json"
    case = load_case(path)
    writes = {s.id for s in case.trajectory if s.type == "memory_write"}
    own = {m.id for m in case.memory
           if any(d.label == "produce" and d.id in writes for d in m.deps)}
    assert own, "the case must have records written during the run"
    result = execute(case, {f: "delete" for f in case.faults},
                     [s.id for s in case.trajectory])
    active = {r.id for r in result.store.active}
    assert not own & active
    # and the replay wrote their replacements
    assert {r.id for r in result.store.active if "~r" in r.id}


@rule("replay.write.supersedes-own")
def test_a_replayed_read_before_the_write_does_not_retrieve_its_old_record():
    # s2 reads before s3 wrote m2 in the failed run; m2 was written later, so a redo of
    # s2..s4 must not let the replayed s2 see m2 (the failed run's output of s3).
    case = _write_case()
    result = execute(case, {"m1": "delete"}, ["s2", "s3", "s4"])
    read = next(s for s in result.trajectory.trajectory if s.id == "s2")
    assert "m2" not in read.returned


@rule("replay.write.supersedes-own")
@pytest.mark.parametrize("objective", ["answer", "both"])
def test_a_replayed_update_retires_the_record_it_wrote_though_an_edit_kept_it(objective):
    # s4 wrote m3 by an `update` edge and nothing read m3 before it, so s4 is m3's
    # producer (support.update-writer). A reviewer's forced edit keeps m3 while s4 is
    # replayed: the replayed s4's version must replace m3, not sit beside it.
    case = case_from_data(update_case_data())
    plan = apply_edits(plan_case(case, objective=objective), {"m3": "keep"}, force=True,
                       comment="the user's address is right; keep it")
    assert plan.memory["m3"] == "keep" and plan.steps["s4"] == "replay"
    result = repair(case, plan)
    # what the agent reads next: its search of the repaired store and its next turn
    active = {r.id: r for r in result.store.active}
    found = LexicalRetriever().retrieve(result.store.active, "shipping address", "tomas")
    addresses = [r for r in found if active[r].key == "shipping_address"]
    assert len(addresses) == 1 and addresses != ["m3"], addresses
    [new] = addresses
    assert active[new].value == NEW_ADDRESS and any(d.id == "s4" for d in active[new].deps)
    assert NEW_ADDRESS in recurrence_probe(result.store.active, "tomas", REQUEST,
                                           domain="customer_service")
    m3 = next(r for r in result.trajectory.memory if r.id == "m3")
    assert m3.status == "superseded"
    assert "m3" in result.report.store_changes.retired


@rule("replay.write.no-value")
@pytest.mark.parametrize("name", ["ms-retrieval-42-000", "ms-summary-42-000"])
def test_a_claim_that_found_no_value_is_not_remembered(name):
    """Issue 17's multi-session cases, answer objective: the replayed agency claim finds
    no value once the poisoned document is gone; its write must not remember that."""
    case = load_case(MULTI / f"{name}.json")
    result = repair(case, plan_case(case, objective="answer"))
    valueless = [(r.id, r.key, r.text) for r in result.store.active
                 if r.key is not None and r.value is None]
    assert valueless == []
    # the write is reported as skipped, naming the premise that stated nothing
    reasons = [w.reason for w in result.report.skipped_writes]
    assert any("states no value for agency" in r for r in reasons), reasons
    # the failed run's poisoned agency record is not what replaced it either
    assert not any("SkyBargain" in r.text for r in result.store.active)


@rule("replay.write.retire-current")
@pytest.mark.parametrize("name", ["ms-summary-42-000", "ms-summary-42-003"])
def test_a_re_run_fold_leaves_one_summary_active(name):
    """Rolling-summary variant, store objective: session 2's fold is re-run over the
    re-derived session-1 summary, which it must retire (the next session reads one
    summary)."""
    case = load_case(MULTI / f"{name}.json")
    result = repair(case, plan_case(case, objective="store"))
    profiles = [r for r in result.store.active if r.key == "profile"]
    assert len(profiles) == 1, [(r.id, r.text) for r in profiles]
    [summary] = profiles
    # the new summary folds the re-derived session-2 record, which it retired
    folded = {d.id for d in summary.deps if d.label == "consolidate"}
    assert folded and not folded & {r.id for r in result.store.active}
    assert "SkyBargain" not in summary.text
    fold = next(s for s in result.trajectory.trajectory if s.id == "s24")
    assert set(fold.target) >= folded
