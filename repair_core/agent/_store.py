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
    order); returns at most `k` records that share at least one word with the query."""

    def __init__(self, k: int = 5) -> None:
        self.k = k

    def retrieve(self, records: Sequence[MemoryRecord], query: str, user_id: str,
                 k: int | None = None) -> list[str]:
        wanted = text_tokens(str(query))
        scored = []
        for pos, rec in enumerate(records):
            if rec.status != "active" or rec.user_id != user_id:
                continue
            score = len(wanted & record_tokens(rec))
            if score:
                scored.append((-score, pos, rec.id))
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
