"""What a plan warns about in its case beyond faults and suspects:

- `conflicting-texts`: a record the trace returned with texts that disagree (the importer
  keeps the first and lists the others as the record's `conflicting_texts`, see
  `importers._assemble`). The plan is made from the kept text; a reviewer should know
  that the agent may have read another.
- `other-owner`: a record whose owner, as its source gave it (the record's `owner`: Mem0's
  `user_id`, `agent_id`, `run_id`, or a LangGraph namespace), is not the case's user:
  another user's memory, an agent's or a run's not scoped to the user, or an item in a
  namespace without the user's id (see `case._owner`). Repairing it changes memory
  someone else reads."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from ..case._case import Case
from ..case._owner import other_owner

__all__ = ["PlanWarning", "case_warnings"]


class PlanWarning(BaseModel):
    """One warning of a plan."""

    kind: Literal["conflicting-texts", "other-owner"]
    """conflicting-texts: the trace returned the record with other texts than the one
    the case keeps; other-owner: the record's owner is not the case's user."""
    node: str
    """The record id."""
    message: str
    """One line for a person (texts quoted with `repr`, cut to 80 characters)."""


def _cut(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:79] + "…")


def case_warnings(case: Case) -> list[PlanWarning]:
    """Per record, in store order: an `other-owner` warning when its source owner is not
    the case's user, a `conflicting-texts` warning when its `conflicting_texts` lists
    another text than its own."""
    out = []
    for record in case.memory:
        extra = record.model_extra or {}
        why = other_owner(extra.get("owner"), case.user_id)
        if why is not None:
            out.append(PlanWarning(kind="other-owner", node=record.id, message=(
                f"record {record.id!r} {why}: repairing it changes memory someone else "
                "reads")))
        seen: Any = extra.get("conflicting_texts")
        if not isinstance(seen, list):
            continue
        others = list(dict.fromkeys(
            s["text"] for s in seen if isinstance(s, dict) and isinstance(s.get("text"), str)
            and s["text"] != record.text))
        if not others:
            continue
        out.append(PlanWarning(kind="conflicting-texts", node=record.id, message=(
            f"the trace returned record {record.id!r} with {len(others) + 1} different "
            f"texts; planned from {_cut(record.text)}, not "
            + ", ".join(_cut(t) for t in others))))
    return out
