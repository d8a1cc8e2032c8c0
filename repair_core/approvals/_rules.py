"""Which approval, if any, a repair result may be applied under.

Two rules: the log must verify (chain, and signatures when a trust file is in use), or no
approval in it is honoured; and the latest decision on a result wins, so a rejection
recorded after an approval (by anyone) blocks it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from ._keys import TrustFile
from ._store import ApprovalRecord, ApprovalStore

__all__ = ["ApprovalStanding", "honoured_approval"]


class ApprovalStanding(BaseModel):
    """What the approvals log says about one result."""

    record: ApprovalRecord | None = None
    """The approval to apply under (None: nothing may be applied)."""
    reason: str | None = None
    """Why no approval is honoured although decisions exist (a later rejection, a log
    that does not verify); None when there is an approval or no decision at all."""


def honoured_approval(store: ApprovalStore, case_id: str,
                      matches: Callable[[ApprovalRecord], bool], *,
                      trust: str | Path | None = None) -> ApprovalStanding:
    """The approval of case `case_id` that may be applied: the newest decision for which
    `matches(record)` (same inputs and outputs digests) holds, if that decision is an
    approval and the whole log verifies (against the trust file at `trust`, its default
    location, when it exists).
    """
    trust_file = TrustFile.load(trust, missing_ok=True)
    check = store.verify(trust_file)
    if not check.ok:
        where = (f"row #{check.first_broken}" if check.first_broken is not None
                 else "its triggers")
        return ApprovalStanding(reason=f"the approvals log does not verify at {where} "
                                       f"({check.reason}); no approval in it is honoured")
    for record in store.history(case_id):  # newest first
        if record.kind != "decision" or not matches(record):
            continue
        if record.decision == "reject":
            return ApprovalStanding(reason=(
                f"rejected in #{record.id} by {record.reviewer[:60]!r}: the latest decision "
                "on this result wins, so no earlier approval is honoured"))
        return ApprovalStanding(record=record)
    return ApprovalStanding()
