"""Where dgrr keeps what it quarantined from a LangGraph store: outside the store's API.

A LangGraph `BaseStore` answers `search(())` (every item), `search` of any prefix and
`list_namespaces()`, so nothing kept *in* the store is hidden from an agent that asks
broadly enough. A quarantined item therefore leaves the store: it is deleted from its
namespace and its entry goes to a *vault* that no store call reads:

- `SqliteStore` / `AsyncSqliteStore`: the table `dgrr_quarantine` in the store's own
  SQLite database;
- `PostgresStore` / `AsyncPostgresStore`: the table `dgrr_quarantine` in the store's own
  PostgreSQL database;
- `InMemoryStore`: a dict kept beside the store object (it lives as long as the store),
  unless the caller passes a vault of its own (e.g. :class:`SqliteVault` on a file);
- any other store: the caller passes `vault=`; a wrapper that keeps the wrapped store
  as `.inner` (:func:`~repair_core.integrations.langgraph.traced_store`) uses the
  wrapped store's vault.

An entry is keyed by (apply id, namespace, key) and holds the original namespace, key,
whole value and index setting, the item's `created_at`/`updated_at`, and the case, record
and apply it belongs to: enough to audit and to put the item back. Vault entries are
slots of the apply's intent journal like store items, so resume and rollback bring
store and vault together to the planned after-state or the exact before-state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections.abc import Iterator
from functools import partial
from typing import Any, Protocol

from .._errors import DgrrError

__all__ = ["Vault", "MemoryVault", "SqliteVault", "StoreVault", "vault_for", "quarantined",
           "move_legacy_quarantine", "VAULT_TABLE", "LEGACY_NAMESPACE"]

VAULT_TABLE = "dgrr_quarantine"
"""The table of quarantined items in a SQLite or PostgreSQL store's database."""


class Vault(Protocol):
    """Quarantined items, keyed by (apply id, namespace, key)."""

    def get(self, apply_id: str, namespace: list[str], key: str) -> dict[str, Any] | None:
        """The entry, or None."""

    def put(self, apply_id: str, namespace: list[str], key: str,
            entry: dict[str, Any] | None) -> None:
        """Set the entry (None: remove it)."""

    def entries(self) -> list[dict[str, Any]]:
        """Every entry (each carries its `apply`, `namespace` and `key`)."""


class MemoryVault:
    """A vault in a dict (for an `InMemoryStore`, which itself lives in memory)."""

    def __init__(self) -> None:
        self._items: dict[str, str] = {}

    @staticmethod
    def _ident(apply_id: str, namespace: list[str], key: str) -> str:
        return json.dumps([apply_id, list(namespace), key])

    def get(self, apply_id: str, namespace: list[str], key: str) -> dict[str, Any] | None:
        raw = self._items.get(self._ident(apply_id, namespace, key))
        return None if raw is None else dict(json.loads(raw))

    def put(self, apply_id: str, namespace: list[str], key: str,
            entry: dict[str, Any] | None) -> None:
        ident = self._ident(apply_id, namespace, key)
        if entry is None:
            self._items.pop(ident, None)
        else:  # kept as JSON: a caller mutating what it read cannot change the vault
            self._items[ident] = json.dumps(entry, sort_keys=True, default=str)

    def entries(self) -> list[dict[str, Any]]:
        return [dict(json.loads(raw)) for _, raw in sorted(self._items.items())]


_CREATE = (f"CREATE TABLE IF NOT EXISTS {VAULT_TABLE} (apply_id TEXT NOT NULL, "
           "namespace TEXT NOT NULL, key TEXT NOT NULL, entry TEXT NOT NULL, "
           "PRIMARY KEY (apply_id, namespace, key))")


def _sql(mark: str) -> dict[str, str]:
    p = mark
    return {
        "get": f"SELECT entry FROM {VAULT_TABLE} WHERE apply_id = {p} AND namespace = {p} "
               f"AND key = {p}",
        "put": f"INSERT INTO {VAULT_TABLE} (apply_id, namespace, key, entry) VALUES "
               f"({p}, {p}, {p}, {p}) ON CONFLICT (apply_id, namespace, key) DO UPDATE SET "
               "entry = excluded.entry",
        "delete": f"DELETE FROM {VAULT_TABLE} WHERE apply_id = {p} AND namespace = {p} "
                  f"AND key = {p}",
        "all": f"SELECT entry FROM {VAULT_TABLE} ORDER BY apply_id, namespace, key",
    }


def _first(row: Any) -> Any:
    return row["entry"] if isinstance(row, dict) else row[0]


