"""A Mem0 history database (`mem0ai`'s SQLite `history` table) read as memory records
with status and lineage.

Each memory's events are taken in the order Mem0 appended them (SQLite's rowid): the
times are no order to trust, as an UPDATE row keeps the original ADD time in
`created_at` and a DELETE row has neither `created_at` nor `updated_at`.

The memory's current text keeps the memory's own id (what searches return) and is
active, or deleted after a DELETE. Each earlier text becomes a superseded record named by
the id of the history row that wrote it. The text the current one replaced is retired by
it (a `delete` edge current → previous), so diagnosing the current text as a fault
restores the previous one (rule `memory.restore`); older texts stay superseded.

Each text an UPDATE wrote is the version that rewrote the text it replaced (an `update`
edge previous → new): Mem0 writes an UPDATE by merging new facts into the old memory (its
history row holds both), so a poisoned version taints every later text of that memory,
which is quarantined when the poisoned version is diagnosed, and the text the poisoned
version rewrote is restored (rule `memory.version-undone`). The history's `actor_id` and
`role` (who said what the memory came from) are kept as `mem0_actor_id` / `mem0_role`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .._errors import CaseError

__all__ = ["read_mem0_history", "iter_mem0_history", "MEM0_COLUMNS", "is_sqlite",
           "MAX_HISTORY_ROWS", "READ_SECONDS"]

MEM0_COLUMNS = ("id", "memory_id", "old_memory", "new_memory", "event", "created_at",
                "updated_at", "is_deleted")
MAX_HISTORY_ROWS = 2_000_000
"""History rows read at most (Mem0 appends one per ADD, UPDATE or DELETE)."""
READ_SECONDS = 60.0
"""CPU seconds the read of a history database may spend in SQLite."""
_MAX_VALUE = 10_000_000  # bytes of one string or blob SQLite may make while reading
_CHECK_EVERY = 10_000  # SQLite virtual-machine steps between two looks at the clock


def is_sqlite(raw: bytes) -> bool:
    """True when `raw` starts like an SQLite database file."""
    return raw.startswith(b"SQLite format 3\x00")


def read_mem0_history(path: str | Path, *, user: str, max_rows: int = MAX_HISTORY_ROWS,
                      seconds: float = READ_SECONDS,
                      cancelled: Callable[[], bool] | None = None) -> list[dict[str, Any]]:
    """Memory records (as case JSON) from a Mem0 history database, in the order memories
    were first added (see :func:`iter_mem0_history`)."""
    return list(iter_mem0_history(path, user=user, max_rows=max_rows, seconds=seconds,
                                  cancelled=cancelled))


def iter_mem0_history(path: str | Path, *, user: str, max_rows: int = MAX_HISTORY_ROWS,
                      seconds: float = READ_SECONDS,
                      cancelled: Callable[[], bool] | None = None
                      ) -> Iterator[dict[str, Any]]:
    """The records of :func:`read_mem0_history`, one memory's at a time: SQLite hands the
    rows over grouped by memory (in order of each memory's first row, then in the order
    they were appended; its sorter spills to a temporary file, not to this process's
    memory), so only one memory's rows are held here. A problem with a row (an unknown
    event, no memory id) stops the records; every such problem is raised, as a
    `CaseError`, once the rows are read.

    The file is untrusted: `history` must be a table (a view is a query the file's author
    wrote, and may never end) whose columns are stored, not generated; at most `max_rows`
    rows are read, within `seconds` of CPU time in SQLite, and the read stops as soon as `cancelled()` is true
    (e.g. the session that asked for it has ended)."""
    p = Path(path)
    if not p.is_file():
        raise CaseError([f"--store: no such file: '{p}'"], source=str(p))
    with p.open("rb") as fh:
        head = fh.read(16)
    if not is_sqlite(head):
        raise CaseError(["--store: not an SQLite database (expected a Mem0 history.db)"],
                        source=str(p))
    try:
        # read-only, by the file's own path: as_uri() percent-encodes '#', '?' and '%',
        # so no part of the user's text becomes a URI fragment, query or parameter
        con = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise CaseError([f"--store: cannot open: {exc}"], source=str(p)) from None
    # `seconds` bounds the CPU time this thread spends in SQLite (a shared machine's load
    # does not count), not the time the caller takes with each memory's records
    spent = [0.0]
    entered = [time.thread_time()]
    why: list[str] = []

    def stop() -> int:
        if cancelled is not None and cancelled():
            why.append("--store: stopped: the import was cancelled")
        elif spent[0] + time.thread_time() - entered[0] > seconds:
            why.append(f"--store: stopped: reading the history took longer than {seconds:g} s")
        return 1 if why else 0

    con.set_progress_handler(stop, _CHECK_EVERY)
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE)
    problems: list[str] = []
    try:
        rows = _grouped_rows(con, p, max_rows)
        spent[0] += time.thread_time() - entered[0]
        events: list[tuple[Any, ...]] = []
        memory_id: str | None = None
        n = -1
        while True:
            entered[0] = time.thread_time()
            row = rows.fetchone()
            spent[0] += time.thread_time() - entered[0]
            if row is None:
                break
            n += 1
            if n >= max_rows:
                raise CaseError([f"--store: table 'history' has more than {max_rows} rows "
                                 "(the limit of one import)"], source=str(p))
            problem = _row_problem(row)
            if problem is not None:
                problems.append(problem)
                continue
            if str(row[1]) != memory_id:
                if events and not problems:
                    yield from _memory_records(str(memory_id), events, user)
                memory_id, events = str(row[1]), []
            events.append(row)
        if events and not problems:
            yield from _memory_records(str(memory_id), events, user)
    except sqlite3.Error as exc:
        raise CaseError(why or [f"--store: cannot read table 'history': {exc}"],
                        source=str(p)) from None
    finally:
        con.close()
    if problems:
        raise CaseError(problems, source=str(p))


def _grouped_rows(con: sqlite3.Connection, p: Path, max_rows: int) -> sqlite3.Cursor:
    """The history's rows (after checking the table), grouped by memory: each memory's
    rows in the order they were appended (rowid), the memories in the order of their
    first row."""
    con.execute("PRAGMA trusted_schema = OFF")
    found = con.execute("SELECT type, sql FROM sqlite_master WHERE name = 'history' "
                        "COLLATE NOCASE").fetchone()
    kind = None if found is None else (
        "virtual table" if str(found[1] or "").upper().startswith("CREATE VIRTUAL")
        else found[0])
    if kind not in (None, "table"):
        raise CaseError([f"--store: 'history' is a {kind}, not a table (a Mem0 history "
                         "database keeps its rows in a table; nothing else is read)"],
                        source=str(p))
    # hidden: 0 stored, 1 hidden by a virtual table, 2 and 3 generated
    info = [(r[1], r[6]) for r in con.execute("PRAGMA table_xinfo(history)")]
    generated = [name for name, hidden in info if hidden]
    if generated:
        raise CaseError([f"--store: table 'history': '{generated[0]}' is a generated "
                         "column (a Mem0 history stores its values; nothing computed "
                         "is read)"], source=str(p))
    cols = [name for name, _ in info]
    missing = [c for c in MEM0_COLUMNS if c not in cols]
    if missing:
        raise CaseError([f"--store: table 'history': missing column(s) {', '.join(missing)} "
                         "(not a Mem0 history database)"], source=str(p))
    # actor_id and role are in Mem0's schema since 0.1.x's group-chat migration; an
    # older table without them reads as NULL
    who = ", ".join(f"h.{c}" if c in cols else "NULL" for c in ("actor_id", "role"))
    # a window, not a join: no index on memory_id, and a join would scan the table once
    # per memory; the two sorts spill to a temporary file when large
    return con.execute(
        "SELECT h.id, h.memory_id, h.old_memory, h.new_memory, h.event, h.created_at, "
        f"h.updated_at, h.is_deleted, {who}, h.rowid FROM (SELECT *, rowid, MIN(rowid) OVER "
        "(PARTITION BY memory_id) AS first FROM history) AS h ORDER BY h.first, h.rowid "
        "LIMIT ?", (max_rows + 1,))


def _row_problem(row: tuple[Any, ...]) -> str | None:
    """Why a history row cannot be read as a memory's event (None: it can)."""
    event = str(row[4]).upper() if row[4] is not None else ""
    if event not in ("ADD", "UPDATE", "DELETE", "NONE"):
        return (f"history row {row[0]!r}: event: unknown {row[4]!r} "
                "(expected ADD, UPDATE or DELETE)")
    if row[1] is None:
        return f"history row {row[0]!r}: memory_id: missing"
    return None


