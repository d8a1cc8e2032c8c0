"""The operations that bring a real store to a repair result's store: what `dgrr apply`
shows first and applies only with an approval."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from .._errors import DgrrError
from ..case._case import Case

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

    def describe(self) -> str:
        """One line for a person."""
        text = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        where = f" (a version of {self.memory_id})" if self.op == "restore" and \
            self.memory_id and self.memory_id != self.record else ""
        return f"{self.op:<10} {self.record}{where} {text!r}"


def store_ops(case: Case, result: Mapping[str, Any]) -> list[StoreOp]:
    """The operations of `result` (a `dgrr repair --json` object) on the records of
    `case` (the imported case it repaired), in order: delete, quarantine, restore, add."""
    changes, store = _result_parts(result)
    records = {m.id: m for m in case.memory}
    written = {m["id"]: m for part in ("active", "quarantine") for m in store.get(part, [])}
    ops: list[StoreOp] = []
    problems: list[str] = []
    for kind in ("deleted", "quarantined", "restored"):
        for rid in changes.get(kind, []):
            m = records.get(rid)
            if m is None:
                problems.append(f"report.store_changes.{kind}: '{rid}' is not a record of the case")
                continue
            if kind != "restored" and m.status != "active":
                # a retired version (a superseded text of a Mem0 history, an old LangGraph
                # value) is not in the store: deleting or hiding it changes nothing there
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
                expect_changed_at=None if op == "restore" else extra.get("mem0_changed_at"),
                expect_value=None if op == "restore" else _value(extra),
                **_slot(records.get(memory_id) or m)))
            if op == "restore" and current is not None and memory_id != rid and not any(
                    o.memory_id == memory_id and o.op in ("delete", "quarantine") for o in ops):
                # the memory this version belonged to must still hold the text the trace saw
                cur_extra = current.model_extra or {}
                ops[-1] = ops[-1].model_copy(update={
                    "expect_text": current.text,
                    "expect_changed_at": cur_extra.get("mem0_changed_at"),
                    "expect_value": _value(cur_extra)})
    retired = set(changes.get("retired", []))
    for rid in changes.get("added", []):
        new = written.get(rid)
        if new is None and rid in retired:
            continue  # written, then superseded by a later replayed step: nothing to add
        if new is None:
            problems.append(f"report.store_changes.added: '{rid}' is not in the result's store")
            continue
        ops.append(StoreOp(op="add", record=rid, text=new["text"]))
    if problems:
        raise DgrrError("RESULT does not fit the case:\n" + "\n".join(f"  - {p}" for p in problems))
    return ops


_CHANGE_KINDS = ("deleted", "quarantined", "restored", "added", "retired")


def _result_parts(result: Any) -> tuple[dict[str, list[str]], dict[str, list[dict]]]:
    """`report.store_changes` and `store` of a repair result, every field checked: a
    named error for anything that is not what `dgrr repair --json` prints."""
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
    for kind in _CHANGE_KINDS:
        ids = report["store_changes"].get(kind, [])
        if not isinstance(ids, list):
            problems.append(f"report.store_changes.{kind}: expected a list of record ids, "
                            f"got {type(ids).__name__}")
            continue
        for i, rid in enumerate(ids):
            if not isinstance(rid, str) or not rid:
                problems.append(f"report.store_changes.{kind}[{i}]: expected a record id, "
                                f"got {rid!r}"[:200])
        changes[kind] = [rid for rid in ids if isinstance(rid, str) and rid]
    parts: dict[str, list[dict]] = {}
    for part in ("active", "quarantine"):
        items = store.get(part, [])
        if not isinstance(items, list):
            problems.append(f"store.{part}: expected a list of records, got "
                            f"{type(items).__name__}")
            continue
        parts[part] = []
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


def _value(extra: Mapping[str, Any]) -> dict[str, Any] | None:
    value = extra.get("langgraph_value")
    return dict(value) if isinstance(value, Mapping) else None


def _slot(record: Any) -> dict[str, Any]:
    """The LangGraph namespace and key a case record names, if it names them."""
    extra = record.model_extra or {}
    ns, key = extra.get("langgraph_namespace"), extra.get("langgraph_key")
    if isinstance(ns, list) and all(isinstance(p, str) for p in ns) and isinstance(key, str):
        return {"namespace": list(ns), "key": key}
    return {}
