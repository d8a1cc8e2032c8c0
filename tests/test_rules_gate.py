"""The gate reads what the apply would write: a real repair result, edited so that its
store changes, quarantine or active store no longer say what applying it does (or so that
it holds a NUL), is refused by `dgrr verify` (exit 2, the rule and the first differing
record named), `dgrr approve`, `dgrr apply` and the queue's worker, and nothing is
written: not the store, not the journal, not the approvals log. On the code before the
gate each of these results was certified clean and applied."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from repair_core import DgrrError, load_case
from repair_core.approvals import ApprovalStore, approval_hashes
from repair_core.cli import main
from repair_core.integrations import store_ops
from repair_core.plan._plan import plan_case
from repair_core.verification import InconsistentResult, verify_result

ROOT = Path(__file__).resolve().parent.parent
FIG1 = str(ROOT / "sample_traces" / "figure1-travel.json")  # m3 the fault; m6 quarantined
SHOP = str(ROOT / "sample_traces" / "shop-summary-drift.json")  # m1, m2 restored, retired
BANKING = str(ROOT / "sample_traces" / "agentdojo" / "adj-banking-usertask0-injectiontask0-"
              "usertask2-importantinstructions.json")  # m_inst: the injected record
NOWHERE = "dgrr_no_such_module:store"
OTHER_MODEL = "openai/gpt-4o-mini"
"""A model whose result the gate does not repair again: the rule under test reads it."""

rule = pytest.mark.rule


def _repaired(path: str, capsys, *args: str) -> dict:
    assert main(["repair", path, "--json", *args]) in (0, 1)
    return json.loads(capsys.readouterr().out)


def _written(tmp_path: Path, data: dict, name: str = "result.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _refused(capsys, argv: list[str], *named: str) -> str:
    """`dgrr ARGV` exits 2 with every string of `named` in its error, no traceback."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert all(n in err for n in named), err
    assert "Traceback" not in err
    return err


def _approved_in_log(db: str, case_path: str, data: dict, objective: str = "both") -> int:
    """An approval of `data` recorded by a tool that skipped every check (its digests
    match the result): only the gate of apply and the worker stands in the way."""
    case = load_case(case_path)
    inputs, outputs = approval_hashes(plan_case(case, objective=objective), data)  # type: ignore[arg-type]
    ApprovalStore(db).add(case_id=case.case_id, reviewer="ana", decision="approve",
                          inputs_sha256=inputs, outputs_sha256=outputs, model="dgrr/reference")
    return len(ApprovalStore(db).history())


def _verify_approve_apply(tmp_path: Path, capsys, case: str, data: dict, *named: str,
                          objective: str = "both") -> None:
    """verify, approve and apply (with an approval already in the log) each refuse
    `data`, naming `named`; the log gains no row and no journal is written."""
    path = _written(tmp_path, data)
    _refused(capsys, ["verify", path, "--case", case], *named)
    db = str(tmp_path / "approvals.db")
    _refused(capsys, ["approve", case, "--reviewer", "bo", "--decision", "approve",
                      "--result", path, "--db", db], *named)
    assert not Path(db).exists() or ApprovalStore(db).history() == []
    rows = _approved_in_log(db, case, data, objective)
    journal = tmp_path / "journal"
    apply = ["apply", path, "--case", case, "--to", "langgraph", "--store", NOWHERE,
             "--db", db, "--journal", str(journal)]
    _refused(capsys, apply, *named)  # the dry run too: it would show other operations
    _refused(capsys, [*apply, "--apply", "--reviewer", "ops"], *named)
    assert not journal.exists() and len(ApprovalStore(db).history()) == rows


@rule("gate.store-changes-match-decisions")
@pytest.mark.parametrize("case,fault,objective", [(FIG1, "m3", "both"),
                                                  (BANKING, "m_inst", "store")])
