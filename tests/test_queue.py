"""The review queue: submit, claim, decide, apply — the transitions, their refusals, the
link into the approvals log, the CLI, and racing reviewers on SQLite."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from repair_core import load_example
from repair_core.approvals import ApprovalStore
from repair_core.cli import main
from repair_core.queue import QueueError, RepairQueue, review, status, submit, wait

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_traces" / "figure1-travel.json"


@pytest.fixture()
def queue(tmp_path: Path) -> RepairQueue:
    q = RepairQueue(str(tmp_path / "q.db"))
    yield q
    q.close()


def test_a_request_goes_pending_claimed_approved_with_its_decision_in_the_log(queue):
    r = submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot",
               queue=queue)
    assert (r.status, r.case_id, r.user_id, r.agent) == ("pending", "fig1-travel", "lin",
                                                          "travel-bot")
    assert queue.claim(r.id, reviewer="ana").claimed_by == "ana"
    done = review(queue, r.id, reviewer="ana", decision="approve")
    assert done.status == "approved" and done.decided_by == "ana"
    logged = queue.approvals.find(id=done.decision_id, kind=None)[0]
    assert (logged.decision, logged.reviewer, logged.case_id) == ("approve", "ana",
                                                                  "fig1-travel")
    # what the worker will write back is the replayed repair the reviewer approved
    result = queue.result(r.id)
    assert result is not None and "aisle" in result["answer"]
    assert [(e.from_status, e.to_status, e.actor) for e in queue.events(r.id)] == [
        (None, "pending", "detector"), ("pending", "claimed", "ana"),
        ("claimed", "approved", "ana")]
    assert queue.approvals.verify().ok


@pytest.mark.parametrize("objective", ["answer", "store", "both"])
def test_a_decision_without_a_plan_plans_for_the_requests_objective(queue, objective):
    # the worker writes back what was approved: a store request must not be approved as
    # the answer-only plan the planner gives by default
    from repair_core.approvals import result_data
    from repair_core.plan._plan import plan_case
    from repair_core.replay import repair

    r = submit(load_example(), ["m3"], diagnosed_by="detector", objective=objective,
               queue=queue)
    queue.claim(r.id, reviewer="ana")
    review(queue, r.id, reviewer="ana", decision="approve")
    result = queue.result(r.id)
    case = queue.case(r.id)
    wanted = result_data(repair(case, plan_case(case, objective=objective)))
    assert result is not None and result["report"].get("objective", "answer") == objective
    assert (result["answer"], result["store"]) == (wanted["answer"], wanted["store"])


def test_only_the_holder_decides_and_a_held_request_cannot_be_claimed_again(queue):
    r = queue.submit(load_example(), ["m3"], diagnosed_by="detector")
    with pytest.raises(QueueError, match="is pending; claim it before deciding"):
        review(queue, r.id, reviewer="ana", decision="reject", comment="no")
    queue.claim(r.id, reviewer="ana")
    with pytest.raises(QueueError, match="is claimed \\(by ana\\); expected pending"):
        queue.claim(r.id, reviewer="bo")
    with pytest.raises(QueueError, match="claimed by ana; claim it before deciding"):
        review(queue, r.id, reviewer="bo", decision="approve")
    with pytest.raises(QueueError, match="claimed by ana, not bo"):
        queue.release(r.id, reviewer="bo")
    assert queue.release(r.id, reviewer="ana").status == "pending"
    assert queue.claim(reviewer="bo").id == r.id
    rejected = review(queue, r.id, reviewer="bo", decision="reject", comment="not a fault")
    assert rejected.status == "rejected" and rejected.terminal
    assert queue.result(r.id) is None  # nothing to write back
    with pytest.raises(QueueError, match="is rejected"):
        queue.claim(r.id, reviewer="ana")


def test_bad_submissions_name_the_field(queue):
    with pytest.raises(Exception, match="not a memory record 's999'|s999"):
        queue.submit(load_example(), ["s999"], diagnosed_by="detector")
    with pytest.raises(Exception, match="diagnosed_by: required"):
        queue.submit(load_example(), ["m3"], diagnosed_by="  ")
    with pytest.raises(Exception, match="faults: at least one"):
        queue.submit(load_example(), [], diagnosed_by="x")
    with pytest.raises(Exception, match="control characters"):
        queue.submit(load_example(), ["m3"], diagnosed_by="x", agent="a\x1b[31m")
    with pytest.raises(Exception, match="store_target"):
        queue.submit(load_example(), ["m3"], diagnosed_by="x", store_target={"to": "redis"})
    with pytest.raises(Exception, match="objective"):
        queue.submit(load_example(), ["m3"], diagnosed_by="x", objective="all")  # type: ignore[arg-type]
    assert queue.requests() == []


def test_filters_and_wait(queue):
    a = queue.submit(load_example(), ["m3"], diagnosed_by="d", agent="a1")
    b = queue.submit(load_example(), ["m3"], diagnosed_by="d", agent="a2")
    assert [r.id for r in queue.requests(agent="a2")] == [b.id]
    assert [r.id for r in queue.requests(status=["pending"], fault_kind="memory_record")] == [
        a.id, b.id]
    assert queue.requests(fault_kind="tool_observation") == []
    assert queue.requests(older_than=3600) == []
    with pytest.raises(TimeoutError, match="still pending after 0.2 s"):
        wait(a.id, 0.2, queue=queue, poll=0.05)
    queue.claim(a.id, reviewer="ana")
    review(queue, a.id, reviewer="ana", decision="reject", comment="fine as it is")
    assert wait(a.id, 5, queue=queue).status == "rejected"
    assert status(b.id, queue=queue).status == "pending"


def test_listing_reads_no_case_and_finds_a_reviewer_by_any_spelling(queue):
    from sqlalchemy import event

    ids = [queue.submit(load_example(), ["m3"], diagnosed_by="d").id for _ in range(4)]
    queue.claim(ids[0], reviewer="Ana")
    queue.claim(ids[2], reviewer="ＡＮＡ")  # fullwidth: the same reviewer, NFKC-folded
    queue.claim(ids[3], reviewer="bo")
    statements: list[str] = []
    event.listen(queue.engine, "before_cursor_execute",
                 lambda conn, cursor, sql, *rest: statements.append(sql))
    assert [r.id for r in queue.requests(status=["claimed"], claimed_by="ana")] == [
        ids[0], ids[2]]
    assert [r.id for r in queue.requests(claimed_by="nobody")] == []
    assert [r.id for r in queue.requests(limit=2)] == ids[:2]
    # with no filter left to apply after the query, the database stops at the limit
    assert "LIMIT" in statements[-1], statements[-1]
    # a listing is drawn on every redraw of the Inbox: the cases stay in the database
    assert statements and not any("case_json" in s or "result_json" in s
                                  for s in statements), statements


def test_a_worker_finishes_only_what_it_holds_and_a_refusal_fails_without_retry(queue):
    r = queue.submit(load_example(), ["m3"], diagnosed_by="d",
                     store_target={"to": "langgraph", "store": "nowhere:store"})
    queue.claim(r.id, reviewer="ana")
    review(queue, r.id, reviewer="ana", decision="approve")
    held = queue.take_approved(worker="w1")
    assert held is not None and held.id == r.id
    assert queue.take_approved(worker="w2") is None  # held by w1
    with pytest.raises(QueueError, match="w2 cannot finish it"):
        queue.finish(r.id, worker="w2", applied_id=1)
    from repair_core.queue import apply_request

    failed = apply_request(queue, held, worker="w1")
    # the store cannot be opened: the request fails with the reason, once
    assert failed.status == "failed" and failed.error
    assert queue.take_approved(worker="w1") is None  # a failure is not retried


def test_a_workers_refusal_says_why_the_approval_is_not_honoured(queue):
    from repair_core.queue import apply_request

    r = queue.submit(load_example(), ["m3"], diagnosed_by="d",
                     store_target={"to": "langgraph", "store": "nowhere:store"})
    queue.claim(r.id, reviewer="ana")
    review(queue, r.id, reviewer="ana", decision="approve")
    held = queue.take_approved(worker="w1")
    [approval] = queue.approvals.find(id=held.decision_id)
    queue.approvals.add(case_id=approval.case_id, reviewer="bo", decision="reject",
                        comment="the seat was right", inputs_sha256=approval.inputs_sha256,
                        outputs_sha256=approval.outputs_sha256)
    failed = apply_request(queue, held, worker="w1")
    assert failed.status == "failed"
    # dgrr apply's words, with why the approval is not honoured
    assert failed.error.startswith("refused: this result has no approval in the approvals "
                                   "log; nothing written (approval: rejected in #")
    assert "nowhere" not in failed.error  # refused before the store is opened


def test_racing_reviewers_on_sqlite_never_share_a_claim(tmp_path):
    db = str(tmp_path / "race.db")
    setup = RepairQueue(db)
    case = load_example()
    ids = [setup.submit(case, ["m3"], diagnosed_by="d").id for _ in range(30)]
    setup.close()
    claimed: dict[str, list[int]] = {}

    def reviewer(name: str) -> None:
        q = RepairQueue(db)
        got = claimed.setdefault(name, [])
        while (r := q.claim(reviewer=name)) is not None:
            got.append(r.id)
        q.close()

    threads = [threading.Thread(target=reviewer, args=(f"r{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [i for got in claimed.values() for i in got]
    assert sorted(every) == ids  # each claimed once, none lost
    check = RepairQueue(db)
    assert all(r.claimed_by and str(r.id) for r in check.requests(status=["claimed"]))
    assert len(check.requests(status=["claimed"])) == 30
    check.close()


def test_cli_submit_claim_decide_show(tmp_path, capsys):
    db = str(tmp_path / "cli.db")
    assert main(["queue", "submit", str(FIG1), "--by", "detector", "--agent", "bot",
                 "--db", db]) == 0
    assert "submitted request #1" in capsys.readouterr().out
    assert main(["queue", "claim", "--reviewer", "ana", "--db", db]) == 0
    assert main(["queue", "decide", "1", "--reviewer", "ana", "--decision", "approve",
                 "--db", db]) == 0
    out = capsys.readouterr().out
    assert "request #1: approved by ana, recorded as #1" in out and "head " in out
    assert main(["queue", "show", "1", "--json", "--db", db]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["status"] == "approved"
    assert [e["to_status"] for e in shown["events"]] == ["pending", "claimed", "approved"]
    assert main(["queue", "claim", "--reviewer", "bo", "--db", db]) == 1
    assert "nothing pending" in capsys.readouterr().out
    assert main(["queue", "decide", "1", "--reviewer", "bo", "--decision", "reject",
                 "--comment", "x", "--db", db]) == 2
    assert "is approved" in capsys.readouterr().err
    assert main(["queue", "submit", str(FIG1), "--by", "d", "--to", "mem0", "--db", db]) == 2
    assert "--to and --store go together" in capsys.readouterr().err
    assert len(ApprovalStore(db).history()) == 1


def test_two_reviewers_when_the_rule_says_so_and_the_first_cannot_claim_again(
        queue, tmp_path, monkeypatch):
    from repair_core.approvals import TrustFile, generate_key
    from repair_core.queue import ReviewRule

    monkeypatch.setenv("DGRR_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "trust.json"))
    trust = TrustFile(tmp_path / "trust.json", [])
    for who in ("admin", "ana", "bo", "cy"):
        trust.add(who, generate_key(who)[0].public_raw, admin=who == "admin")
    assert queue.rule() == ReviewRule()
    queue.set_rule(ReviewRule(over_ops=1), actor="admin")  # figure 1 deletes m3, quarantines m6
    assert queue.rule().over_ops == 1
    r = queue.submit(load_example(), ["m3"], diagnosed_by="d")
    queue.claim(r.id, reviewer="ana")
    first = review(queue, r.id, reviewer="ana", decision="approve")
    assert (first.status, first.needed, [a["reviewer"] for a in first.approved_by]) == (
        "pending", 2, ["ana"])
    assert "approval 1 of 2" in queue.events(r.id)[-1].note
    with pytest.raises(QueueError, match="ana already approved it"):
        queue.claim(r.id, reviewer="ana")
    assert queue.claim(reviewer="ana") is None  # passed over for ana
    assert queue.claim(reviewer="bo").id == r.id
    second = review(queue, r.id, reviewer="bo", decision="approve")
    assert second.status == "approved"
    assert [a["reviewer"] for a in second.approved_by] == ["ana", "bo"]
    assert queue.result(r.id) is not None
    # one reviewer suffices again once the rule allows it
    queue.set_rule(ReviewRule(over_ops=10), actor="admin")
    r2 = queue.submit(load_example(), ["m3"], diagnosed_by="d")
    queue.claim(r2.id, reviewer="cy")
    assert review(queue, r2.id, reviewer="cy", decision="approve").status == "approved"


def test_irreversible_effects_need_two_reviewers_when_the_rule_says_so():
    from repair_core.queue import ReviewRule

    rule = ReviewRule(irreversible=True)
    assert rule.needed(ops=0, irreversible=True) == 2
    assert rule.needed(ops=100, irreversible=False) == 1
    with pytest.raises(Exception, match="greater than or equal to 0"):
        ReviewRule(over_ops=-1)
