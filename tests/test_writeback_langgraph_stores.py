"""Write-back judged by what the agent reads next, on every kind of LangGraph store:
InMemoryStore (plain and with a vector index), SqliteStore, PostgresStore, and the async
AsyncSqliteStore / AsyncPostgresStore. After an approved apply the agent's own next turn
(the travel graph of scripts/langgraph_travel_run.py, whose recall node searches its
namespace) and every search or listing under the agent's namespace never return a
quarantined or deleted text; the restored text is back in the agent's namespace; the
quarantined item is kept, with its namespace, key and value, under dgrr's own top-level
namespace. Keys holding `/` round-trip, and a value changed since the trace (same text)
is refused with the field named."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("langgraph.store.memory", reason="needs the 'import' extra (langgraph)")

from repair_core.integrations import StoreChanged, StoreOp  # noqa: E402
from repair_core.integrations.langgraph import (  # noqa: E402
    QUARANTINE_NAMESPACE,
    aapply_langgraph,
    apply_langgraph,
    record_id,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from langgraph_travel_run import LEARNED, NAMESPACE, STORE, build  # noqa: E402

SEAT_KEY = "seat/long-haul"  # a key with `/`: its record id is ambiguous by splitting
UPDATED_CABIN = "Lin flies economy, window seat."
HIDDEN = (STORE["seat"], LEARNED, UPDATED_CABIN)
APPROVAL = SimpleNamespace(id=1, decision="approve", kind="decision", case_id="lg-case")


def _embed(texts: list[str]) -> list[list[float]]:
    return [[b / 255 for b in hashlib.sha256(t.encode()).digest()[:8]] for t in texts]


INDEX = {"dims": 8, "embed": _embed, "fields": ["text"]}


def _fill(store) -> None:
    """The store as the traced run left it: the poisoned seat under a `/` key, the
    derived habit, the cabin record updated from the poisoned one."""
    for key, text in STORE.items():
        store.put(NAMESPACE, SEAT_KEY if key == "seat" else key, {"text": text})
    store.put(NAMESPACE, "habit", {"text": LEARNED})
    store.put(NAMESPACE, "cabin", {"text": UPDATED_CABIN})


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
    """Every text the agent can reach under its own namespace: its graph's recall search,
    plain and query searches of each prefix, gets of the keys it used."""
    texts = []
    for cut in range(1, len(NAMESPACE) + 1):
        prefix = NAMESPACE[:cut]
        for query in (None, "seat preference window aisle cabin", LEARNED):
            texts += [str(i.value) for i in store.search(prefix, query=query, limit=1000)]
        for ns in store.list_namespaces(prefix=prefix):
            assert ns[0] != QUARANTINE_NAMESPACE
    for key in ("habit", "cabin", SEAT_KEY):
        got = store.get(NAMESPACE, key)
        texts.append("" if got is None else str(got.value))
    return texts


def _agent_turn(store) -> str:
    """The agent's own next turn: what its recall node put in front of the model."""
    out = build(store).invoke({"messages": [("user", "Book my usual flight.")]})
    return next(m.content for m in out["messages"] if m.type == "system")


def _check_after(store, done) -> None:
    for text in _reachable_texts(store):
        for hidden in HIDDEN:
            assert hidden not in text, (hidden, text)
    _check_store(store, done)
    # last: the turn's own learn node writes again (the scripted model still says window)
    notes = _agent_turn(store)
    assert STORE["cabin"] in notes and STORE["home"] in notes and STORE["meal"] in notes
    for text in HIDDEN:
        assert text not in notes, text


