"""Write-back judged by what the agent reads next, on every kind of LangGraph store:
InMemoryStore (plain and with a vector index), SqliteStore, PostgresStore, and the async
AsyncSqliteStore / AsyncPostgresStore. After an approved apply no store call the agent can
make returns a quarantined or deleted text: `search(())` (every item), `search` of every
prefix of every namespace `list_namespaces()` names (with and without a query), `get`, and
the agent's own next turn (the travel graph of scripts/langgraph_travel_run.py); the
restored text is back in the agent's namespace; the quarantined item is kept, with its
namespace, key and value, in dgrr's vault outside the store, and a rollback from the
journal brings store and vault back exactly. Keys holding `/` round-trip, and a value
changed since the trace (same text) is refused with the field named."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("langgraph.store.memory", reason="needs the 'import' extra (langgraph)")

from repair_core.integrations import (  # noqa: E402
    Journal,
    StoreChanged,
    StoreOp,
    intent_state,
    resume_apply,
    rollback_apply,
)
from repair_core.integrations.langgraph import (  # noqa: E402
    LangGraphSlots,
    aapply_langgraph,
    apply_langgraph,
    record_id,
)
from repair_core.integrations.langgraph_vault import SqliteVault, quarantined  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from langgraph_travel_run import LEARNED, NAMESPACE, STORE, build  # noqa: E402

SEAT_KEY = "seat/long-haul"  # a key with `/`: its record id is ambiguous by splitting
UPDATED_CABIN = "Lin flies economy, window seat."
HIDDEN = (STORE["seat"], LEARNED, UPDATED_CABIN)
APPROVAL = SimpleNamespace(id=1, decision="approve", kind="decision", case_id="lg-case")
QUERIES = (None, "seat preference window aisle cabin", LEARNED, UPDATED_CABIN)


def _embed(texts: list[str]) -> list[list[float]]:
    return [[b / 255 for b in hashlib.sha256(t.encode()).digest()[:8]] for t in texts]


INDEX = {"dims": 8, "embed": _embed, "fields": ["text"]}


def _fill(store) -> None:
    """The store as the traced run left it: the poisoned seat under a `/` key, the
    derived habit, the cabin record updated from the poisoned one; and another user's
    item, so that `()` and other top-level prefixes hold something."""
    for key, text in STORE.items():
        store.put(NAMESPACE, SEAT_KEY if key == "seat" else key, {"text": text})
    store.put(NAMESPACE, "habit", {"text": LEARNED})
    store.put(NAMESPACE, "cabin", {"text": UPDATED_CABIN})
    store.put(("ana", "prefs"), "seat", {"text": "Ana prefers aisle seats."})


def _ops() -> list[StoreOp]:
    seat = record_id(NAMESPACE, SEAT_KEY)
    cabin, habit = record_id(NAMESPACE, "cabin"), record_id(NAMESPACE, "habit")
    return [StoreOp(op="delete", record=seat, text=STORE["seat"], memory_id=seat,
                    expect_text=STORE["seat"]),
            StoreOp(op="quarantine", record=cabin, text=UPDATED_CABIN, memory_id=cabin,
                    expect_text=UPDATED_CABIN),
            StoreOp(op="quarantine", record=habit, text=LEARNED, memory_id=habit,
                    expect_text=LEARNED),
            StoreOp(op="restore", record=cabin + "@1", text=STORE["cabin"], memory_id=cabin)]


def _reachable_texts(store) -> list[str]:
    """Every text any store call can reach: `search(())`, `search` of every prefix of
    every listed namespace and of dgrr's names, each plain and with queries; every
    namespace `list_namespaces()` lists; `get` of the keys the agent used."""
    texts: list[str] = []
    namespaces = store.list_namespaces(limit=10_000)
    texts += [str(ns) for ns in namespaces]
    prefixes = {()} | {tuple(ns[:cut]) for ns in namespaces for cut in range(1, len(ns) + 1)}
    prefixes |= {("dgrr-quarantine",), ("dgrr-vault",), ("dgrr_quarantine",)}
    for prefix in sorted(prefixes):
        for query in QUERIES:
            texts += [str(i.value) for i in store.search(prefix, query=query, limit=10_000)]
    for key in ("habit", "cabin", SEAT_KEY):
        got = store.get(NAMESPACE, key)
        texts.append("" if got is None else str(got.value))
    assert any(STORE["home"] in t for t in texts)  # the searches do reach the store
    return texts


def _agent_turn(store) -> str:
    """The agent's own next turn: what its recall node put in front of the model."""
    out = build(store).invoke({"messages": [("user", "Book my usual flight.")]})
    return next(m.content for m in out["messages"] if m.type == "system")


