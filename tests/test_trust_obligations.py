"""Approvals carry their obligations: a result is approved only for what its plan does,
the two-person rule is a signed row of the approvals log that only an administrator
changes, and `apply` and `worker` honour a repair only with enough distinct, signed,
trusted approvals of the same plan and result, no later rejection, a log that holds its
checkpoint, and (with DGRR_REQUIRE_SIGNED=1) a trust file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repair_core import DgrrError, load_case
from repair_core.approvals import ApprovalStore, TrustFile, generate_key, honoured_approval
from repair_core.cli import main
from repair_core.plan._edit import apply_edits
from repair_core.plan._plan import plan_case
from repair_core.queue import RepairQueue, ReviewRule, apply_next, review

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_traces" / "figure1-travel.json"
NOWHERE = {"to": "langgraph", "store": "dgrr_no_such_module:store"}


@pytest.fixture()
def env(tmp_path, monkeypatch):
    """Key folder and trust file of this test only; the repair result of figure 1."""
    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "trust.json"))
    monkeypatch.delenv("DGRR_REQUIRE_SIGNED", raising=False)
    result = tmp_path / "result.json"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["repair", str(FIG1), "--json"]) in (0, 1)
    result.write_text(buf.getvalue())
    return {"tmp": tmp_path, "result": result, "db": str(tmp_path / "approvals.db"),
            "trust": tmp_path / "trust.json"}


def _trust(env, *reviewers: str, admin: tuple[str, ...] = ()) -> TrustFile:
    trust = TrustFile.load(env["trust"], missing_ok=True) or TrustFile(env["trust"], [])
    for who in reviewers:
        trust.add(who, generate_key(who)[0].public_raw, admin=who in admin)
    return trust


def _approve(env, who: str, decision: str = "approve", *extra: str) -> int:
    return main(["approve", str(FIG1), "--reviewer", who, "--decision", decision,
                 "--result", str(env["result"]), "--db", env["db"], *extra])


def _apply(env, *extra: str) -> int:
    return main(["apply", str(env["result"]), "--case", str(FIG1), "--to", "langgraph",
                 "--store", NOWHERE["store"], "--db", env["db"], "--journal",
                 str(env["tmp"] / "journal"), "--apply", "--reviewer", "ops", *extra])


def _rows(db: str) -> int:
    return len(ApprovalStore(db).history())


def test_approve_refuses_a_result_that_deletes_what_its_plan_keeps(env, capsys):
    data = json.loads(env["result"].read_text())
    data["report"]["store_changes"]["deleted"].append("m1")  # the plan keeps m1
    env["result"].write_text(json.dumps(data))
    assert _approve(env, "ana") == 2
    err = capsys.readouterr().err
    assert "store_changes.deleted: 'm1'" in err and "keeps it" in err
    assert "Traceback" not in err
    assert not Path(env["db"]).exists() or _rows(env["db"]) == 0


def test_approve_refuses_a_result_that_replays_a_step_its_plan_keeps(env, capsys):
    data = json.loads(env["result"].read_text())
    kept = next(s for s in data["report"]["steps"] if s["outcome"] == "kept")
    kept["outcome"] = "replayed"
    env["result"].write_text(json.dumps(data))
    assert _approve(env, "ana") == 2
    assert f"report.steps: '{kept['id']}' was replayed, the plan keeps it" in \
        capsys.readouterr().err


def test_apply_refuses_an_approval_recorded_before_the_obligation_check(env, capsys):
    """An approval of an over-reaching result already in the log is not honoured (the
    result says so consistently: its decisions, store changes and store all delete m1)."""
    case = load_case(FIG1)
    data = json.loads(env["result"].read_text())
    data["report"]["store_changes"]["deleted"].append("m1")
    next(d for d in data["report"]["decisions"] if d["id"] == "m1")["action"] = "delete"
    data["store"]["active"] = [m for m in data["store"]["active"] if m["id"] != "m1"]
    env["result"].write_text(json.dumps(data))
    from repair_core.approvals import approval_hashes

    plan = plan_case(case, objective="both")
    inputs, outputs = approval_hashes(plan, data)
    ApprovalStore(env["db"]).add(case_id=case.case_id, reviewer="ana", decision="approve",
                                 inputs_sha256=inputs, outputs_sha256=outputs)
    capsys.readouterr()
    assert _apply(env) == 2
    err = capsys.readouterr().err
    assert "does things its approved plan does not ask for" in err and "'m1'" in err


def test_the_rule_is_changed_only_by_an_administrator_and_every_change_is_logged(env, capsys):
    db = env["db"]
    assert main(["queue", "rule", "--no-limit", "--by", "anyone", "--db", db]) == 2
    assert "not an administrator" in capsys.readouterr().err
    _trust(env, "admin", "ana", admin=("admin",))
    assert main(["queue", "rule", "--no-limit", "--by", "anyone", "--db", db]) == 2
    assert main(["queue", "rule", "--over-ops", "1", "--by", "ana", "--db", db]) == 2
    assert "not an administrator" in capsys.readouterr().err
    assert _rows(db) == 0
    assert main(["queue", "rule", "--over-ops", "1", "--by", "admin", "--db", db]) == 0
    assert "signed by admin" in capsys.readouterr().out
    rows = ApprovalStore(db).history()
    assert [(r.kind, r.reviewer, json.loads(r.comment)["over_ops"]) for r in rows] == [
        ("rule", "admin", 1)]
    assert rows[0].signature
    assert main(["history", "--verify", "--db", db]) == 0
    assert RepairQueue(db).rule() == ReviewRule(over_ops=1)


def test_a_forged_rule_row_is_not_the_rule_and_breaks_verification(env, capsys):
    """A rule row inserted by someone who can write the database but holds no
    administrator's key: not honoured, and the log no longer verifies."""
    _trust(env, "admin", "ana", admin=("admin",))
    store = ApprovalStore(env["db"])
    store.record_rule({"over_ops": 0, "irreversible": True}, reviewer="admin")
    from repair_core.approvals import load_signer

    # ana's row claims to change the rule: her key is trusted, but not as an admin's (the
    # API refuses her; the row is forged below it)
    with pytest.raises(Exception, match="not an administrator"):
        store.record_rule({"over_ops": None}, reviewer="ana")
    store._signer = lambda reviewer, kind, *_: load_signer("ana")  # type: ignore[method-assign]
    store._append(dict(kind="rule", case_id="dgrr:review-rule", reviewer="ana",
                       decision="approve", comment=json.dumps({"over_ops": None}),
                       plan_edits=[], forced=False, inputs_sha256="0" * 64,
                       outputs_sha256="0" * 64, model=None, refers_to=None, target=None))
    assert RepairQueue(env["db"]).rule() == ReviewRule(over_ops=0, irreversible=True)
    assert main(["history", "--verify", "--db", env["db"]]) == 1
    assert "administrator" in capsys.readouterr().err


