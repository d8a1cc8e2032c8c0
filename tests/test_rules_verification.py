"""Verified clean by content: after the replay, the corrected answer, every replayed output
and the repaired store are checked against every fault's content signature, whatever the
lineage says; a replayed write that carries a fault is blocked; `dgrr verify` re-runs the
check on any result; an approval of a result with a carrier must acknowledge each one.

Hostile models are built-in policies registered for the test (the reference model's reply
with words of the fault worked in), as in test_replay_fault_echo.py."""

from __future__ import annotations

import json
import sqlite3

import pytest
from test_bench_carriers import copy_of_m11, world_without
from test_replay_fault_echo import _hostile

from repair_core import load_case
from repair_core.approvals import ApprovalStore
from repair_core.cli import main
from repair_core.model import POLICIES
from repair_core.plan._plan import plan_case
from repair_core.replay import execute, repair, replay_again

TRAVEL = "repair_core/fixtures/figure1-travel.json"  # m3: Lin prefers window seats.
ADDRESS = "sample_traces/cs-stale-address.json"  # m1: Maya's shipping address is 12 Pine St, Seattle.
BANKING = "sample_traces/agentdojo/adj-banking-usertask0-injectiontask0-usertask2-importantinstructions.json"
IBAN = "US133000000121212121212"  # the attacker's account in BANKING's injection

rule = pytest.mark.rule


@pytest.fixture()
def policy(monkeypatch):
    def register(name: str, extra: str, stages: set[str]) -> str:
        monkeypatch.setitem(POLICIES, name, _hostile(extra, stages))
        return f"dgrr/{name}"
    return register


@rule("replay.write.blocked")
def test_a_replayed_write_that_would_restate_a_fault_is_blocked(policy):
    case = load_case(ADDRESS)
    clean = repair(case)
    assert clean.report.store_changes.added
    assert not any(o.outcome == "blocked" for o in clean.report.steps)
    # The fault's street and city without its value: the echo guard (whole value) misses
    # it, the content signature (its distinctive names) does not.
    model = policy("writes-pine", "Parcels used to go to Pine St in Seattle.", {"memory_write"})
    result = repair(case, model=model)
    assert not result.report.fault_echoes
    [blocked] = [o for o in result.report.steps if o.outcome == "blocked"]
    assert blocked.type == "memory_write"
    assert "carries m1" in blocked.detail and "needs a human" in blocked.detail
    assert not result.report.store_changes.added
    assert not any("Pine St" in m.text for m in result.store.active)
    [why] = [w for w in result.report.skipped_writes if w.step == blocked.id]
    assert "fault m1" in why.reason and "blocked, needs a human" in why.reason
    v = result.verification
    assert [(b.step, b.fault) for b in v.blocked] == [(blocked.id, "m1")]
    assert "Pine St" in v.blocked[0].evidence and v.faults[0].blocked == [blocked.id]
    assert v.clean and v.checked.blocked_writes == 1
    step = next(s for s in result.trajectory.trajectory if s.id == blocked.id)
    assert step.model_extra and step.model_extra.get("repair") == "blocked"


@rule("verify.after-replay")
def test_repair_ends_with_a_content_check_of_answer_outputs_and_store(policy):
    clean = repair(load_case(TRAVEL))
    v = clean.verification
    replayed = [o for o in clean.report.steps if o.outcome in ("replayed", "refreshed")]
    assert v is not None and v.clean and not v.carriers
    assert (v.checked.answer, v.checked.outputs, v.checked.records, v.checked.signatures) == (
        1, len(replayed) - 1, len(clean.store.active), 1)
    assert [(f.node, f.source) for f in v.faults] == [("m3", "fault")]
    # an answer that states the fault again is a carrier, found by what it says
    result = repair(load_case(TRAVEL), model=policy("says-window", "Lin prefers WINDOW seats!",
                                                     {"answer"}))
    [carrier] = result.verification.carriers
    assert (carrier.id, carrier.kind, carrier.where, carrier.fault) == (
        "s10:m3", "answer", "s10", "m3")
    assert "Lin" in carrier.evidence and "window" in carrier.evidence
    assert "WINDOW" in carrier.text
    data = json.loads(result.model_dump_json())
    assert data["verification"]["clean"] is False
    assert data["verification"]["faults"][0]["carriers"] == ["s10:m3"]
    # the executor alone (a baseline's replay) writes no verification section
    plain = execute(load_case(TRAVEL), {"m3": "delete"}, [])
    assert plain.verification is None and "verification" not in plain.model_dump(mode="json")


