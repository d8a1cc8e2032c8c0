"""A LangGraph store that records what an agent does with its memory as OTel GenAI spans.

:func:`traced_store` wraps any LangGraph `BaseStore` (e.g. `InMemoryStore`). Every
operation goes through the wrapped store's `batch` / `abatch` (LangGraph's `search`,
`get`, `put`, `delete` go through `batch`; `asearch`, `aget`, `aput`, `adelete` through
`abatch`, so an `AsyncSqliteStore` or `AsyncPostgresStore` is only called on its async
path), and each is recorded as one span:

| store call | span (`gen_ai.operation.name`) | attributes |
|---|---|---|
| `search` | `search_memory` | `gen_ai.memory.query.text`, `gen_ai.memory.records` (ids + text) |
| `get` | `search_memory` | the one record returned (or none) |
| `put` of a new key | `create_memory` | `gen_ai.memory.record.id`, `gen_ai.memory.content` |
| `put` of an existing key | `update_memory` | also `dgrr.memory.old_content` |
| `delete` (`put` with value None) | `delete_memory` | `dgrr.memory.old_content` |

All carry `gen_ai.memory.store.id`. A record's id is its namespace and key joined by
`/` (`lin/prefs/seat`). LangGraph's store keeps only the current value (a put overwrites,
a delete leaves nothing), so the wrapper keeps every version in :attr:`history` for
inspection. `dgrr apply --to langgraph` does not read it: the text a poisoned update
replaced comes from the trace (`dgrr.memory.old_content`, imported as the superseded
record), so a restore works on a plain store too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

__all__ = ["RecordVersion", "record_id", "split_record_id", "record_text", "traced_store",
           "check_langgraph", "apply_langgraph", "QUARANTINE_NAMESPACE"]

from ..provenance import OLD_CONTENT

_INSTALL = "LangGraph integration needs langgraph: install with pip install 'dgrr[import]'"


@dataclass(frozen=True)
class RecordVersion:
    """One value a record had in the wrapped store."""

    record: str
    """The record id (`namespace/.../key`)."""
    op: str
    """add, update or delete (a delete version has value None)."""
    value: dict[str, Any] | None
    """The value written (None for a delete)."""
    at: str
    """When the wrapper saw it (UTC, ISO 8601)."""


def record_id(namespace: Iterable[str], key: str) -> str:
    """The id a LangGraph item gets in traces: namespace and key joined by `/`."""
    return "/".join((*namespace, key))


def split_record_id(rid: str) -> tuple[tuple[str, ...], str]:
    """Namespace and key of a record id made by :func:`record_id`."""
    *ns, key = rid.split("/")
    return tuple(ns), key


def record_text(value: Mapping[str, Any] | None) -> str:
    """The text of a stored value: its `text`, `content`, `memory` or `data` string, else
    its JSON (keys sorted)."""
    if value is None:
        return ""
    for key in ("text", "content", "memory", "data"):
        if isinstance(value.get(key), str):
            return str(value[key])
    return json.dumps(dict(value), sort_keys=True, default=str)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def traced_store(store: Any, *, store_id: str = "langgraph", tracer: Any = None) -> Any:
    """`store` wrapped so that each operation is an OTel GenAI memory span (see the
    module doc). `tracer` defaults to the global tracer provider's `dgrr.langgraph`."""
    try:
        from langgraph.store.base import BaseStore, GetOp, PutOp, SearchOp
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_INSTALL) from exc
    from opentelemetry import trace

    class TracedStore(BaseStore):  # type: ignore[misc]
        """A LangGraph store that records its operations as spans and keeps history."""

        def __init__(self) -> None:
            self.inner = store
            self.store_id = store_id
            self.tracer = tracer or trace.get_tracer("dgrr.langgraph")
            self.history: dict[str, list[RecordVersion]] = {}
            """Every version of each record written through the wrapper, oldest first."""

        # -- spans ---------------------------------------------------------------
        def _span(self, name: str, attrs: dict[str, Any]) -> Any:
            """A span under the current one; inside a LangGraph node instrumented by
            OpenInference (which does not set the OTel context) under that node's span."""
            ctx = None
            if not trace.get_current_span().get_span_context().is_valid:
                try:
                    from openinference.instrumentation.langchain import get_current_span
                    node = get_current_span()
                except ImportError:
                    node = None
                if node is not None:
                    ctx = trace.set_span_in_context(node)
            return self.tracer.start_as_current_span(name, context=ctx, attributes=attrs)

        def _current(self, op: Any) -> Any:
            got = self.inner.batch([GetOp(op.namespace, op.key)])[0]
            return None if got is None else got.value

        def _read_span(self, op: Any, result: Any) -> None:
            items = [result] if (isinstance(op, GetOp) and result is not None) else (
                list(result) if isinstance(op, SearchOp) else [])
            records = [{"id": record_id(i.namespace, i.key), "content": record_text(i.value),
                        **({"score": i.score} if getattr(i, "score", None) is not None else {})}
                       for i in items]
            query = op.query if isinstance(op, SearchOp) else record_id(op.namespace, op.key)
            attrs = {"gen_ai.operation.name": "search_memory",
                     "gen_ai.memory.store.id": self.store_id,
                     "gen_ai.memory.query.text": query or "",
                     "gen_ai.memory.records": json.dumps(records)}
            with self._span("search_memory", attrs):
                pass

        def _write_span(self, op: Any, old: Any) -> tuple[Any, str, str]:
            rid = record_id(op.namespace, op.key)
            kind = "delete" if op.value is None else ("add" if old is None else "update")
            name = {"add": "create_memory", "update": "update_memory",
                    "delete": "delete_memory"}[kind]
            attrs: dict[str, Any] = {"gen_ai.operation.name": name,
                                     "gen_ai.memory.store.id": self.store_id,
                                     "gen_ai.memory.record.id": rid}
            if op.value is not None:
                attrs["gen_ai.memory.content"] = record_text(op.value)
            if old is not None:
                attrs[OLD_CONTENT] = record_text(old)
            return self._span(name, attrs), rid, kind

        def _keep(self, op: Any, old: Any, rid: str, kind: str) -> None:
            if kind != "delete" or old is not None:
                if old is not None and rid not in self.history:
                    # first seen already stored: keep the value it had as its first version
                    self.history[rid] = [RecordVersion(rid, "add", dict(old), "")]
                self.history.setdefault(rid, []).append(RecordVersion(
                    rid, kind, None if op.value is None else dict(op.value), _now()))

        # -- BaseStore -----------------------------------------------------------
        def batch(self, ops: Iterable[Any]) -> list[Any]:
            results: list[Any] = []
            for op in ops:  # one op at a time: spans stay in call order
                if isinstance(op, PutOp):
                    old = self._current(op)
                    span, rid, kind = self._write_span(op, old)
                    with span:
                        results.append(self.inner.batch([op])[0])
                    self._keep(op, old, rid, kind)
                    continue
                result = self.inner.batch([op])[0]
                if isinstance(op, (GetOp, SearchOp)):
                    self._read_span(op, result)
                results.append(result)
            return results

        async def abatch(self, ops: Iterable[Any]) -> list[Any]:
            # the wrapped store's own async path (an AsyncSqliteStore or AsyncPostgresStore
            # refuses synchronous calls from the event loop)
            results: list[Any] = []
            for op in ops:
                if isinstance(op, PutOp):
                    got = (await self.inner.abatch([GetOp(op.namespace, op.key)]))[0]
                    old = None if got is None else got.value
                    span, rid, kind = self._write_span(op, old)
                    with span:
                        results.append((await self.inner.abatch([op]))[0])
                    self._keep(op, old, rid, kind)
                    continue
                result = (await self.inner.abatch([op]))[0]
                if isinstance(op, (GetOp, SearchOp)):
                    self._read_span(op, result)
                results.append(result)
            return results

    return TracedStore()


