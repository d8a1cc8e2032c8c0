"""Writes in another owner's scope: an apply deletes, quarantines or restores a memory
whose owner is not the case's user, or adds one re-derived from it, only when its approval
acknowledged that record (`dgrr approve --acknowledge-owner RECORD`, rule
`apply.other-owner-acknowledged`).

The owner is read twice: from the case (the scope its source gave the record, as the
plan warned about it) and from the store itself just before the writes, so that a memory
the case does not say is someone else's, or that moved to another scope since, is
caught too."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .._errors import DgrrError
from ..case._owner import acknowledged_owners, other_owner, scopes_of
from ._writeback import StoreOp

__all__ = ["OwnerNotAcknowledged", "owner_problems", "check_owners"]


class OwnerNotAcknowledged(DgrrError):
    """An apply would write in the scope of someone other than the case's user without
    its approval's acknowledgement."""


def _same_scope(live: dict[str, Any], approved: dict[str, Any]) -> bool:
    """Whether the store's scope `live` is the one the case gave (compared on the keys
    the store gives)."""
    return all(approved.get(k) == v for k, v in live.items())


def owner_problems(ops: Sequence[StoreOp], *, user: str, acknowledged: Iterable[str],
                   store_owner: Callable[[StoreOp], Any] | None = None) -> list[str]:
    """One line per operation that writes in another owner's scope without an
    acknowledgement among `acknowledged` (an approval's list): by the case's owner of the
    record, and, with `store_owner` (the scope the store gives the operation's memory
    now, None when it holds none), by the store's."""
    acked = acknowledged_owners(list(acknowledged))
    out: list[str] = []
    for op in ops:
        record = op.owner_record or op.memory_id or op.record
        why = other_owner(op.owner, user)
        if why is not None and record not in acked:
            out.append(f"record {record!r} {why}: the approval did not acknowledge it "
                       f"(dgrr approve --acknowledge-owner {record})")
            continue
        if store_owner is None or op.op == "add":
            continue  # an added record is new: its scope is the one the case gives it
        live = scopes_of(store_owner(op))
        live_why = other_owner(live, user)
        if live_why is None:
            continue
        if record not in acked:  # the case gave no owner, or the user's
            out.append(f"memory {op.memory_id or op.record!r} {live_why} in the store, but "
                       f"the case does not say so (record {record!r}): the approval did not "
                       "acknowledge it; import the trace again so that the plan shows it")
        elif why is not None and not _same_scope(live, scopes_of(op.owner)):
            out.append(f"memory {op.memory_id or op.record!r} {live_why} in the store now, "
                       f"not the scope approval acknowledged for record {record!r} "
                       f"({other_owner(op.owner, user)})")
    return out


def check_owners(ops: Sequence[StoreOp], *, user: str, acknowledged: Iterable[str],
                 store_owner: Callable[[StoreOp], Any] | None = None) -> None:
    """Raise :class:`OwnerNotAcknowledged` listing :func:`owner_problems`."""
    problems = owner_problems(ops, user=user, acknowledged=acknowledged,
                              store_owner=store_owner)
    if problems:
        raise OwnerNotAcknowledged(
            "refused: the repair writes in the scope of someone other than the case's "
            f"user {user!r} without the approval's acknowledgement; nothing written:\n"
            + "\n".join(f"  - {p}" for p in problems))