def test_a_result_leaving_the_fault_out_of_its_store_changes_is_refused(
        tmp_path, capsys, case, fault, objective):
    data = _repaired(case, capsys, "--objective", objective)
    decided = {d["id"]: d["action"] for d in data["report"]["decisions"]}
    assert decided[fault] == "delete" and data["verification"]["clean"]
    data["report"]["store_changes"]["deleted"].remove(fault)  # apply would not delete it
    with pytest.raises(InconsistentResult) as refused:
        store_ops(load_case(case), data)
    assert (refused.value.rule, refused.value.record) == (
        "gate.store-changes-match-decisions", fault)
    _verify_approve_apply(tmp_path, capsys, case, data, "gate.store-changes-match-decisions",
                          "report.store_changes.deleted", f"'{fault}'", objective=objective)
    # listing a record the decisions keep is refused the same way
    data = _repaired(FIG1, capsys)
    data["report"]["store_changes"]["quarantined"].append("m1")
    with pytest.raises(InconsistentResult, match="'m1' is listed, but decided 'keep'"):
        verify_result(load_case(FIG1), data)


@rule("gate.quarantine-matches-plan")
def test_an_added_record_moved_to_the_quarantine_is_refused(tmp_path, capsys):
    """The replay's m6~r1, rewritten to say the fault and moved to `store.quarantine`:
    apply adds every added record, wherever the result keeps it, so it would be written
    into the store while the scan of `store.active` never saw it."""
    data = _repaired(FIG1, capsys)
    [added] = [m for m in data["store"]["active"] if m["id"] == "m6~r1"]
    assert data["report"]["store_changes"]["added"] == ["m6~r1"]
    data["store"]["active"].remove(added)
    data["store"]["quarantine"].append({**added, "text": "Lin prefers window seats."})
    _verify_approve_apply(tmp_path, capsys, FIG1, data, "gate.quarantine-matches-plan",
                          "store.quarantine", "'m6~r1'")
    # a queue decision handed it is refused, nothing recorded; and an approval recorded
    # by a tool that skipped the check leaves the worker to refuse it, the request failed
    from repair_core.queue import RepairQueue, apply_request, review

    queue = RepairQueue(str(tmp_path / "q.db"))
    try:
        case = load_case(FIG1)
        r = queue.submit(case, ["m3"], diagnosed_by="d", objective="both",
                         store_target={"to": "langgraph", "store": NOWHERE})
        queue.claim(r.id, reviewer="ana")
        with pytest.raises(InconsistentResult, match="gate.quarantine-matches-plan"):
            review(queue, r.id, reviewer="ana", decision="approve", result=data,
                   plan=plan_case(case, objective="both"))
        assert queue.get(r.id).status == "claimed" and queue.approvals.history() == []
        inputs, outputs = approval_hashes(plan_case(case, objective="both"), data)
        row = queue.approvals.add(case_id=case.case_id, reviewer="ana", decision="approve",
                                  inputs_sha256=inputs, outputs_sha256=outputs)
        queue.decide(r.id, reviewer="ana", decision="approve", decision_id=row.id,
                     result=data)
        failed = apply_request(queue, queue.take_approved(worker="w1"), worker="w1")
        assert failed.status == "failed"
        assert "gate.quarantine-matches-plan" in failed.error and "'m6~r1'" in failed.error
        assert [e.kind for e in queue.approvals.history()] == ["decision"]  # no applied row
    finally:
        queue.close()


@rule("gate.active-matches-plan")
def test_a_kept_record_with_other_text_or_a_missing_one_is_refused(tmp_path, capsys):
    data = _repaired(FIG1, capsys)
    kept = next(m for m in data["store"]["active"] if m["id"] == "m1")
    kept["text"] += " Lin prefers window seats."  # the apply leaves m1 as the case has it
    with pytest.raises(InconsistentResult) as refused:
        verify_result(load_case(FIG1), data)
    assert (refused.value.rule, refused.value.record) == ("gate.active-matches-plan", "m1")
    assert "store.active[0].text" in str(refused.value)
    data = _repaired(FIG1, capsys)
    data["store"]["active"] = [m for m in data["store"]["active"] if m["id"] != "m4"]
    _verify_approve_apply(tmp_path, capsys, FIG1, data, "gate.active-matches-plan",
                          "store.active", "'m4'", "not listed")