def _check_hidden(store) -> None:
    for text in _reachable_texts(store):
        for hidden in HIDDEN:
            assert hidden not in text, (hidden, text)


def _check_after(store, done, vault=None) -> None:
    _check_hidden(store)
    _check_store(store, done, vault)
    # last: the turn's own learn node writes again (the scripted model still says window)
    notes = _agent_turn(store)
    assert STORE["cabin"] in notes and STORE["home"] in notes and STORE["meal"] in notes
    for text in HIDDEN:
        assert text not in notes, text


def _check_store(store, done, vault=None) -> None:
    apply_id = done[1]["item"].split("/")[1]
    assert done[1]["item"] == f"dgrr-vault/{apply_id}/{record_id(NAMESPACE, 'cabin')}"
    entries = {e["key"]: e for e in quarantined(store, vault)}
    assert set(entries) == {"cabin", "habit"}
    for key, text in (("cabin", UPDATED_CABIN), ("habit", LEARNED)):
        entry = entries[key]
        assert entry["namespace"] == list(NAMESPACE) and entry["apply"] == apply_id
        assert entry["value"] == {"text": text} and entry["case"] == "lg-case"
        assert entry["record"] == record_id(NAMESPACE, key) and entry["created_at"]
    restored = store.get(NAMESPACE, "cabin").value
    assert restored == {"text": STORE["cabin"], "dgrr_restored_from": record_id(NAMESPACE,
                                                                                "cabin") + "@1"}
    assert store.get(NAMESPACE, SEAT_KEY) is None
    assert {d["item"] for d in done if d["op"] == "delete"} == {record_id(NAMESPACE, SEAT_KEY)}


def _snapshot(store, vault=None) -> tuple[dict, list]:
    """Every item of the store (by `search(())`) and every vault entry (apply ids masked)."""
    items = {(tuple(i.namespace), i.key): i.value for i in store.search((), limit=10_000)}
    entries = [{**e, "apply": "*"} for e in quarantined(store, vault)]
    return items, sorted(entries, key=lambda e: e["key"])


class _Crash(Exception):
    """The process dying after the last store write, before the apply is recorded."""


def _crash(intent) -> None:
    raise _Crash(intent.apply_id)


def _interrupted_then(store, tmp_path: Path, what: str, vault=None) -> None:
    """Apply with a journal, interrupted after its last write; then resume or roll back
    from the journal: the store and vault are exactly the after- or before-state."""
    before = _snapshot(store, vault)
    journal = Journal(tmp_path / f"journal-{what}", "k")
    with pytest.raises(_Crash):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL,
                        journal=journal, vault=vault, record=_crash)
    pending = journal.pending()
    assert pending is not None
    slots = LangGraphSlots(store, vault)
    assert intent_state(slots, pending.steps) == "after"  # every store and vault slot
    if what == "rollback":
        rollback_apply(slots, journal)
        assert intent_state(slots, pending.steps) == "before"
        assert _snapshot(store, vault) == before
        assert quarantined(store, vault) == []
        assert LEARNED in _agent_turn(store)  # the quarantined record is back where it was
    else:
        intent = resume_apply(slots, journal)
        assert _snapshot(store, vault)[1] and intent.state == "intent"
        _check_after(store, intent.operations, vault)


@contextlib.contextmanager
def _sync_store(kind: str, tmp_path: Path, pg_url: str | None):
    if kind == "memory":
        from langgraph.store.memory import InMemoryStore

        yield InMemoryStore()
    elif kind == "memory-indexed":
        from langgraph.store.memory import InMemoryStore

        yield InMemoryStore(index=INDEX)
    elif kind == "sqlite":
        from langgraph.store.sqlite import SqliteStore

        with SqliteStore.from_conn_string(str(tmp_path / "store.db")) as store:
            store.setup()
            yield store
    else:
        from langgraph.store.postgres import PostgresStore

        with PostgresStore.from_conn_string(pg_url) as store:
            store.setup()
            yield store


@pytest.mark.parametrize("kind", ["memory", "memory-indexed", "sqlite"])
def test_the_agent_never_reads_what_was_quarantined(kind, tmp_path):
    with _sync_store(kind, tmp_path, None) as store:
        _fill(store)
        assert LEARNED in _agent_turn(store)  # before: the derived record reaches the agent
        _fill(store)  # the turn's learn node wrote again; the same store as the trace saw
        done = apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
        _check_after(store, done)


