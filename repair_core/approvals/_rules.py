"""Which approvals, if any, a repair result may be applied under, and the review rule
that says how many reviewers it needs.

The log must verify (chain, signatures when a trust file is in use, and the checkpoint
when one is given), or no approval in it is honoured. Among the decisions on a result the
latest wins: a rejection recorded after approvals (by anyone) blocks them. The approvals
recorded since the latest rejection must be of one plan and one result (the same inputs
and outputs digests) and come from as many distinct reviewers (names compared
case-folded) as the review rule asks for that repair. The rule itself is a row of the
log, signed by an administrator the trust file names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .._errors import DgrrError
from ._keys import TrustFile, trust_path
from ._reviewer import same_reviewer
from ._store import ApprovalRecord, ApprovalStore

__all__ = ["ApprovalStanding", "ReviewRule", "honoured_approval", "require_signed",
           "review_rule", "load_trust"]


class ReviewRule(BaseModel):
    """When an approval needs two different reviewers (a signed `rule` row of the
    approvals log, so every dashboard server, CLI and worker on it applies the same
    rule)."""

    over_ops: int | None = Field(default=None, ge=0)
    """Two reviewers when the repair asks for more than this many store operations (None:
    no limit)."""
    irreversible: bool = False
    """Two reviewers when the failed run had effects the rollback cannot undo."""

    def needed(self, *, ops: int, irreversible: bool) -> int:
        """How many different reviewers a repair with `ops` store operations (and
        `irreversible` effects or not) needs.

        >>> ReviewRule(over_ops=3).needed(ops=4, irreversible=False)
        2
        >>> ReviewRule(irreversible=True).needed(ops=0, irreversible=False)
        1
        """
        if (self.over_ops is not None and ops > self.over_ops) or (
                self.irreversible and irreversible):
            return 2
        return 1


def require_signed() -> bool:
    """`$DGRR_REQUIRE_SIGNED=1`: honour nothing without a trust file."""
    return os.environ.get("DGRR_REQUIRE_SIGNED", "").strip() not in ("", "0")


def load_trust(trust: str | Path | None) -> TrustFile | None:
    """The trust file at `trust` (which must exist when named), else at its default
    place when there is one; refused when `$DGRR_REQUIRE_SIGNED=1` and there is none."""
    found = TrustFile.load(trust, missing_ok=trust is None)
    if found is None and require_signed():
        raise DgrrError(f"--trust: DGRR_REQUIRE_SIGNED=1 and no trust file at "
                        f"{trust_path(trust)}: no approval can be checked, so none is "
                        "honoured; nothing written")
    return found


def review_rule(store: ApprovalStore, trust: TrustFile | None) -> ReviewRule:
    """The review rule in force: the newest `rule` row signed by an administrator of
    `trust` (without a trust file no rule row is honoured: one reviewer suffices)."""
    from ._store import row_message

    if trust is None:
        return ReviewRule()
    for record in store.find(kind="rule"):
        if record.row_hash is None or trust.check(
                record.reviewer, record.key_id, row_message(record.row_hash),
                record.signature) is not None:
            continue
        if not trust.is_admin(record.reviewer, record.key_id):
            continue
        try:
            return ReviewRule.model_validate(json.loads(record.comment))
        except ValueError:
            continue
    return ReviewRule()


class ApprovalStanding(BaseModel):
    """What the approvals log says about one result."""

    record: ApprovalRecord | None = None
    """The approval to apply under (None: nothing may be applied)."""
    approvals: list[ApprovalRecord] = Field(default_factory=list)
    """Every approval that counts (same plan and result, since the latest rejection),
    newest first."""
    needed: int = 1
    """How many distinct reviewers had to approve."""
    signed: bool = False
    """The log's signatures were checked against a trust file."""
    reason: str | None = None
    """Why no approval is honoured although decisions exist (a later rejection, a log
    that does not verify, too few reviewers); None when there is an approval or no
    decision at all."""


def honoured_approval(store: ApprovalStore, case_id: str,
                      matches: Callable[[ApprovalRecord], bool], *,
                      trust: str | Path | TrustFile | None = None, against: Any = None,
                      needed: int | Callable[[ReviewRule], int] = 1) -> ApprovalStanding:
    """The approval of case `case_id` that may be applied: the newest decision for which
    `matches(record)` (same inputs and outputs digests) holds, if it is an approval, the
    whole log verifies (against `trust`, a trust file or its path, and the checkpoint
    `against`), and `needed` distinct reviewers approved that same plan and result since
    the latest rejection (`needed` may be a function of the review rule in force).
    """
    trust_file = trust if isinstance(trust, TrustFile) else load_trust(trust)
    check = store.verify(trust_file, against)
    if not check.ok:
        where = (f"row #{check.first_broken}" if check.first_broken is not None
                 else "its triggers" if "trigger" in str(check.reason) else "its end")
        return ApprovalStanding(reason=f"the approvals log does not verify at {where} "
                                       f"({check.reason}); no approval in it is honoured")
    need = needed(review_rule(store, trust_file)) if callable(needed) else needed
    group: list[ApprovalRecord] = []
    for record in store.history(case_id):  # newest first
        if record.kind != "decision" or not matches(record):
            continue
        if record.decision == "reject":
            if not group:
                return ApprovalStanding(reason=(
                    f"rejected in #{record.id} by {record.reviewer[:60]!r}: the latest "
                    "decision on this result wins, so no earlier approval is honoured"))
            break
        if group and (record.inputs_sha256, record.outputs_sha256) != (
                group[0].inputs_sha256, group[0].outputs_sha256):
            continue  # an approval of another plan of this result does not count
        group.append(record)
    if not group:
        return ApprovalStanding()
    reviewers: list[str] = []
    for record in group:
        if not any(same_reviewer(record.reviewer, r) for r in reviewers):
            reviewers.append(record.reviewer)
    signed = trust_file is not None
    if len(reviewers) < need:
        names = ", ".join(repr(r[:60]) for r in reviewers)
        return ApprovalStanding(approvals=group, needed=need, signed=signed, reason=(
            f"the review rule asks for {need} distinct reviewers' approvals of this same "
            f"plan and result; the log holds {len(reviewers)} ({names}); nothing written"))
    return ApprovalStanding(record=group[0], approvals=group, needed=need, signed=signed)
