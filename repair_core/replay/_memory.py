"""The memory store during a repair (stage 4, steps 1, 4 and 5).

The case's records after the plan's store edits, the records replayed writes add and
retire, and a mark per record saying what the repair did to it. What the model writes is
decided in the executor; this module only keeps the store and its rules: a quarantined or
deleted record is never active, and a record equal to a diagnosed fault is never
re-admitted.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..agent._index import LexicalIndex
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

    _active: dict[str, MemoryRecord] = field(init=False, repr=False)
    """The active records, in store order, kept as the store changes (not rebuilt per
    read: a 100k-step replay reads thousands of times)."""
    _index: LexicalIndex = field(init=False, repr=False)
    """The active records by word, for the built-in retriever."""
    _by_key: dict[tuple[str, str], dict[str, None]] = field(init=False, repr=False)
    """(user, key) -> the active records under that key, in store order."""
    _position: dict[str, int] = field(init=False, repr=False)
    """Every record's place in the store (the case's records, then those replay adds)."""

    def __post_init__(self) -> None:
        # the case's own records until the repair changes one (`_own`): copying 20k
        # records up front cost more than a 100k-step replay's reads
        self.records = {m.id: m for m in self.case.memory}
        self.order = {m.id: i for i, m in enumerate(self.case.memory)}
        self._position = dict(self.order)
        # every record gets its place in the index; the active ones are searchable
        self._index = LexicalIndex(self.records.values())
        self._order_active()

    def _own(self, rid: str) -> MemoryRecord:
        """`rid`'s record, copied from the case before its first change (a shallow copy:
        a change sets a field, `status` or `deps`, and never changes a value in place)."""
        rec = self.records[rid]
        if rid in self.order and rec is self.case.memory[self.order[rid]]:
            rec = self.records[rid] = rec.model_copy()
            if rid in self._active:
                self._active[rid] = rec
        return rec

    def _order_active(self) -> None:
        """The active records and the per-key index, in store order, from the records."""
        self._active, self._by_key = {}, {}
        for rid, rec in self.records.items():
            if self.active(rid):
                self._active[rid] = rec
                if rec.key is not None:
                    self._by_key.setdefault((rec.user_id, rec.key), {})[rid] = None

    def _activate(self, rec: MemoryRecord) -> None:
        self._active[rec.id] = rec
        self._index.put(rec)
        if rec.key is not None:
            self._by_key.setdefault((rec.user_id, rec.key), {})[rec.id] = None

    def _deactivate(self, rid: str) -> None:
        rec = self._active.pop(rid, None)
        if rec is None:
            return
        self._index.discard(rid)
        if rec.key is not None:
            self._by_key[(rec.user_id, rec.key)].pop(rid, None)

    def apply_edits(self, edits: Mapping[str, str]) -> None:
        """Stage 4 step 1: delete, quarantine and restore as the plan says."""
        restored: list[MemoryRecord] = []
        for rid, action in edits.items():
            if rid not in self.records:
                continue
            rec = self._own(rid)
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
            if not self.active(rid):
                self._deactivate(rid)
            elif rid not in self._active:
                restored.append(rec)
        for rec in restored:  # back in the index at its own place
            self._index.put(rec)
        if restored:  # and in the active records' store order
            self._order_active()

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
        """The active records, in store order."""
        return list(self._active.values())

    def search(self, query: str, user_id: str, k: int) -> list[str]:
        """The built-in retriever's answer over the active records
        (:class:`~repair_core.agent.LexicalRetriever` with this `k`), from the index."""
        return self._index.search(query, user_id, k)

    def under(self, user_id: str, ids: Iterable[str], keys: Iterable[str], last: int
              ) -> list[MemoryRecord]:
        """The `last` newest of the user's active records among `ids` or under one of
        `keys`, in store order."""
        found = {rid for rid in ids if rid in self._active
                 and self._active[rid].user_id == user_id}
        for key in keys:  # a key's records are held in store order: its newest are last
            held = self._by_key.get((user_id, key), {})
            found.update(itertools.islice(reversed(held), last))
        newest = sorted(found, key=self._position.__getitem__)[-last:] if last else []
        return [self._active[rid] for rid in newest]

    def fault_twin(self, rec: Mapping[str, Any]) -> str | None:
        """The diagnosed fault a record to write equals (same text, or same key and
        value), if any."""
        text = " ".join(str(rec.get("text", "")).lower().split())
        for fid in sorted(self.faults):
            # every record of the case is in `records` (a fault that is a step is not)
            f = self.records.get(fid)
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
        self._position[rid] = len(self._position)
        self._activate(self.records[rid])
        self.marks[rid] = "added"
        self.changes.added.append(rid)
        return rid

    def retire(self, step: MemoryWrite, rid: str, by: list[str]) -> None:
        """Retire `rid` as the original mutation did, a record the plan restored included:
        the restore made its content available to this replayed write, which now
        consolidates or replaces it again."""
        if rid not in self.records or not self.active(rid):
            return
        rec = self._own(rid)
        restored = self.marks.get(rid) == "restored"
        rec.status = "superseded"
        self._deactivate(rid)
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

    def repaired(self) -> list[MemoryRecord | dict[str, Any]]:
        """The records as the repaired trajectory lists them, each with its mark; a
        quarantined record is stored with status `deleted` so it is never active. An added
        record is new JSON data; the others are the case's records (or this store's copies
        of them)."""
        out: list[MemoryRecord | dict[str, Any]] = []
        for rid, rec in self.records.items():
            mark = self.marks.get(rid)
            if mark == "added":
                out.append({**rec.model_dump(mode="json"), "repair": mark})
            elif mark == "quarantined":
                out.append(rec.model_copy(update={"status": "deleted", "repair": mark}))
            elif mark:
                out.append(rec.model_copy(update={"repair": mark}))
            else:
                out.append(rec)
        return out


def _same(a: Any, b: Any) -> bool:
    norm = lambda v: json.dumps(v, sort_keys=True, default=str).lower()  # noqa: E731
    return norm(a) == norm(b)