def records_from_history(rows: list[tuple[Any, ...]], *, user: str, source: str | None = None,
                         cancelled: Callable[[], bool] | None = None) -> list[dict[str, Any]]:
    """Records from history rows `(id, memory_id, old_memory, new_memory, event,
    created_at, updated_at, is_deleted[, actor_id, role])`, in the order they were
    appended."""
    problems: list[str] = []
    by_memory: dict[str, list[tuple[Any, ...]]] = {}
    for n, row in enumerate(rows):
        if cancelled is not None and n % _CHECK_EVERY == 0 and cancelled():
            raise CaseError(["--store: stopped: the import was cancelled"], source=source)
        problem = _row_problem(row)
        if problem is not None:
            problems.append(problem)
            continue
        by_memory.setdefault(str(row[1]), []).append(row)
    if problems:
        raise CaseError(problems, source=source)
    out: list[dict[str, Any]] = []
    for n, (memory_id, events) in enumerate(by_memory.items()):  # in order of first event
        if cancelled is not None and n % _CHECK_EVERY == 0 and cancelled():
            raise CaseError(["--store: stopped: the import was cancelled"], source=source)
        out.extend(_memory_records(memory_id, events, user))
    return out


def _memory_records(memory_id: str, events: list[tuple[Any, ...]],
                    user: str) -> list[dict[str, Any]]:
    """The records of one memory from its history rows, in the order they were appended:
    its current text first, then each earlier text, newest first."""
    out: list[dict[str, Any]] = []
    versions: list[tuple[str, str, bool, dict[str, str]]] = []
    # (row id that wrote it, text, written by an UPDATE, who said it)
    deleted = False
    changed_at = None
    for row in events:
        event = str(row[4]).upper()
        if event in ("ADD", "UPDATE") and row[3] is not None:
            said = zip(("mem0_actor_id", "mem0_role"), row[8:10], strict=True) \
                if len(row) > 9 else ()
            who = {k: str(v) for k, v in said if v is not None}
            versions.append((str(row[0]), str(row[3]), event == "UPDATE" and bool(versions),
                             who))
            deleted = False
            # Mem0 stamps the memory with the UPDATE's updated_at, else the ADD's time
            changed_at = row[6] if event == "UPDATE" and row[6] else row[5]
        elif event == "DELETE" or row[7]:
            deleted = True
    if not versions:
        return out
    ids = [row_id for row_id, *_ in versions[:-1]] + [memory_id]
    # an UPDATE's text rewrote the text it replaced (Mem0 merges into it)
    derived = [[{"id": ids[k - 1], "label": "update"}] if v[2] else []
               for k, v in enumerate(versions)]

    last = len(versions) - 1
    # mem0_* fields (kept as extra fields of the record) let `dgrr apply` check that
    # the store has not changed since and find the memory a version belonged to
    out.append({"id": memory_id, "user_id": user, "text": versions[last][1],
                "status": "deleted" if deleted else "active", "deps": derived[last],
                "mem0_memory_id": memory_id, "mem0_changed_at": changed_at,
                **versions[last][3]})
    # Only the text the current one replaced is retired by it (a `delete` edge): were
    # each older text retired by the next, diagnosing the current text would restore
    # every earlier version at once, as they would all be retired by unsupported nodes.
    for k in range(last - 1, -1, -1):
        row_id, text, _, who = versions[k]
        retired = [{"id": memory_id, "label": "delete"}] if k == last - 1 else []
        out.append({"id": row_id, "user_id": user, "text": text, "status": "superseded",
                    "deps": retired + derived[k], "mem0_memory_id": memory_id, **who})
    return out
