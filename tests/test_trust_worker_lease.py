"""A worker's lease has a heartbeat: a slow apply is not taken over by another worker;
and an apply that succeeded (its `applied` event is in the log) is never marked failed,
whoever finishes the request."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from repair_core import DgrrError, load_example
from repair_core.queue import RepairQueue, apply_next, review

NOWHERE = {"to": "langgraph", "store": "dgrr_no_such_module:store"}


@pytest.fixture()
def approved(tmp_path: Path, monkeypatch) -> tuple[RepairQueue, int]:
    monkeypatch.setenv("DGRR_TRUST", str(tmp_path / "no-trust.json"))
    queue = RepairQueue(str(tmp_path / "q.db"))
    r = queue.submit(load_example(), ["m3"], diagnosed_by="d", store_target=NOWHERE)
    queue.claim(r.id, reviewer="ana")
    assert review(queue, r.id, reviewer="ana", decision="approve").status == "approved"
    yield queue, r.id
    queue.close()


def test_a_slow_apply_keeps_its_lease(approved):
    queue, rid = approved
    lease = 0.6
    opened = threading.Event()

    def slow_store(target):  # the store takes three leases to answer
        opened.set()
        time.sleep(3 * lease)
        raise DgrrError("store timed out")

    first = threading.Thread(target=apply_next, args=(queue,),
                             kwargs={"worker": "A", "lease": lease, "open_store": slow_store})
    first.start()
    assert opened.wait(60)
    taken = []
    deadline = time.monotonic() + 2 * lease
    while time.monotonic() < deadline:  # B looks again and again past A's lease
        other = RepairQueue(queue.url)
        try:
            got = other.take_approved(worker="B", lease=lease)
        finally:
            other.close()
        if got is not None:
            taken.append(got.id)
            break
        time.sleep(lease / 4)
    first.join()
    assert taken == []  # A's heartbeat kept it
    assert queue.get(rid).worker == "A"


def test_a_succeeded_apply_is_never_marked_failed_by_the_worker_taking_over(approved):
    queue, rid = approved
    held = queue.take_approved(worker="A", lease=0.2)
    assert held is not None
    # A wrote the store and recorded the apply in the log, then stalled before finishing
    event = queue.approvals.record_applied(held.decision_id, reviewer="A",
                                           target="langgraph:x")
    time.sleep(0.3)
    done = apply_next(queue, worker="B", lease=0.2)  # B cannot even open the store
    assert done is not None and (done.status, done.applied_id) == ("applied", event.id)
    assert [e.to_status for e in queue.events(rid)][-1] == "applied"


def test_finishing_as_failed_after_the_applied_event_is_recorded_finishes_as_applied(approved):
    queue, rid = approved
    held = queue.take_approved(worker="A")
    event = queue.approvals.record_applied(held.decision_id, reviewer="A",
                                           target="langgraph:x")
    done = queue.finish(rid, worker="A", error="connection reset after the write")
    assert (done.status, done.applied_id, done.error) == ("applied", event.id, None)