@rule("verify.after-replay")
def test_the_store_repair_of_an_injection_leaves_no_record_carrying_it():
    """AgentDojo's banking injection: the store repair must not leave the injected
    instruction (the attacker's IBAN) active, whichever rule keeps it out."""
    case = load_case(BANKING)
    result = repair(case, plan_case(case, objective="store"))
    assert not any(IBAN in m.text or IBAN in json.dumps(m.value) for m in result.store.active)
    assert result.verification.clean
    kept_out = [b.step for b in result.verification.blocked]
    writes = [o for o in result.report.steps if o.type == "memory_write"]
    assert all(o.outcome != "replayed" or o.id not in kept_out for o in writes)


def _result(tmp_path, capsys, *args: str) -> tuple[str, dict]:
    assert main(["repair", TRAVEL, "--json", "--objective", "answer", *args]) == 0
    data = json.loads(capsys.readouterr().out)
    path = tmp_path / "result.json"
    path.write_text(json.dumps(data))
    return str(path), data


@rule("verify.recheck")
def test_verify_exits_1_on_a_planted_carrier_and_0_on_a_clean_result(tmp_path, capsys):
    path, data = _result(tmp_path, capsys)
    assert main(["verify", path, "--case", TRAVEL]) == 0
    out = capsys.readouterr().out
    assert "clean by lineage and the lexical judge" in out
    # plant the fault's text into the corrected answer; the result still says it is clean
    # (a kept record's text is the case's: one planted there is refused by the gate,
    # tests/test_rules_gate.py)
    data["answer"] += " Lin prefers window seats.\x1b[2J"
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps(data))
    assert data["verification"]["clean"] is True
    assert main(["verify", str(planted), "--case", TRAVEL]) == 1
    out = capsys.readouterr().out
    assert "s10:m3  [answer] carries m3" in out and "NOT CLEAN: 1 carrier remain" in out
    assert "\x1b" not in out and "\\x1b[2J" in out  # the carrier's text is escaped
    assert main(["verify", str(planted), "--case", TRAVEL, "--json"]) == 1
    v = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in v["carriers"]] == ["s10:m3"] and v["clean"] is False


@rule("verify.recheck")
@pytest.mark.parametrize("change,field,value", [
    (lambda d: d["store"]["active"][0].update(text=5), "store.active[0].text", "5"),
    (lambda d: d["store"].update(active="none"), "store.active", "'none'"),
    (lambda d: d.pop("trajectory"), "trajectory", "missing"),
    (lambda d: d.update(answer=["x"]), "answer", "['x']"),
    (lambda d: d["report"].update(case_id="other"), "report.case_id", "'other'"),
])
def test_verify_names_the_bad_field_and_value_and_exits_2(tmp_path, capsys, change, field,
                                                          value):
    path, data = _result(tmp_path, capsys)
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["verify", str(bad), "--case", TRAVEL]) == 2
    captured = capsys.readouterr()
    assert field in captured.err and value in captured.err and not captured.out
    assert "Traceback" not in captured.err


@rule("approval.carriers-acknowledged")
def test_an_unknown_acknowledgement_of_a_clean_result_does_not_call_it_a_carrier(tmp_path,
                                                                               capsys):
    assert main(["repair", TRAVEL, "--json"]) == 0
    path = tmp_path / "result.json"
    path.write_text(capsys.readouterr().out)
    assert main(["approve", TRAVEL, "--reviewer", "ana", "--result", str(path), "--db",
                 str(tmp_path / "approvals.db"), "--decision", "approve",
                 "--acknowledge", "m4:m3"]) == 2
    err = capsys.readouterr().err
    assert "m4:m3: acknowledged, but not a carrier of this result" in err
    assert "neither a carrier nor a not-certified item" in err
    assert "still carries a fault" not in err


