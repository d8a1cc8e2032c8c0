"""The lexical retriever's ranking over an index kept up to date as records change.

:class:`LexicalRetriever` scores every record of the list it is handed, which costs a
pass over the store per read: a 100k-step replay reads a 20k-record store about 2,000
times. :class:`LexicalIndex` holds each active record's words once (an inverted index per
user) and answers the same query with the same ids in the same order, touching only the
records that share a word with it. It keeps the words of each text it has read (a replay
re-indexes a record whose status changes, and asks the same queries again) for its own
lifetime only: nothing of a case outlives the index.

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
from array import array
from collections.abc import Iterable

import numpy as np

from ..case._case import MemoryRecord
from ..content._lexical import text_tokens
from ._store import record_tokens

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
        self._postings: dict[tuple[str, str], array[int]] = {}
        """(user, word) -> positions of that user's searchable records holding the word,
        ascending: machine integers, which a search reads as numpy arrays without a copy
        (a common word's postings grow with the store, and converting them on every read
        made reads cost more the larger the store)."""
        self._text_words: dict[str, frozenset[str]] = {}
        """Text (a record's, its key's, a query's) -> its words (`text_tokens`)."""
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
        words = record_tokens(record, self._words_of)
        self._words[rid] = (record.user_id, words)
        at = self._position[rid]
        for w in words:
            held = self._postings.get((record.user_id, w))
            if held is None:
                held = self._postings[(record.user_id, w)] = array("q")
            if not held or held[-1] < at:
                held.append(at)
            else:
                held.insert(bisect.bisect_left(held, at), at)

    def _words_of(self, text: str) -> frozenset[str]:
        words = self._text_words.get(text)
        if words is None:
            words = self._text_words[text] = text_tokens(text)
        return words

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

    def search(self, query: str, user_id: str, k: int) -> list[str]:
        """What :meth:`LexicalRetriever.retrieve` returns for the searchable records in
        store order: the `k` best by words shared with `query` (ties: store order)."""
        lists = [held for w in self._words_of(str(query))
                 if (held := self._postings.get((user_id, w)))]
        if not lists or k <= 0:
            return []
        if len(lists) == 1:  # one word: every hit scores 1, so store order alone ranks
            top: list[int] = lists[0][:k].tolist()
        else:
            # hits by position, counted (a position is in a word's postings once): no sort
            # of the postings merged (twice the time, at 60k records, of the count)
            hits = np.bincount(np.concatenate([np.frombuffer(held, np.int64) for held in lists]))
            top = []
            for score in range(int(hits.max()), 0, -1):  # the best first, each in store order
                top += np.flatnonzero(hits == score)[:k - len(top)].tolist()
                if len(top) == k:
                    break
        return [self._ids[at] for at in top]
