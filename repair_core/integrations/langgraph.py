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

All carry `gen_ai.memory.store.id`. A put also carries the item's namespace
(`dgrr.memory.namespace`, a JSON list), key (`dgrr.memory.key`) and whole value
(`dgrr.memory.value`, canonical JSON); each returned record carries the same three in its
`metadata`, so an apply can refuse an item whose value changed since the trace even
when its text did not. A record's id is its namespace and key joined by
`/` (`lin/prefs/seat`). LangGraph's store keeps only the current value (a put overwrites,
a delete leaves nothing), so the wrapper keeps every version in :attr:`history` for
inspection. `dgrr apply --to langgraph` does not read it: the text a poisoned update
replaced comes from the trace (`dgrr.memory.old_content`, imported as the superseded
record), so a restore works on a plain store too.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

__all__ = ["RecordVersion", "record_id", "split_record_id", "record_text", "traced_store",
           "check_langgraph", "plan_langgraph", "apply_langgraph", "aapply_langgraph",
           "resolve_item", "LangGraphSlots", "QUARANTINE_NAMESPACE", "VAULT_ITEM", "item_fields"]

from ..provenance import MEMORY_KEY, MEMORY_NAMESPACE, MEMORY_VALUE, OLD_CONTENT, canonical_json

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


def item_fields(namespace: Iterable[str], key: str, value: Mapping[str, Any]) -> dict[str, str]:
    """The span attributes (or returned-record metadata) naming a LangGraph item and its
    whole value: `dgrr.memory.namespace`, `dgrr.memory.key`, `dgrr.memory.value`."""
    return {MEMORY_NAMESPACE: json.dumps(list(namespace), ensure_ascii=False),
            MEMORY_KEY: key, MEMORY_VALUE: canonical_json(dict(value))}


def traced_store(store: Any, *, store_id: str = "langgraph", tracer: Any = None) -> Any:
    """`store` wrapped so that each operation is an OTel GenAI memory span (see the
    module doc). `tracer` defaults to the global tracer provider's `dgrr.langgraph`."""
    try:
        from langgraph.store.base import BaseStore, GetOp, PutOp, SearchOp
        from langgraph.store.memory import InMemoryStore
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(_INSTALL) from exc
    from opentelemetry import trace

    from .langgraph_cas import write_lock

    class TracedStore(BaseStore):  # type: ignore[misc]
        """A LangGraph store that records its operations as spans and keeps history."""

        def __init__(self) -> None:
            self.inner = store
            self.store_id = store_id
            self.tracer = tracer or trace.get_tracer("dgrr.langgraph")
            self.history: dict[str, list[RecordVersion]] = {}
            """Every version of each record written through the wrapper, oldest first."""
            self._write_lock: Any = contextlib.nullcontext()
            if isinstance(store, InMemoryStore):
                self._write_lock = write_lock(store)

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
                        **({"score": i.score} if getattr(i, "score", None) is not None else {}),
                        "metadata": item_fields(i.namespace, i.key, i.value)}
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
                attrs.update(item_fields(op.namespace, op.key, op.value))
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
                    # the lock dgrr's compare-and-set of an in-memory store holds
                    # (langgraph_cas.write_lock): this write waits for an apply's
                    with self._write_lock:
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
                    with self._write_lock:  # an in-memory store's: held only briefly by dgrr
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
"""First namespace part under which dgrr before the vault kept quarantined items *in* the store
(`("dgrr-quarantine", <apply id>, *namespace)`); a search of the root prefix `()` still
returned them. Quarantined items now go to a vault outside the store
(:mod:`~repair_core.integrations.langgraph_vault`); journals that name such items are
still resumed and rolled back."""

VAULT_ITEM = "dgrr-vault"
"""First part of the `item` an apply reports for a quarantined record:
`dgrr-vault/<apply id>/<record id>` (the vault entry, not a store item)."""


def _item_state(item: Any) -> dict[str, Any] | None:
    return None if item is None else {"value": dict(item.value)}


def _vault_ref(ref: Any) -> bool:
    return isinstance(ref, dict) and "vault" in ref