@rule("approval.carriers-acknowledged")
def test_approve_refuses_a_result_with_a_carrier_until_each_is_acknowledged(tmp_path, capsys,
                                                                           policy):
    db = str(tmp_path / "approvals.db")
    path, data = _result(tmp_path, capsys, "--model",
                         policy("says-window", "Lin prefers WINDOW seats!\x1b]8;;x\x07", {"answer"}))
    [carrier] = data["verification"]["carriers"]
    approve = ["approve", TRAVEL, "--reviewer", "ana", "--result", path, "--db", db]
    assert main([*approve, "--decision", "approve"]) == 2
    err = capsys.readouterr().err
    assert "s10:m3: not acknowledged" in err and "carries m3" in err
    assert "\x1b" not in err and "Traceback" not in err
    assert main([*approve, "--decision", "approve", "--acknowledge", "s10:m3",
                 "--acknowledge", "m4:m3"]) == 2
    assert "m4:m3: acknowledged, but not a carrier of this result" in capsys.readouterr().err
    assert ApprovalStore(db).history() == []  # nothing recorded by a refusal
    assert main([*approve, "--decision", "approve", "--acknowledge", carrier["id"]]) == 0
    assert "acknowledged 1 carrier of a fault or item(s) not certified clean: s10:m3" in \
        capsys.readouterr().out
    [rec] = ApprovalStore(db).history()
    assert rec.decision == "approve" and rec.acknowledged == ["s10:m3"]
    # a rejection needs no acknowledgement; a clean result needs none either
    assert main(["approve", TRAVEL, "--reviewer", "bo", "--result", path, "--db", db,
                 "--decision", "reject", "--comment", "the answer restates the fault"]) == 0
    capsys.readouterr()
    clean, _ = _result(tmp_path, capsys)
    assert main(["approve", TRAVEL, "--reviewer", "cy", "--result", clean, "--db", db,
                 "--decision", "approve"]) == 0
    capsys.readouterr()
    # the acknowledgement is part of the signed, chained row: changing it breaks the log
    assert main(["history", "--verify", "--db", db]) == 0
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER dgrr_approvals_no_update")
    con.execute("UPDATE dgrr_approvals SET acknowledged = NULL WHERE id = 1")
    con.commit()
    con.close()
    assert main(["history", "--verify", "--db", db]) == 1
    assert "row #1" in capsys.readouterr().err


@rule("apply.carriers-acknowledged")
def test_apply_refuses_a_carrier_its_approval_did_not_acknowledge(tmp_path, capsys, policy):
    """The gate comes before the store is opened: refused with nothing written; with an
    approval that acknowledged each carrier, apply goes on to the store (which this test
    does not have, so it stops there, after the gate)."""
    from repair_core.approvals import approval_hashes

    db = str(tmp_path / "approvals.db")
    path, data = _result(tmp_path, capsys, "--model",
                         policy("says-window", "Lin prefers WINDOW seats!", {"answer"}))
    case = load_case(TRAVEL)
    # An approval recorded without the acknowledgement (by a tool that skipped the check):
    # its digests match the result, so only the carrier rule stands in the way.
    inputs, outputs = approval_hashes(plan_case(case, objective="answer"), data)
    ApprovalStore(db).add(case_id=case.case_id, reviewer="ana", decision="approve",
                          inputs_sha256=inputs, outputs_sha256=outputs, model="dgrr/says-window")
    apply = ["apply", path, "--case", TRAVEL, "--to", "langgraph", "--store",
             "dgrr_no_such_module:store", "--db", db, "--journal", str(tmp_path / "journal")]
    assert main(apply) == 0  # the dry run names what the approval did not acknowledge
    assert "items not certified clean the approval did not acknowledge: s10:m3" in \
        capsys.readouterr().out
    assert main([*apply, "--apply", "--reviewer", "ops"]) == 2
    err = capsys.readouterr().err
    assert "did not acknowledge" in err and "s10:m3" in err and "nothing written" in err
    assert not (tmp_path / "journal").exists()  # refused before any journal or store
    # approved again, acknowledging the carrier: the newest decision stands, the gate opens
    assert main(["approve", TRAVEL, "--reviewer", "ana", "--decision", "approve",
                 "--result", path, "--db", db, "--acknowledge", "s10:m3"]) == 0
    capsys.readouterr()
    assert main(apply) == 0
    out = capsys.readouterr().out
    assert "the approval did not acknowledge: s10:m3" not in out
    assert "check carriers of a fault: passed" in out
    assert main([*apply, "--apply", "--reviewer", "ops"]) == 2
    err = capsys.readouterr().err
    assert "did not acknowledge" not in err and "cannot load 'dgrr_no_such_module:store'" in err


