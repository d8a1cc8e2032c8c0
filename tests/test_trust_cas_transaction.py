"""Compare-and-set in one transaction of the store's database: an agent that writes an
item through its own connection after dgrr read it, but before dgrr's write, is seen by
that write (which reads the item again inside its transaction: `BEGIN IMMEDIATE` on a
SqliteStore, `SELECT … FOR UPDATE` in a REPEATABLE READ transaction on a PostgresStore),
and the apply refuses, everything rolled back: the agent's value is kept, not written
over."""

from __future__ import annotations

import pytest

pytest.importorskip("langgraph.store.sqlite", reason="needs the 'postgres' extra")

from test_writeback_langgraph_stores import (  # noqa: E402
    APPROVAL,
    LEARNED,
    NAMESPACE,
    SEAT_KEY,
    _fill,
    _libpq,
    _ops,
    _sync_store,
)

from repair_core import DgrrError  # noqa: E402
from repair_core.integrations.langgraph import LangGraphSlots, apply_langgraph  # noqa: E402

AGENTS_SEAT = "Lin now wants an aisle seat (the agent, just now)."


def _agent_writes_after_dgrr_reads(monkeypatch, agent) -> list[bool]:
    """The agent writes the seat through `agent` (its own connection) right after dgrr
    read the seat slot a second time: the plan's read, then the writer's own read before
    its write."""
    reads: list[bool] = []
    real = LangGraphSlots.read

    def read(self, ref):
        got = real(self, ref)
        if ref == [list(NAMESPACE), SEAT_KEY]:
            reads.append(True)
            if len(reads) == 2:
                agent.put(NAMESPACE, SEAT_KEY, {"text": AGENTS_SEAT})
        return got

    monkeypatch.setattr(LangGraphSlots, "read", read)
    return reads


def _the_second_writer_refuses(store, agent, monkeypatch) -> None:
    _fill(store)
    reads = _agent_writes_after_dgrr_reads(monkeypatch, agent)
    with pytest.raises(DgrrError, match="changed while the apply was writing"):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    assert len(reads) >= 2  # the agent did write in between
    assert store.get(NAMESPACE, SEAT_KEY).value == {"text": AGENTS_SEAT}
    assert store.get(NAMESPACE, "habit").value == {"text": LEARNED}  # all rolled back


def test_sqlite_store_compare_and_set_sees_a_write_of_another_connection(tmp_path,
                                                                          monkeypatch):
    with _sync_store("sqlite", tmp_path, None) as store, \
            _sync_store("sqlite", tmp_path, None) as agent:
        _the_second_writer_refuses(store, agent, monkeypatch)


def _write_lock_taken(path) -> bool:
    """Whether another connection to the SQLite file `path` finds its write lock taken
    (by dgrr's transaction)."""
    import sqlite3

    other = sqlite3.connect(str(path), timeout=0.2)
    try:
        other.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:  # locked by dgrr's transaction
        return "locked" in str(exc)
    else:
        other.execute("ROLLBACK")
        return False
    finally:
        other.close()


def test_sqlite_store_write_lock_is_held_from_the_compare_to_the_write(tmp_path,
                                                                        monkeypatch):
    """While dgrr compares and writes an item, another connection's write waits for
    dgrr's commit (so it lands after dgrr's write, not lost under it)."""

    from langgraph.store.sqlite import SqliteStore

    with _sync_store("sqlite", tmp_path, None) as store:
        _fill(store)
        waited: list[bool] = []
        real = SqliteStore._batch_put_ops

        def put_ops(self, ops, cur):
            if self is store and not waited:
                waited.append(_write_lock_taken(tmp_path / "store.db"))
            return real(self, ops, cur)

        monkeypatch.setattr(SqliteStore, "_batch_put_ops", put_ops)
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
        assert waited == [True]
        assert store.get(NAMESPACE, SEAT_KEY) is None


@pytest.mark.postgres
@pytest.mark.slow
def test_postgres_store_compare_and_set_sees_a_write_of_another_connection(
        postgres_db, tmp_path, monkeypatch):
    pytest.importorskip("langgraph.store.postgres", reason="needs the 'postgres' extra")
    url = _libpq(str(postgres_db))
    with _sync_store("postgres", tmp_path, url) as store, \
            _sync_store("postgres", tmp_path, url) as agent:
        _the_second_writer_refuses(store, agent, monkeypatch)


def _async_second_writer_refuses(open_store, agent, monkeypatch) -> None:
    """`_the_second_writer_refuses` on an async store, applied from inside its event loop
    (`aapply_langgraph`: the apply's worker thread hands the transaction to the loop)."""
    import asyncio

    from repair_core.integrations.langgraph import aapply_langgraph

    async def main():
        async with open_store() as store:
            await store.setup()
            await asyncio.to_thread(_fill, store)
            reads = _agent_writes_after_dgrr_reads(monkeypatch, agent)
            with pytest.raises(DgrrError, match="changed while the apply was writing"):
                await aapply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
            assert len(reads) >= 2  # the agent did write in between
            seat = await store.aget(NAMESPACE, SEAT_KEY)
            habit = await store.aget(NAMESPACE, "habit")
            assert seat.value == {"text": AGENTS_SEAT}
            assert habit.value == {"text": LEARNED}  # all rolled back

    asyncio.run(main())


