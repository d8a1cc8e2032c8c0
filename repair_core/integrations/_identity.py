"""Which store an opened store object is, whatever spec opened it: what names its apply
journal and lock. A SQLite file by its device and inode, a PostgreSQL database by server
and name, a Mem0 memory by its vector collection (and where that lives) and its history
database. Two specs that open one store (a module re-exporting a factory, a relative and
an absolute path) give one identity; the `dgrr apply` CLI and `dgrr worker` derive it
alike."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

__all__ = ["file_identity", "langgraph_identity", "mem0_identity"]


def file_identity(path: str | os.PathLike[str]) -> str:
    """`file:<device>:<inode>` of an existing file or folder (its real path when it
    cannot be stat'ed)."""
    real = os.path.realpath(path)
    try:
        info = os.stat(real)
    except OSError:
        return f"path:{real}"
    return f"file:{info.st_dev}:{info.st_ino}"


def _sqlite_identity(conn: sqlite3.Connection) -> str | None:
    try:
        rows = conn.execute("PRAGMA database_list").fetchall()
    except sqlite3.Error:
        return None
    main = next((r[2] for r in rows if r[1] == "main"), "")
    if not main:  # an in-memory database lives only in this connection
        return f"sqlite-memory:{os.getpid()}:{id(conn):x}"
    return "sqlite:" + file_identity(main)


def _postgres_identity(conn: Any) -> str | None:
    info = getattr(conn, "info", None)
    if info is None:  # a pool: its connection string
        conninfo = getattr(conn, "conninfo", None)
        if not isinstance(conninfo, str):
            return None
        try:
            from psycopg.conninfo import conninfo_to_dict

            params = conninfo_to_dict(conninfo)
        except Exception:
            return None
        host, port, db = params.get("host"), params.get("port"), params.get("dbname")
    else:
        host, port, db = info.host, info.port, info.dbname
    return f"postgresql://{host or 'localhost'}:{port or 5432}/{db}"


def langgraph_identity(store: Any, spec: str) -> str:
    """The identity of a LangGraph `BaseStore` (a wrapper keeping the store as `.inner`
    is the store it wraps). A store kind dgrr does not know is named by its class and
    `spec`."""
    seen = 0
    while getattr(store, "inner", None) is not None and seen < 10:
        store = store.inner
        seen += 1
    conn = getattr(store, "conn", None)
    found: str | None = None
    if isinstance(conn, sqlite3.Connection):
        found = _sqlite_identity(conn)
    elif conn is not None and type(conn).__module__.startswith("psycopg"):
        found = _postgres_identity(conn)
    elif type(store).__name__ == "InMemoryStore":
        found = f"memory:{os.getpid()}:{id(store):x}"
    if found is None:
        found = f"{type(store).__module__}.{type(store).__qualname__}:{spec}"
    return "langgraph:" + found


def mem0_identity(memory: Any, spec: str) -> str:
    """The identity of a Mem0 `Memory`: its vector store (provider, where it lives,
    collection) and its history database."""
    vs = getattr(memory, "vector_store", None)
    where: dict[str, Any] = {"provider": type(vs).__name__,
                             "collection": getattr(vs, "collection_name", None)}
    client = getattr(vs, "client", None)
    local = getattr(client, "_client", None)
    location = getattr(local, "location", None)
    if isinstance(location, str) and location != ":memory:":
        where["path"] = file_identity(location)
    elif location == ":memory:":
        where["memory"] = f"{os.getpid()}:{id(local):x}"
    else:
        options = getattr(client, "_init_options", None) or {}
        where["server"] = {k: options.get(k) for k in ("url", "host", "port", "path")
                           if options.get(k)} or spec
    db_path = getattr(getattr(memory, "db", None), "db_path", None)
    where["history"] = file_identity(db_path) if isinstance(db_path, str) and \
        db_path != ":memory:" and Path(db_path).exists() else db_path
    return "mem0:" + json.dumps(where, sort_keys=True, default=str)