QUARANTINE_NAMESPACE = "dgrr-quarantine"
"""Last namespace part under which a quarantined item is kept (`lin/prefs/dgrr-quarantine`)."""


def check_langgraph(store: Any, ops: Any) -> None:
    """Raise :class:`StoreChanged` naming every touched record whose current text differs
    from what the trace saw (gone, or another text)."""
    from ._writeback import StoreChanged

    problems: list[str] = []
    for op in ops:
        if op.memory_id is None or op.expect_text is None:
            continue
        ns, key = split_record_id(op.memory_id)
        got = store.get(ns, key)
        if got is None:
            problems.append(f"{op.memory_id}: no longer in the store")
        elif record_text(got.value) != op.expect_text:
            problems.append(f"{op.memory_id}: text is now {record_text(got.value)!r}, the "
                            f"trace saw {op.expect_text!r}")
    if problems:
        raise StoreChanged("the LangGraph store changed since the trace; nothing applied:\n"
                           + "\n".join(f"  - {p}" for p in problems))


def apply_langgraph(store: Any, ops: Any, *, case_id: str, namespace: tuple[str, ...] = ()
                    ) -> list[dict[str, Any]]:
    """Check, then apply `ops` (from :func:`repair_core.integrations.store_ops`) to a
    LangGraph `store`; one entry per operation with the item it touched or wrote.

    - delete: `store.delete`;
    - quarantine: the item moves to `<namespace>/dgrr-quarantine/<key>` with
      `dgrr_quarantined: true` (a search of the namespace never returns it; an auditor
      can read it there);
    - restore: the retired text is put back under its record's key (with
      `dgrr_restored_from`), or under `<key>@restored` if that key is still taken;
    - add: a record the replay created, under `namespace` (default: `dgrr-added`).
    """
    check_langgraph(store, ops)
    done: list[dict[str, Any]] = []
    for op in ops:
        if op.op in ("delete", "quarantine"):
            ns, key = split_record_id(op.memory_id or op.record)
            item = store.get(ns, key)
            if op.op == "quarantine" and item is not None:
                target = (*ns, QUARANTINE_NAMESPACE)
                store.put(target, key, {**item.value, "dgrr_quarantined": True,
                                        "dgrr_case": case_id}, index=False)
                done.append({"op": op.op, "record": op.record, "item": record_id(target, key)})
            else:
                done.append({"op": op.op, "record": op.record, "item": record_id(ns, key)})
            store.delete(ns, key)
        elif op.op == "restore":
            ns, key = split_record_id(op.memory_id or op.record)
            if store.get(ns, key) is not None:
                key = f"{key}@restored"
            store.put(ns, key, {"text": op.text, "dgrr_restored_from": op.record})
            done.append({"op": op.op, "record": op.record, "item": record_id(ns, key)})
        else:
            ns = namespace or ("dgrr-added",)
            store.put(ns, op.record, {"text": op.text, "dgrr_added_by": case_id})
            done.append({"op": op.op, "record": op.record, "item": record_id(ns, op.record)})
    return done
