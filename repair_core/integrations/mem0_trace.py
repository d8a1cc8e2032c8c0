"""A Mem0 `Memory` (or `AsyncMemory`) that records what an agent does with its memory as
OTel GenAI memory spans, the way :func:`repair_core.integrations.langgraph.traced_store`
does for a LangGraph store.

:func:`traced_memory` wraps a `mem0.Memory` or `mem0.AsyncMemory`; the wrapper has the same
methods (sync or async, like the wrapped one) and passes every other attribute through.
Each call becomes spans named after `gen_ai.operation.name`:

| Mem0 call | span(s) | what it records |
|---|---|---|
| `search(query, user_id=…)` | one `search_memory` | `gen_ai.memory.query.text`, the records returned |
| `get(memory_id)` | one `search_memory` | the record (none when absent); the query is the id |
| `get_all(user_id=…)` | one `search_memory` | every record returned, an empty query |
| `add(...)` | one span per record Mem0 reports: `create_memory` (ADD), `update_memory` (UPDATE), `delete_memory` (DELETE) | the record written |
| `update(memory_id, data)` | one `update_memory` | the new text, the text it replaced |
| `delete(memory_id)` | one `delete_memory` | the text deleted |
| `delete_all(user_id=…)` | one `delete_memory` per record deleted | |

Attributes (OTel GenAI memory conventions): `gen_ai.operation.name`, `gen_ai.provider.name`
(`mem0`), `gen_ai.memory.store.id`, `gen_ai.memory.record.id` (writes: the Mem0 memory id),
`gen_ai.memory.record.count`, `gen_ai.memory.query.text` (searches) and
`gen_ai.memory.records` (a JSON list of `{id, content, score?, metadata}` in the conventions'
memory-records shape; `metadata` carries Mem0's scope ids `user_id`, `agent_id`, `run_id`
and the memory's own metadata). The conventions have no attribute for scope or lineage, so
dgrr's are added:

- `user.id` (the general OTel attribute), `dgrr.memory.agent_id`, `dgrr.memory.run_id`:
  the scope ids the call was made with;
- `dgrr.memory.old_content`: the text an update or delete replaced (as Mem0's history
  row recorded it; without history, read with `get` just before, or for an inferring
  `add` the `previous_memory` Mem0 reports);
- `dgrr.memory.history.id` / `dgrr.memory.history.previous_id`: the row of Mem0's history
  table this write appended, and the row that wrote the text it replaced (read with
  `history(memory_id)` after the write; off with `history=False`).

A call that raises is recorded as a span of its operation with `error.type` and an error
status (and the record id, for `update` and `delete`), then re-raised. `dgrr import` reads
these spans like any other GenAI memory spans (see docs/import.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

__all__ = ["traced_memory", "AGENT_ID", "RUN_ID", "HISTORY_ID", "HISTORY_PREVIOUS_ID"]

from ..provenance import OLD_CONTENT

AGENT_ID = "dgrr.memory.agent_id"
RUN_ID = "dgrr.memory.run_id"
HISTORY_ID = "dgrr.memory.history.id"
HISTORY_PREVIOUS_ID = "dgrr.memory.history.previous_id"
_SCOPES = ("user_id", "agent_id", "run_id")
_EVENT_OP = {"ADD": "create_memory", "UPDATE": "update_memory", "DELETE": "delete_memory"}


def _results(out: Any) -> list[dict[str, Any]]:
    """The memory dicts of a Mem0 answer (0.1.x: `{"results": [...]}`; older: a list)."""
    items = out.get("results", []) if isinstance(out, Mapping) else out
    return [dict(i) for i in items or [] if isinstance(i, Mapping)]


def _record(item: Mapping[str, Any], scope: Mapping[str, Any]) -> dict[str, Any]:
    """A memory as the conventions' memory record: id, content, score, metadata (scope ids
    and the memory's own metadata)."""
    meta: dict[str, Any] = {}
    for key in _SCOPES:
        value = item.get(key, scope.get(key))
        if value is not None:
            meta[key] = value
    own = item.get("metadata")
    if isinstance(own, Mapping):
        meta.update({k: v for k, v in own.items() if k not in meta})
    rec: dict[str, Any] = {"id": str(item.get("id")), "content": str(item.get("memory") or "")}
    if item.get("score") is not None:
        rec["score"] = item["score"]
    if meta:
        rec["metadata"] = meta
    return rec


