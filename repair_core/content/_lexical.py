"""The words the lexical retriever finds a text by: lower-case words, a plural `s` or an
`-ing` dropped, without stop words. The retriever (`agent`) and the reference model's
fault marks (`model`) read text by this one rule.

Nothing here is cached: a process-wide cache kept a replaced case's texts alive in the
dashboard's server. A caller that reads the same texts many times keeps its own memo
(:class:`repair_core.agent.LexicalIndex`, for one replay).

>>> sorted(text_tokens("Shipping the parcels to Austin"))
['austin', 'parcel', 'ship']
"""

from __future__ import annotations

import re

__all__ = ["tokens", "text_tokens"]

_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "i", "in", "is", "it", "me", "my", "of", "on", "or", "please", "the", "to", "with", "you", "your", "what", "when", "where", "which", "who", "will", "can", "do", "does", "did", "this", "that", "there", "their", "our", "we", "us"])


_WORD = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> set[str]:
    """Lower-case word stems (a plural `s` or an `-ing` dropped), without stop words."""
    return set(text_tokens(str(text)))


def text_tokens(text: str) -> frozenset[str]:
    """:func:`tokens` of `text`, as a frozenset."""
    return frozenset(_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP)


def _stem(word: str) -> str:
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
        if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeiouls":
            word = word[:-1]  # shipping -> ship
        return word
    return word[:-1] if len(word) > 3 and word.endswith("s") else word
