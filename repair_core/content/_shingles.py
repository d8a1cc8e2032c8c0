"""Word shingles: runs of `SHINGLE_WORDS` consecutive words, case-folded."""

from __future__ import annotations

from .._carried import folded_words

__all__ = ["SHINGLE_WORDS", "words", "shingles", "word_shingles"]

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
    return frozenset(word_shingles(words(text)) - ignore)


def word_shingles(w: list[str]) -> set[str]:
    """The shingles of the word list `w` (made by `zip` and `map`, not a slice per word).

    >>> sorted(word_shingles(["a", "b", "c", "d", "e"]))
    ['a b c d e']
    """
    return set(map(" ".join, zip(*(w[k:] for k in range(SHINGLE_WORDS)), strict=False)))