@pytest.mark.parametrize("what", ["rollback", "resume"])
@pytest.mark.parametrize("kind", ["memory", "memory-indexed", "sqlite"])
def test_an_interrupted_apply_resumes_or_rolls_back_store_and_vault(kind, what, tmp_path):
    with _sync_store(kind, tmp_path, None) as store:
        _fill(store)
        _interrupted_then(store, tmp_path, what)


def test_the_sqlite_vault_is_a_table_of_the_store_database(tmp_path):
    """The quarantine of a SqliteStore survives the process: it is a table of the same
    database file, which a new store on that file (a new process) still finds."""
    import sqlite3

    from langgraph.store.sqlite import SqliteStore

    with _sync_store("sqlite", tmp_path, None) as store:
        _fill(store)
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False,
                           isolation_level=None)
    again = SqliteStore(conn)
    assert {e["key"] for e in quarantined(again)} == {"cabin", "habit"}
    rows = conn.execute("SELECT count(*) FROM dgrr_quarantine").fetchone()[0]
    assert rows == 2
    _check_hidden(again)
    conn.close()


def test_an_in_memory_store_with_a_sidecar_vault(tmp_path):
    """A caller's own vault (a SQLite file) for an InMemoryStore: the entries are there,
    not beside the store object."""
    from langgraph.store.memory import InMemoryStore

    store, vault = InMemoryStore(), SqliteVault(str(tmp_path / "q.db"))
    _fill(store)
    done = apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL, vault=vault)
    _check_after(store, done, vault)
    assert quarantined(store) == []  # the store's default vault was not used
    vault.close()
    assert {e["key"] for e in SqliteVault(str(tmp_path / "q.db")).entries()} == \
        {"cabin", "habit"}


def test_a_store_dgrr_has_no_vault_for_is_refused_before_anything_is_written():
    from langgraph.store.base import BaseStore
    from langgraph.store.memory import InMemoryStore

    from repair_core import DgrrError

    class Custom(BaseStore):
        def __init__(self):
            self.backing = InMemoryStore()

        def batch(self, ops):
            return self.backing.batch(ops)

        async def abatch(self, ops):
            return self.backing.batch(ops)

    store = Custom()
    _fill(store)
    before = _snapshot(store.backing)
    with pytest.raises(DgrrError, match="dgrr apply --vault FILE"):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    assert _snapshot(store.backing) == before


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.parametrize("what", ["apply", "rollback", "resume"])
def test_postgres_store(postgres_db, tmp_path, what):
    pytest.importorskip("langgraph.store.postgres", reason="needs the 'postgres' extra")
    with _sync_store("postgres", tmp_path, _libpq(str(postgres_db))) as store:
        _fill(store)
        if what == "apply":
            done = apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
            _check_after(store, done)
            with store._cursor() as cur:  # the vault is a table of the store's database
                cur.execute("SELECT count(*) AS n FROM dgrr_quarantine")
                assert cur.fetchone()["n"] == 2
        else:
            _interrupted_then(store, tmp_path, what)


async def _async_round_trip(store, tmp_path: Path) -> None:
    for key, text in STORE.items():
        await store.aput(NAMESPACE, SEAT_KEY if key == "seat" else key, {"text": text})
    await store.aput(NAMESPACE, "habit", {"text": LEARNED})
    await store.aput(NAMESPACE, "cabin", {"text": UPDATED_CABIN})
    await store.aput(("ana", "prefs"), "seat", {"text": "Ana prefers aisle seats."})
    done = await aapply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    from repair_core import DgrrError

    with pytest.raises(DgrrError, match="from a worker thread"):  # not from the loop itself
        quarantined(store)
    await asyncio.to_thread(_check_store, store, done)
    await asyncio.to_thread(_check_hidden, store)
    for ns in [(), *await store.alist_namespaces()]:  # the async API too
        for query in (None, LEARNED):
            for item in await store.asearch(ns, query=query, limit=1000):
                assert all(h not in str(item.value) for h in HIDDEN)
    # the agent's own next turn, on the async path (asearch in its recall node)
    out = await build(store, use_async=True).ainvoke(
        {"messages": [("user", "Book my usual flight.")]})
    notes = next(m.content for m in out["messages"] if m.type == "system")
    assert STORE["cabin"] in notes
    for text in HIDDEN:
        assert text not in notes
    # the same store again: its quarantine rolled back from an interrupted apply
    for key in list(await store.asearch((), limit=1000)):
        await store.adelete(key.namespace, key.key)
    await asyncio.to_thread(_fill, store)
    done_before = await asyncio.to_thread(quarantined, store)
    assert len(done_before) == 2  # the first apply's entries stay for audit
    await asyncio.to_thread(_interrupted_rollback_keeping, store, tmp_path, done_before)