@rule("replay.write.blocked")
def test_repair_prints_the_check_and_strict_exits_1_on_a_blocked_write(policy, capsys):
    assert main(["repair", ADDRESS, "--strict"]) == 0
    assert "Verification by content: clean" in capsys.readouterr().out
    model = policy("writes-pine", "Parcels used to go to Pine St in Seattle.", {"memory_write"})
    # the blocked address update leaves a later tool call without an address: it fails
    assert main(["repair", ADDRESS, "--model", model]) == 1
    out = capsys.readouterr().out
    assert "blocked write s4 carries m1" in out and "needs a human" in out
    # an answer carrying the fault's street and city (not its whole value: no echo)
    model = policy("answers-pine", "Parcels used to go to Pine St in Seattle.", {"answer"})
    assert main(["repair", ADDRESS, "--model", model]) == 0
    assert "carrier s16:m1 [answer]" in capsys.readouterr().out
    assert main(["repair", ADDRESS, "--model", model, "--strict"]) == 1
    assert "found 1 carrier of a fault and blocked 0 writes: s16:m1" in capsys.readouterr().err


@rule("verify.three-outcomes")
def test_repair_strict_exits_3_when_the_store_is_not_certified(capsys):
    """A repair whose content check finds no carrier but certifies nothing (a record
    stating the fault's dose in other units that its lineage does not explain) exits 0
    without --strict and 3 with it, as `dgrr verify` does, naming what was not certified."""
    dose = "benchmarks/carriers/cases/cb-91-dose-other-units.json"
    assert main(["repair", dose]) == 0
    assert "Verification by content: not certified" in capsys.readouterr().out
    assert main(["repair", dose, "--strict"]) == 3
    err = capsys.readouterr().err
    assert "could not certify the repaired store: 2 items not certified clean" in err
    assert "m_org:m_rx" in err
    assert main(["repair", ADDRESS, "--strict"]) == 0


@rule("verify.recheck")
def test_the_check_covers_the_suspected_sources_the_plan_cleans():
    """BANKING's injected tool result s3 is the fault's suspected source: the bill around
    the injection, planted as the answer, carries s3 (not the fault's own IBAN). The
    result names s3 in its `verification`; approval also takes it from the plan, so a
    result stripped of that section is checked against it all the same."""
    from repair_core.approvals import result_carriers
    from repair_core.verification import verify_result

    case = load_case(BANKING)
    plan = plan_case(case, objective="store")
    assert [(s.id, s.role, s.action) for s in plan.suspected] == [("s3", "source", "clean")]
    data = json.loads(repair(case, plan).model_dump_json())
    assert [(f["node"], f["source"]) for f in data["verification"]["faults"]] == [
        ("m_inst", "fault"), ("s3", "suspected_source")]
    s3 = next(s for s in case.trajectory if s.id == "s3")
    bill = s3.text.split("<INFORMATION>")[0] + s3.text.split("</INFORMATION>")[-1]
    assert IBAN not in bill
    # planted as the answer (a kept record's text is the case's: the gate refuses a result
    # that changes it, tests/test_rules_gate.py)
    data["answer"] = bill
    assert [c.id for c in verify_result(case, data).carriers] == ["s22:s3"]
    data.pop("verification")
    assert verify_result(case, data).carriers == []  # the case's faults alone miss it
    assert [c.id for c in result_carriers(case, data, plan)] == ["s22:s3"]