def test_apply_refuses_one_approval_when_the_rule_needs_two(env, capsys):
    _trust(env, "admin", "ana", "bo", admin=("admin",))
    assert main(["queue", "rule", "--over-ops", "1", "--by", "admin", "--db",
                 env["db"]]) == 0
    assert _approve(env, "ana") == 0
    capsys.readouterr()
    assert _apply(env) == 2  # ana, who approved, applies it herself
    err = capsys.readouterr().err
    assert "asks for 2 distinct reviewers" in err and "holds 1 ('ana')" in err
    assert _approve(env, "bo") == 0
    capsys.readouterr()
    assert _apply(env) == 2
    err = capsys.readouterr().err
    assert "distinct reviewers" not in err and "dgrr_no_such_module" in err  # past the gate


def test_reviewer_names_compare_case_folded(tmp_path, monkeypatch):
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "none.json"))
    store = ApprovalStore("sqlite://")
    for who in ("ana", "Ana "):
        store.add(case_id="c", reviewer=who, decision="approve", inputs_sha256="0" * 64,
                  outputs_sha256="1" * 64)
    standing = honoured_approval(store, "c", lambda r: True, needed=2)
    assert standing.record is None and "holds 1" in str(standing.reason)
    queue = RepairQueue(str(tmp_path / "q.db"))
    r = queue.submit(load_case(FIG1), ["m3"], diagnosed_by="d")
    queue.claim(r.id, reviewer="ana")
    first = review(queue, r.id, reviewer="ana", decision="approve")
    assert first.status == "approved"
    from repair_core.approvals import DuplicateApprovalError, record_decision

    plan = plan_case(load_case(FIG1))
    record_decision(queue.approvals, plan, reviewer="bo", decision="approve", recompute=None)
    with pytest.raises(DuplicateApprovalError):
        record_decision(queue.approvals, plan, reviewer="BO", decision="approve", recompute=None)


def _two_person_queue(env, db: str) -> tuple[RepairQueue, int]:
    _trust(env, "admin", "ana", "bo", admin=("admin",))
    queue = RepairQueue(db)
    queue.set_rule(ReviewRule(over_ops=1), actor="admin")
    r = queue.submit(load_case(FIG1), ["m3"], diagnosed_by="d", objective="both",
                     store_target=NOWHERE)
    queue.claim(r.id, reviewer="ana")
    assert review(queue, r.id, reviewer="ana", decision="approve").status == "pending"
    return queue, r.id


def _forced_status_is_refused(queue: RepairQueue, rid: int) -> None:
    import sqlalchemy as sa

    with queue.engine.begin() as conn:  # someone with the database account
        conn.execute(sa.text("UPDATE dgrr_repair_requests SET status = 'approved', "
                             "result_json = :r WHERE id = :i"),
                     {"r": json.dumps(queue.result(rid) or _replayed(queue, rid)), "i": rid})
    done = apply_next(queue, worker="w1")
    assert done is not None and done.status == "failed"
    assert "asks for 2 distinct reviewers" in str(done.error)
    assert not queue.approvals.find(kind="applied")
    assert queue.approvals.verify().ok  # the log itself was never touched


