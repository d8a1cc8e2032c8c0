"""The memory store the agent reads and writes, and a deterministic lexical retriever."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from ..case._case import MemoryRecord
from ..content._lexical import text_tokens, tokens

__all__ = ["MemoryStore", "Retriever", "LexicalRetriever", "tokens"]


def record_tokens(record: MemoryRecord,
                  words: Callable[[str], frozenset[str]] = text_tokens) -> frozenset[str]:
    """What a record can be found by: the words (`words`, :func:`text_tokens` or a
    caller's memo of it) of its text and its key."""
    return words(str(record.text)) | words((record.key or "").replace("_", " "))


class Retriever(Protocol):
    def retrieve(self, records: Sequence[MemoryRecord], query: str, user_id: str,
                 k: int = 5) -> list[str]:
        """Ids of the records that answer `query`, best first."""
        ...


class LexicalRetriever:
    """Ranks the user's active records by how many query words they contain (ties: store
    order); returns at most `k` records that share at least one word with the query.

    Each record's words are read once per retriever: the retriever keeps the words of the
    records it was last handed, by record id with the text and key they were read from, and
    reads a record again only when its text or key changed. What it keeps is replaced on
    every call by what that call's records need, so it holds nothing of a record the caller
    has dropped past the next call, and nothing once the retriever is gone. (The replay's
    :class:`~repair_core.agent.LexicalIndex` is told of every change; a retriever is handed
    a list that may have changed in any way since the last call, so it checks each record.)
    """

    def __init__(self, k: int = 5) -> None:
        self.k = k
        self._words: dict[str, tuple[str, str | None, frozenset[str]]] = {}
        """Record id -> (the text and key its words were read from, the words), for the
        records of the last call whose words were read."""

    def retrieve(self, records: Sequence[MemoryRecord], query: str, user_id: str,
                 k: int | None = None) -> list[str]:
        wanted = text_tokens(str(query))
        known = self._words
        kept: dict[str, tuple[str, str | None, frozenset[str]]] = {}
        scored = []
        for pos, rec in enumerate(records):
            rid = rec.id
            held = known.get(rid)
            if rec.status != "active" or rec.user_id != user_id:
                if held is not None:
                    kept[rid] = held
                continue
            if held is None or held[0] != rec.text or held[1] != rec.key:
                held = (rec.text, rec.key, record_tokens(rec))
            kept[rid] = held
            if not wanted.isdisjoint(held[2]):
                scored.append((-len(wanted & held[2]), pos, rid))
        self._words = kept
        scored.sort()
        return [rid for _, _, rid in scored[: k or self.k]]


class MemoryStore:
    """Records in store order (oldest first); only `active` ones are retrieved."""

    def __init__(self, records: Iterable[MemoryRecord | dict[str, Any]] = ()) -> None:
        self.records: list[MemoryRecord] = [
            r if isinstance(r, MemoryRecord) else MemoryRecord.model_validate(r) for r in records]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def get(self, rid: str) -> MemoryRecord | None:
        return next((r for r in self.records if r.id == rid), None)

    def active(self) -> list[MemoryRecord]:
        return [r for r in self.records if r.status == "active"]

    def add(self, record: MemoryRecord) -> None:
        if self.get(record.id) is not None:
            raise ValueError(f"record id {record.id!r} already in the store")
        self.records.append(record)

    def new_id(self, prefix: str = "m") -> str:
        taken = {r.id for r in self.records}
        n = len(self.records) + 1
        while f"{prefix}{n}" in taken:
            n += 1
        return f"{prefix}{n}"