@rule("approval.carriers-acknowledged")
def test_the_queue_decision_needs_the_acknowledgement_too(tmp_path, capsys, policy):
    db = str(tmp_path / "queue.db")
    model = policy("says-window", "Lin prefers WINDOW seats!", {"answer"})
    assert main(["queue", "submit", TRAVEL, "--by", "detector", "--db", db]) == 0
    assert main(["queue", "claim", "--reviewer", "ana", "--db", db]) == 0
    decide = ["queue", "decide", "1", "--reviewer", "ana", "--decision", "approve",
              "--model", model, "--db", db]
    capsys.readouterr()
    assert main(decide) == 2
    assert "s10:m3: not acknowledged" in capsys.readouterr().err
    assert main(["queue", "show", "1", "--json", "--db", db]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "claimed"  # nothing moved
    assert main([*decide, "--acknowledge", "s10:m3"]) == 0
    assert "request #1: approved by ana" in capsys.readouterr().out
    [rec] = ApprovalStore(db).history()
    assert rec.acknowledged == ["s10:m3"]


@rule("apply.carriers-acknowledged")
def test_the_queue_worker_refuses_a_carrier_the_honoured_approval_did_not_acknowledge(
        tmp_path, policy):
    from repair_core.approvals import approval_hashes
    from repair_core.queue import RepairQueue, apply_request, review

    queue = RepairQueue(str(tmp_path / "q.db"))
    try:
        case = load_case(TRAVEL)
        r = queue.submit(case, ["m3"], diagnosed_by="d", objective="answer",
                         store_target={"to": "langgraph", "store": "dgrr_no_such_module:store"})
        queue.claim(r.id, reviewer="ana")
        model = policy("says-window", "Lin prefers WINDOW seats!", {"answer"})
        result = repair(case, plan_case(case), model=model)
        review(queue, r.id, reviewer="ana", decision="approve", result=result,
               acknowledged=["s10:m3"])
        # a newer approval of the same result, recorded by a tool that skipped the check,
        # is the one honoured: it acknowledged nothing
        inputs, outputs = approval_hashes(plan_case(case), result)
        queue.approvals.add(case_id=case.case_id, reviewer="bo", decision="approve",
                            inputs_sha256=inputs, outputs_sha256=outputs, model=model)
        held = queue.take_approved(worker="w1")
        failed = apply_request(queue, held, worker="w1")
        assert failed.status == "failed"
        assert "did not acknowledge" in failed.error and "nothing written" in failed.error
    finally:
        queue.close()


@rule("approval.carriers-acknowledged")
def test_record_decision_takes_the_carriers_the_reviewer_was_shown(tmp_path, policy):
    """`carrier_ids` (what the Approve page's summary found) saves the second check; the
    rule is the same."""
    from repair_core.approvals import (
        CarriersNotAcknowledgedError,
        approval_summary,
        record_decision,
    )

    case = load_case(TRAVEL)
    plan = plan_case(case, objective="answer")
    result = repair(case, plan, model=policy("says-window", "Lin prefers WINDOW seats!",
                                             {"answer"}))
    shown = approval_summary(plan, result).carriers
    assert shown == ["s10:m3"]
    store = ApprovalStore(str(tmp_path / "a.db"))
    with pytest.raises(CarriersNotAcknowledgedError, match="s10:m3: not acknowledged"):
        record_decision(store, plan, reviewer="ana", decision="approve", result=result,
                        carrier_ids=shown, recompute=replay_again)
    rec = record_decision(store, plan, reviewer="ana", decision="approve", result=result,
                          carrier_ids=shown, acknowledged=shown, recompute=replay_again)
    assert rec.acknowledged == ["s10:m3"]


@rule("approval.carriers-cover-result")
@pytest.mark.parametrize("as_json", [False, True])
def test_record_decision_refuses_carriers_given_that_leave_out_one_the_result_names(
        tmp_path, policy, monkeypatch, as_json):
    """A caller's `carrier_ids` is not trusted to cover the result: every carrier the
    result's own verification names must be acknowledged, read from the result (no second
    content check: the scan is made to fail here). Nothing is recorded by a refusal; a
    rejection still needs no acknowledgement."""
    import repair_core.verification as verification
    from repair_core.approvals import CarriersNotAcknowledgedError, record_decision

    case = load_case(TRAVEL)
    plan = plan_case(case, objective="answer")
    result = repair(case, plan, model=policy("says-window", "Lin prefers WINDOW seats!",
                                             {"answer"}))
    assert [c.id for c in result.verification.carriers] == ["s10:m3"]
    given = json.loads(result.model_dump_json()) if as_json else result

    def no_scan(*args, **kwargs):
        raise AssertionError("record_decision re-ran the content check")

    monkeypatch.setattr(verification, "verify_result", no_scan)
    store = ApprovalStore(str(tmp_path / "a.db"))
    for shown in ([], ["s99:m3"]):  # none, or another one, "shown" to the reviewer
        with pytest.raises(CarriersNotAcknowledgedError) as refused:
            record_decision(store, plan, reviewer="ana", decision="approve", result=given,
                            carrier_ids=shown, acknowledged=shown, recompute=replay_again)
        assert "s10:m3: not acknowledged" in str(refused.value)
        assert "the result names it as a carrier" in str(refused.value)
        assert [_id(c) for c in refused.value.missing] == ["s10:m3"]
    assert store.history() == []
    rec = record_decision(store, plan, reviewer="ana", decision="approve", result=given,
                          carrier_ids=[], acknowledged=["s10:m3"], recompute=replay_again)
    assert rec.acknowledged == ["s10:m3"]
    rejected = record_decision(store, plan, reviewer="bo", decision="reject", result=given,
                               comment="the answer still says window", carrier_ids=[],
                               recompute=replay_again)
    assert rejected.decision == "reject" and rejected.acknowledged == []
    assert [r.id for r in store.history()] == [rejected.id, rec.id]


def _window_answer(policy):
    """The travel case planned for its answer and repaired by a model whose answer still
    says the window seat (carrier `s10:m3`): the case, the plan and the result as JSON."""
    case = load_case(TRAVEL)
    plan = plan_case(case, objective="answer")
    return case, plan, json.loads(repair(case, plan, model=policy(
        "says-window", "Lin prefers WINDOW seats!", {"answer"})).model_dump_json())


@rule("approval.carriers-cover-result")
def test_a_fault_check_naming_a_carrier_counts_too(tmp_path, policy):
    """A result whose carrier list was emptied still names the carrier in its per-fault
    check: that is enough to require the acknowledgement."""
    from repair_core.approvals import CarriersNotAcknowledgedError, record_decision

    case, plan, data = _window_answer(policy)
    data["verification"]["carriers"] = []
    assert ["s10:m3"] in [f["carriers"] for f in data["verification"]["faults"]]
    store = ApprovalStore(str(tmp_path / "a.db"))
    with pytest.raises(CarriersNotAcknowledgedError, match="s10:m3: not acknowledged"):
        record_decision(store, plan, reviewer="ana", decision="approve", result=data,
                        carrier_ids=[], recompute=replay_again)
    assert store.history() == []


@rule("approval.carriers-cover-result")
def test_the_queue_decision_cannot_pass_a_short_list_of_carriers(tmp_path, policy):
    from repair_core.approvals import CarriersNotAcknowledgedError
    from repair_core.queue import RepairQueue, review

    queue = RepairQueue(str(tmp_path / "q.db"))
    try:
        case = load_case(TRAVEL)
        r = queue.submit(case, ["m3"], diagnosed_by="d", objective="answer")
        queue.claim(r.id, reviewer="ana")
        result = repair(case, plan_case(case), model=policy(
            "says-window", "Lin prefers WINDOW seats!", {"answer"}))
        with pytest.raises(CarriersNotAcknowledgedError, match="s10:m3: not acknowledged"):
            review(queue, r.id, reviewer="ana", decision="approve", result=result,
                   carrier_ids=[], acknowledged=[])
        assert queue.get(r.id).status == "claimed" and queue.approvals.history() == []
        done = review(queue, r.id, reviewer="ana", decision="approve", result=result,
                      carrier_ids=[], acknowledged=["s10:m3"])
        assert done.status == "approved"
    finally:
        queue.close()


def _id(carrier) -> str:
    return carrier if isinstance(carrier, str) else carrier.id


@rule("approval.carriers-cover-result")
def test_the_summary_shows_a_carrier_the_result_names_that_a_fresh_check_misses(tmp_path,
                                                                               policy):
    """The Approve page acknowledges what the summary lists: a carrier only the result's
    own verification names is listed there too, so the page's approval can cover it."""
    from repair_core.approvals import (
        CarriersNotAcknowledgedError,
        approval_summary,
        record_decision,
        result_carriers,
    )

    case, plan, data = _window_answer(policy)
    extra = {**data["verification"]["carriers"][0], "id": "m1:m3", "kind": "record",
             "where": "m1"}
    data["verification"]["carriers"].append(extra)
    assert [c.id for c in result_carriers(case, data, plan)] == ["s10:m3"]
    summary = approval_summary(plan, data)
    assert summary.carriers == ["s10:m3", "m1:m3"]
    assert [c.id for c in summary.carrier_details] == summary.carriers
    store = ApprovalStore(str(tmp_path / "a.db"))
    with pytest.raises(CarriersNotAcknowledgedError, match="m1:m3: not acknowledged"):
        record_decision(store, plan, reviewer="ana", decision="approve", result=data,
                        carrier_ids=summary.carriers, acknowledged=["s10:m3"],
                        recompute=replay_again)
    rec = record_decision(store, plan, reviewer="ana", decision="approve", result=data,
                          carrier_ids=summary.carriers, acknowledged=summary.carriers,
                          recompute=replay_again)
    assert rec.acknowledged == ["m1:m3", "s10:m3"]


@rule("approval.carriers-cover-result")
def test_the_summary_lists_a_carrier_the_result_names_only_by_id(tmp_path, policy):
    """A carrier named in a fault's check alone, or in a form this dgrr does not read (a
    kind it does not know), has no details: the summary still lists its id, a group of
    its own holds it, and acknowledging every group's carriers is what the approval
    needs, no more and no less."""
    from repair_core.approvals import (
        CARRIER_WARNING,
        CarriersNotAcknowledgedError,
        approval_summary,
        carrier_groups,
        record_decision,
    )

    case, plan, data = _window_answer(policy)
    [check] = [f for f in data["verification"]["faults"] if f["node"] == "m3"]
    check["carriers"].append("m1:m3")
    data["verification"]["carriers"].append({"id": "tool:m3", "kind": "tool call"})
    summary = approval_summary(plan, data)
    assert summary.carriers == ["s10:m3", "tool:m3", "m1:m3"]
    assert [c.id for c in summary.carrier_details] == ["s10:m3"]
    assert [w.split(" — ")[0] for w in summary.warnings if w.startswith(CARRIER_WARNING)
            ][1:] == [f"{CARRIER_WARNING} (id tool:m3)", f"{CARRIER_WARNING} (id m1:m3)"]
    groups = carrier_groups(summary.carrier_details, summary.carriers)
    assert [(g, [_id(c) for c in cs]) for g, cs in groups] == [
        ("Carries fault m3: 1 answer", ["s10:m3"]),
        ("Carries fault: 2 carriers known only by id", ["tool:m3", "m1:m3"])]
    store = ApprovalStore(str(tmp_path / "a.db"))
    with pytest.raises(CarriersNotAcknowledgedError, match="m1:m3: not acknowledged"):
        record_decision(store, plan, reviewer="ana", decision="approve", result=data,
                        carrier_ids=summary.carriers, acknowledged=["s10:m3", "tool:m3"],
                        recompute=replay_again)
    assert store.history() == []
    every = [_id(c) for _, cs in groups for c in cs]
    rec = record_decision(store, plan, reviewer="ana", decision="approve", result=data,
                          carrier_ids=summary.carriers, acknowledged=every, recompute=replay_again)
    assert sorted(rec.acknowledged) == ["m1:m3", "s10:m3", "tool:m3"]


@rule("bench.store-judged-by-world")
def test_the_benchmark_judges_the_store_by_the_world_not_by_dgrrs_own_check():
    """A copy of a fault that states none of the case's forbidden facts is what dgrr's
    content check finds, and what the benchmark's store metric must not count: the fault
    m11 ("Diego flies economy ...") led to the forbidden booking values but states none.
    m11 itself counts all the same: the world injected it (`eval.fault_types`)."""
    from repair_core.bench._runner import evaluate

    case, _, copy = copy_of_m11()
    planted = case.model_copy(update={"memory": [*case.memory, copy]})
    r = evaluate(planted, "no_repair")
    assert {"m11", "m_copy"} <= set(r.store_signature_matches)
    assert "m_copy" not in r.store_carriers and "m11" in r.store_carriers
    assert r.store_carries_fault is True
    r = evaluate(planted, "delete_retrieved")  # keeps m11, which states no forbidden fact
    assert r.store_carries_fault is True and r.store_carriers == ["m11"]
    unjudged = world_without(planted, "judge")
    r = evaluate(unjudged, "no_repair")  # no judge, but the world's fault labels
    assert r.store_carries_fault is True and "m_copy" not in r.store_carriers
    unlabelled = world_without(planted, "judge", "labels")
    r = evaluate(unlabelled, "no_repair")
    assert r.store_carries_fault is None and r.store_carriers == []
    assert "m_copy" in r.store_signature_matches

