"""The queue on a real PostgreSQL under load: 1,000 requests from 8 submitter processes,
2 reviewer processes claiming and deciding (the Inbox's claim path), 2 worker processes
finishing approved requests — none lost, none applied twice, no claim held by two
reviewers."""

from __future__ import annotations

import multiprocessing as mp
import time
from collections import Counter
from typing import Any

import pytest
import sqlalchemy as sa
from postgres_server import POSTGRES_MARKS

pytestmark = [*POSTGRES_MARKS, pytest.mark.slow]

SUBMITTERS, PER_SUBMITTER = 8, 125
TOTAL = SUBMITTERS * PER_SUBMITTER


def _submitter(url: str, n: int, tag: int) -> None:
    from repair_core import load_example
    from repair_core.queue import RepairQueue

    q = RepairQueue(url)
    case = load_example()
    for i in range(n):
        q.submit(case, ["m3"], diagnosed_by=f"detector-{tag}", agent=f"agent-{tag}",
                 store_target={"to": "langgraph", "store": f"s{tag}-{i}"})
    q.close()


def _reviewer(url: str, name: str, submitted: Any, out: mp.Queue) -> None:
    """Claim and decide until every submitter has finished and nothing is pending."""
    from repair_core.queue import RepairQueue

    q = RepairQueue(url)
    decided: list[int] = []
    while True:
        done = submitted.is_set()  # read before the claim: a None after it means empty
        r = q.claim(reviewer=name)
        if r is None:
            if done:
                break
            time.sleep(0.01)
            continue
        decision = "approve" if r.id % 5 else "reject"
        rec = q.approvals.add(case_id=r.case_id, reviewer=name, decision=decision,
                              comment="load test", inputs_sha256=f"{r.id:064x}",
                              outputs_sha256="0" * 64)
        q.decide(r.id, reviewer=name, decision=decision, decision_id=rec.id,
                 result={} if decision == "approve" else None)
        decided.append(r.id)
    out.put((name, decided))
    q.close()


def _worker(url: str, name: str, decided: Any, out: mp.Queue) -> None:
    """Apply approved requests until every reviewer has finished and none is left."""
    from repair_core.queue import RepairQueue

    q = RepairQueue(url)
    done: list[int] = []
    while True:
        finished = decided.is_set()
        r = q.take_approved(worker=name)
        if r is None:
            if finished:
                break
            time.sleep(0.01)
            continue
        assert r.decision_id is not None
        event = q.approvals.record_applied(r.decision_id, reviewer=name, target="load")
        q.finish(r.id, worker=name, applied_id=event.id)
        done.append(r.id)
    out.put((name, done))
    q.close()


def test_thousand_requests_two_reviewers_two_workers(postgres_db):
    url = postgres_db
    from repair_core.queue import RepairQueue

    RepairQueue(url).close()  # create the tables once, before the race
    ctx = mp.get_context("fork")  # children start with repair_core already imported
    results: mp.Queue = ctx.Queue()
    submitted, decided_all = ctx.Event(), ctx.Event()
    submitters = [ctx.Process(target=_submitter, args=(url, PER_SUBMITTER, t))
                  for t in range(SUBMITTERS)]
    reviewers = [ctx.Process(target=_reviewer, args=(url, f"rev{i}", submitted, results))
                 for i in range(2)]
    workers = [ctx.Process(target=_worker, args=(url, f"work{i}", decided_all, results))
               for i in range(2)]
    for p in [*submitters, *reviewers, *workers]:
        p.start()
    for p in submitters:
        p.join(timeout=300)
        assert p.exitcode == 0
    submitted.set()
    got = dict(results.get(timeout=300) for _ in range(2))
    decided_all.set()
    got.update(results.get(timeout=300) for _ in range(2))
    for p in [*reviewers, *workers]:
        p.join(timeout=60)
        assert p.exitcode == 0
    decided = got["rev0"] + got["rev1"]
    applied = got["work0"] + got["work1"]
    q = RepairQueue(url)
    every = q.requests()
    assert len(every) == TOTAL  # none lost
    assert sorted(decided) == sorted(r.id for r in every)  # each decided once
    counts = Counter(r.status for r in every)
    assert counts == {"applied": TOTAL - TOTAL // 5, "rejected": TOTAL // 5}
    assert len(applied) == len(set(applied)) == counts["applied"]  # none applied twice
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        claims = conn.execute(sa.text(
            "SELECT request_id, count(*) FROM dgrr_repair_events WHERE to_status = 'claimed' "
            "GROUP BY request_id HAVING count(*) > 1")).all()
        applies = conn.execute(sa.text(
            "SELECT count(*) FROM dgrr_approvals WHERE kind = 'applied'")).scalar_one()
    engine.dispose()
    assert claims == []  # no request was claimed twice
    assert applies == counts["applied"]
    for r in every:  # the decider is the one who held the claim
        assert r.decided_by == r.claimed_by
    assert q.approvals.verify().ok
    q.close()
