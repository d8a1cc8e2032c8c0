"""The operations that bring a real store to a repair result's store: what `dgrr apply`
shows first and applies only with an approval."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from .._case import Case
from .._errors import DgrrError

__all__ = ["StoreOp", "StoreChanged", "store_ops"]


class StoreChanged(DgrrError):
    """The real store is not what the trace saw: applying could undo someone's change."""


class StoreOp(BaseModel):
    """One change to the real store."""

    op: Literal["delete", "quarantine", "restore", "add"]
    """delete: remove the record; quarantine: hide it from retrieval, kept for audit;
    restore: write a retired text back as an active record; add: write a record the
    replay created."""
    record: str
    """The record's id in the case (the store's own id, or a Mem0 history row id)."""
    text: str
    """The record's text (what is deleted, hidden or written)."""
    memory_id: str | None = None
    """The store's id of the memory the record is (a restored version: the memory it was
    a version of)."""
    expect_text: str | None = None
    """Text the store must still hold for `memory_id` (None: not checked)."""
    expect_changed_at: str | None = None
    """Last-change time the store must still show for `memory_id` (None: not checked)."""

    def describe(self) -> str:
        """One line for a person."""
        text = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        where = f" (a version of {self.memory_id})" if self.op == "restore" and \
            self.memory_id and self.memory_id != self.record else ""
        return f"{self.op:<10} {self.record}{where} {text!r}"


def store_ops(case: Case, result: Mapping[str, Any]) -> list[StoreOp]:
    """The operations of `result` (a `dgrr repair --json` object) on the records of
    `case` (the imported case it repaired), in order: delete, quarantine, restore, add."""
    try:
        changes = result["report"]["store_changes"]
        store = result["store"]
    except (KeyError, TypeError):
        raise DgrrError("RESULT: not a repair result (expected report.store_changes and "
                        "store, as `dgrr repair --json` prints)") from None
    records = {m.id: m for m in case.memory}
    written = {m["id"]: m for part in ("active", "quarantine") for m in store.get(part, [])
               if isinstance(m, Mapping) and "id" in m}
    ops: list[StoreOp] = []
    problems: list[str] = []
    for kind in ("deleted", "quarantined", "restored"):
        for rid in changes.get(kind, []):
            m = records.get(rid)
            if m is None:
                problems.append(f"report.store_changes.{kind}: '{rid}' is not a record of the case")
                continue
            extra = m.model_extra or {}
            memory_id = extra.get("mem0_memory_id") or extra.get("version_of") or rid
            op: Literal["delete", "quarantine", "restore"] = (
                "delete" if kind == "deleted" else
                "quarantine" if kind == "quarantined" else "restore")
            current = records.get(memory_id)
            ops.append(StoreOp(
                op=op, record=rid, text=m.text, memory_id=memory_id,
                expect_text=None if op == "restore" else m.text,
                expect_changed_at=None if op == "restore" else extra.get("mem0_changed_at")))
            if op == "restore" and current is not None and memory_id != rid and not any(
                    o.memory_id == memory_id and o.op in ("delete", "quarantine") for o in ops):
                # the memory this version belonged to must still hold the text the trace saw
                cur_extra = current.model_extra or {}
                ops[-1] = ops[-1].model_copy(update={
                    "expect_text": current.text,
                    "expect_changed_at": cur_extra.get("mem0_changed_at")})
    for rid in changes.get("added", []):
        new = written.get(rid)
        if new is None:
            problems.append(f"report.store_changes.added: '{rid}' is not in the result's store")
            continue
        ops.append(StoreOp(op="add", record=rid, text=str(new.get("text", ""))))
    if problems:
        raise DgrrError("RESULT does not fit the case:\n" + "\n".join(f"  - {p}" for p in problems))
    return ops