def _check_store(store, done) -> None:
    apply_id = done[1]["item"].split("/")[1]
    q_ns = (QUARANTINE_NAMESPACE, apply_id, *NAMESPACE)
    for key, text in (("cabin", UPDATED_CABIN), ("habit", LEARNED)):
        copy = store.get(q_ns, key).value
        assert copy["namespace"] == list(NAMESPACE) and copy["key"] == key
        assert copy["value"] == {"text": text} and copy["dgrr_quarantined"] is True
    restored = store.get(NAMESPACE, "cabin").value
    assert restored == {"text": STORE["cabin"], "dgrr_restored_from": record_id(NAMESPACE,
                                                                                "cabin") + "@1"}
    assert store.get(NAMESPACE, SEAT_KEY) is None
    assert {d["item"] for d in done if d["op"] == "delete"} == {record_id(NAMESPACE, SEAT_KEY)}


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
            with store._cursor() as cur:  # a clean store for each test on the shared cluster
                cur.execute("DELETE FROM store")
            yield store


@pytest.mark.parametrize("kind", ["memory", "memory-indexed", "sqlite"])
def test_the_agent_never_reads_what_was_quarantined(kind, tmp_path):
    with _sync_store(kind, tmp_path, None) as store:
        _fill(store)
        assert LEARNED in _agent_turn(store)  # before: the derived record reaches the agent
        _fill(store)  # the turn's learn node wrote again; the same store as the trace saw
        done = apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
        _check_after(store, done)


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


@pytest.mark.postgres
@pytest.mark.slow
def test_postgres_store_round_trip(postgres_url, tmp_path):
    pytest.importorskip("langgraph.store.postgres", reason="needs the 'postgres' extra")
    with _sync_store("postgres", tmp_path, _libpq(str(postgres_url))) as store:
        _fill(store)
        done = apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
        _check_after(store, done)


async def _async_round_trip(store) -> None:
    for key, text in STORE.items():
        await store.aput(NAMESPACE, SEAT_KEY if key == "seat" else key, {"text": text})
    await store.aput(NAMESPACE, "habit", {"text": LEARNED})
    await store.aput(NAMESPACE, "cabin", {"text": UPDATED_CABIN})
    done = await aapply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    await asyncio.to_thread(_check_store, store, done)
    for cut in range(1, len(NAMESPACE) + 1):
        for query in (None, LEARNED):
            for item in await store.asearch(NAMESPACE[:cut], query=query, limit=1000):
                assert all(h not in str(item.value) for h in HIDDEN)
    out = await build(store).ainvoke({"messages": [("user", "Book my usual flight.")]})
    notes = next(m.content for m in out["messages"] if m.type == "system")
    assert STORE["cabin"] in notes
    for text in HIDDEN:
        assert text not in notes


@pytest.mark.slow
def test_async_sqlite_store_round_trip(tmp_path):
    pytest.importorskip("langgraph.store.sqlite.aio", reason="needs the 'postgres' extra")
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async def main():
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "a.db")) as store:
            await store.setup()
            await _async_round_trip(store)

    asyncio.run(main())


@pytest.mark.postgres
@pytest.mark.slow
def test_async_postgres_store_round_trip(postgres_url):
    pytest.importorskip("langgraph.store.postgres.aio", reason="needs the 'postgres' extra")
    from langgraph.store.postgres.aio import AsyncPostgresStore

    async def main():
        async with AsyncPostgresStore.from_conn_string(_libpq(str(postgres_url))) as store:
            await store.setup()
            async with store._cursor() as cur:
                await cur.execute("DELETE FROM store")
            await _async_round_trip(store)

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
    apply_id = done[0]["item"].split("/")[1]
    assert store.get((QUARANTINE_NAMESPACE, apply_id, "u", "x"), odd).value["key"] == odd


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


@pytest.mark.parametrize("at", range(1, 7))
def test_a_store_raising_at_any_write_leaves_it_as_before(at):
    from repair_core import DgrrError

    store = _Raising(at=10**6)
    _fill(store)
    store.at, store.writes = at, 0
    before = _all_items(store)
    with pytest.raises(DgrrError, match="connection dropped.*rolled back"):
        apply_langgraph(store, _ops(), case_id="lg-case", approval=APPROVAL)
    assert _all_items(store) == before


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
