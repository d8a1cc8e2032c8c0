"""What a replayed step's prompt carries, bounded whatever the case size.

A replay prompt holds the request (the step's own user turn and some earlier turns, which
a policy may read and cite) and the step's premises (`_executor._evidence`); a memory
write also sees the store, so as not to repeat a record. The premises are bounded by the
step itself; the conversation and the store were not: a 100k-step case has about 10k
turns and 20k records, and carrying all of them made each model call about 354k tokens.

- Earlier turns: the :data:`EARLIER_TURNS` most recent ones before the step's turn, plus
  any turn the step depends on directly, in session order as before.
- The store a write sees: the user's active records that the write targets or whose key
  it may write (its slot, or `last_<tool>` for a tool observation in its evidence), the
  :data:`MEMORY_ITEMS` most recent of them, in store order as before.

Every committed case has at most 5 turns, and no write of theirs has more than a few
records under one key, so what their prompts carry is unchanged.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from ..case._case import MemoryRecord, MemoryWrite, Step, Turn

__all__ = ["EARLIER_TURNS", "MEMORY_ITEMS", "Conversation", "store_view"]

EARLIER_TURNS = 8
"""Most earlier user turns a replay prompt carries besides those the step depends on."""
MEMORY_ITEMS = 16
"""Most store records a replayed memory write sees."""


class ActiveStore(Protocol):
    def under(self, user_id: str, ids: Iterable[str], keys: Iterable[str], last: int
              ) -> list[MemoryRecord]:
        """The `last` newest of the user's active records among `ids` or under one of
        `keys`, in store order."""
        ...


def store_view(active: Iterable[MemoryRecord] | ActiveStore, user_id: str, step: MemoryWrite,
               slot: str | None, evidence: Sequence[dict[str, Any]]) -> list[MemoryRecord]:
    """The records of `active` (in store order; or a store that finds them by key) a
    replayed write's prompt shows."""
    keys = {slot} if slot else set()
    for e in evidence:  # the reference policies' two spellings of a tool-result key
        if e.get("kind") == "observation":
            keys |= {f"last_{e.get('tool') or 'tool'}", f"last_{e.get('tool', 'tool')}"}
    targets = set(step.target)
    if hasattr(active, "under"):
        return active.under(user_id, targets, keys, MEMORY_ITEMS)
    shown = [r for r in active if r.user_id == user_id and (r.id in targets or r.key in keys)]
    return shown[-MEMORY_ITEMS:]


class Conversation:
    """The session's turns, indexed once, for bounded windows per step."""

    def __init__(self, session: Sequence[Turn]) -> None:
        self._position = {id(t): i for i, t in enumerate(session)}
        self._session = list(session)
        self._by_seq = sorted(session, key=lambda t: t.seq)
        self._seqs = [t.seq for t in self._by_seq]
        self._ids = {t.id: t for t in session}

    def earlier(self, turn: Turn, step: Step) -> list[Turn]:
        """The earlier turns `step`'s prompt carries, in session order."""
        end = bisect_left(self._seqs, turn.seq)
        chosen = {id(t): t for t in self._by_seq[max(0, end - EARLIER_TURNS):end]}
        for d in step.deps:
            cited = self._ids.get(d.id)
            if cited is not None and cited.seq < turn.seq:
                chosen.setdefault(id(cited), cited)
        return sorted(chosen.values(), key=lambda t: self._position.get(id(t), -1))
