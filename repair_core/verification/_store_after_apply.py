"""The store an apply would leave: the case's active records with a repair result's store
changes made as `dgrr apply` makes them.

One rule for both readers: `dgrr apply` and the queue's worker turn these changes into
operations on the real store (`integrations.store_ops` adds where each record lives),
and the gate scans the store they leave (`verification._gate`). A result is untrusted
JSON; every field read is checked and a bad one is named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from .._errors import DgrrError
from ..case._case import Case, MemoryRecord

__all__ = ["AppliedRecord", "StoreAfterApply", "StoreChange", "result_parts",
           "store_after_apply"]

CHANGE_KINDS = ("deleted", "quarantined", "restored", "added", "retired")
_RECORD_FIELDS = frozenset(MemoryRecord.model_fields)
"""A record's fields in the case format; any other field of a record the result adds is
one of its `other_fields`."""


class StoreChange(BaseModel):
    """One change an apply makes to the store, by the case's record id."""

    op: Literal["delete", "quarantine", "restore", "add"]
    """delete: the record leaves the store; quarantine: it leaves every read, kept for
    audit; restore: a retired text comes back as an active record; add: a record a
    replayed write created is written."""
    record: str
    """The record's id in the case (or, for `add`, in the result's store)."""
    text: str
    """What is deleted, hidden or written."""


class AppliedRecord(BaseModel):
    """An active record of the store an apply would leave."""

    id: str
    """The record's id in the case, or the result's id of a record the apply adds."""
    text: str
    """Its text: the case's own, or the text the apply writes for an added record."""
    key: str | None = None
    """Its slot key, when it has one."""
    value: Any = None
    """Its slot value, when it has one."""
    other_fields: dict[str, Any] = Field(default_factory=dict)
    """Its fields beyond the format's (attachments, tags, metadata), which the apply
    writes with it: the gate reads their strings as it reads the text."""


class StoreAfterApply(BaseModel):
    """What the agent's store holds after the apply, and the changes that lead there."""

    changes: list[StoreChange] = Field(default_factory=list)
    """The apply's changes, in the order it makes them: delete, quarantine, delete what a
    replayed write retired, restore, add."""
    active: list[AppliedRecord] = Field(default_factory=list)
    """The active records afterwards: the case's active records not deleted, quarantined
    or retired, in the case's order, then those restored and added, in change order."""


def store_after_apply(case: Case, result: Mapping[str, Any]) -> StoreAfterApply:
    """The changes `dgrr apply` makes for `result` (a `dgrr repair --json` object) on the
    records of `case`, and the active store they leave. A record a replayed write retired
    leaves the store too (a restored one is then not restored; an added one not added),
    as it left the repaired store. A bad field, or a change naming a record neither the
    case nor the result's store holds, is a DgrrError naming it."""
    changes, store = result_parts(result)
    records = {m.id: m for m in case.memory}
    written = {m["id"]: m for part in ("active", "quarantine") for m in store[part]}
    retired = set(changes["retired"])
    out: list[StoreChange] = []
    problems: list[str] = []
    for kind, op in (("deleted", "delete"), ("quarantined", "quarantine")):
        for rid in changes[kind]:
            m = records.get(rid)
            if m is None:
                problems.append(f"report.store_changes.{kind}: '{rid}' is not a record of "
                                "the case")
            elif m.status == "active":
                # a retired version (a superseded text of a Mem0 history, an old LangGraph
                # value) is not in the store: deleting or hiding it changes nothing there
                out.append(StoreChange(op=op, record=rid, text=m.text))  # type: ignore[arg-type]
    removed = {c.record for c in out}
    for rid in changes["retired"]:
        m = records.get(rid)
        if m is not None and m.status == "active" and rid not in removed:
            removed.add(rid)  # superseded by the replayed write that re-derived it
            out.append(StoreChange(op="delete", record=rid, text=m.text))
    for rid in changes["restored"]:
        m = records.get(rid)
        if m is None:
            problems.append(f"report.store_changes.restored: '{rid}' is not a record of the "
                            "case")
        elif rid not in retired:  # one retired again by a replayed write stays retired
            out.append(StoreChange(op="restore", record=rid, text=m.text))
    for rid in changes["added"]:
        new = written.get(rid)
        if rid in retired:
            continue  # written, then superseded by a later replayed step: nothing to add
        if new is None:
            problems.append(f"report.store_changes.added: '{rid}' is not in the result's "
                            "store")
            continue
        out.append(StoreChange(op="add", record=rid, text=new["text"]))
    if problems:
        raise DgrrError("RESULT does not fit the case:\n"
                        + "\n".join(f"  - {p}" for p in problems))
    active: dict[str, AppliedRecord] = {
        m.id: AppliedRecord(id=m.id, text=m.text, key=m.key, value=m.value,
                            other_fields=m.other_fields)
        for m in case.memory if m.status == "active" and m.id not in removed}
    for c in out:
        if c.op == "restore":
            m = records[c.record]
            active[c.record] = AppliedRecord(id=m.id, text=m.text, key=m.key, value=m.value,
                                             other_fields=m.other_fields)
        elif c.op == "add":
            new = written[c.record]
            key = new.get("key")
            active[c.record] = AppliedRecord(id=c.record, text=c.text,
                                             key=key if isinstance(key, str) else None,
                                             value=new.get("value"),
                                             other_fields={k: v for k, v in new.items()
                                                           if k not in _RECORD_FIELDS})
    return StoreAfterApply(changes=out, active=list(active.values()))


