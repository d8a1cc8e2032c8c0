"""An apply's course in the approvals log, so that its journal is used once.

Each apply records an `intent` row (its apply id and the store it writes) before its first
write, and `applied` or `rolled-back` after its last. The journal's HMAC proves who wrote
it, not that it is still current: a copy of the journal taken while an apply ran and put
back after it finished still verifies. :meth:`ApplyEvents.check_current` is what refuses
it: `--resume` and `--rollback` act only on a journal whose apply the log has not
recorded finished and which is the latest intent recorded for its store.

Writing over slots someone changed since an apply planned them (`--overwrite`) discards
their writes, so under the review rule it needs as many reviewers as an approval does:
:meth:`ApplyEvents.check_override` counts the signed `override` rows of that apply, unless
the reviewer is one who approved it.

Rows are matched by the apply id and store key in their `comment` (JSON), read from the
log's `intent`, `applied` and `rolled-back` rows: one pass over each kind.
"""

from __future__ import annotations

import json
from typing import Any

from .._errors import DgrrError
from ._keys import TrustFile
from ._reviewer import same_reviewer
from ._rules import review_rule
from ._store import ApprovalRecord, ApprovalStore, row_message, sha256_json

__all__ = ["ApplyEvents", "JournalNotCurrent", "apply_of"]


class JournalNotCurrent(DgrrError):
    """A journal whose apply the approvals log records finished, or that is not the
    latest intent recorded for its store."""


def apply_of(row: ApprovalRecord) -> tuple[str | None, str | None]:
    """The (apply id, store key) an `intent`, `applied` or `rolled-back` row names in its
    comment; (None, None) when it names none (a row of a dgrr before intents)."""
    try:
        data = json.loads(row.comment) if row.comment else None
    except ValueError:
        return None, None
    if not isinstance(data, dict):
        return None, None
    apply_id, store = data.get("apply"), data.get("store")
    return (apply_id if isinstance(apply_id, str) else None,
            store if isinstance(store, str) else None)


class ApplyEvents:
    """Records an apply's intent and rollback in `log` (by `reviewer`, writing `target`)
    and checks that a journal is still current (see the module docstring)."""

    def __init__(self, log: ApprovalStore, *, reviewer: str, target: str) -> None:
        self.log = log
        self.reviewer = reviewer
        self.target = target

    def intent(self, intent: Any, store: str) -> int:
        """Record that apply `intent` (an `Intent`) is about to write store `store` (its
        journal key); returns the row id. Refused (nothing recorded) when the journal names
        no approval."""
        if intent.approval_id is None:
            raise DgrrError("refused: the apply names no approval; nothing written")
        row = self.log.record_applied(
            intent.approval_id, reviewer=self.reviewer, target=self.target, kind="intent",
            outputs_sha256=sha256_json(intent.operations),
            comment=json.dumps({"apply": intent.apply_id, "store": store,
                                "operations": len(intent.operations)}))
        return row.id

    def rolled_back(self, intent: Any, store: str) -> ApprovalRecord:
        """Record that apply `intent`'s writes to `store` were undone; signed like a
        decision (refused without a trusted key when there is a trust file)."""
        if intent.approval_id is None:
            raise DgrrError("refused: the journal names no approval to record the rollback "
                            "next to; nothing written")
        return self.log.record_applied(
            intent.approval_id, reviewer=self.reviewer, target=self.target,
            kind="rolled-back", outputs_sha256=sha256_json(intent.operations),
            comment=json.dumps({"apply": intent.apply_id, "store": store,
                                **({"conflicts": [c.model_dump(mode="json")
                                                  for c in intent.conflicts]}
                                   if intent.conflicts else {})},
                               ensure_ascii=False, default=str))

    def check_current(self, intent: Any, store: str) -> None:
        """Refuse (:class:`JournalNotCurrent`) the journal of apply `intent` to `store`
        when the log records that apply finished (`applied` or `rolled-back`), when a
        newer intent for the same store is recorded, or when the journal names an intent
        row the log does not hold for it (rule `apply.journal-used-once`)."""
        for kind in ("applied", "rolled-back"):
            for row in self.log.find(kind=kind):
                if apply_of(row)[0] == intent.apply_id:
                    raise JournalNotCurrent(
                        f"journal of apply {intent.apply_id}: the approvals log records it "
                        f"{kind} (#{row.id}, {row.created_at:%Y-%m-%d %H:%M:%S} UTC); a "
                        "journal is used once, so this one is a copy: nothing written. "
                        "Undoing a finished apply is a new repair that needs its own "
                        "approval")
        latest: ApprovalRecord | None = None
        own: ApprovalRecord | None = None
        for row in self.log.find(kind="intent"):  # newest first
            apply_id, row_store = apply_of(row)
            if row_store == store and latest is None:
                latest = row
            if apply_id == intent.apply_id and own is None:
                own = row
        wanted = getattr(intent, "intent_row", None)
        if wanted is not None and (own is None or own.id != wanted):
            raise JournalNotCurrent(
                f"journal of apply {intent.apply_id}: it rests on intent row #{wanted}, "
                "which the approvals log does not hold for it (another log, or rows "
                "lost); nothing written")
        if latest is not None and apply_of(latest)[0] != intent.apply_id:
            raise JournalNotCurrent(
                f"journal of apply {intent.apply_id}: not the latest apply recorded for "
                f"this store (apply {apply_of(latest)[0]}, intent #{latest.id}, is newer); "
                "a journal is used once: nothing written")

    def check_override(self, intent: Any, *, rollback: bool, trust: TrustFile) -> None:
        """Refuse (DgrrError, nothing written) an overwrite of apply `intent`'s conflicts
        unless this reviewer approved that apply's plan and result, or as many distinct
        reviewers as the review rule (and the journal's `needed`) asks for have signed an
        override of the same apply and action, this reviewer's included (rule
        `apply.overwrite-quorum`). Only rows whose signature the trust file verifies
        count."""
        def signed(row: ApprovalRecord) -> bool:
            return row.row_hash is not None and trust.check(
                row.reviewer, row.key_id, row_message(row.row_hash), row.signature) is None

        found = self.log.find(id=intent.approval_id) if intent.approval_id is not None else []
        if found:
            approval = found[0]
            for row in self.log.find(case_id=approval.case_id, decision="approve",
                                     inputs_sha256=approval.inputs_sha256,
                                     outputs_sha256=approval.outputs_sha256):
                if same_reviewer(row.reviewer, self.reviewer) and signed(row):
                    return  # one who approved the apply may finish it alone
        needed = max(int(getattr(intent, "needed", 1) or 1), review_rule(self.log, trust).needed(
            ops=len(intent.operations), irreversible=False))
        reviewers: list[str] = []
        for row in self.log.find(kind="override", refers_to=intent.approval_id):
            try:
                data = json.loads(row.comment)
            except ValueError:
                continue
            if not isinstance(data, dict) or data.get("apply") != intent.apply_id or \
                    bool(data.get("rollback")) != rollback or not signed(row):
                continue
            if not any(same_reviewer(row.reviewer, r) for r in reviewers):
                reviewers.append(row.reviewer)
        if len(reviewers) < needed:
            names = ", ".join(repr(r[:60]) for r in reviewers) or "none"
            raise DgrrError(
                f"overwrite refused: the review rule asks for {needed} distinct reviewers' "
                f"signed overrides of apply {intent.apply_id}, and the log holds "
                f"{len(reviewers)} ({names}); {self.reviewer[:60]!r} did not approve the "
                "apply. Another reviewer runs the same command (their override is counted "
                "with this one), or one who approved it does; nothing written")
