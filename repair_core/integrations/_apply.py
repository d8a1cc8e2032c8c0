"""The one way dgrr writes a repair to a store: approved, checked, planned in full, the
intent journaled, then written; a failed write rolls back (see `_journal`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from .._errors import DgrrError
from ._journal import (
    Intent,
    Journal,
    SlotBackend,
    SlotConflict,
    SlotsChanged,
    Step,
    forward_conflicts,
    new_apply_id,
    rollback_conflicts,
    run_forward,
    run_rollback,
    with_digests,
)

__all__ = ["ApplyLog", "NotApproved", "require_approval", "run_apply", "resume_apply",
           "rollback_apply"]


class ApplyLog(Protocol):
    """Where an apply's course is recorded so that its journal is used once (the approvals
    log: :class:`repair_core.approvals.ApplyEvents`). `store` is the journal's key."""

    def intent(self, intent: Intent, store: str) -> int:
        """Record the apply before its first write; the row id. Raises to refuse it."""

    def rolled_back(self, intent: Intent, store: str) -> Any:
        """Record that the apply's writes were undone."""

    def check_current(self, intent: Intent, store: str) -> None:
        """Raise unless the journal of `intent` is the latest, unfinished apply of
        `store` the log knows."""


class NotApproved(DgrrError):
    """An apply without the approve decision of its case."""


def require_approval(approval: Any, case_id: str) -> None:
    """Refuse unless `approval` is an `approve` decision on `case_id` (an
    :class:`~repair_core.approvals.ApprovalRecord`, as
    :func:`repair_core.integrations.find_approval` returns)."""
    if approval is None:
        raise NotApproved("refused: this result has no approval in the approvals log; "
                          "nothing written")
    if getattr(approval, "decision", None) != "approve" or \
            getattr(approval, "kind", "decision") != "decision":
        raise NotApproved(f"refused: approval #{getattr(approval, 'id', '?')} is not an "
                          "approve decision; nothing written")
    if getattr(approval, "case_id", None) != case_id:
        raise NotApproved(f"refused: approval #{getattr(approval, 'id', '?')} is for case "
                          f"{getattr(approval, 'case_id', None)!r}, not {case_id!r}; "
                          "nothing written")


def run_apply(backend: SlotBackend, kind: Literal["langgraph", "mem0"], ops: Any, *,
              case_id: str, approval: Any, journal: Journal | None, target: str,
              reviewer: str | None, check: Callable[[], None],
              plan: Callable[[str], tuple[list[dict[str, Any]], list[Step]]],
              record: Callable[[Intent], None] | None = None,
              log: ApplyLog | None = None) -> list[dict[str, Any]]:
    """Gate, lock, check, plan, journal, write; the report entries of the operations.
    With a journal, `record(intent)` (e.g. the approvals log's `applied` event) runs
    after the last write and before the journal is marked applied; `log` records the
    intent before the journal is written (its row id kept in the journal) and a rollback
    after a failed write."""
    require_approval(approval, case_id)
    if journal is None:
        check()
        apply_id = new_apply_id(case_id, target)
        done, steps = plan(apply_id)
        _write(backend, steps, None, None)
        return done
    with journal.locked():
        pending = journal.pending()
        if pending is not None:
            raise _pending_error(pending, journal)
        check()  # under the lock: a concurrent apply finished first is seen here
        apply_id = new_apply_id(case_id, target)
        done, planned = plan(apply_id)
        steps = with_digests(planned)
        intent = Intent(apply_id=apply_id, store=kind, target=target, case_id=case_id,
                        approval_id=getattr(approval, "id", None), reviewer=reviewer,
                        created_at=datetime.now(UTC).isoformat(), operations=done, steps=steps,
                        store_identity=journal.identity,
                        approval_row_hash=getattr(approval, "row_hash", None),
                        inputs_sha256=getattr(approval, "inputs_sha256", None),
                        outputs_sha256=getattr(approval, "outputs_sha256", None),
                        **journal.binding)
        if log is not None:
            intent = intent.model_copy(update={"intent_row": log.intent(intent, journal.key)})
        journal.write(intent)
        _write(backend, steps, journal, intent, log)
        if record is not None:
            record(intent)
        journal.finish(intent, "applied")
        return done


def _pending_error(pending: Intent, journal: Journal) -> DgrrError:
    from ._journal import ApplyPending

    return ApplyPending(
        f"an interrupted apply ({pending.apply_id}, case {pending.case_id!r}, started "
        f"{pending.created_at}) is recorded in '{journal.path}': finish it with "
        "`dgrr apply --resume` or undo it with `dgrr apply --rollback`; nothing written")


