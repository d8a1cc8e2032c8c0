"""A plan's decisions kept as rows until they are read or written.

A repair's report lists one decision per record and step of the case: 360k at 300k
steps, each a pydantic model of about 300 bytes, held from the moment the plan is taken
(before the case is read) until the result is written. :class:`DecisionRows` holds the
same decisions as three columns of the strings they are made of and makes a
:class:`Decision` only when one is read: iterated, indexed, or a slice of them written
(`_json_pieces` dumps a long list a chunk at a time, so only that chunk's models exist).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from ..case._shared import SharedFieldNames
from ._models import Decision

__all__ = ["DecisionRows"]

UNAFFECTED = "unaffected: kept"
"""The reason of a decision the plan gives none for."""

_NAMES = SharedFieldNames(("id", "kind", "action", "reason"))
"""The one set of field names every decision made from rows shares."""


class DecisionRows(Sequence[Decision]):
    """One decision per record, then per step, read as :class:`Decision` models made on
    demand; equal to a list of the same decisions."""

    __slots__ = ("_ids", "_actions", "_reasons", "_records")

    def __init__(self, memory: Mapping[str, str], steps: Mapping[str, str],
                 reasons: Mapping[str, str]) -> None:
        """The decisions of a plan whose record actions are `memory` and step actions
        `steps` (id -> action, in order), each with its reason from `reasons`."""
        self._ids: list[str] = [*memory, *steps]
        self._actions: list[str] = [*memory.values(), *steps.values()]
        get = reasons.get
        self._reasons: list[str] = [get(node, UNAFFECTED) for node in self._ids]
        self._records = len(memory)

    def dumped(self, start: int, stop: int) -> list[dict[str, Any]]:
        """`[d.model_dump(mode="json") for d in self[start:stop]]`, each dict made
        directly from its strings."""
        start, stop, _ = slice(start, stop).indices(len(self._ids))
        records = self._records
        return [{"id": self._ids[i], "kind": "record" if i < records else "step",
                 "action": self._actions[i], "reason": self._reasons[i]}
                for i in range(start, stop)]

    def id_actions(self) -> Iterator[tuple[str, str]]:
        """(id, action) of each decision, in order, without a model made for each (the
        final check reads every decision's action: 360k models at 300k steps)."""
        return zip(self._ids, self._actions, strict=True)

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> Decision: ...

    @overload
    def __getitem__(self, index: slice) -> list[Decision]: ...

    def __getitem__(self, index: int | slice) -> Decision | list[Decision]:
        if isinstance(index, slice):
            return [self._made(i) for i in range(*index.indices(len(self._ids)))]
        if index < 0:
            index += len(self._ids)
        if not 0 <= index < len(self._ids):
            raise IndexError("decision index out of range")
        return self._made(index)

    def __iter__(self) -> Iterator[Decision]:
        return map(self._made, range(len(self._ids)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DecisionRows):
            return (self._ids, self._actions, self._reasons, self._records) == (
                other._ids, other._actions, other._reasons, other._records)
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has none

    def __repr__(self) -> str:
        return f"DecisionRows({len(self)} decisions)"

    def _made(self, i: int) -> Decision:
        decision = Decision(id=self._ids[i], kind="record" if i < self._records else "step",
                            action=self._actions[i], reason=self._reasons[i])
        object.__setattr__(decision, "__pydantic_fields_set__", _NAMES)
        return decision

    def __reduce__(self) -> tuple[Any, ...]:
        records = self._records
        return _rows, (self._ids, self._actions, self._reasons, records)


def _rows(ids: list[str], actions: list[str], reasons: list[str], records: int
          ) -> DecisionRows:
    """A :class:`DecisionRows` unpickled."""
    rows = DecisionRows.__new__(DecisionRows)
    rows._ids, rows._actions, rows._reasons, rows._records = ids, actions, reasons, records
    return rows
