"""The report's step outcomes, the plain ones kept as rows until read or written.

A repair's report has one outcome per step: 300k at 300k steps, nearly all of them a step
kept as it was (id, type, `kept`) or invalidated with one of two lines. As pydantic
models they took about 300 bytes each from the end of the replay to the write.
:class:`StepOutcomeRows` keeps such an outcome as a tuple of its strings and makes its
:class:`StepOutcome` only when it is read (iterated, indexed, or a slice written by
`_json_pieces`, a chunk at a time); an outcome the replay made (replayed, refreshed,
failed, a kept step with a note) stays the model it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from ..case._shared import SharedFieldNames
from ._models import StepOutcome

__all__ = ["StepOutcomeRows"]

_KEPT_NAMES = SharedFieldNames(("id", "type", "outcome"))
"""The field names of a kept step's outcome made from its row (`StepOutcome(id, type,
outcome="kept")` sets these)."""
_NOTED_NAMES = SharedFieldNames(("id", "type", "outcome", "detail"))
"""The field names of an outcome with a detail made from its row."""

Entry = StepOutcome | tuple[str, str] | tuple[str, str, str, str]
"""A model, (id, type) of a kept step, or (id, type, outcome, detail)."""


class StepOutcomeRows(Sequence[StepOutcome]):
    """Step outcomes in trajectory order, read as :class:`StepOutcome` models; equal to a
    list of the same outcomes."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: list[Entry] = []

    def add(self, outcome: StepOutcome) -> None:
        """An outcome the replay made, kept as the model."""
        self._entries.append(outcome)

    def add_kept(self, step_id: str, step_type: str) -> None:
        """A step kept as it was: `StepOutcome(id=step_id, type=step_type, outcome="kept")`."""
        self._entries.append((step_id, step_type))

    def add_noted(self, step_id: str, step_type: str, outcome: str, detail: str) -> None:
        """`StepOutcome(id=step_id, type=step_type, outcome=outcome, detail=detail)`."""
        self._entries.append((step_id, step_type, outcome, detail))

    def models(self) -> Iterator[StepOutcome]:
        """The outcomes held as models (the others are made when read)."""
        return (e for e in self._entries if isinstance(e, StepOutcome))

    def id_outcomes(self) -> Iterator[tuple[str, str]]:
        """(id, outcome) of each step, in order, without making the models."""
        for e in self._entries:
            if isinstance(e, StepOutcome):
                yield e.id, e.outcome
            elif len(e) == 2:
                yield e[0], "kept"
            else:
                yield e[0], e[2]  # type: ignore[misc]

    def dumped(self, start: int, stop: int) -> list[dict[str, Any]]:
        """`[o.model_dump(mode="json") for o in self[start:stop]]`, a row's dict made
        directly (every field is written; a row's are strings)."""
        out: list[dict[str, Any]] = []
        for e in self._entries[start:stop]:
            if isinstance(e, StepOutcome):
                out.append(e.model_dump(mode="json"))
            elif len(e) == 2:
                out.append({"id": e[0], "type": e[1], "outcome": "kept", "detail": "",
                            "llm_calls": 0, "tokens": 0})
            else:
                out.append({"id": e[0], "type": e[1], "outcome": e[2],  # type: ignore[misc]
                            "detail": e[3], "llm_calls": 0, "tokens": 0})  # type: ignore[misc]
        return out

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> StepOutcome: ...

    @overload
    def __getitem__(self, index: slice) -> list[StepOutcome]: ...

    def __getitem__(self, index: int | slice) -> StepOutcome | list[StepOutcome]:
        if isinstance(index, slice):
            return [_made(e) for e in self._entries[index]]
        return _made(self._entries[index])

    def __iter__(self) -> Iterator[StepOutcome]:
        return map(_made, self._entries)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (StepOutcomeRows, list, tuple)):
            return len(other) == len(self) and all(
                a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has none

    def __repr__(self) -> str:
        return f"StepOutcomeRows({len(self)} outcomes)"

    def __reduce__(self) -> tuple[Any, ...]:
        return _unpickled, (self._entries,)


def _made(entry: Entry) -> StepOutcome:
    if isinstance(entry, StepOutcome):
        return entry
    if len(entry) == 2:
        made = StepOutcome(id=entry[0], type=entry[1], outcome="kept")
        names = _KEPT_NAMES
    else:
        made = StepOutcome(id=entry[0], type=entry[1], outcome=entry[2],  # type: ignore[arg-type]
                           detail=entry[3])
        names = _NOTED_NAMES
    object.__setattr__(made, "__pydantic_fields_set__", names)
    return made


def _unpickled(entries: list[Entry]) -> StepOutcomeRows:
    """A :class:`StepOutcomeRows` unpickled."""
    rows = StepOutcomeRows()
    rows._entries = entries
    return rows
