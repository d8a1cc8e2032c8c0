"""Applying repair operations to a Mem0 store (`mem0ai`'s `Memory`, 0.1.x and 2.x).

Each memory is a point of Mem0's vector store (its payload holds the text as `data`,
the scope ids `user_id`/`agent_id`/`run_id`/`actor_id`/`role`, and the metadata). The
apply sets points to planned states through Mem0's own vector store and appends a row
to Mem0's own history for each operation:

- delete: the point is removed; history `DELETE`;
- quarantine: the point stays (same id, same vector) but its payload keeps only the text
  and `user_id = "dgrr-quarantine"`; every scope id and all metadata move into
  `dgrr_quarantine.payload`. No search or `get_all` scoped by the agent's user, agent or
  run id returns it; an auditor lists it with `get_all` for user `dgrr-quarantine`.
  History `DELETE` (the memory left every scope the agent reads; Mem0's history knows
  only ADD, UPDATE and DELETE);
- restore: the retired text as a new memory with every scope id and the metadata of the
  memory it was a version of, plus `dgrr_restored_from`; history `ADD`;
- add: a record the replay created, in the user's scope, with `dgrr_added_by`; history
  `ADD`.

Before anything is written every touched memory is checked against what the trace saw
(its text and its last-change time); any difference refuses the whole apply. The new
ids and every payload are decided before the first write (see `_journal`), so an
interrupted apply can be resumed or rolled back exactly.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..case._owner import scopes_of
from ._apply import ApplyLog
from ._journal import Intent, Journal, Step
from ._scopes import check_owners
from ._writeback import StoreChanged, StoreOp

__all__ = ["QUARANTINE_USER", "SCOPE_KEYS", "check_mem0", "plan_mem0", "apply_mem0",
           "close_mem0", "Mem0Slots", "mem0_search", "mem0_get_all", "mem0_owner"]

QUARANTINE_USER = "dgrr-quarantine"
"""The user id quarantined memories are kept under (no other scope id)."""
SCOPE_KEYS = ("user_id", "agent_id", "run_id", "actor_id", "role")
"""Payload keys Mem0 scopes and attributes a memory by."""
_CORE = ("data", "hash", "created_at", "updated_at", "text_lemmatized")


def _changed_at(got: dict[str, Any]) -> str | None:
    return got.get("updated_at") or got.get("created_at")


def _v2(memory: Any) -> bool:
    """Whether `memory` is mem0ai 2.x (search/get_all scoped by `filters=`)."""
    import inspect

    return "user_id" not in inspect.signature(memory.search).parameters


def mem0_search(memory: Any, query: str, **scope: str) -> list[dict[str, Any]]:
    """`Memory.search` scoped by `scope` (user_id, agent_id, run_id), as the agent calls
    it on either major version; the hits."""
    if _v2(memory):
        got = memory.search(query, filters=dict(scope))
    else:
        got = memory.search(query, **scope)
    return list(got["results"] if isinstance(got, dict) else got)


def mem0_get_all(memory: Any, **scope: str) -> list[dict[str, Any]]:
    """`Memory.get_all` scoped by `scope`, on either major version."""
    got = memory.get_all(filters=dict(scope)) if _v2(memory) else memory.get_all(**scope)
    return list(got["results"] if isinstance(got, dict) else got)


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
        elif got.get("user_id") == QUARANTINE_USER:
            problems.append(f"{op.memory_id}: already quarantined")
    if problems:
        raise StoreChanged("the Mem0 store changed since the trace; nothing applied:\n"
                           + "\n".join(f"  - {p}" for p in problems))


class Mem0Slots:
    """The journal's view of a Mem0 store: a slot is a point id, its state
    `{"payload": ..., "vector": [...]}` (None: no point); states compare by payload.
    Effects are Mem0 history rows, appended unless an identical row is there."""

    def __init__(self, memory: Any) -> None:
        self.memory = memory

    def _vector(self, point_id: str, payload: dict[str, Any] | None) -> list[float] | None:
        store = self.memory.vector_store
        client = getattr(store, "client", None)
        if client is not None and hasattr(client, "retrieve"):  # Qdrant keeps the vector
            try:
                got = client.retrieve(collection_name=store.collection_name, ids=[point_id],
                                      with_vectors=True)
            except Exception:  # another backend with a `retrieve`: embed instead
                got = []
            if got:
                vector = got[0].vector
                if isinstance(vector, dict):
                    vector = vector.get("")
                if isinstance(vector, list):
                    return [float(x) for x in vector]
        return None

    def read(self, ref: Any) -> Any:
        point = self.memory.vector_store.get(vector_id=ref)
        if point is None:
            return None
        payload = dict(point.payload or {})
        return {"payload": payload, "vector": self._vector(ref, payload)}

    def write(self, ref: Any, state: Any) -> None:
        store = self.memory.vector_store
        exists = store.get(vector_id=ref) is not None
        if state is None:
            if exists:
                store.delete(vector_id=ref)
            return
        vector = state.get("vector") or self.memory.embedding_model.embed(
            state["payload"].get("data", ""), "update" if exists else "add")
        if exists:
            store.update(vector_id=ref, vector=vector, payload=state["payload"])
        else:
            store.insert(vectors=[vector], ids=[ref], payloads=[state["payload"]])

    def same(self, a: Any, b: Any) -> bool:
        if a is None or b is None:
            return a is None and b is None
        return bool(a["payload"] == b["payload"])

    def effect(self, effect: dict[str, Any]) -> None:
        db = self.memory.db
        for row in db.get_history(effect["memory_id"]):
            if all(row.get(k) == effect[k] for k in ("event", "old_memory", "new_memory",
                                                      "updated_at")):
                return  # written before a crash: not twice
        db.add_history(effect["memory_id"], effect["old_memory"], effect["new_memory"],
                       effect["event"], created_at=effect["created_at"],
                       updated_at=effect["updated_at"], is_deleted=effect["is_deleted"],
                       actor_id=effect["actor_id"], role=effect["role"])

    def undo_effect(self, ref: Any, current: Any, before: Any) -> None:
        now = datetime.now(UTC).isoformat()
        cur = None if current is None else current["payload"]
        old = None if before is None else before["payload"]
        event = "ADD" if cur is None else ("DELETE" if old is None else "UPDATE")
        base = old or cur or {}
        self.effect(_history(ref, event, None if cur is None else cur.get("data"),
                             None if old is None else old.get("data"), base, now))


def _history(memory_id: str, event: str, old: str | None, new: str | None,
             payload: dict[str, Any], at: str) -> dict[str, Any]:
    return {"memory_id": memory_id, "event": event, "old_memory": old, "new_memory": new,
            "created_at": payload.get("created_at") or at, "updated_at": at,
            "is_deleted": 1 if event == "DELETE" else 0,
            "actor_id": payload.get("actor_id"), "role": payload.get("role")}


def _owner_scope(op: StoreOp, user: str) -> dict[str, Any]:
    """The Mem0 scope ids the case gives `op`'s memory; the case's user when none."""
    scopes = {k: v for k, v in scopes_of(op.owner).items() if k in SCOPE_KEYS}
    return scopes or {"user_id": user}


def mem0_owner(memory: Any, op: StoreOp) -> dict[str, Any] | None:
    """The scope ids the store gives `op`'s memory now (None: no such memory)."""
    got = memory.get(op.memory_id or op.record)
    if got is None:
        return None
    return {k: got[k] for k in SCOPE_KEYS[:3] if isinstance(got.get(k), str) and got[k]}