def _interrupted_rollback_keeping(store, tmp_path: Path, earlier: list) -> None:
    before = _snapshot(store)
    journal = Journal(tmp_path / "journal", "k")
    with pytest.raises(_Crash):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL,
                        journal=journal, record=_crash)
    assert len(quarantined(store)) == 4
    _check_hidden(store)
    rollback_apply(LangGraphSlots(store), journal)
    assert _snapshot(store) == before and quarantined(store) == earlier
    assert LEARNED in _agent_turn(store)


@pytest.mark.slow
def test_async_sqlite_store(tmp_path):
    pytest.importorskip("langgraph.store.sqlite.aio", reason="needs the 'postgres' extra")
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async def main():
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "a.db")) as store:
            await store.setup()
            await _async_round_trip(store, tmp_path)

    asyncio.run(main())


@pytest.mark.postgres
@pytest.mark.slow
def test_async_postgres_store(postgres_db, tmp_path):
    pytest.importorskip("langgraph.store.postgres.aio", reason="needs the 'postgres' extra")
    from langgraph.store.postgres.aio import AsyncPostgresStore

    async def main():
        async with AsyncPostgresStore.from_conn_string(_libpq(str(postgres_db))) as store:
            await store.setup()
            await _async_round_trip(store, tmp_path)

    asyncio.run(main())


def test_a_key_with_slashes_and_any_character_round_trips():
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore()
    odd = "a/b/../c d?#%\u00e9\U0001f600\\"
    store.put(("u", "x"), odd, {"text": "poison"})
    store.put(("u", "x", "a"), "other", {"text": "keep"})
    rid = record_id(("u", "x"), odd)
    op = StoreOp(op="quarantine", record=rid, text="poison", memory_id=rid, expect_text="poison")
    done = apply_langgraph(store, [op], case_id="lg-case", approval=APPROVAL)
    assert store.get(("u", "x"), odd) is None
    assert store.get(("u", "x", "a"), "other").value == {"text": "keep"}
    [entry] = quarantined(store)
    assert entry["namespace"] == ["u", "x"] and entry["key"] == odd
    assert entry["value"] == {"text": "poison"}
    assert done[0]["item"] == f"dgrr-vault/{entry['apply']}/{rid}"


def test_an_ambiguous_record_id_is_refused_unless_the_case_names_namespace_and_key():
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore()
    store.put(("u",), "a/b", {"text": "t"})
    store.put(("u", "a"), "b", {"text": "t"})
    op = StoreOp(op="delete", record="u/a/b", text="t", memory_id="u/a/b", expect_text="t")
    with pytest.raises(StoreChanged, match="more than one item"):
        apply_langgraph(store, [op], case_id="lg-case", approval=APPROVAL)
    named = op.model_copy(update={"namespace": ["u"], "key": "a/b"})
    apply_langgraph(store, [named], case_id="lg-case", approval=APPROVAL)
    assert store.get(("u",), "a/b") is None and store.get(("u", "a"), "b") is not None


def test_a_value_changed_with_the_same_text_is_refused_with_the_field_named():
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore()
    store.put(("u",), "seat", {"text": "window", "source": "chat", "confidence": 0.9})
    op = StoreOp(op="delete", record="u/seat", text="window", memory_id="u/seat",
                 expect_text="window",
                 expect_value={"text": "window", "source": "chat", "confidence": 0.9})
    store.put(("u",), "seat", {"text": "window", "source": "admin", "pinned": True,
                               "confidence": 0.9})
    with pytest.raises(StoreChanged) as err:
        apply_langgraph(store, [op], case_id="lg-case", approval=APPROVAL)
    msg = str(err.value)
    assert "u/seat: value.source is now 'admin', the trace saw 'chat'" in msg
    assert "u/seat: value.pinned was added (True)" in msg
    assert "confidence" not in msg
    assert store.get(("u",), "seat").value["source"] == "admin"  # nothing written


