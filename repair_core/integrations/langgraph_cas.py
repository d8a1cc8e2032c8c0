"""Compare-and-set of one LangGraph store item in one transaction of the store's own
database, so that no write of the agent gets in between dgrr's compare and its write:

- `SqliteStore`: `BEGIN IMMEDIATE` on the store's connection (the database's write lock,
  held from the read to the commit: another connection's write waits, then sees dgrr's);
- `PostgresStore`: a `REPEATABLE READ` transaction that reads the item with
  `SELECT … FOR UPDATE` on its row (another writer waits for the commit; a row written
  after the transaction's snapshot, an insert included, fails it with a serialization
  error, which is a conflict, nothing written).

`AsyncSqliteStore` and `AsyncPostgresStore` get the same transaction, run on the store's
own event loop: the apply runs in a worker thread (`aapply_langgraph`), which hands the
coroutine to that loop as the store's own sync calls do, and waits for it.

An `InMemoryStore` has no transaction; all its writers are in one process, so the
compare and the write hold a lock of that process, one per store object
(:func:`write_lock`), which dgrr's `traced_store` also holds for each write it passes to
that store: a write made through the traced store waits for dgrr's write. A write made on
the bare `InMemoryStore` from another thread takes no lock and is not held back.

The item is read and written with the store's own statements (its `_batch_get_ops` and
`_batch_put_ops` on the transaction's cursor), so values, timestamps and the index are
what the store itself writes. Another store (a store of another version without those
methods, a kind this module does not know) gets None from :func:`transactional`: the
engine then reads the item again right before writing it, and the window stays open (see
docs/writeback.md)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["transactional", "write_lock"]

_LOCKS: weakref.WeakKeyDictionary[Any, threading.RLock] = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()

Same = Callable[[Any, Any], bool]
StateOf = Callable[[Any], Any]
WriteIf = Callable[[tuple[str, ...], str, Any, Any], tuple[bool, Any]]


def _unwrapped(store: Any) -> Any:
    """The store a dgrr `traced_store` wraps (its `inner`), else `store`."""
    inner = getattr(store, "inner", None)
    return inner if inner is not None and type(store).__name__ == "TracedStore" else store


def _put_op(ns: tuple[str, ...], key: str, state: Any) -> Any:
    from langgraph.store.base import PutOp

    if state is None:
        return PutOp(ns, key, None)
    return PutOp(ns, key, state["value"], index=False if state.get("index") is False else None)


def _sqlite(store: Any, same: Same, state_of: StateOf) -> WriteIf | None:
    import sqlite3

    try:
        from langgraph.store.sqlite import SqliteStore
    except ImportError:
        return None
    if not isinstance(store, SqliteStore) or not isinstance(getattr(store, "conn", None),
                                                             sqlite3.Connection) \
            or not hasattr(store, "_batch_get_ops") or not hasattr(store, "_batch_put_ops"):
        return None

    def write_if(ns: tuple[str, ...], key: str, expected: Any, state: Any) -> tuple[bool, Any]:
        from langgraph.store.base import GetOp

        if not store.is_setup:
            store.setup()
        with store.lock:
            conn = store.conn
            conn.execute("BEGIN IMMEDIATE")  # the database's write lock, until COMMIT
            try:
                cur = conn.cursor()
                got: list[Any] = [None]
                store._batch_get_ops([(0, GetOp(ns, key, refresh_ttl=False))], got, cur)
                current = state_of(got[0])
                if not same(current, expected):
                    conn.execute("ROLLBACK")
                    return False, current
                store._batch_put_ops([(0, _put_op(ns, key, state))], cur)
                cur.close()
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return True, current

    return write_if


def _postgres(store: Any, same: Same, state_of: StateOf) -> WriteIf | None:
    try:
        from langgraph.store.postgres import PostgresStore
        from langgraph.store.postgres.base import _pg_internal
    except ImportError:
        return None
    if not isinstance(store, PostgresStore) or getattr(store, "pipe", None) is not None \
            or not hasattr(store, "_batch_get_ops") or not hasattr(store, "_batch_put_ops"):
        return None

    def write_if(ns: tuple[str, ...], key: str, expected: Any, state: Any) -> tuple[bool, Any]:
        import psycopg
        from langgraph.store.base import GetOp
        from psycopg.rows import dict_row

        try:
            with _pg_internal.get_connection(store.conn) as conn, store.lock, \
                    conn.transaction(), conn.cursor(binary=True, row_factory=dict_row) as cur:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                cur.execute("SELECT key FROM store WHERE prefix = %s AND key = %s FOR UPDATE",
                            (".".join(ns), key))
                got: list[Any] = [None]
                store._batch_get_ops([(0, GetOp(ns, key, refresh_ttl=False))], got, cur)
                current = state_of(got[0])
                if not same(current, expected):
                    return False, current
                store._batch_put_ops([(0, _put_op(ns, key, state))], cur)
                return True, current
        except psycopg.errors.SerializationFailure:
            # someone wrote the row after this transaction began: nothing written
            from langgraph.store.base import GetOp

            fresh: list[Any] = [None]
            fresh[0] = store.batch([GetOp(ns, key, refresh_ttl=False)])[0]
            return False, state_of(fresh[0])

    return write_if


def _on_loop(store: Any, write_if: Callable[..., Any]) -> WriteIf:
    """`write_if` (a coroutine function) run on `store`'s event loop from the apply's
    worker thread, waited for as the store's own sync calls wait."""
    import asyncio

    def run(ns: tuple[str, ...], key: str, expected: Any, state: Any) -> tuple[bool, Any]:
        future = asyncio.run_coroutine_threadsafe(write_if(ns, key, expected, state),
                                                  store._loop)
        return future.result()  # type: ignore[no-any-return]

    return run