def _write(backend: SlotBackend, steps: list[Step], journal: Journal | None,
           intent: Intent | None, log: ApplyLog | None = None) -> None:
    try:
        run_forward(backend, steps, fresh=True)
    except Exception as exc:
        what = (str(exc) if isinstance(exc, SlotsChanged)
                else f"the store refused a write ({type(exc).__name__}: {str(exc)[:300]})")
        try:
            left = run_rollback(backend, steps)
        except Exception as again:
            where = f" (the journal '{journal.path}' keeps the before-state: run " \
                    "`dgrr apply --rollback`)" if journal is not None else ""
            raise DgrrError(f"{what}; and the rollback failed too "
                            f"({type(again).__name__}: {str(again)[:300]}){where}") from None
        unlogged = ""
        if journal is not None and intent is not None:
            done = intent.model_copy(update={"conflicts": left})
            if log is not None:
                try:
                    log.rolled_back(done, journal.key)
                except DgrrError as again:
                    unlogged = f" (the approvals log did not take the rollback: {again})"
            journal.finish(done, "rolled-back")
        kept = ("" if not left else "; these slots were changed by someone else and are "
                "kept as they are:\n" + "\n".join(f"  - {c.describe()}" for c in left))
        raise DgrrError(f"{what}; everything written was rolled back: the store is as "
                        f"before{kept}{unlogged}") from None


OverrideHook = Callable[[Intent, list[SlotConflict]], None]
"""Records an override before it is written: a signed `override` row of the approvals
log (`ApprovalStore.record_override`, which refuses one no trusted key can sign); it
raises to refuse the override."""


def _override(on_override: OverrideHook | None, intent: Intent,
              conflicts: list[SlotConflict]) -> bool:
    """Whether to write over `conflicts` (the slots someone changed since the apply
    planned them): only under a recorded, signed override (rule
    `apply.overwrite-signed`); without a hook to record one, refused."""
    if not conflicts:
        return False
    if on_override is None:
        raise DgrrError(f"overwrite refused: {len(conflicts)} slot(s) changed since apply "
                        f"{intent.apply_id} planned them, and no override hook records a "
                        "signed approval of writing over them; nothing written")
    on_override(intent, conflicts)
    return True


def resume_apply(backend: SlotBackend, journal: Journal,
                 record: Callable[[Intent], None] | None = None, *,
                 overwrite: bool = False, on_override: OverrideHook | None = None,
                 log: ApplyLog | None = None) -> Intent:
    """Finish the store's interrupted apply: every step not yet done written (only over
    a state the plan expects: a slot someone else changed since is a conflict, kept
    unless `overwrite`, after `on_override(intent, conflicts)` recorded that; an
    overwrite without `on_override` is refused), then `record(intent)` and the journal
    marked applied. With a `log`, a journal it does not hold current (recorded finished,
    or not the store's latest intent) is refused before anything is written. The
    returned intent lists the conflicts."""
    with journal.locked():
        intent = journal.pending()
        if intent is None:
            raise DgrrError(f"--resume: no interrupted apply for this store in "
                            f"'{journal.folder}'")
        if log is not None:
            log.check_current(intent, journal.key)
        # written over only under the override row just recorded (none found: none)
        overwrite = overwrite and _override(on_override, intent,
                                            forward_conflicts(backend, intent.steps))
        conflicts = run_forward(backend, intent.steps, overwrite=overwrite)
        intent = intent.model_copy(update={"conflicts": conflicts})
        if record is not None:
            record(intent)
        journal.finish(intent, "applied")
        return intent


def rollback_apply(backend: SlotBackend, journal: Journal, *, overwrite: bool = False,
                   on_override: OverrideHook | None = None,
                   log: ApplyLog | None = None) -> Intent:
    """Undo the store's interrupted apply: every touched slot back to its before-state,
    only where it holds a state the apply wrote or planned (others are conflicts, kept
    unless `overwrite`, after `on_override(intent, conflicts)` recorded that; an
    overwrite without `on_override` is refused); the returned intent lists the
    conflicts. With a `log`, a journal it does not hold current is refused before
    anything is written, and the rollback is recorded there before the journal is
    marked rolled back."""
    with journal.locked():
        intent = journal.pending()
        if intent is None:
            raise DgrrError(f"--rollback: no interrupted apply for this store in "
                            f"'{journal.folder}'")
        if log is not None:
            log.check_current(intent, journal.key)
        # written over only under the override row just recorded (none found: none)
        overwrite = overwrite and _override(on_override, intent,
                                            rollback_conflicts(backend, intent.steps))
        conflicts = run_rollback(backend, intent.steps, overwrite=overwrite)
        intent = intent.model_copy(update={"conflicts": conflicts})
        if log is not None:
            log.rolled_back(intent, journal.key)
        journal.finish(intent, "rolled-back")
        return intent
