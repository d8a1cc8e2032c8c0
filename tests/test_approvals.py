"""The append-only approvals store and `dgrr approve` / `dgrr history`."""

from __future__ import annotations

import json
import sqlite3

import pytest
from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from repair_core import DgrrError, apply_edits, load_example, plan_case
from repair_core.approvals import (
    AppendOnlyError,
    ApprovalStore,
    approval_hashes,
    db_url,
    markdown_report,
    record_decision,
    repaired_store,
    repaired_trajectory,
)
from repair_core.approvals._store import _ApprovalRow
from repair_core.cli import main
from repair_core.replay import replay_again

FIXTURE = "repair_core/fixtures/figure1-travel.json"


@pytest.fixture
def store(tmp_path):
    s = ApprovalStore(str(tmp_path / "a.db"))
    yield s
    s.close()


def test_records_everything_a_reviewer_signs(store):
    plan = apply_edits(plan_case(load_example()), {"s11": "replay"}, comment="re-learn it")
    rec = record_decision(store, plan, reviewer="ana", decision="approve", comment="ok",
                          recompute=None)
    assert rec.case_id == "fig1-travel" and rec.reviewer == "ana" and rec.decision == "approve"
    assert rec.plan_edits == [{"node": "s11", "action": "replay", "before": "invalidate",
                               "comment": "re-learn it"}]
    inputs, outputs = approval_hashes(plan)
    assert (rec.inputs_sha256, rec.outputs_sha256) == (inputs, outputs)
    assert rec.created_at.tzinfo is not None
    [again] = ApprovalStore(store.url).history()  # persisted, readable by a new store
    assert again == rec


def test_hashes_change_with_edits_and_results():
    plan = plan_case(load_example())
    edited = apply_edits(plan, {"s11": "replay"})
    assert approval_hashes(plan)[0] != approval_hashes(edited)[0]
    assert approval_hashes(plan)[1] != approval_hashes(edited)[1]
    assert approval_hashes(plan, {"answer": "a"})[1] != approval_hashes(plan, {"answer": "b"})[1]
    assert approval_hashes(plan) == approval_hashes(plan_case(load_example()))


def test_history_is_newest_first_and_filters_by_case(store):
    h = "a" * 64
    for i, case in enumerate(["c1", "c2", "c1"]):
        store.add(case_id=case, reviewer=f"r{i}", decision="approve", inputs_sha256=h,
                  outputs_sha256=h)
    assert [r.reviewer for r in store.history()] == ["r2", "r1", "r0"]
    assert [r.reviewer for r in store.history(case_id="c1")] == ["r2", "r0"]
    assert len(store.history(limit=1)) == 1


def test_orm_update_and_delete_are_refused(store):
    h = "a" * 64
    store.add(case_id="c", reviewer="ana", decision="approve", inputs_sha256=h, outputs_sha256=h)
    with Session(store.engine) as s:
        row = s.get(_ApprovalRow, 1)
        row.decision = "reject"
        with pytest.raises(AppendOnlyError):
            s.commit()
    with Session(store.engine) as s:
        s.delete(s.get(_ApprovalRow, 1))
        with pytest.raises(AppendOnlyError):
            s.commit()
    with Session(store.engine) as s, pytest.raises(AppendOnlyError):
        s.execute(update(_ApprovalRow).values(decision="reject"))
    with Session(store.engine) as s, pytest.raises(AppendOnlyError):
        s.execute(delete(_ApprovalRow))
    assert [r.decision for r in store.history()] == ["approve"]