def _new_payload(memory: Any, text: str, keep: dict[str, Any], at: str) -> dict[str, Any]:
    """The payload Mem0 itself would write for a new memory `text` (with `keep`'s scope
    ids and metadata)."""
    payload = {**keep, "data": text, "hash": hashlib.md5(text.encode()).hexdigest(),
               "created_at": at, "updated_at": at}
    try:  # mem0ai 2.x keeps lemmatized text for its keyword search
        from mem0.utils.lemmatization import lemmatize_for_bm25
    except ImportError:
        return payload
    try:
        payload["text_lemmatized"] = lemmatize_for_bm25(text)
    except Exception:  # no lemmatizer model here: Mem0 would store the text itself
        payload["text_lemmatized"] = text
    return payload


def plan_mem0(memory: Any, ops: Sequence[StoreOp], *, user: str, case_id: str,
              apply_id: str) -> tuple[list[dict[str, Any]], list[Step]]:
    """The report entries and journal steps of applying `ops` (nothing written)."""
    slots = Mem0Slots(memory)
    at = datetime.now(UTC).isoformat()
    planned: dict[str, Any] = {}
    originals: dict[str, dict[str, Any]] = {}
    steps: list[Step] = []
    done: list[dict[str, Any]] = []

    def state(ref: str) -> Any:
        if ref not in planned:
            planned[ref] = slots.read(ref)
            if planned[ref] is not None:
                originals[ref] = planned[ref]["payload"]
        return planned[ref]

    def set_slot(ref: str, after: Any, n: int, history: dict[str, Any]) -> None:
        steps.append(Step(kind="slot", ref=ref, before=state(ref), after=after, op=n))
        planned[ref] = after
        steps.append(Step(kind="effect", effect=history, op=n))

    def keep_of(payload: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in payload.items()
                if k not in _CORE and not k.startswith("dgrr_") and v is not None}

    scopes = []
    for n, op in enumerate(ops):
        mid = op.memory_id or op.record
        if op.op in ("delete", "quarantine"):
            current = state(mid)
            if current is None:
                raise StoreChanged(f"{mid}: no longer in the store; nothing applied")
            payload = current["payload"]
            scopes.append({k: payload[k] for k in SCOPE_KEYS[:3] if payload.get(k)})
            if op.op == "delete":
                set_slot(mid, None, n, _history(mid, "DELETE", payload.get("data"), None,
                                                payload, at))
            else:
                hidden = {k: payload[k] for k in ("data", "hash", "created_at")
                          if k in payload}
                hidden.update(user_id=QUARANTINE_USER, updated_at=at, dgrr_quarantine={
                    "payload": payload, "case": case_id, "record": op.record,
                    "apply": apply_id, "at": at})
                set_slot(mid, {"payload": hidden, "vector": current["vector"]}, n,
                         _history(mid, "DELETE", payload.get("data"), None, payload, at))
            done.append({"op": op.op, "record": op.record, "mem0_id": mid})
            continue
        if op.op == "restore":
            state(mid)
            source = originals.get(mid)
            # the scope of the memory it was a version of: the store's, else the one the
            # case gives it, never the case's user's by default when the source gave one
            keep = keep_of(source) if source is not None else _owner_scope(op, user)
            keep["dgrr_restored_from"] = op.record
        else:
            common = [s for s in scopes if s]
            keep = dict(common[0]) if common and all(s == common[0] for s in common) \
                else {"user_id": user}
            keep["dgrr_added_by"] = case_id
        new_id = str(uuid.uuid4())
        payload = _new_payload(memory, op.text, keep, at)
        vector = [float(x) for x in memory.embedding_model.embed(op.text, "add")]
        set_slot(new_id, {"payload": payload, "vector": vector}, n,
                 _history(new_id, "ADD", None, op.text, payload, at))
        done.append({"op": op.op, "record": op.record, "mem0_id": new_id})
    return done, steps