class LangGraphSlots:
    """The journal's view of a LangGraph `BaseStore` and its quarantine vault: a store
    slot is `[namespace, key]`, its state `{"value": ..., "index": false|null}` (None: no
    item); a vault slot is `{"vault": apply_id, "namespace": [...], "key": ...}`, its state
    the entry (None: none). Item states compare by value (a store does not say how an item
    was indexed)."""

    def __init__(self, store: Any, vault: Any = None) -> None:
        self.store = store
        self._vault = vault
        self._atomic: Any = None  # the store's transactional compare-and-set (False: none)

    @property
    def vault(self) -> Any:
        """The store's quarantine vault (found on first use)."""
        from .langgraph_vault import vault_for

        self._vault = vault_for(self.store, self._vault)
        return self._vault

    def read(self, ref: Any) -> Any:
        if _vault_ref(ref):
            return self.vault.get(ref["vault"], ref["namespace"], ref["key"])
        return _item_state(self.store.get(tuple(ref[0]), ref[1]))

    def write(self, ref: Any, state: Any) -> None:
        if _vault_ref(ref):
            self.vault.put(ref["vault"], ref["namespace"], ref["key"], state)
            return
        ns, key = tuple(ref[0]), ref[1]
        if state is None:
            self.store.delete(ns, key)
        elif state.get("index") is False:
            self.store.put(ns, key, state["value"], index=False)
        else:
            self.store.put(ns, key, state["value"])

    def write_if(self, ref: Any, expected: Any, state: Any) -> tuple[bool, Any]:
        """Set `ref` to `state` only while it holds `expected`, in one transaction of the
        store where it offers one (:mod:`~repair_core.integrations.langgraph_cas`);
        otherwise read right before the write. (written, what it held)."""
        from .langgraph_cas import transactional

        if not _vault_ref(ref):
            if self._atomic is None:
                self._atomic = transactional(self.store, self.same, _item_state) or False
            if self._atomic:
                return self._atomic(tuple(ref[0]), ref[1], expected, state)  # type: ignore[no-any-return]
        current = self.read(ref)  # the vault is dgrr's own: no other writer to race
        if not self.same(current, expected):
            return False, current
        self.write(ref, state)
        return True, current

    def same(self, a: Any, b: Any) -> bool:
        if a is None or b is None:
            return a is None and b is None
        if "namespace" in a or "namespace" in b:  # vault entries: every field
            return bool(_jsonable(a) == _jsonable(b))
        return bool(_jsonable(a["value"]) == _jsonable(b["value"]))

    def effect(self, effect: dict[str, Any]) -> None:  # LangGraph keeps no history
        return None

    def undo_effect(self, ref: Any, current: Any, before: Any) -> None:
        return None


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def resolve_item(store: Any, rid: str) -> list[tuple[tuple[str, ...], str]]:
    """Every (namespace, key) of `store` whose record id is `rid` (a key may hold `/`, so
    `a/b/c` may be key `c` in `a/b` or key `b/c` in `a`): the ones holding an item."""
    from langgraph.store.base import InvalidNamespaceError

    parts = rid.split("/")
    found = []
    for cut in range(len(parts) - 1, 0, -1):
        ns, key = tuple(parts[:cut]), "/".join(parts[cut:])
        try:
            item = store.get(ns, key)
        except (InvalidNamespaceError, ValueError):
            continue
        if item is not None:
            found.append((ns, key))
    return found


def _locate(store: Any, op: Any) -> tuple[tuple[str, ...], str] | None:
    """The item `op` is about: the case's namespace/key when it names them, else the one
    item of the store with that record id (None: no such item)."""
    from ._writeback import StoreChanged

    if op.namespace is not None and op.key is not None:
        return tuple(op.namespace), op.key
    rid = op.memory_id or op.record
    found = resolve_item(store, rid)
    if len(found) > 1:
        names = ", ".join(f"namespace {list(ns)} key {key!r}" for ns, key in found)
        raise StoreChanged(f"{rid}: names more than one item of the store ({names}); "
                           "nothing applied")
    return found[0] if found else None


def _namespace_of(store: Any, op: Any) -> dict[str, Any] | None:
    """`{"namespace": [...]}` of the item `op` is about, as the store holds it now (None:
    no such item)."""
    where = _locate(store, op)
    if where is None or store.get(*where) is None:
        return None
    return {"namespace": list(where[0])}


def _value_problems(rid: str, got: Mapping[str, Any], want: Mapping[str, Any]) -> list[str]:
    """One line per field of the value that differs from the trace."""
    out = []
    for field in sorted(set(got) | set(want), key=str):
        if field not in got:
            out.append(f"{rid}: value.{field} was removed (the trace saw {want[field]!r})")
        elif field not in want:
            out.append(f"{rid}: value.{field} was added ({got[field]!r})")
        elif _jsonable(got[field]) != _jsonable(want[field]):
            out.append(f"{rid}: value.{field} is now {got[field]!r}, the trace saw "
                       f"{want[field]!r}")
    return out