def _async_sqlite(store: Any, same: Same, state_of: StateOf) -> WriteIf | None:
    try:
        from langgraph.store.sqlite.aio import AsyncSqliteStore
    except ImportError:
        return None
    if not isinstance(store, AsyncSqliteStore) or getattr(store, "_loop", None) is None \
            or not hasattr(store, "_batch_get_ops") or not hasattr(store, "_batch_put_ops"):
        return None

    async def write_if(ns: tuple[str, ...], key: str, expected: Any, state: Any
                       ) -> tuple[bool, Any]:
        from langgraph.store.base import GetOp

        if not store.is_setup:
            await store.setup()
        async with store.lock:
            conn = store.conn
            await conn.execute("BEGIN IMMEDIATE")  # the database's write lock, until COMMIT
            try:
                async with conn.cursor() as cur:
                    got: list[Any] = [None]
                    await store._batch_get_ops([(0, GetOp(ns, key, refresh_ttl=False))], got,
                                               cur)
                    current = state_of(got[0])
                    if not same(current, expected):
                        await conn.execute("ROLLBACK")
                        return False, current
                    await store._batch_put_ops([(0, _put_op(ns, key, state))], cur)
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
            await conn.execute("COMMIT")
            return True, current

    return _on_loop(store, write_if)


def _async_postgres(store: Any, same: Same, state_of: StateOf) -> WriteIf | None:
    try:
        from langgraph.checkpoint.postgres import _ainternal
        from langgraph.store.postgres.aio import AsyncPostgresStore
    except ImportError:
        return None
    if not isinstance(store, AsyncPostgresStore) or getattr(store, "pipe", None) is not None \
            or getattr(store, "_loop", None) is None \
            or not hasattr(store, "_batch_get_ops") or not hasattr(store, "_batch_put_ops"):
        return None

    async def write_if(ns: tuple[str, ...], key: str, expected: Any, state: Any
                       ) -> tuple[bool, Any]:
        import psycopg
        from langgraph.store.base import GetOp
        from psycopg.rows import dict_row

        try:
            async with _ainternal.get_connection(store.conn) as conn, store.lock, \
                    conn.transaction(), conn.cursor(binary=True, row_factory=dict_row) as cur:
                await cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                await cur.execute("SELECT key FROM store WHERE prefix = %s AND key = %s "
                                  "FOR UPDATE", (".".join(ns), key))
                got: list[Any] = [None]
                await store._batch_get_ops([(0, GetOp(ns, key, refresh_ttl=False))], got, cur)
                current = state_of(got[0])
                if not same(current, expected):
                    return False, current
                await store._batch_put_ops([(0, _put_op(ns, key, state))], cur)
                return True, current
        except psycopg.errors.SerializationFailure:
            # someone wrote the row after this transaction began: nothing written
            fresh = await store.abatch([GetOp(ns, key, refresh_ttl=False)])
            return False, state_of(fresh[0])

    return _on_loop(store, write_if)


def write_lock(store: Any) -> threading.RLock:
    """The lock of this process that dgrr's compare-and-set of `store`'s items and
    `traced_store`'s writes to `store` share (one per store object, made on first use)."""
    with _LOCKS_GUARD:
        lock = _LOCKS.get(store)
        if lock is None:
            lock = _LOCKS[store] = threading.RLock()
        return lock


def _in_memory(store: Any, same: Same, state_of: StateOf) -> WriteIf | None:
    try:
        from langgraph.store.memory import InMemoryStore
    except ImportError:
        return None
    if not isinstance(store, InMemoryStore):
        return None
    lock = write_lock(store)

    def write_if(ns: tuple[str, ...], key: str, expected: Any, state: Any) -> tuple[bool, Any]:
        from langgraph.store.base import GetOp

        with lock:
            current = state_of(store.batch([GetOp(ns, key, refresh_ttl=False)])[0])
            if not same(current, expected):
                return False, current
            store.batch([_put_op(ns, key, state)])
            return True, current

    return write_if


def transactional(store: Any, same: Same, state_of: StateOf) -> WriteIf | None:
    """The compare-and-set of `store`'s items in one transaction (see the module doc),
    or None when the store offers none this module knows. `same` compares two slot
    states, `state_of` makes one of an item (None: absent)."""
    store = _unwrapped(store)
    return (_sqlite(store, same, state_of) or _postgres(store, same, state_of)
            or _async_sqlite(store, same, state_of) or _async_postgres(store, same, state_of)
            or _in_memory(store, same, state_of))
