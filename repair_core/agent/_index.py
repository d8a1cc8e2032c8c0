"""The lexical retriever's ranking over an index kept up to date as records change.

:class:`LexicalRetriever` scores every record of the list it is handed, which costs a
pass over the store per read: a 100k-step replay reads a 20k-record store about 2,000
times. :class:`LexicalIndex` holds each active record's words once (an inverted index per
user) and answers the same query with the same ids in the same order, touching only the
records that share a word with it.

>>> from repair_core.case._case import MemoryRecord
>>> recs = [MemoryRecord(id=f"m{i}", user_id="lin", text=t, status="active") for i, t in
...         enumerate(["Lin prefers aisle seats.", "Lin pays by card.", "Aisle seat 31C."])]
>>> index = LexicalIndex(recs)
>>> index.search("which seat", "lin", k=5)
['m0', 'm2']
>>> index.discard("m0")
>>> index.search("which seat", "lin", k=5)
['m2']
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

import numpy as np

from ..case._case import MemoryRecord
from ._store import record_tokens, text_tokens

__all__ = ["LexicalIndex"]


class LexicalIndex:
    """Active records by word, in store order, per user.

    A record keeps the position it was first seen at (store order), so a record that
    leaves and comes back ranks where it did; new records go last. Only records whose
    status is `active` when :meth:`put` sees them are searchable."""

    def __init__(self, records: Iterable[MemoryRecord] = ()) -> None:
        self._position: dict[str, int] = {}
        self._ids: list[str] = []
        """Position -> record id."""
        self._words: dict[str, tuple[str, frozenset[str]]] = {}
        """Searchable record id -> (its user, its words)."""
        self._postings: dict[tuple[str, str], list[int]] = {}
        """(user, word) -> positions of that user's searchable records holding the word,
        ascending."""
        self._arrays: dict[tuple[str, str], np.ndarray] = {}
        """The same postings as arrays, made when a search needs them."""
        for rec in records:
            self.put(rec)

    def __contains__(self, rid: object) -> bool:
        return rid in self._words

    def __len__(self) -> int:
        return len(self._words)

    def put(self, record: MemoryRecord) -> None:
        """Index `record` as it is now (searchable only while active)."""
        rid = record.id
        if rid not in self._position:
            self._position[rid] = len(self._ids)
            self._ids.append(rid)
        self.discard(rid)
        if record.status != "active":
            return
        words = record_tokens(record)
        self._words[rid] = (record.user_id, words)
        at = self._position[rid]
        for w in words:
            held = self._postings.setdefault((record.user_id, w), [])
            if not held or held[-1] < at:
                held.append(at)
            else:
                bisect.insort(held, at)
            self._arrays.pop((record.user_id, w), None)

    def discard(self, rid: str) -> None:
        """Make `rid` unsearchable (it keeps its position)."""
        held = self._words.pop(rid, None)
        if held is None:
            return
        user, words = held
        at = self._position[rid]
        for w in words:
            positions = self._postings[(user, w)]
            del positions[bisect.bisect_left(positions, at)]
            self._arrays.pop((user, w), None)

    def _array(self, key: tuple[str, str]) -> np.ndarray:
        arr = self._arrays.get(key)
        if arr is None:
            arr = self._arrays[key] = np.array(self._postings[key], dtype=np.int64)
        return arr

    def search(self, query: str, user_id: str, k: int) -> list[str]:
        """What :meth:`LexicalRetriever.retrieve` returns for the searchable records in
        store order: the `k` best by words shared with `query` (ties: store order)."""
        keys = [(user_id, w) for w in text_tokens(str(query))
                if self._postings.get((user_id, w))]
        if not keys or k <= 0:
            return []
        if len(keys) == 1:  # one word: every hit scores 1, so store order alone ranks
            top: list[int] = self._postings[keys[0]][:k]
        else:
            positions, hits = np.unique(np.concatenate([self._array(key) for key in keys]),
                                        return_counts=True)  # positions ascending
            top = positions[np.argsort(-hits, kind="stable")[:k]].tolist()
        return [self._ids[at] for at in top]
