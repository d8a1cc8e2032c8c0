"""A list of cases to work through: each case file of a folder (or any files given), with
its id, domain, faults and how far its repair has gone — planned, replayed, approved,
rejected or applied — from the approvals store's rows for its case id (the latest
decision, or an applied event after it) and the case ids the caller knows were replayed.
Files are read only as far as their head (`repair_core.case._head`); JSON that does not
claim to be a case (a manifest, a saved result) is left out, one that claims it but cannot
be read is listed as unreadable with why. Linear in the files and the store's rows.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from .._errors import CaseError
from ..case._head import NotACase, read_case_head
from ._store import ApprovalRecord, ApprovalStore

__all__ = ["CaseStatus", "CASE_STATUSES", "ListedCase", "case_files", "case_statuses",
           "list_cases"]

CaseStatus = Literal["planned", "replayed", "approved", "rejected", "applied", "unreadable"]
CASE_STATUSES: tuple[CaseStatus, ...] = CaseStatus.__args__  # type: ignore[attr-defined]


class ListedCase(BaseModel):
    """One case of a list."""

    path: str
    """The file, relative to the folder listed (as given otherwise)."""
    case_id: str
    """The case's id ("" for an unreadable file)."""
    domain: str | None = None
    """Its domain, when it names one."""
    faults: list[str] = []
    """Its diagnosed faults."""
    steps: int = 0
    """Trajectory steps."""
    status: CaseStatus
    """planned (it loads and can be planned; nothing more is recorded), replayed (the
    caller replayed it), approved or rejected (the latest reviewer decision on its case
    id), applied (an approved repair of it was written to a store), unreadable."""
    problem: str | None = None
    """Why an unreadable file is not a case (plain text, untrusted)."""


def case_files(folder: str | Path) -> list[Path]:
    """The case files under `folder`, in name order: every `*.json` at any depth but a
    saved plan (`*.plan.json`) and hidden files."""
    root = Path(folder)
    return sorted(p for p in root.rglob("*.json")
                  if p.is_file() and not p.name.endswith(".plan.json")
                  and not any(part.startswith(".") for part in p.relative_to(root).parts))


def case_statuses(rows: Iterable[ApprovalRecord]) -> dict[str, CaseStatus]:
    """Case id -> approved, rejected or applied, from approvals rows: the latest decision
    wins, an applied event after an approval makes it applied, and a roll-back of the
    apply makes it approved again."""
    found: dict[str, tuple[int, CaseStatus]] = {}
    for row in rows:
        status: CaseStatus | None = (
            "applied" if row.kind == "applied" else
            "approved" if row.kind == "rolled-back" else
            ("approved" if row.decision == "approve" else "rejected")
            if row.kind == "decision" else None)
        if status is None:
            continue
        held = found.get(row.case_id)
        if held is None or row.id > held[0]:
            found[row.case_id] = (row.id, status)
    return {cid: status for cid, (_, status) in found.items()}


def list_cases(files: Iterable[str | Path], *, root: str | Path | None = None,
               store: ApprovalStore | None = None, replayed: Collection[str] = ()
               ) -> list[ListedCase]:
    """Each of `files` as a :class:`ListedCase` (paths shown relative to `root`), with its
    status from `store`'s rows and `replayed` (case ids replayed in this session)."""
    statuses = case_statuses(store.history()) if store is not None else {}
    out = []
    for f in files:
        path = Path(f)
        shown = str(path.relative_to(root)) if root is not None and path.is_relative_to(root) \
            else str(path)
        try:
            head = read_case_head(path)
        except NotACase:
            continue
        except CaseError as exc:
            out.append(ListedCase(path=shown, case_id="", status="unreadable",
                                  problem="; ".join(exc.problems)))
            continue
        status = statuses.get(head.case_id) or (
            "replayed" if head.case_id in replayed else "planned")
        out.append(ListedCase(path=shown, case_id=head.case_id, domain=head.domain,
                              faults=list(head.faults), steps=head.steps, status=status))
    return out