def test_async_sqlite_store_compare_and_set_sees_a_write_of_another_connection(
        tmp_path, monkeypatch):
    pytest.importorskip("langgraph.store.sqlite.aio", reason="needs the 'postgres' extra")
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    path = str(tmp_path / "store.db")
    with _sync_store("sqlite", tmp_path, None) as agent:  # the agent's own connection
        _async_second_writer_refuses(lambda: AsyncSqliteStore.from_conn_string(path),
                                     agent, monkeypatch)


def test_async_sqlite_store_write_lock_is_held_from_the_compare_to_the_write(
        tmp_path, monkeypatch):
    """While dgrr compares and writes an item of an AsyncSqliteStore, another
    connection cannot take the database's write lock."""
    import asyncio

    pytest.importorskip("langgraph.store.sqlite.aio", reason="needs the 'postgres' extra")
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    from repair_core.integrations.langgraph import aapply_langgraph

    waited: list[bool] = []
    real = AsyncSqliteStore._batch_put_ops

    async def put_ops(self, ops, cur):
        if not waited:
            waited.append(_write_lock_taken(tmp_path / "store.db"))
        return await real(self, ops, cur)

    async def main():
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "store.db")) as store:
            await store.setup()
            await asyncio.to_thread(_fill, store)
            monkeypatch.setattr(AsyncSqliteStore, "_batch_put_ops", put_ops)
            await aapply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
            assert await store.aget(NAMESPACE, SEAT_KEY) is None

    asyncio.run(main())
    assert waited == [True]


@pytest.mark.postgres
@pytest.mark.slow
def test_async_postgres_store_compare_and_set_sees_a_write_of_another_connection(
        postgres_db, tmp_path, monkeypatch):
    pytest.importorskip("langgraph.store.postgres.aio", reason="needs the 'postgres' extra")
    from langgraph.store.postgres.aio import AsyncPostgresStore

    url = _libpq(str(postgres_db))
    with _sync_store("postgres", tmp_path, url) as agent:
        _async_second_writer_refuses(lambda: AsyncPostgresStore.from_conn_string(url),
                                     agent, monkeypatch)


@pytest.mark.postgres
@pytest.mark.slow
def test_async_postgres_store_row_is_locked_from_the_compare_to_the_write(
        postgres_db, tmp_path, monkeypatch):
    """While dgrr compares and writes an item of an AsyncPostgresStore, another
    connection's update of that item's row waits for dgrr's commit (here: gives up after
    its lock timeout)."""
    import asyncio

    pytest.importorskip("langgraph.store.postgres.aio", reason="needs the 'postgres' extra")
    import psycopg
    from langgraph.store.postgres.aio import AsyncPostgresStore

    from repair_core.integrations.langgraph import aapply_langgraph

    url = _libpq(str(postgres_db))
    waited: list[bool] = []
    real = AsyncPostgresStore._batch_put_ops

    async def put_ops(self, ops, cur):
        if not waited:
            op = ops[0][1]
            with psycopg.connect(url, autocommit=True) as other:
                other.execute("SET lock_timeout = '300ms'")
                try:
                    other.execute("UPDATE store SET value = value WHERE prefix = %s AND key = %s",
                                  (".".join(op.namespace), op.key))
                except psycopg.errors.LockNotAvailable:  # the row dgrr's transaction holds
                    waited.append(True)
                else:
                    waited.append(False)
        return await real(self, ops, cur)

    async def main():
        async with AsyncPostgresStore.from_conn_string(url) as store:
            await store.setup()
            await asyncio.to_thread(_fill, store)
            monkeypatch.setattr(AsyncPostgresStore, "_batch_put_ops", put_ops)
            await aapply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
            assert await store.aget(NAMESPACE, SEAT_KEY) is None

    asyncio.run(main())
    assert waited == [True]


def test_in_memory_store_write_through_the_traced_store_waits_for_dgrrs_write(monkeypatch):
    """An InMemoryStore has no transaction, but all its writers are in one process: while
    dgrr compares and writes an item, an agent's write through `traced_store` waits for
    the lock dgrr holds, and lands after dgrr's write instead of being lost under it."""
    import threading

    from langgraph.store.memory import InMemoryStore

    from repair_core.integrations.langgraph import traced_store

    inner = InMemoryStore()
    agent = traced_store(inner)
    _fill(inner)
    waited: list[bool] = []
    writers: list[threading.Thread] = []
    real = InMemoryStore.batch
    applying = threading.get_ident()

    def batch(self, ops):
        ops = list(ops)
        if (threading.get_ident() == applying and not waited
                and any(getattr(op, "key", None) == SEAT_KEY and hasattr(op, "value")
                        for op in ops)):
            writer = threading.Thread(
                target=agent.put, args=(NAMESPACE, SEAT_KEY, {"text": AGENTS_SEAT}))
            writers.append(writer)
            writer.start()
            writer.join(0.5)
            waited.append(writer.is_alive())  # held back until dgrr's write is done
            out = real(self, ops)
            monkeypatch.setattr(InMemoryStore, "batch", real)
            return out
        return real(self, ops)

    monkeypatch.setattr(InMemoryStore, "batch", batch)
    apply_langgraph(inner, _ops(), case_id="lg-case", approval=APPROVAL)
    for writer in writers:
        writer.join(5)
    assert waited == [True]
    assert inner.get(NAMESPACE, SEAT_KEY).value == {"text": AGENTS_SEAT}