def _replayed(queue: RepairQueue, rid: int) -> dict:
    from repair_core.approvals import result_data
    from repair_core.model import REFERENCE_MODEL
    from repair_core.replay import repair

    case = queue.case(rid)
    plan = plan_case(case, objective=queue.get(rid).objective)  # as review() plans it
    return result_data(repair(case, plan, model=REFERENCE_MODEL)) or {}


def test_a_status_set_to_approved_in_sql_is_not_applied(env):
    queue, rid = _two_person_queue(env, env["db"])
    _forced_status_is_refused(queue, rid)


@pytest.mark.postgres
@pytest.mark.slow
def test_a_status_set_to_approved_in_sql_is_not_applied_on_postgres(env, postgres_db):
    queue, rid = _two_person_queue(env, postgres_db)
    _forced_status_is_refused(queue, rid)


def test_two_approvals_of_different_plans_are_not_two_approvals(env):
    queue, rid = _two_person_queue(env, env["db"])
    queue.claim(rid, reviewer="bo")
    case = queue.case(rid)
    forced = apply_edits(plan_case(case), {"m6": "delete"}, force=True,
                         comment="bo deletes m6 instead")
    second = review(queue, rid, reviewer="bo", decision="approve", plan=forced,
                    comment="bo deletes m6 instead")
    assert second.status == "approved"  # the queue counted two reviewers...
    done = apply_next(queue, worker="w1")
    assert done is not None and done.status == "failed"  # ...the log holds one of each plan
    assert "holds 1 ('bo')" in str(done.error)
    assert not queue.approvals.find(kind="applied")


def test_apply_with_a_checkpoint_refuses_a_log_rolled_back_before_a_rejection(env, capsys):
    _trust(env, "ana", "bo")
    assert _approve(env, "ana") == 0
    old = env["tmp"] / "old.db"
    shutil.copy(env["db"], old)
    assert _approve(env, "bo", "reject", "--comment", "m6 is not poisoned") == 0
    cp = env["tmp"] / "cp.json"
    assert main(["history", "--checkpoint", str(cp), "--reviewer", "bo", "--db",
                 env["db"]]) == 0
    shutil.copy(old, env["db"])  # the file put back to before the rejection
    capsys.readouterr()
    assert _apply(env, "--checkpoint", str(cp)) == 2
    err = capsys.readouterr().err
    assert "checkpoint" in err and "does not verify" in err
    assert "dgrr_no_such_module" not in err  # refused before the store is opened


def test_require_signed_fails_closed_without_a_trust_file(env, capsys, monkeypatch):
    assert _approve(env, "ana") == 0
    capsys.readouterr()
    assert _apply(env) == 2  # past the gate (the store does not exist), with a warning
    err = capsys.readouterr().err
    assert "signatures were not checked" in err and "dgrr_no_such_module" in err
    monkeypatch.setenv("DGRR_REQUIRE_SIGNED", "1")
    assert _apply(env) == 2
    err = capsys.readouterr().err
    assert "DGRR_REQUIRE_SIGNED=1 and no trust file" in err
    assert "dgrr_no_such_module" not in err
    assert main(["worker", "--once", "--db", env["db"]]) == 2
    assert "DGRR_REQUIRE_SIGNED=1" in capsys.readouterr().err


def test_a_decision_by_a_key_the_trust_file_does_not_hold_is_refused_before_it_is_written(
        env, capsys):
    _trust(env, "bo")
    assert _approve(env, "bo") == 0
    generate_key("ana")  # a key of her own, never added to the trust file
    capsys.readouterr()
    assert _approve(env, "ana", "reject", "--comment", "no") == 2
    err = capsys.readouterr().err
    assert "not in the trust file" in err and "nothing recorded" in err
    assert _rows(env["db"]) == 1
    assert main(["history", "--verify", "--db", env["db"]]) == 0


def test_a_record_written_and_superseded_by_replayed_steps_is_no_obligation():
    # a replayed step adds a record and a later one supersedes it: the result lists it as
    # added and retired, and no store holds it; the approval and the write-back accept the
    # result (nothing to add), and an added record that is in no store and not retired is
    # still refused
    from repair_core import case_from_data, repair
    from repair_core._synth import synth_case_data
    from repair_core.approvals import approval_summary
    from repair_core.approvals._review import obligation_problems
    from repair_core.integrations._writeback import store_ops

    case = case_from_data(synth_case_data(2000, 400, 30, seed=5))
    p = plan_case(case)
    result = repair(case, p)
    transient = approval_summary(p, result).store["added then retired"]
    assert transient
    assert obligation_problems(p, result) == []
    data = result.model_dump(mode="json")
    ops = store_ops(case, data)
    assert not {o.record for o in ops} & set(transient)
    assert {o.record for o in ops if o.op == "add"} == (
        set(data["report"]["store_changes"]["added"]) - set(transient))
    data["report"]["store_changes"]["retired"].remove(transient[0])
    assert any(transient[0] in x for x in obligation_problems(p, data))
    with pytest.raises(DgrrError, match="not in the result's store"):
        store_ops(case, data)