def _scope_attrs(scope: Mapping[str, Any]) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    for key, name in (("user_id", "user.id"), ("agent_id", AGENT_ID), ("run_id", RUN_ID)):
        if isinstance(scope.get(key), str) and scope[key]:
            attrs[name] = scope[key]
    return attrs


def _lineage(rows: Any, event: str, content: str | None, old: str | None) -> dict[str, Any]:
    """The history rows a write appended and replaced, from `Memory.history(id)`; also the
    replaced text as Mem0's history recorded it (more trustworthy than the `previous_memory`
    an inferring `add` reports, which is the LLM's)."""
    rows = [r for r in rows or [] if isinstance(r, Mapping)]
    attrs: dict[str, Any] = {}
    mine = [r for r in rows if str(r.get("event", "")).upper() == event
            and (event == "DELETE" or r.get("new_memory") == content)]
    if mine:
        attrs[HISTORY_ID] = str(mine[-1].get("id"))
        if event != "ADD" and isinstance(mine[-1].get("old_memory"), str):
            old = attrs[OLD_CONTENT] = mine[-1]["old_memory"]
    if old is not None:
        before = [r for r in rows if str(r.get("event", "")).upper() in ("ADD", "UPDATE")
                  and r.get("new_memory") == old and (not mine or r is not mine[-1])]
        if before:
            attrs[HISTORY_PREVIOUS_ID] = str(before[-1].get("id"))
    return attrs


class _Spans:
    """Span building shared by the sync and async wrappers."""

    def __init__(self, tracer: Any, store_id: str) -> None:
        from opentelemetry import trace

        self.trace = trace
        self.tracer = tracer or trace.get_tracer("dgrr.mem0")
        self.store_id = store_id

    def span(self, name: str, attrs: dict[str, Any]) -> Any:
        """A span under the current one; inside a LangChain/LangGraph run instrumented by
        OpenInference (which does not set the OTel context) under that run's span."""
        ctx = None
        if not self.trace.get_current_span().get_span_context().is_valid \
                and "langchain_core.runnables" in sys.modules:  # else no LangChain run is on
            try:
                from openinference.instrumentation.langchain import get_current_span
                node = get_current_span()
            except ImportError:
                node = None
            if node is not None:
                ctx = self.trace.set_span_in_context(node)
        return self.tracer.start_as_current_span(name, context=ctx, attributes=attrs)

    @contextmanager
    def failing(self, op: str, scope: Mapping[str, Any], record_id: Any = None
                ) -> Iterator[None]:
        """Run a Mem0 call; when it raises, record a span with the error and re-raise."""
        try:
            yield
        except Exception as exc:
            attrs = {**self.base(op, scope), "error.type": type(exc).__qualname__}
            if record_id is not None:
                attrs["gen_ai.memory.record.id"] = str(record_id)
            with self.span(op, attrs) as span:
                span.set_status(self.trace.Status(self.trace.StatusCode.ERROR,
                                                  str(exc)[:200]))
            raise

    def base(self, op: str, scope: Mapping[str, Any]) -> dict[str, Any]:
        return {"gen_ai.operation.name": op, "gen_ai.provider.name": "mem0",
                "gen_ai.memory.store.id": self.store_id, **_scope_attrs(scope)}

    def read(self, query: str, items: Iterable[Mapping[str, Any]], scope: Mapping[str, Any]
             ) -> None:
        records = [_record(i, scope) for i in items]
        attrs = {**self.base("search_memory", scope), "gen_ai.memory.query.text": query,
                 "gen_ai.memory.record.count": len(records),
                 "gen_ai.memory.records": json.dumps(records)}
        with self.span("search_memory", attrs):
            pass

    def write(self, event: str, item: Mapping[str, Any], scope: Mapping[str, Any],
              old: str | None, lineage: Mapping[str, Any]) -> None:
        op = _EVENT_OP[event]
        rec = _record(item, scope)
        attrs: dict[str, Any] = {**self.base(op, scope), "gen_ai.memory.record.id": rec["id"],
                                 "gen_ai.memory.record.count": 1}
        if event != "DELETE":
            attrs["gen_ai.memory.content"] = rec["content"]
            attrs["gen_ai.memory.records"] = json.dumps([rec])
        if old is not None:
            attrs[OLD_CONTENT] = old
        attrs.update(lineage)
        with self.span(op, attrs):
            pass