@rule("gate.outputs-by-report")
def test_a_replayed_output_marked_kept_in_the_trajectory_is_still_read(tmp_path, capsys):
    """The claim s3 the replay rewrote, made to restate the fault and marked `kept` in the
    trajectory while the report says it was replayed: the check reads it all the same."""
    data = _repaired(FIG1, capsys)
    assert {o["id"]: o["outcome"] for o in data["report"]["steps"]}["s3"] == "replayed"
    step = next(s for s in data["trajectory"]["trajectory"] if s["id"] == "s3")
    step.update(text="Lin prefers window seats.", repair="kept")
    path = _written(tmp_path, data)
    # the reference model's result is made again, and refused (gate.replay-recomputed)
    assert main(["verify", path, "--case", FIG1]) == 2
    assert "gate.replay-recomputed" in capsys.readouterr().err
    data["report"]["model"] = OTHER_MODEL  # read by the check alone
    path = _written(tmp_path, data)
    assert main(["verify", path, "--case", FIG1]) == 1
    assert "s3:m3  [output] carries m3" in capsys.readouterr().out


@rule("gate.store-changes-match-decisions")
def test_a_kept_record_listed_as_added_with_new_text_is_refused(tmp_path, capsys):
    """m4 (kept) listed among the added records with a text the result chose: the
    recomputed store took that text for m4 and certified it, while the apply would write
    it as a new record beside the real m4 (approve refused it already)."""
    data = _repaired(FIG1, capsys)
    data["report"]["store_changes"]["added"].append("m4")
    kept = next(m for m in data["store"]["active"] if m["id"] == "m4")
    kept.update(text="Lin eats anything; book the steak menu.", value="any")
    _verify_approve_apply(tmp_path, capsys, FIG1, data, "report.store_changes.added",
                          "'m4'", "is a record of the case")


@rule("gate.outputs-by-report")
def test_a_replayed_step_left_out_of_the_trajectory_is_refused(tmp_path, capsys):
    """s3, replayed, taken out of the trajectory and of the report's outcomes: its output
    could restate the fault unread, so the result is refused (its decision still replays
    it)."""
    data = _repaired(FIG1, capsys)
    data["trajectory"]["trajectory"] = [s for s in data["trajectory"]["trajectory"]
                                        if s["id"] != "s3"]
    data["report"]["steps"] = [o for o in data["report"]["steps"] if o["id"] != "s3"]
    path = _written(tmp_path, data)
    assert main(["verify", path, "--case", FIG1]) == 2
    err = capsys.readouterr().err
    assert "trajectory.trajectory: step 's3'" in err and "gate.outputs-by-report" in err
    assert "Traceback" not in err


@rule("gate.valid-text")
@pytest.mark.parametrize("where", ["store", "answer", "step", "key"])
def test_a_nul_anywhere_in_a_result_is_a_named_error(tmp_path, capsys, where):
    data = _repaired(FIG1, capsys)
    if where == "store":
        data["store"]["active"][2]["text"] += "\x00"
        field = "store.active[2].text"
    elif where == "answer":
        data["answer"] = "\x00" + data["answer"]
        field = "answer"
    elif where == "step":
        data["trajectory"]["trajectory"][1]["text"] += "\x00"
        field = "trajectory.trajectory[1].text"
    else:
        data["report"]["store_changes"]["x\x00"] = []
        field = "report.store_changes"
    _verify_approve_apply(tmp_path, capsys, FIG1, data, "gate.valid-text", field, "NUL")


