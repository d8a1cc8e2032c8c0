"""The memory store during a repair (stage 4, steps 1, 4 and 5).

The case's records after the plan's store edits, the records replayed writes add and
retire, and a mark per record saying what the repair did to it. What the model writes is
decided in the executor; this module only keeps the store and its rules: a quarantined or
deleted record is never active, and a record equal to a diagnosed fault is never
re-admitted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..case._case import Case, Dep, MemoryRecord, MemoryWrite
from ._models import StoreChanges

__all__ = ["RepairedMemory"]

_AGAIN = {"consolidate": "consolidated again", "update": "updated again",
          "supersede": "superseded again", "delete": "deleted again", "add": "retired"}


@dataclass
class RepairedMemory:
    """Records by id, with what the repair did to each."""

    case: Case
    faults: set[str]
    """Diagnosed faulty record ids: never re-admitted."""
    changes: StoreChanges
    """The report's store changes, filled as the store changes."""
    notes: list[str]
    """The report's notes (a restored record retired again)."""
    taken: set[str]
    """Ids in use in the case: new record ids avoid them."""
    records: dict[str, MemoryRecord] = field(init=False)
    marks: dict[str, str] = field(init=False, default_factory=dict)
    """deleted, quarantined, restored, added, retired, restored-then-retired."""
    quarantined: list[str] = field(init=False, default_factory=list)
    order: dict[str, int] = field(init=False)
    """The case's store order (evidence is listed in it)."""
    versions: dict[str, str] = field(init=False, default_factory=dict)
    """A record of the case -> the record a replayed write re-derived from it (`base`):
    what a replayed step that named the old record sees instead (a replay op's
    `replace`)."""

    def __post_init__(self) -> None:
        self.records = {m.id: m.model_copy(deep=True) for m in self.case.memory}
        self.order = {m.id: i for i, m in enumerate(self.case.memory)}

    def apply_edits(self, edits: Mapping[str, str]) -> None:
        """Stage 4 step 1: delete, quarantine and restore as the plan says."""
        for rid, action in edits.items():
            rec = self.records.get(rid)
            if rec is None:
                continue
            if action == "delete":
                if rec.status == "active":
                    rec.status = "deleted"
                self.marks[rid] = "deleted"
                self.changes.deleted.append(rid)
            elif action == "quarantine":
                self.marks[rid] = "quarantined"
                self.quarantined.append(rid)
                self.changes.quarantined.append(rid)
            elif action == "restore":
                rec.status = "active"
                self.marks[rid] = "restored"
                self.changes.restored.append(rid)

    def __contains__(self, rid: object) -> bool:
        return rid in self.records

    def __getitem__(self, rid: str) -> MemoryRecord:
        return self.records[rid]

    def current(self, rid: str) -> str:
        """`rid`, or the record a replayed write re-derived from it when `rid` itself is
        no longer active (the newest such record)."""
        seen = {rid}
        while not self.active(rid) and rid in self.versions and self.versions[rid] not in seen:
            rid = self.versions[rid]
            seen.add(rid)
        return rid

    def active(self, rid: str) -> bool:
        rec = self.records.get(rid)
        return (rec is not None and rec.status == "active"
                and self.marks.get(rid) not in ("deleted", "quarantined"))

    def active_records(self) -> list[MemoryRecord]:
        return [r for r in self.records.values() if self.active(r.id)]

    def fault_twin(self, rec: Mapping[str, Any]) -> str | None:
        """The diagnosed fault a record to write equals (same text, or same key and
        value), if any."""
        text = " ".join(str(rec.get("text", "")).lower().split())
        for fid in sorted(self.faults):
            f = self.records.get(fid) or next((m for m in self.case.memory if m.id == fid), None)
            if f is None:
                continue
            if " ".join(f.text.lower().split()) == text:
                return fid
            if (f.key is not None and f.key == rec.get("key")
                    and _same(f.value, rec.get("value"))):
                return fid
        return None

    def add(self, step: MemoryWrite, rec: Mapping[str, Any], sources: Iterable[str] = ()
            ) -> str:
        """A record written by replayed `step`, under a new id `<base>~rN`."""
        rid = self._new_id(rec.get("base") or f"{step.id}.m")
        deps = [Dep(id=step.id, label="update" if step.op == "update" else "produce")]
        deps += [Dep(id=s, label="consolidate") for s in sources]
        base = rec.get("base")
        if base in self.order:
            self.versions[base] = rid
        self.records[rid] = MemoryRecord(id=rid, user_id=self.case.user_id, text=rec["text"],
                                         key=rec.get("key"), value=rec.get("value"),
                                         status="active", created_seq=step.seq, deps=deps)
        self.marks[rid] = "added"
        self.changes.added.append(rid)
        return rid

    def retire(self, step: MemoryWrite, rid: str, by: list[str]) -> None:
        """Retire `rid` as the original mutation did, a record the plan restored included:
        the restore made its content available to this replayed write, which now
        consolidates or replaces it again."""
        rec = self.records.get(rid)
        if rec is None or not self.active(rid):
            return
        restored = self.marks.get(rid) == "restored"
        rec.status = "superseded"
        if not any(d.id == step.id and d.label == "delete" for d in rec.deps):
            rec.deps = [*rec.deps, Dep(id=step.id, label="delete")]
        self.marks[rid] = "restored-then-retired" if restored else "retired"
        self.changes.retired.append(rid)
        if restored:
            self.notes.append(f"{rid} restored, then {_AGAIN[step.op]} by replayed "
                              f"{step.id}" + (f" into {', '.join(by)}" if by else ""))

    def _new_id(self, base: str) -> str:
        n = 1
        while f"{base}~r{n}" in self.taken:
            n += 1
        rid = f"{base}~r{n}"
        self.taken.add(rid)
        return rid

    def dump(self) -> list[dict[str, Any]]:
        """The records as the repaired trajectory lists them, each with its mark; a
        quarantined record is stored with status `deleted` so it is never active."""
        out = []
        for rid, rec in self.records.items():
            data = rec.model_dump(mode="json")
            mark = self.marks.get(rid)
            if mark == "quarantined":
                data["status"] = "deleted"
            if mark:
                data["repair"] = mark
            out.append(data)
        return out


def _same(a: Any, b: Any) -> bool:
    norm = lambda v: json.dumps(v, sort_keys=True, default=str).lower()  # noqa: E731
    return norm(a) == norm(b)