def check_langgraph(store: Any, ops: Any) -> None:
    """Raise :class:`StoreChanged` naming every touched record whose current text (or,
    when the case kept it, any field of its value) differs from what the trace saw."""
    from ._writeback import StoreChanged

    problems: list[str] = []
    for op in ops:
        if op.memory_id is None or op.expect_text is None:
            continue
        where = _locate(store, op)
        got = None if where is None else store.get(*where)
        if got is None:
            problems.append(f"{op.memory_id}: no longer in the store")
        elif record_text(got.value) != op.expect_text:
            problems.append(f"{op.memory_id}: text is now {record_text(got.value)!r}, the "
                            f"trace saw {op.expect_text!r}")
        elif op.expect_value is not None:
            problems.extend(_value_problems(op.memory_id, got.value, op.expect_value))
    if problems:
        raise StoreChanged("the LangGraph store changed since the trace; nothing applied:\n"
                           + "\n".join(f"  - {p}" for p in problems))


def plan_langgraph(store: Any, ops: Any, *, case_id: str, apply_id: str,
                   namespace: tuple[str, ...] = (), vault: Any = None
                   ) -> tuple[list[dict[str, Any]], list[Any]]:
    """The operations' report entries and the journal steps of applying `ops` to `store`
    (nothing written): every slot with its exact state now and after.

    - delete: the item is removed;
    - quarantine: an entry `{"namespace", "key", "value", "index": null, "case",
      "record", "apply", "created_at", "updated_at"}` (enough to audit and to put back)
      goes to the store's vault (:mod:`~repair_core.integrations.langgraph_vault`), then
      the item is removed from the store: no store call returns it;
    - restore: the retired text under its record's key (`{"text", "dgrr_restored_from"}`),
      or `<key>@restored` if that key is still taken;
    - add: a record the replay created, in its owner's scope: the namespace of the
      record it re-derives (key: that record's key with the added id's `~rN`), else the
      namespace of the case's user (key: the record id), else `namespace` (the caller's);
      refused when none is known.
    """
    return _plan(LangGraphSlots(store, vault), ops, case_id=case_id, apply_id=apply_id,
                 namespace=namespace)


def _plan(slots: LangGraphSlots, ops: Any, *, case_id: str, apply_id: str,
          namespace: tuple[str, ...]) -> tuple[list[dict[str, Any]], list[Any]]:
    from ._journal import Step
    from ._writeback import StoreChanged

    store = slots.store
    planned: dict[str, Any] = {}  # slot -> its state after the steps so far
    steps: list[Step] = []
    done: list[dict[str, Any]] = []
    located: dict[str, tuple[tuple[str, ...], str]] = {}

    def state(ref: Any) -> Any:
        ident = json.dumps(ref, sort_keys=True)
        if ident not in planned:
            planned[ident] = slots.read(ref)
        return planned[ident]

    def set_slot(ref: Any, after: Any, n: int) -> None:
        steps.append(Step(kind="slot", ref=ref, before=state(ref), after=after, op=n))
        planned[json.dumps(ref, sort_keys=True)] = after

    for n, op in enumerate(ops):
        if op.op in ("delete", "quarantine"):
            where = _locate(store, op)
            if where is None or state([list(where[0]), where[1]]) is None:
                raise StoreChanged(f"{op.memory_id}: no longer in the store; nothing applied")
            located[op.memory_id or op.record] = where
            ns, key = where
            ref = [list(ns), key]
            item = store.get(ns, key)
            if op.op == "quarantine":
                target: dict[str, Any] = {"vault": apply_id, "namespace": list(ns),
                                          "key": key}
                entry = {"namespace": list(ns), "key": key, "value": state(ref)["value"],
                         "index": None, "case": case_id, "record": op.record,
                         "apply": apply_id, "created_at": _iso(item.created_at),
                         "updated_at": _iso(item.updated_at)}
                if state(target) is not None:
                    raise StoreChanged(f"{record_id(ns, key)}: the vault already holds it "
                                       f"for apply {apply_id}; nothing applied")
                set_slot(target, entry, n)
                done.append({"op": op.op, "record": op.record,
                             "item": "/".join((VAULT_ITEM, apply_id, record_id(ns, key)))})
            else:
                done.append({"op": op.op, "record": op.record, "item": record_id(ns, key)})
            set_slot(ref, None, n)
        elif op.op == "restore":
            rid = op.memory_id or op.record
            where = located.get(rid) or _locate(store, op) or split_record_id(rid)
            ns, key = where
            base = key
            suffix = 0
            while state([list(ns), key]) is not None:
                suffix += 1
                key = f"{base}@restored" + (str(suffix) if suffix > 1 else "")
            set_slot([list(ns), key], {"value": {"text": op.text, "dgrr_restored_from": op.record},
                                       "index": None}, n)
            done.append({"op": op.op, "record": op.record, "item": record_id(ns, key)})
        else:
            ns, key = _added_slot(store, op, located, namespace)
            ref = [list(ns), key]
            value = {"text": op.text, "dgrr_added_by": case_id}
            current = state(ref)
            if current is not None and _jsonable(current["value"]) != _jsonable(value):
                raise StoreChanged(f"{record_id(ns, key)}: already holds another item; "
                                   "nothing applied")
            set_slot(ref, {"value": value, "index": None}, n)
            done.append({"op": op.op, "record": op.record, "item": record_id(ns, key)})
    return done, steps