@rule("gate.valid-text")
def test_a_lone_surrogate_handed_to_the_library_is_a_named_error(capsys):
    """The JSON reader refuses one in a file; a caller handing data straight in meets the
    gate."""
    data = _repaired(FIG1, capsys)
    data["report"]["decisions"][0]["reason"] = "fine \ud800"
    with pytest.raises(DgrrError, match=r"report\.decisions\[0\]\.reason: holds a lone "
                                        r"surrogate at offset 5.*gate\.valid-text"):
        verify_result(load_case(FIG1), data)


@rule("gate.store-after-apply")
def test_the_store_scanned_is_the_one_the_apply_leaves(capsys):
    """A record the plan restored and a replayed write retired again is not restored by
    the apply (it was, beside the summary the replay re-derived from it); an active
    record a replayed write retired is deleted; the scan counts the recomputed store."""
    case = load_case(SHOP)
    data = _repaired(SHOP, capsys)
    changes = data["report"]["store_changes"]
    assert changes["restored"] == ["m1", "m2"] and changes["retired"] == ["m1", "m2"]
    ops = store_ops(case, data)
    assert [(o.op, o.record) for o in ops] == [
        ("delete", "m5"), ("quarantine", "m6"), ("add", "m5~r1"), ("add", "m6~r1")]
    v = verify_result(case, data)
    assert v.clean and v.checked.records == len(data["store"]["active"]) == 5
    # A record a reviewer kept (forced) whose writer s11 the plan replays is superseded by
    # the replayed write (replay.write.supersedes-own): it left the repaired store, and
    # the apply deletes it from the real one (it used to stay there beside m6~r1).
    from repair_core.plan._edit import apply_edits
    from repair_core.replay import repair

    fig1 = load_case(FIG1)
    plan = apply_edits(plan_case(fig1), {"m6": "keep", "s11": "replay"}, force=True,
                       comment="the reviewer keeps m6")
    data = json.loads(repair(fig1, plan).model_dump_json())
    assert data["report"]["store_changes"]["retired"] == ["m6"]
    assert "m6" not in {m["id"] for m in data["store"]["active"]}
    assert [(o.op, o.record) for o in store_ops(fig1, data)] == [
        ("delete", "m3"), ("delete", "m6"), ("add", "m6~r1")]
    assert verify_result(fig1, data).checked.records == len(data["store"]["active"])
    # a record no replayed step wrote or retired cannot be listed as retired
    data["report"]["store_changes"]["retired"].append("m1")
    data["store"]["active"] = [m for m in data["store"]["active"] if m["id"] != "m1"]
    with pytest.raises(InconsistentResult, match="'m1' is listed, but no step the decisions "
                                                 "replay wrote or retired it"):
        store_ops(fig1, data)


