"""Word shingles: runs of `SHINGLE_WORDS` consecutive words, case-folded."""

from __future__ import annotations

from .._carried import folded_words

__all__ = ["SHINGLE_WORDS", "words", "shingles"]

SHINGLE_WORDS = 5
"""Words per shingle: five consecutive words shared by chance are rare, three are not
("the user is")."""

def words(text: str) -> list[str]:
    """The case-folded words of `text` (runs of letters, digits and underscores).

    >>> words("Lin's WINDOW-seat, 2x")
    ['lin', 's', 'window', 'seat', '2x']
    """
    return folded_words(text)


def shingles(text: str, ignore: frozenset[str] = frozenset()) -> frozenset[str]:
    """The shingles of `text` as space-joined strings, minus those in `ignore`.

    >>> sorted(shingles("one two three four five six"))
    ['one two three four five', 'two three four five six']
    """
    w = words(text)
    found = {" ".join(w[i:i + SHINGLE_WORDS]) for i in range(len(w) - SHINGLE_WORDS + 1)}
    return frozenset(found - ignore)