def result_parts(result: Any) -> tuple[dict[str, list[str]], dict[str, list[dict]]]:
    """`report.store_changes` (every kind, a list of ids) and `store` (`active` and
    `quarantine`, lists of records with an id and a text) of a repair result, every field
    checked: a named error for anything that is not what `dgrr repair --json` prints."""
    hint = " (a repair result, as `dgrr repair --json` prints)"
    if not isinstance(result, Mapping):
        raise DgrrError(f"RESULT: expected a JSON object{hint}, got {type(result).__name__}")
    report, store = result.get("report"), result.get("store")
    if not isinstance(report, Mapping) or not isinstance(report.get("store_changes"), Mapping):
        raise DgrrError(f"RESULT: report.store_changes: expected an object{hint}")
    if not isinstance(store, Mapping):
        raise DgrrError(f"RESULT: store: expected an object{hint}")
    problems: list[str] = []
    changes: dict[str, list[str]] = {}
    for kind in CHANGE_KINDS:
        ids = report["store_changes"].get(kind, [])
        if not isinstance(ids, list):
            problems.append(f"report.store_changes.{kind}: expected a list of record ids, "
                            f"got {type(ids).__name__}")
            ids = []
        for i, rid in enumerate(ids):
            if not isinstance(rid, str) or not rid:
                problems.append(f"report.store_changes.{kind}[{i}]: expected a record id, "
                                f"got {rid!r}"[:200])
        changes[kind] = [rid for rid in ids if isinstance(rid, str) and rid]
    parts: dict[str, list[dict]] = {}
    for part in ("active", "quarantine"):
        items = store.get(part, [])
        parts[part] = []
        if not isinstance(items, list):
            problems.append(f"store.{part}: expected a list of records, got "
                            f"{type(items).__name__}")
            continue
        for i, m in enumerate(items):
            if not isinstance(m, Mapping):
                problems.append(f"store.{part}[{i}]: expected a record object, got "
                                f"{type(m).__name__}")
            elif not isinstance(m.get("id"), str) or not m["id"]:
                problems.append(f"store.{part}[{i}].id: expected a record id, got "
                                f"{m.get('id')!r}"[:200])
            elif not isinstance(m.get("text", ""), str):
                problems.append(f"store.{part}[{i}].text: expected a string, got "
                                f"{type(m.get('text')).__name__}")
            else:
                parts[part].append({**m, "text": m.get("text", "")})
    if problems:
        shown = problems[:20]
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise DgrrError("RESULT is not a usable repair result:\n"
                        + "\n".join(f"  - {p}" for p in shown) + more)
    return changes, parts
