"""`traced_store` on LangGraph's async stores: every call goes through the wrapped store's
async path (an AsyncSqliteStore or AsyncPostgresStore refuses synchronous calls from the
event loop), and the spans are the same as on the sync path."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from postgres_server import POSTGRES_MARKS

from repair_core.integrations.langgraph import traced_store
from repair_core.provenance import OLD_CONTENT

NS = ("lin", "prefs")


async def _session(store: Any) -> None:
    """What an async agent does with its store: write, overwrite, read, search, delete."""
    await store.aput(NS, "seat", {"text": "Lin prefers aisle seats."})
    await store.aput(NS, "meal", {"text": "Lin is vegetarian."})
    await store.aput(NS, "seat", {"text": "Lin prefers window seats."})
    got = await store.aget(NS, "seat")
    assert got.value["text"] == "Lin prefers window seats."
    hits = await store.asearch(NS)
    assert {h.key for h in hits} == {"seat", "meal"}
    await store.adelete(NS, "meal")
    assert await store.aget(NS, "meal") is None


def _check_spans(exporter: InMemorySpanExporter) -> None:
    spans = [(s.name, dict(s.attributes or {})) for s in exporter.get_finished_spans()]
    names = [n for n, _ in spans]
    assert names == ["create_memory", "create_memory", "update_memory", "search_memory",
                     "search_memory", "delete_memory", "search_memory"]
    update = spans[2][1]
    assert update["gen_ai.memory.record.id"] == "lin/prefs/seat"
    assert update["gen_ai.memory.content"] == "Lin prefers window seats."
    assert update[OLD_CONTENT] == "Lin prefers aisle seats."
    search = json.loads(spans[4][1]["gen_ai.memory.records"])
    assert {r["id"] for r in search} == {"lin/prefs/seat", "lin/prefs/meal"}
    assert spans[5][1][OLD_CONTENT] == "Lin is vegetarian."
    assert json.loads(spans[6][1]["gen_ai.memory.records"]) == []  # the aget after delete


async def _run(open_store: Callable[[], Any]) -> tuple[InMemorySpanExporter, Any]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    async with open_store() as inner:
        store = traced_store(inner, store_id="lin-prefs", tracer=provider.get_tracer("t"))
        await _session(store)
        history = store.history
    return exporter, history


def test_in_memory_store_async_methods() -> None:
    from langgraph.store.memory import InMemoryStore

    @asynccontextmanager
    async def open_store() -> AsyncIterator[Any]:
        yield InMemoryStore()

    exporter, history = asyncio.run(_run(open_store))
    _check_spans(exporter)
    assert [v.op for v in history["lin/prefs/seat"]] == ["add", "update"]


def test_async_sqlite_store(tmp_path: Path) -> None:
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    @asynccontextmanager
    async def open_store() -> AsyncIterator[Any]:
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "store.db")) as s:
            await s.setup()
            yield s

    exporter, _ = asyncio.run(_run(open_store))
    _check_spans(exporter)


def test_async_sqlite_store_before_the_fix_refused_sync_calls(tmp_path: Path) -> None:
    """The failure this guards against: the wrapped store's sync path from the event loop."""
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async def sync_call() -> None:
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "s.db")) as s:
            await s.setup()
            s.put(NS, "seat", {"text": "x"})

    with pytest.raises(Exception, match="(?i)synchronous calls"):
        asyncio.run(sync_call())


@POSTGRES_MARKS[0]
def test_async_postgres_store(postgres_url: str) -> None:
    import psycopg
    from langgraph.store.postgres.aio import AsyncPostgresStore

    conninfo = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS traced_async CASCADE")
        conn.execute("CREATE SCHEMA traced_async")
    scoped = f"{conninfo}?options=-csearch_path%3Dtraced_async"

    @asynccontextmanager
    async def open_store() -> AsyncIterator[Any]:
        async with AsyncPostgresStore.from_conn_string(scoped) as s:
            await s.setup()
            yield s

    exporter, _ = asyncio.run(_run(open_store))
    _check_spans(exporter)