def _scope(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The scope ids of a call: keyword arguments (0.1.x) or `filters` (2.x's search and
    get_all take them only there)."""
    filters = kwargs.get("filters")
    filters = filters if isinstance(filters, Mapping) else {}
    scope = {k: filters[k] for k in _SCOPES if isinstance(filters.get(k), str)}
    scope.update({k: kwargs[k] for k in _SCOPES if kwargs.get(k) is not None})
    return scope


def _new_text(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
    """The text of `update(memory_id, data)` (0.1.x) or `update(memory_id, text=…)` (2.x)."""
    if args:
        return args[0]
    return kwargs.get("text", kwargs.get("data"))


def _add_events(out: Any, metadata: Any) -> list[tuple[str, dict[str, Any], str | None]]:
    """(event, memory, replaced text) for each record an `add` reports as written (with the
    metadata the call gave, which Mem0's answer leaves out)."""
    events = []
    for item in _results(out):
        if isinstance(metadata, Mapping) and "metadata" not in item:
            item["metadata"] = dict(metadata)
        event = str(item.get("event", "ADD")).upper()
        if event not in _EVENT_OP:
            continue  # NONE: Mem0 decided nothing changes
        old = item.get("previous_memory")
        if event == "DELETE":
            old = item.get("memory") if old is None else old
        events.append((event, item, None if old is None else str(old)))
    return events


class TracedMemory:
    """A Mem0 `Memory` whose calls are recorded as GenAI memory spans."""

    def __init__(self, memory: Any, *, store_id: str, tracer: Any, history: bool) -> None:
        self.inner = memory
        self._spans = _Spans(tracer, store_id)
        self._history = history

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def _lineage(self, memory_id: str, event: str, content: str | None, old: str | None
                 ) -> dict[str, Any]:
        if not self._history:
            return {}
        return _lineage(self.inner.history(memory_id), event, content, old)

    def search(self, query: str, **kwargs: Any) -> Any:
        with self._spans.failing("search_memory", _scope(kwargs)):
            out = self.inner.search(query, **kwargs)
        self._spans.read(query, _results(out), _scope(kwargs))
        return out

    def get(self, memory_id: str) -> Any:
        with self._spans.failing("search_memory", {}):
            out = self.inner.get(memory_id)
        self._spans.read(str(memory_id), [out] if isinstance(out, Mapping) else [], {})
        return out

    def get_all(self, **kwargs: Any) -> Any:
        with self._spans.failing("search_memory", _scope(kwargs)):
            out = self.inner.get_all(**kwargs)
        self._spans.read("", _results(out), _scope(kwargs))
        return out

    def add(self, messages: Any, **kwargs: Any) -> Any:
        with self._spans.failing("create_memory", _scope(kwargs)):
            out = self.inner.add(messages, **kwargs)
        scope = _scope(kwargs)
        for event, item, old in _add_events(out, kwargs.get("metadata")):
            self._spans.write(event, item, scope, old,
                              self._lineage(str(item.get("id")), event, item.get("memory"), old))
        return out

    def update(self, memory_id: str, *args: Any, **kwargs: Any) -> Any:
        before = self.inner.get(memory_id)
        with self._spans.failing("update_memory", _scope(before or {}), memory_id):
            out = self.inner.update(memory_id, *args, **kwargs)
        data = _new_text(args, kwargs)
        if data is None:  # a metadata-only update (2.x): the text stays
            data = before.get("memory") if isinstance(before, Mapping) else None
        item = {**(before or {}), "id": memory_id, "memory": data}
        old = before.get("memory") if isinstance(before, Mapping) else None
        self._spans.write("UPDATE", item, _scope(before or {}), old,
                          self._lineage(memory_id, "UPDATE", data, old))
        return out

    def delete(self, memory_id: str) -> Any:
        before = self.inner.get(memory_id)
        with self._spans.failing("delete_memory", _scope(before or {}), memory_id):
            out = self.inner.delete(memory_id)
        old = before.get("memory") if isinstance(before, Mapping) else None
        self._spans.write("DELETE", {**(before or {}), "id": memory_id}, _scope(before or {}),
                          old, self._lineage(memory_id, "DELETE", None, old))
        return out

    def delete_all(self, **kwargs: Any) -> Any:
        try:
            listed = self.inner.get_all(**kwargs)
        except (TypeError, ValueError):  # 2.x: get_all takes scope ids only as filters=
            listed = self.inner.get_all(filters=_scope(kwargs))
        before = _results(listed)
        with self._spans.failing("delete_memory", _scope(kwargs)):
            out = self.inner.delete_all(**kwargs)
        scope = _scope(kwargs)
        for item in before:
            mid, old = str(item.get("id")), item.get("memory")
            self._spans.write("DELETE", item, scope, old,
                              self._lineage(mid, "DELETE", None, old))
        return out


class TracedAsyncMemory:
    """A Mem0 `AsyncMemory` whose calls are recorded as GenAI memory spans."""

    def __init__(self, memory: Any, *, store_id: str, tracer: Any, history: bool) -> None:
        self.inner = memory
        self._spans = _Spans(tracer, store_id)
        self._history = history

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def _lineage(self, memory_id: str, event: str, content: str | None, old: str | None
                       ) -> dict[str, Any]:
        if not self._history:
            return {}
        return _lineage(await self.inner.history(memory_id), event, content, old)

    async def search(self, query: str, **kwargs: Any) -> Any:
        with self._spans.failing("search_memory", _scope(kwargs)):
            out = await self.inner.search(query, **kwargs)
        self._spans.read(query, _results(out), _scope(kwargs))
        return out

    async def get(self, memory_id: str) -> Any:
        with self._spans.failing("search_memory", {}):
            out = await self.inner.get(memory_id)
        self._spans.read(str(memory_id), [out] if isinstance(out, Mapping) else [], {})
        return out

    async def get_all(self, **kwargs: Any) -> Any:
        with self._spans.failing("search_memory", _scope(kwargs)):
            out = await self.inner.get_all(**kwargs)
        self._spans.read("", _results(out), _scope(kwargs))
        return out

    async def add(self, messages: Any, **kwargs: Any) -> Any:
        with self._spans.failing("create_memory", _scope(kwargs)):
            out = await self.inner.add(messages, **kwargs)
        scope = _scope(kwargs)
        for event, item, old in _add_events(out, kwargs.get("metadata")):
            lineage = await self._lineage(str(item.get("id")), event, item.get("memory"), old)
            self._spans.write(event, item, scope, old, lineage)
        return out

    async def update(self, memory_id: str, *args: Any, **kwargs: Any) -> Any:
        before = await self.inner.get(memory_id)
        with self._spans.failing("update_memory", _scope(before or {}), memory_id):
            out = await self.inner.update(memory_id, *args, **kwargs)
        old = before.get("memory") if isinstance(before, Mapping) else None
        data = _new_text(args, kwargs)
        data = old if data is None else data
        lineage = await self._lineage(memory_id, "UPDATE", data, old)
        self._spans.write("UPDATE", {**(before or {}), "id": memory_id, "memory": data},
                          _scope(before or {}), old, lineage)
        return out

    async def delete(self, memory_id: str) -> Any:
        before = await self.inner.get(memory_id)
        with self._spans.failing("delete_memory", _scope(before or {}), memory_id):
            out = await self.inner.delete(memory_id)
        old = before.get("memory") if isinstance(before, Mapping) else None
        lineage = await self._lineage(memory_id, "DELETE", None, old)
        self._spans.write("DELETE", {**(before or {}), "id": memory_id}, _scope(before or {}),
                          old, lineage)
        return out

    async def delete_all(self, **kwargs: Any) -> Any:
        try:
            listed = await self.inner.get_all(**kwargs)
        except (TypeError, ValueError):  # 2.x: get_all takes scope ids only as filters=
            listed = await self.inner.get_all(filters=_scope(kwargs))
        before = _results(listed)
        with self._spans.failing("delete_memory", _scope(kwargs)):
            out = await self.inner.delete_all(**kwargs)
        scope = _scope(kwargs)
        for item in before:
            mid, old = str(item.get("id")), item.get("memory")
            lineage = await self._lineage(mid, "DELETE", None, old)
            self._spans.write("DELETE", item, scope, old, lineage)
        return out


def traced_memory(memory: Any, *, store_id: str = "mem0", tracer: Any = None,
                  history: bool = True) -> TracedMemory | TracedAsyncMemory:
    """`memory` (a Mem0 `Memory` or `AsyncMemory`) wrapped so that each call is recorded as
    OTel GenAI memory spans (see the module doc). `tracer` defaults to the global tracer
    provider's `dgrr.mem0`; `history=False` skips reading Mem0's history for lineage."""
    import inspect

    is_async = inspect.iscoroutinefunction(getattr(memory, "search", None))
    cls = TracedAsyncMemory if is_async else TracedMemory
    return cls(memory, store_id=store_id, tracer=tracer, history=history)