def _added_slot(store: Any, op: Any, located: Mapping[str, tuple[tuple[str, ...], str]],
                fallback: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """Where the added record `op` goes, never outside its owner's scope: the namespace
    and key the case gives it (those of the record it re-derives, or its user's
    namespace); else the namespace the store holds that record in, its key with the
    added id's `~rN`; else `fallback` (the caller's), key the record id. Refused when
    none tells."""
    from ._writeback import StoreChanged

    if op.namespace is not None and op.key is not None:
        return tuple(op.namespace), op.key
    if op.replaces is not None:
        where = located.get(op.replaces)
        if where is None:
            found = resolve_item(store, op.replaces)
            where = found[0] if len(found) == 1 else None
        if where is not None and op.record.startswith(op.replaces):
            return where[0], where[1] + op.record[len(op.replaces):]
    if fallback:
        return tuple(fallback), op.record
    raise StoreChanged(
        f"{op.record}: an added record with no namespace to go to: the case gives no "
        "namespace of the record it re-derives nor one of the case's user, and the store "
        "holds no such record; nothing applied")


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def apply_langgraph(store: Any, ops: Any, *, case_id: str, approval: Any,
                    namespace: tuple[str, ...] = (), journal: Any = None, vault: Any = None,
                    target: str = "langgraph", reviewer: str | None = None,
                    record: Any = None, log: Any = None,
                    user: str | None = None) -> list[dict[str, Any]]:
    """Check, then apply `ops` (from :func:`repair_core.integrations.store_ops`) to a
    LangGraph `store` (see :func:`plan_langgraph`); one entry per operation with the item
    it touched or wrote. `approval` must be the `approve` decision of this case (see
    :func:`repair_core.integrations.find_approval`). All or nothing: with a `journal`
    (:class:`~repair_core.integrations.Journal`) the intent is written before the first
    write, so a crash can be resumed or rolled back; a write the store refuses rolls
    back what was written and raises :class:`~repair_core.DgrrError`. Quarantined items
    go to `vault` (default: the store's own, see
    :func:`~repair_core.integrations.langgraph_vault.vault_for`). `log`
    (:class:`~repair_core.integrations.ApplyLog`) records the apply's intent and a
    rollback in the approvals log. An item's owner is its namespace: with `user` (the
    case's user), an item in a namespace without the user's id (by the case or by where
    the store holds it) is written only when `approval` acknowledged its record (see
    `_scopes`); `dgrr apply` and the queue's worker always give it."""
    from ._apply import run_apply
    from ._scopes import check_owners

    def check() -> None:
        check_langgraph(store, ops)
        if user is not None:  # rule apply.other-owner-acknowledged
            check_owners(ops, user=user, acknowledged=getattr(approval, "acknowledged", ()),
                         store_owner=lambda op: _namespace_of(store, op))

    slots = LangGraphSlots(store, vault)
    return run_apply(slots, "langgraph", ops, case_id=case_id,
                     approval=approval, journal=journal, target=target, reviewer=reviewer,
                     check=check,
                     plan=lambda apply_id: _plan(slots, ops, case_id=case_id,
                                                 apply_id=apply_id, namespace=namespace),
                     record=record, log=log)


async def aapply_langgraph(store: Any, ops: Any, **kwargs: Any) -> list[dict[str, Any]]:
    """:func:`apply_langgraph` for an async store (`AsyncSqliteStore`,
    `AsyncPostgresStore`, ...), from inside its event loop: the apply runs in a worker
    thread, whose sync calls the store hands to its loop."""
    import asyncio

    return await asyncio.to_thread(apply_langgraph, store, ops, **kwargs)
