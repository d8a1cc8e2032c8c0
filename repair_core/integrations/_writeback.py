"""The operations that bring a real store to a repair result's store: what `dgrr apply`
shows first and applies only with an approval."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from .._errors import DgrrError
from ..case._case import Case
from ..case._owner import other_owner, scopes_of
from ..verification import gated_store, rederived_from

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
    expect_value: dict[str, Any] | None = None
    """The whole value the trace saw for `memory_id` (the record's `langgraph_value` in
    the case, which the importer keeps from `dgrr.memory.value`): any field that differs
    refuses the apply (None: only the text is checked)."""
    namespace: list[str] | None = None
    """LangGraph: the namespace of `memory_id`, when the case names it
    (`langgraph_namespace`); otherwise it is found in the store from the record id."""
    key: str | None = None
    """LangGraph: the key of `memory_id`, when the case names it (`langgraph_key`)."""
    owner: dict[str, Any] | None = None
    """The scope the source gave the memory (the case record's `owner`: Mem0 scope ids, a
    LangGraph namespace; see `case._owner`); None: it gave none."""
    owner_record: str | None = None
    """The case record `owner` is from (the record, or for a restored version the memory
    it was a version of, or for an add the record it re-derives): what an approval
    acknowledges to write in another scope."""
    replaces: str | None = None
    """add: the case record the added one was re-derived from (its id is that record's
    id with `~rN`): the add goes into that record's scope. None: it re-derives none."""

    def describe(self) -> str:
        """One line for a person."""
        text = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        where = f" (a version of {self.memory_id})" if self.op == "restore" and \
            self.memory_id and self.memory_id != self.record else ""
        return f"{self.op:<10} {self.record}{where} {text!r}"


def store_ops(case: Case, result: Mapping[str, Any]) -> list[StoreOp]:
    """The operations of `result` (a `dgrr repair --json` object) on the records of
    `case` (the imported case it repaired), in order: delete, quarantine, restore, add:
    the changes of the store the gate recomputed and checked the result against
    (`verification.gated_store`), each with where its record lives in the store."""
    records = {m.id: m for m in case.memory}
    ops: list[StoreOp] = []
    removed: set[str] = set()  # memories a delete or quarantine so far takes out
    home = _user_namespace(case)
    for change in gated_store(case, result).changes:
        if change.op == "add":
            ops.append(StoreOp(op="add", record=change.record, text=change.text,
                               **_added_scope(change.record, records, home)))
            continue
        rid, op = change.record, change.op
        m = records[rid]
        extra = m.model_extra or {}
        memory_id = extra.get("mem0_memory_id") or extra.get("version_of") or rid
        current = records.get(memory_id)
        ops.append(StoreOp(
            op=op, record=rid, text=m.text, memory_id=memory_id,
            expect_text=None if op == "restore" else m.text,
            expect_changed_at=None if op == "restore" else extra.get("mem0_changed_at"),
            expect_value=None if op == "restore" else _value(extra),
            **_slot(current or m), **_owner(m, current)))
        if op != "restore":
            removed.add(memory_id)
        elif current is not None and memory_id != rid and memory_id not in removed:
            # the memory this version belonged to must still hold the text the trace saw
            cur_extra = current.model_extra or {}
            ops[-1] = ops[-1].model_copy(update={
                "expect_text": current.text,
                "expect_changed_at": cur_extra.get("mem0_changed_at"),
                "expect_value": _value(cur_extra)})
    return ops


def _value(extra: Mapping[str, Any]) -> dict[str, Any] | None:
    value = extra.get("langgraph_value")
    return dict(value) if isinstance(value, Mapping) else None


def _owner(record: Any, memory: Any) -> dict[str, Any]:
    """The `owner` and `owner_record` of an operation on `record`: its own owner, else
    that of the `memory` it is a version of (None: no source scope)."""
    for r in (record, memory):
        owner = scopes_of((r.model_extra or {}).get("owner")) if r is not None else {}
        if owner:
            return {"owner": owner, "owner_record": r.id}
    return {}


def _slot(record: Any) -> dict[str, Any]:
    """The LangGraph namespace and key a case record names, if it names them."""
    extra = record.model_extra or {}
    ns, key = extra.get("langgraph_namespace"), extra.get("langgraph_key")
    if isinstance(ns, list) and all(isinstance(p, str) for p in ns) and isinstance(key, str):
        return {"namespace": list(ns), "key": key}
    return {}


def _user_namespace(case: Case) -> list[str] | None:
    """The one LangGraph namespace the case's records of its user live in (a namespace
    holding the user's id; any, when the trace named no user), None when they live in
    none or in several."""
    found: dict[tuple[str, ...], None] = {}
    for m in case.memory:
        ns = (m.model_extra or {}).get("langgraph_namespace")
        if isinstance(ns, list) and all(isinstance(p, str) for p in ns) and ns \
                and other_owner({"namespace": ns}, case.user_id) is None:
            found[tuple(ns)] = None
    return list(next(iter(found))) if len(found) == 1 else None


def _added_scope(rid: str, records: Mapping[str, Any], home: list[str] | None
                 ) -> dict[str, Any]:
    """Where an added record goes: the scope of the case record it was re-derived from
    (its namespace, its key with the added id's `~rN`, its owner), else the namespace of
    the case's user (`home`, key the record id); {} when the case tells neither."""
    base = rederived_from(rid)
    if base is not None and base in records:
        m = records[base]
        out: dict[str, Any] = {"replaces": base, **_owner(m, None)}
        slot = _slot(m)
        if slot:
            out.update(namespace=slot["namespace"], key=slot["key"] + rid[len(base):])
        return out
    if home is not None:
        return {"namespace": home, "key": rid}
    return {}