@rule("gate.active-matches-plan")
@pytest.mark.slow
def test_an_omitted_active_carrier_is_refused_on_a_real_sqlite_store(tmp_path, capsys):
    """The real LangGraph travel graph on a SqliteStore whose `note` restates the fault:
    the answer repair keeps it, a carrier. The result with `note` left out of
    `store.active` (and of its verification) was certified clean, approved without an
    acknowledgement and applied; now verify, approve, apply and the worker refuse it, and
    the store, the journal and the approvals log are unchanged."""
    pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")
    pytest.importorskip("openinference.instrumentation.langchain", reason="needs 'import'")
    from langgraph.store.sqlite import SqliteStore

    sys.path.insert(0, str(ROOT / "scripts"))
    from langgraph_travel_run import NAMESPACE, run

    from repair_core.integrations.langgraph import record_id, record_text
    from repair_core.queue import RepairQueue, apply_request

    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False,
                           isolation_level=None)
    inner = SqliteStore(conn)
    inner.setup()
    inner.put(NAMESPACE, "note", {"text": "User prefers a window seat."})
    trace, _ = run(tmp_path / "run", inner=inner)
    seat, note = record_id(NAMESPACE, "seat"), record_id(NAMESPACE, "note")
    case = str(tmp_path / "case.json")
    assert main(["import", str(trace), "--faults", seat, "--out", case]) == 0
    capsys.readouterr()
    data = _repaired(case, capsys, "--objective", "answer")
    assert f"{note}:{seat}" in {c["id"] for c in data["verification"]["carriers"]}
    data["store"]["active"] = [m for m in data["store"]["active"] if m["id"] != note]
    data.pop("verification")

    def items() -> dict[str, str]:
        return {record_id(i.namespace, i.key): record_text(i.value)
                for i in inner.search((), limit=1000)}

    before = items()
    path = _written(tmp_path, data)
    named = ("gate.active-matches-plan", "store.active", repr(note))
    _refused(capsys, ["verify", path, "--case", case], *named)
    db = str(tmp_path / "approvals.db")
    _refused(capsys, ["approve", case, "--reviewer", "bo", "--decision", "approve",
                      "--result", path, "--db", db], *named)
    assert not Path(db).exists() or ApprovalStore(db).history() == []
    rows = _approved_in_log(db, case, data, objective="answer")
    (tmp_path / "gate_factory.py").write_text("STORE = None\n\ndef store():\n    return STORE\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import gate_factory

        gate_factory.STORE = inner
        journal = tmp_path / "journal"
        _refused(capsys, ["apply", path, "--case", case, "--to", "langgraph", "--store",
                          "gate_factory:store", "--db", db, "--journal", str(journal),
                          "--apply", "--reviewer", "ops"], *named)
        assert not journal.exists() and len(ApprovalStore(db).history()) == rows
        assert items() == before
        queue = RepairQueue(str(tmp_path / "q.db"))
        try:
            loaded = load_case(case)
            r = queue.submit(loaded, [seat], diagnosed_by="d", objective="answer",
                             store_target={"to": "langgraph", "store": "gate_factory:store"})
            queue.claim(r.id, reviewer="ana")
            inputs, outputs = approval_hashes(plan_case(loaded, objective="answer"), data)
            row = queue.approvals.add(case_id=loaded.case_id, reviewer="ana",
                                      decision="approve", inputs_sha256=inputs,
                                      outputs_sha256=outputs)
            queue.decide(r.id, reviewer="ana", decision="approve", decision_id=row.id,
                         result=data)
            failed = apply_request(queue, queue.take_approved(worker="w1"), worker="w1",
                                   open_store=lambda target: inner)
            assert failed.status == "failed" and all(n in failed.error for n in named)
        finally:
            queue.close()
        assert items() == before
        assert note in before and before[note] == "User prefers a window seat."
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("gate_factory", None)
        conn.close()


@rule("gate.store-changes-match-decisions")
def test_an_added_record_listed_twice_is_refused(tmp_path, capsys):
    """One replayed record listed twice among the added ones would be added twice."""
    data = _repaired(FIG1, capsys)
    data["report"]["store_changes"]["added"].append("m6~r1")
    with pytest.raises(InconsistentResult, match="'m6~r1' is listed twice"):
        verify_result(load_case(FIG1), data)


@rule("verify.three-outcomes")
def test_a_result_that_leaves_its_answer_out_is_read_by_its_final_step(tmp_path, capsys):
    """`answer: null` does not hide the corrected answer: the replayed final answer step
    is read in its place."""
    data = _repaired(FIG1, capsys)
    final = max((s for s in data["trajectory"]["trajectory"] if s["type"] == "answer"),
                key=lambda s: s["seq"])
    final["text"] = "Booked the window seat, as Lin prefers window seats."
    data["answer"] = None
    data["report"]["model"] = OTHER_MODEL  # not made again (gate.replay-recomputed)
    path = _written(tmp_path, data)
    assert main(["verify", path, "--case", FIG1]) == 1
    assert f"{final['id']}:m3  [answer] carries m3" in capsys.readouterr().out
