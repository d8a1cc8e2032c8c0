"""Applying repair operations to a Mem0 store (`mem0ai`'s `Memory`).

- delete: `Memory.delete` (Mem0 records a DELETE in its history);
- quarantine: the memory stays in the vector store but moves to the user id
  `<user>::dgrr-quarantine` with `dgrr_quarantined: true`, so searches for the user never
  return it while an auditor can still read it;
- restore / add: `Memory.add(text, infer=False)` with `dgrr_restored_from` /
  `dgrr_added_by` in its metadata (a new Mem0 id; the report names it).

Before anything is written every touched memory is checked against what the trace saw
(its text and its last-change time); any difference refuses the whole apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._writeback import StoreChanged, StoreOp

__all__ = ["QUARANTINE_SUFFIX", "check_mem0", "apply_mem0", "close_mem0"]

QUARANTINE_SUFFIX = "::dgrr-quarantine"


def _changed_at(got: dict[str, Any]) -> str | None:
    return got.get("updated_at") or got.get("created_at")


def check_mem0(memory: Any, ops: Sequence[StoreOp]) -> None:
    """Raise :class:`StoreChanged` naming every touched memory that differs from the
    trace (gone, other text, or changed since)."""
    problems: list[str] = []
    for op in ops:
        if op.memory_id is None or op.expect_text is None:
            continue
        got = memory.get(op.memory_id)
        if got is None:
            problems.append(f"{op.memory_id}: no longer in the store")
            continue
        if got.get("memory") != op.expect_text:
            problems.append(f"{op.memory_id}: text is now {got.get('memory')!r}, the trace saw "
                            f"{op.expect_text!r}")
        elif op.expect_changed_at is not None and _changed_at(got) != op.expect_changed_at:
            problems.append(f"{op.memory_id}: changed at {_changed_at(got)}, after the trace "
                            f"({op.expect_changed_at})")
    if problems:
        raise StoreChanged("the Mem0 store changed since the trace; nothing applied:\n"
                           + "\n".join(f"  - {p}" for p in problems))


def apply_mem0(memory: Any, ops: Sequence[StoreOp], *, user: str, case_id: str
               ) -> list[dict[str, Any]]:
    """Check, then apply `ops` to `memory`; returns one entry per operation with the Mem0
    id it touched or created."""
    check_mem0(memory, ops)
    done: list[dict[str, Any]] = []
    for op in ops:
        if op.op == "delete":
            memory.delete(op.memory_id)
            done.append({"op": "delete", "record": op.record, "mem0_id": op.memory_id})
        elif op.op == "quarantine":
            store = memory.vector_store
            point = store.get(vector_id=op.memory_id)
            payload = dict(point.payload or {})
            payload.update(user_id=f"{payload.get('user_id', user)}{QUARANTINE_SUFFIX}",
                           dgrr_quarantined=True, dgrr_case=case_id)
            # the same vector Mem0 would compute on an update; only the payload changes
            vector = memory.embedding_model.embed(op.text, "update")
            store.update(vector_id=op.memory_id, vector=vector, payload=payload)
            done.append({"op": "quarantine", "record": op.record, "mem0_id": op.memory_id})
        else:
            key = "dgrr_restored_from" if op.op == "restore" else "dgrr_added_by"
            value = op.record if op.op == "restore" else case_id
            added = memory.add(op.text, user_id=user, infer=False, metadata={key: value})
            new_id = added["results"][0]["id"]
            done.append({"op": op.op, "record": op.record, "mem0_id": new_id})
    return done


def close_mem0(memory: Any) -> None:
    """Close the local vector-store clients of a `Memory` (its own and the one Mem0 opens
    for telemetry in MEM0_DIR): a local Qdrant path admits one client at a time."""
    for store in (getattr(memory, "vector_store", None),
                  getattr(memory, "_telemetry_vector_store", None)):
        close = getattr(getattr(store, "client", None), "close", None)
        if close is not None:
            close()