class _SqlVault:
    """A vault table; subclasses say how a statement runs."""

    mark = "?"

    def __init__(self) -> None:
        self._ready = False
        self._q = _sql(self.mark)

    def _run(self, statement: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
        raise NotImplementedError

    def _exec(self, statement: str, params: tuple[Any, ...] = (),
              fetch: bool = False) -> list[Any]:
        if not self._ready:
            self._run(_CREATE, (), False)
            self._ready = True
        return self._run(statement, params, fetch)

    def get(self, apply_id: str, namespace: list[str], key: str) -> dict[str, Any] | None:
        rows = self._exec(self._q["get"], (apply_id, json.dumps(list(namespace)), key), True)
        return dict(json.loads(_first(rows[0]))) if rows else None

    def put(self, apply_id: str, namespace: list[str], key: str,
            entry: dict[str, Any] | None) -> None:
        ns = json.dumps(list(namespace))
        if entry is None:
            self._exec(self._q["delete"], (apply_id, ns, key))
        else:
            self._exec(self._q["put"], (apply_id, ns, key,
                                        json.dumps(entry, sort_keys=True, default=str)))

    def entries(self) -> list[dict[str, Any]]:
        return [dict(json.loads(_first(r))) for r in self._exec(self._q["all"], (), True)]


class SqliteVault(_SqlVault):
    """A vault in a SQLite file of its own (a sidecar, e.g. for an `InMemoryStore` whose
    quarantine must outlive the process)."""

    def __init__(self, path: str) -> None:
        import sqlite3

        super().__init__()
        try:
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.conn.execute(_CREATE)
        except sqlite3.Error as exc:
            raise DgrrError(f"--vault: cannot use {path!r} as a SQLite file: {exc}") from None
        self._ready = True

    def _run(self, statement: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
        cur = self.conn.execute(statement, params)
        return cur.fetchall() if fetch else []

    def close(self) -> None:
        """Close the file."""
        self.conn.close()


class StoreVault(_SqlVault):
    """The vault table in a SQLite or PostgreSQL LangGraph store's own database, reached
    through the store's connection (its lock, pool and transaction handling)."""

    def __init__(self, store: Any, postgres: bool) -> None:
        self.mark = "%s" if postgres else "?"
        super().__init__()
        self.store = store

    def _run(self, statement: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
        opened = self.store._cursor()
        if isinstance(opened, contextlib.AbstractAsyncContextManager):
            async def run() -> list[Any]:
                async with opened as cur:
                    await cur.execute(statement, params)
                    return list(await cur.fetchall()) if fetch else []
            return _on_loop(self.store, run())
        with opened as cur:
            cur.execute(statement, params)
            return list(cur.fetchall()) if fetch else []


def _on_loop(store: Any, coro: Any) -> Any:
    """Run `coro` on an async store's event loop from a worker thread (as the store's own
    synchronous methods do)."""
    loop = getattr(store, "loop", None) or getattr(store, "_loop", None)
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if loop is None or running is loop:
        coro.close()
        raise DgrrError(f"{type(store).__name__}: its quarantine vault is reached from a "
                        "worker thread while the store's event loop runs (asyncio.to_thread, "
                        "as aapply_langgraph does), not from the loop itself")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


_VAULTS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _unwrapped(store: Any) -> Iterator[Any]:
    seen = 0
    while store is not None and seen < 16:
        yield store
        store, seen = getattr(store, "inner", None), seen + 1


def vault_for(store: Any, vault: Vault | None = None) -> Vault:
    """The vault of `store` (see the module doc); `vault` when given."""
    if vault is not None:
        return vault
    for s in _unwrapped(store):
        names = {c.__name__ for c in type(s).__mro__}
        if "BaseSqliteStore" in names or "BasePostgresStore" in names:
            return _cached(s, partial(StoreVault, s, postgres="BasePostgresStore" in names))
        if "InMemoryStore" in names:
            return _cached(s, MemoryVault)
    raise DgrrError(f"quarantine: dgrr keeps quarantined items outside the store, in a "
                    f"vault, and has none for a {type(store).__name__} (it knows SqliteStore, "
                    "PostgresStore, their async classes and InMemoryStore, or a wrapper "
                    "keeping one as .inner): give one with `dgrr apply --vault FILE` (for the "
                    "queue's worker, `dgrr worker --vault FILE`) or "
                    "apply_langgraph(..., vault=SqliteVault('q.db')); nothing written")


def _cached(store: Any, make: Any) -> Any:
    try:
        got = _VAULTS.get(store)
        if got is None:
            got = _VAULTS[store] = make()
        return got
    except TypeError:  # not weak-referenceable
        return make()


def quarantined(store: Any, vault: Vault | None = None) -> list[dict[str, Any]]:
    """Every item dgrr quarantined from `store` (for audit): each entry's `namespace`,
    `key`, `value`, `index`, `created_at`, `updated_at`, `case`, `record` and `apply`."""
    return vault_for(store, vault).entries()


LEGACY_NAMESPACE = "dgrr-quarantine"
"""Where dgrr before the vault kept quarantined copies *in* the store:
`("dgrr-quarantine", <apply id>, *namespace)`, which `search(())` still returned."""


def move_legacy_quarantine(store: Any, vault: Vault | None = None) -> list[dict[str, Any]]:
    """Move the copies an earlier dgrr left under `("dgrr-quarantine", ...)` in `store`
    into its vault (each entry first, then the copy deleted: running it again after a
    crash finishes the move); the entries moved. Items there that are not dgrr's copies
    are left alone."""
    target = vault_for(store, vault)
    moved = []
    for item in store.search((LEGACY_NAMESPACE,), limit=1_000_000):
        value = dict(item.value)
        ns = tuple(item.namespace)
        if value.get("dgrr_quarantined") is not True or len(ns) < 2 or \
                not isinstance(value.get("namespace"), list) or \
                not isinstance(value.get("key"), str):
            continue
        entry = {k: v for k, v in value.items() if k != "dgrr_quarantined"}
        entry["apply"] = entry.get("apply") or ns[1]
        target.put(entry["apply"], entry["namespace"], entry["key"], entry)
        store.delete(ns, item.key)
        moved.append(entry)
    return moved