class _Raising:
    """An InMemoryStore whose Nth write raises (a full disk, a dropped connection)."""

    def __init__(self, at: int) -> None:
        from langgraph.store.memory import InMemoryStore

        self.inner, self.at, self.writes = InMemoryStore(), at, 0

    def get(self, *a, **k):
        return self.inner.get(*a, **k)

    def search(self, *a, **k):
        return self.inner.search(*a, **k)

    def list_namespaces(self, *a, **k):
        return self.inner.list_namespaces(*a, **k)

    def _write(self) -> None:
        self.writes += 1
        if self.writes == self.at:
            raise ConnectionError("connection dropped")

    def put(self, *a, **k):
        self._write()
        return self.inner.put(*a, **k)

    def delete(self, *a, **k):
        self._write()
        return self.inner.delete(*a, **k)


def _all_items(store) -> dict:
    return {(tuple(i.namespace), i.key): i.value for ns in store.list_namespaces(limit=1000)
            for i in store.search(ns, limit=1000)}


N_STORE_WRITES = 4  # delete seat, cabin, habit (after their vault entries); restore cabin


@pytest.mark.parametrize("at", range(1, N_STORE_WRITES + 1))
def test_a_store_raising_at_any_write_leaves_it_as_before(at):
    from repair_core import DgrrError

    store = _Raising(at=10**6)
    _fill(store)
    store.at, store.writes = at, 0
    before = _all_items(store)
    with pytest.raises(DgrrError, match="connection dropped.*rolled back"):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    assert _all_items(store) == before
    assert quarantined(store) == []  # the vault entries written before it are gone too


def test_a_pending_or_unreadable_journal_blocks_a_new_apply(tmp_path):
    from langgraph.store.memory import InMemoryStore

    from repair_core import DgrrError
    from repair_core.integrations import ApplyPending, Intent, Journal

    store = InMemoryStore()
    _fill(store)
    journal = Journal(tmp_path, "k")
    journal.write(Intent(apply_id="a1", store="langgraph", target="t", case_id="other",
                         created_at="2026-01-01T00:00:00+00:00"))
    with pytest.raises(ApplyPending, match="--resume.*--rollback"):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL, journal=journal)
    journal.path.write_text("{not json")
    with pytest.raises(DgrrError, match="cannot be read"):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL, journal=journal)
    assert store.get(NAMESPACE, "habit").value == {"text": LEARNED}  # nothing written


def test_copies_an_earlier_dgrr_left_in_the_store_move_to_the_vault(tmp_path):
    """dgrr before the vault kept quarantined copies under ("dgrr-quarantine", apply id,
    *namespace), where `search(())` found them: move_legacy_quarantine takes them out."""
    from repair_core.integrations.langgraph_vault import move_legacy_quarantine

    with _sync_store("sqlite", tmp_path, None) as store:
        _fill(store)
        store.delete(NAMESPACE, "habit")
        old = {"dgrr_quarantined": True, "namespace": list(NAMESPACE), "key": "habit",
               "value": {"text": LEARNED}, "index": None, "case": "lg-case",
               "record": record_id(NAMESPACE, "habit"), "apply": "0123abcd",
               "created_at": "2026-01-01T00:00:00", "updated_at": "2026-01-01T00:00:00"}
        store.put(("dgrr-quarantine", "0123abcd", *NAMESPACE), "habit", old, index=False)
        store.put(("dgrr-quarantine", "notes"), "n", {"text": "not a copy of dgrr's"})
        assert any(LEARNED in str(i.value) for i in store.search(()))  # the old leak
        [entry] = move_legacy_quarantine(store)
        assert entry["value"] == {"text": LEARNED} and entry["apply"] == "0123abcd"
        assert quarantined(store) == [entry]
        assert all(LEARNED not in str(i.value) for i in store.search((), limit=1000))
        assert store.get(("dgrr-quarantine", "notes"), "n") is not None  # left alone
        assert move_legacy_quarantine(store) == []  # done once


def test_vault_entries_compare_on_every_field_and_items_on_their_value():
    from langgraph.store.memory import InMemoryStore

    slots = LangGraphSlots(InMemoryStore())
    entry = {"namespace": ["u"], "key": "k", "value": {"text": "t"}, "apply": "1"}
    assert slots.same(entry, dict(entry)) and not slots.same(entry, {**entry, "apply": "2"})
    item = {"value": {"text": "t"}, "index": None}
    assert slots.same(item, {**item, "index": False})  # a store does not report its index
    assert not slots.same(item, {"value": {"text": "u"}})