def test_raw_sql_cannot_rewrite_history(store):
    h = "a" * 64
    store.add(case_id="c", reviewer="ana", decision="approve", inputs_sha256=h, outputs_sha256=h)
    path = store.url.removeprefix("sqlite:///")
    con = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("UPDATE dgrr_approvals SET decision='reject'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("DELETE FROM dgrr_approvals")
    con.close()
    assert len(store.history()) == 1


def test_bad_decisions_are_refused_with_field_names(store):
    with pytest.raises(DgrrError) as err:
        store.add(case_id="c", reviewer=" ", decision="maybe", inputs_sha256="x",
                  outputs_sha256="a" * 64)
    msg = str(err.value)
    assert "reviewer:" in msg and "decision: expected 'approve' or 'reject', got 'maybe'" in msg
    assert "inputs_sha256:" in msg
    assert store.history() == []  # nothing half-written


def test_forced_edits_need_a_comment(store):
    plan = apply_edits(plan_case(load_example()), {"s3": "keep"}, force=True, comment="test")
    with pytest.raises(DgrrError, match="comment"):
        record_decision(store, plan, reviewer="ana", decision="approve", recompute=None)
    rec = record_decision(store, plan, reviewer="ana", decision="approve", comment="I checked",
                          recompute=None)
    assert rec.forced


def test_db_url_from_env(monkeypatch, tmp_path):
    monkeypatch.setenv("DGRR_DB", str(tmp_path / "x.db"))
    assert db_url() == f"sqlite:///{tmp_path / 'x.db'}"
    assert db_url("postgresql://u@h/db") == "postgresql://u@h/db"
    with pytest.raises(DgrrError, match="--db"):
        ApprovalStore("nosuchdialect://x")


def test_exports_and_markdown_before_replay(store):
    plan = plan_case(load_example())
    st = repaired_store(plan)
    assert {m["id"] for m in st["active"]} == {"m1", "m2", "m4", "m5", "m8"}
    assert [m["id"] for m in st["quarantine"]] == ["m6"]
    traj = repaired_trajectory(plan)
    assert {s["id"]: s["action"] for s in traj["steps"]}["s7"] == "refresh"
    rec = record_decision(store, plan, reviewer="ana", decision="reject", comment="a | b",
                          recompute=None)
    md = markdown_report(plan, approvals=[rec])
    assert "# Repair report — case `fig1-travel`" in md
    assert "| m6 | quarantine |" in md and "(not replayed yet)" in md
    assert "| ana | reject | a \\| b |" in md


def test_markdown_uses_result():
    plan = plan_case(load_example())
    result = {"answer": "Booked JL1 aisle seat", "store": {"active": [], "quarantine": []},
              "cost": {"llm_calls": 3, "tokens": 120, "replay_ratio": 0.5},
              "report": {"irreversible_effects": [{"step": "s6", "tool": "pay"}]}}
    md = markdown_report(plan, result)
    assert "corrected: Booked JL1 aisle seat" in md and "3 model calls, 120 tokens" in md
    assert "Irreversible effects" in md
    assert repaired_store(plan, result) == {"active": [], "quarantine": []}


def test_cli_approve_and_history(tmp_path, capsys):
    db = str(tmp_path / "cli.db")
    edits = tmp_path / "edits.json"
    edits.write_text(json.dumps({"edits": {"s11": "replay"}}))
    assert main(["approve", FIXTURE, "--reviewer", "ana", "--decision", "approve",
                 "--comment", "fine", "--plan", str(edits), "--db", db]) == 0
    assert "recorded #1: approve of case 'fig1-travel' by ana (1 plan edit)" in \
        capsys.readouterr().out
    assert main(["history", "--db", db, "--json"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert row["reviewer"] == "ana" and row["plan_edits"][0]["node"] == "s11"
    assert main(["history", "--db", db, "--case", "other"]) == 0
    assert "no approvals recorded for case 'other'" in capsys.readouterr().out


def test_cli_refuses_invariant_breaking_edit_without_force(tmp_path, capsys):
    db = str(tmp_path / "cli.db")
    edits = tmp_path / "edits.json"
    edits.write_text(json.dumps({"edits": {"s3": "keep"}}))
    args = ["approve", FIXTURE, "--reviewer", "bo", "--decision", "approve",
            "--plan", str(edits), "--db", db]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "s3: is affected with no independent support" in err and "Traceback" not in err
    assert main([*args, "--force"]) == 2  # forced needs a comment
    assert "comment" in capsys.readouterr().err
    assert main([*args, "--force", "--comment", "audited by hand"]) == 0
    capsys.readouterr()
    assert main(["history", "--db", db]) == 0
    assert "audited by hand" in capsys.readouterr().out


def test_cli_bad_plan_file(tmp_path, capsys):
    bad = tmp_path / "p.json"
    bad.write_text("{nope")
    assert main(["approve", FIXTURE, "--reviewer", "a", "--decision", "approve",
                 "--plan", str(bad), "--db", str(tmp_path / "d.db")]) == 2
    assert "--plan:" in capsys.readouterr().err


def test_cli_and_library_sign_the_same_replay_result(tmp_path, capsys):
    from repair_core import repair

    case = load_example()
    plan = plan_case(case)
    result = repair(case, plan)
    path = tmp_path / "result.json"
    path.write_text(json.dumps(result.model_dump(mode="json")))
    db = str(tmp_path / "same.db")
    assert main(["approve", FIXTURE, "--reviewer", "cli", "--decision", "approve",
                 "--result", str(path), "--db", db]) == 0
    [rec] = ApprovalStore(db).history()
    assert (rec.inputs_sha256, rec.outputs_sha256) == approval_hashes(plan, result)
    assert rec.model == "dgrr/reference"


def _result_file(tmp_path, case_path=None, edits=None, name="result.json"):
    from repair_core import load_case, repair

    case = load_example() if case_path is None else load_case(case_path)
    plan = plan_case(case)
    if edits:
        plan = apply_edits(plan, edits)
    result = repair(case, plan)
    path = tmp_path / name
    path.write_text(json.dumps(result.model_dump(mode="json")))
    return path, plan, result


def test_cli_refuses_a_result_of_another_case(tmp_path, capsys):
    path, _, _ = _result_file(tmp_path, "sample_traces/shop-summary-drift.json")
    db = str(tmp_path / "x.db")
    assert main(["approve", FIXTURE, "--reviewer", "ana", "--decision", "approve",
                 "--result", str(path), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "not the repair of this case and plan" in err and "Traceback" not in err
    assert "repairs case 'shop-summary-drift', not 'fig1-travel'" in err
    assert ApprovalStore(db).history() == []


def test_cli_refuses_a_result_of_another_plan(tmp_path, capsys):
    path, _, _ = _result_file(tmp_path)  # replayed from the computed plan
    edits = tmp_path / "edits.json"
    edits.write_text(json.dumps({"edits": {"s11": "replay"}}))
    db = str(tmp_path / "x.db")
    args = ["approve", FIXTURE, "--reviewer", "ana", "--decision", "approve",
            "--result", str(path), "--db", db]
    assert main([*args, "--plan", str(edits)]) == 2
    err = capsys.readouterr().err
    assert "replayed from another plan" in err and "s11: plan replay, result invalidate" in err
    assert ApprovalStore(db).history() == []
    # The matching pair is accepted.
    edited_path, _, _ = _result_file(tmp_path, edits={"s11": "replay"}, name="edited.json")
    assert main([*args[:-4], "--result", str(edited_path), "--db", db, "--plan", str(edits)]) == 0


def test_one_reviewer_records_one_decision_per_repair(store, tmp_path, capsys):
    from repair_core.approvals import DuplicateApprovalError

    _, plan, result = _result_file(tmp_path)
    first = record_decision(store, plan, reviewer="ana", decision="approve", result=result,
                            recompute=replay_again)
    with pytest.raises(DuplicateApprovalError, match=f"already recorded: #{first.id}"):
        record_decision(store, plan, reviewer="ana", decision="approve", result=result,
                        recompute=replay_again)
    with pytest.raises(DuplicateApprovalError):  # changing one's mind is not a second click
        record_decision(store, plan, reviewer=" ana ", decision="reject", comment="no",
                        result=result, recompute=replay_again)
    record_decision(store, plan, reviewer="bo", decision="approve", result=result,
                    recompute=replay_again)
    edited = apply_edits(plan, {"s11": "replay"})
    record_decision(store, edited, reviewer="ana", decision="approve",
                    recompute=None)  # another plan
    assert [r.reviewer for r in store.history()] == ["ana", "bo", "ana"]
    # The CLI refuses the same way, with exit 2.
    path = tmp_path / "result.json"
    args = ["approve", FIXTURE, "--reviewer", "cy", "--decision", "approve",
            "--result", str(path), "--db", store.url]
    assert main(args) == 0
    assert main(args) == 2
    assert "already recorded" in capsys.readouterr().err
    assert len(store.history()) == 4


def test_a_rejection_needs_a_reason(store):
    plan = plan_case(load_example())
    with pytest.raises(DgrrError, match="a rejection needs a reason"):
        record_decision(store, plan, reviewer="ana", decision="reject", comment="  ",
                        recompute=None)
    assert store.history() == []


def test_summary_says_what_is_approved(tmp_path):
    from repair_core.approvals import approval_summary

    _, plan, result = _result_file(tmp_path)
    s = approval_summary(plan, result)
    assert s.replayed and s.answer_before == load_example().final_answer().text
    assert s.answer_after == result.answer and "aisle" in s.answer_after
    changes = result.report.store_changes
    assert s.store.get("deleted") == changes.deleted == ["m3"]
    assert s.store.get("quarantined") == changes.quarantined
    by_outcome: dict[str, list[str]] = {}
    for o in result.report.steps:
        if o.outcome != "kept":
            by_outcome.setdefault(o.outcome, []).append(o.id)
    assert s.steps == by_outcome and set(s.steps.get("replayed", [])) <= plan.replay_set
    assert s.warnings == []  # a clean replay: nothing to acknowledge
    # The JSON form reads the same, and report fields are read when present.
    data = result.model_dump(mode="json")
    assert approval_summary(plan, data) == s
    data["report"]["failures"] = [{"step": "s9", "stage": "answer", "error": "timeout"}]
    data["report"]["needs_observation"] = [{"step": "s5", "tool": "search_flights",
                                            "args": {"to": "Tokyo"}, "reason": "no tool"}]
    data["report"]["irreversible_effects"] = [{"step": "s6", "tool": "pay",
                                               "args": {"eur": 420}, "effect": "charged"}]
    data["answer"] = None
    w = approval_summary(plan, data).warnings
    assert len(w) == 4
    assert any("could not be generated" in x for x in w)
    assert any(x.startswith("Failed step — step s9") and "timeout" in x for x in w)
    assert any("search_flights" in x and "Tokyo" in x for x in w)
    assert approval_summary(plan, data).irreversible_effects == [
        'step s6: pay({"eur": 420}): charged']
    # An older result without the field still reads.
    del data["report"]["irreversible_effects"]
    assert approval_summary(plan, data).irreversible_effects == []


def test_summary_before_a_replay_warns_and_lists_the_plan():
    from repair_core.approvals import approval_summary

    plan = plan_case(load_example())
    s = approval_summary(plan)
    assert not s.replayed and s.answer_after is None
    assert s.store["deleted"] == ["m3"] and s.store["quarantined"] == ["m6"]
    assert sorted(s.steps["replayed"] + s.steps["refreshed"]) == sorted(plan.replay_set)
    assert any("not been replayed" in w for w in s.warnings)


def test_a_result_without_decisions_is_refused(store, tmp_path):
    from repair_core.approvals import ResultMismatchError

    _, plan, result = _result_file(tmp_path)
    data = result.model_dump(mode="json")
    data["report"]["decisions"] = []
    with pytest.raises(ResultMismatchError, match="lists no decisions"):
        record_decision(store, plan, reviewer="ana", decision="approve", result=data,
                        recompute=replay_again)
    assert store.history() == []


def test_two_writers_recording_the_same_decision_at_once_record_one(tmp_path):
    # a double click on the dashboard runs Record twice, each run with its own check of
    # what is already recorded; the check and the append are one step under the write lock
    import threading

    plan = plan_case(load_example())
    path = str(tmp_path / "race.db")
    stores = [ApprovalStore(path) for _ in range(4)]
    hashes = approval_hashes(plan)
    start = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def record(s: ApprovalStore) -> None:
        start.wait()
        try:
            record_decision(s, plan, reviewer="Ana Reviewer", decision="approve",
                            comment="checked", hashes=hashes, recompute=None)
            outcomes.append("recorded")
        except DgrrError as exc:
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=record, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["DuplicateApprovalError"] * 3 + ["recorded"], outcomes
    assert [r.id for r in stores[0].history(case_id=plan.case.case_id)] == [1]
    for s in stores:
        s.close()
