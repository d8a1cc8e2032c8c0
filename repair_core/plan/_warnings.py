"""What a plan warns about in its case beyond faults and suspects: a record the trace
returned with texts that disagree (the importer keeps the first and lists the others as
the record's `conflicting_texts`, see `importers._assemble`). The plan is made from the
kept text; a reviewer should know that the agent may have read another."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from ..case._case import Case

__all__ = ["PlanWarning", "case_warnings"]


class PlanWarning(BaseModel):
    """One warning of a plan."""

    kind: Literal["conflicting-texts"]
    """conflicting-texts: the trace returned the record with other texts than the one
    the case keeps."""
    node: str
    """The record id."""
    message: str
    """One line for a person (texts quoted with `repr`, cut to 80 characters)."""


def _cut(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:79] + "…")


def case_warnings(case: Case) -> list[PlanWarning]:
    """A `conflicting-texts` warning per record whose `conflicting_texts` lists another
    text than its own, in store order."""
    out = []
    for record in case.memory:
        seen: Any = (record.model_extra or {}).get("conflicting_texts")
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
