"""A review queue for live agents: an agent or its detector submits a suspected fault, a
reviewer claims and decides it (CLI or the dashboard's Inbox), and `dgrr worker` writes the
approved repair back to the live store. See docs/queue.md.

>>> from repair_core import load_example
>>> q = RepairQueue("sqlite://")
>>> rid = submit(load_example(), ["m3"], diagnosed_by="detector", queue=q).id
>>> status(rid, queue=q).status
'pending'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._review import apply_next, apply_request, review
from ._store import (
    STATUSES,
    TERMINAL,
    Objective,
    QueueError,
    RepairQueue,
    RepairRequest,
    RequestEvent,
    RequestStatus,
    ReviewRule,
    reviewer_label,
)

__all__ = [
    "STATUSES",
    "TERMINAL",
    "Objective",
    "QueueError",
    "RepairQueue",
    "RepairRequest",
    "RequestEvent",
    "RequestStatus",
    "ReviewRule",
    "reviewer_label",
    "apply_next",
    "apply_request",
    "review",
    "status",
    "submit",
    "wait",
]


def _queue(queue: RepairQueue | None, db: str | None) -> RepairQueue:
    return queue if queue is not None else RepairQueue(db)


def submit(case: Any, faults: Iterable[str], *, diagnosed_by: str,
           objective: Objective = "both", agent: str = "",
           store_target: Mapping[str, str] | None = None, source: str = "",
           db: str | None = None, queue: RepairQueue | None = None) -> RepairRequest:
    """Queue `case` with its diagnosed `faults` for review (in the approvals database `db`:
    a URL or SQLite file; default `$DGRR_DB`, else `~/.dgrr/approvals.db`)."""
    return _queue(queue, db).submit(case, faults, diagnosed_by=diagnosed_by,
                                    objective=objective, agent=agent,
                                    store_target=store_target, source=source)


def status(request_id: int, *, db: str | None = None, queue: RepairQueue | None = None
           ) -> RepairRequest:
    """Request `request_id` as it stands now."""
    return _queue(queue, db).get(request_id)


def wait(request_id: int, timeout: float, *, db: str | None = None,
         queue: RepairQueue | None = None, poll: float = 0.5) -> RepairRequest:
    """Request `request_id` once rejected, applied or failed (TimeoutError after `timeout`
    seconds)."""
    return _queue(queue, db).wait(request_id, timeout, poll=poll)