def apply_mem0(memory: Any, ops: Sequence[StoreOp], *, user: str, case_id: str,
               approval: Any, journal: Journal | None = None, target: str = "mem0",
               reviewer: str | None = None, record: Callable[[Intent], None] | None = None,
               log: ApplyLog | None = None) -> list[dict[str, Any]]:
    """Check, then apply `ops` to `memory` (see the module doc); returns one entry per
    operation with the Mem0 id it touched or created. A memory whose owner (in the case
    or in the store) is not `user` is written only when `approval` acknowledged its
    record (see `_scopes`). `approval` must be the `approve`
    decision of this case; all or nothing (see
    :func:`repair_core.integrations.langgraph.apply_langgraph`)."""
    from ._apply import run_apply

    def check() -> None:
        check_mem0(memory, ops)
        # rule apply.other-owner-acknowledged
        check_owners(ops, user=user, acknowledged=getattr(approval, "acknowledged", ()),
                     store_owner=lambda op: mem0_owner(memory, op))

    return run_apply(Mem0Slots(memory), "mem0", ops, case_id=case_id, approval=approval,
                     journal=journal, target=target, reviewer=reviewer, check=check,
                     plan=lambda apply_id: plan_mem0(memory, ops, user=user, case_id=case_id,
                                                     apply_id=apply_id),
                     record=record, log=log)


def close_mem0(memory: Any) -> None:
    """Close the local vector-store clients of a `Memory` (its own and the one Mem0 opens
    for telemetry in MEM0_DIR): a local Qdrant path admits one client at a time."""
    for store in (getattr(memory, "vector_store", None),
                  getattr(memory, "_telemetry_vector_store", None)):
        close = getattr(getattr(store, "client", None), "close", None)
        if close is not None:
            close()
