"""A reviewer's claim on a queued repair request, for the Inbox and the Cases pages alike:
the library's `RepairQueue.claim`, after which the request's case (with its objective) is
the session's working case and the session remembers the request it holds."""

from __future__ import annotations

import streamlit as st

from repair_core.approvals import same_reviewer
from repair_core.queue import RepairQueue, RepairRequest

from . import state

__all__ = ["claim", "held_elsewhere", "held_request", "resume"]


def held_request(queue: RepairQueue, reviewer: str) -> RepairRequest | None:
    """The request this session holds, while `reviewer` still holds it in `queue` (a
    request released, decided or taken over elsewhere is forgotten here)."""
    active = st.session_state.get(state.REQUEST)
    if active is None:
        return None
    current = queue.find(active)
    if (current is None or current.status != "claimed"
            or not same_reviewer(current.claimed_by, reviewer)):
        st.session_state.pop(state.REQUEST, None)
        return None
    return current


def claim(queue: RepairQueue, wanted: int | None, reviewer: str) -> RepairRequest | None:
    """Claim request `wanted` (None: the oldest pending) for `reviewer` and make its case
    the working case; None when nothing is pending. Raises `DgrrError` when the queue
    refuses (someone else holds it, it is no longer pending)."""
    got = queue.claim(wanted, reviewer=reviewer)
    if got is not None:
        resume(queue, got)
    return got


def held_elsewhere(queue: RepairQueue, reviewer: str) -> list[RepairRequest]:
    """The requests `reviewer` holds in `queue` that this session does not: claimed in a
    session that a reload or another tab ended (a session forgets its request with it)."""
    mine = st.session_state.get(state.REQUEST)
    return [r for r in queue.requests(status=["claimed"], claimed_by=reviewer)
            if r.id != mine]


def resume(queue: RepairQueue, request: RepairRequest) -> None:
    """Make `request`, which the reviewer holds, this session's: its case (with its
    objective) is the working case."""
    state.set_case(queue.case(request.id), f"queue request #{request.id}")
    state.set_objective(request.objective)
    st.session_state[state.REQUEST] = request.id
