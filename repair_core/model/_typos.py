"""A word of a known vocabulary read through one slip of the keyboard: a letter dropped,
added, changed, or two neighbours swapped ("plese", "chnage", "resrve", "fowrard",
"delte").

Only words of five letters or more, at both ends, that begin with the same letter are read
so ("gmail" is not "email"), and never a word that is the other with letters added or
taken at its end ("pleased" is not "please", "sendet" not "sende") or with its last letter
changed ("posted" is not "postez", "quiero" not "quiere"): an inflection says something
else than a slip. A changed letter is a slip only when its key neighbours the meant one's
on a QWERTY, QWERTZ or AZERTY keyboard ("plrase" is "please"): the index knows the
agent's order words only, so a word of another language or of no order one letter away
from one ("often" and Spanish "obtén", "chance" and "change", "place" and German "plane")
is another word, not that word mistyped. The index holds each known
word and every form of it with one letter dropped (symmetric deletion), so a lookup is a
handful of set probes per word: linear in the text.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TypoIndex"]

_SHORTEST = 5
_LONGEST = 20
_LAYOUTS = (("qwertyuiop", "asdfghjkl", "zxcvbnm"), ("qwertzuiop", "asdfghjkl", "yxcvbnm"),
            ("azertyuiop", "qsdfghjklm", "wxcvbn"))


def _neighbours() -> frozenset[tuple[str, str]]:
    """Pairs of letters whose keys touch on one of `_LAYOUTS`: beside each other in a row,
    or in the next row down at the same place or one to the left (the rows are
    staggered)."""
    pairs: set[tuple[str, str]] = set()
    for rows in _LAYOUTS:
        for row in rows:
            pairs.update(zip(row, row[1:], strict=False))
        for upper, lower in zip(rows, rows[1:], strict=False):
            for i, key in enumerate(lower):
                pairs.update((key, k) for k in upper[i:i + 2])
    return frozenset(pairs | {(b, a) for a, b in pairs})


_NEIGHBOURS = _neighbours()


def _drops(word: str) -> Iterable[str]:
    return (word[:i] + word[i + 1:] for i in range(len(word)))


class TypoIndex:
    """Known words, and their forms with one letter dropped, for reading slips."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(w for w in words if _SHORTEST <= len(w) <= _LONGEST)
        dropped: dict[str, set[str]] = {}
        for w in self.words:
            for d in _drops(w):
                dropped.setdefault(d, set()).add(w)
        self.dropped = dropped

    def meant(self, word: str) -> str | None:
        """The known word `word` is one slip away from, if exactly one is; None for a
        known word itself, a word too short or too long, or none or several in reach."""
        if word in self.words or not _SHORTEST <= len(word) <= _LONGEST:
            return None
        found: set[str] = set(self.dropped.get(word, ()))  # a letter dropped
        for d in _drops(word):
            if d in self.words:  # a letter added
                found.add(d)
            found.update(self.dropped.get(d, ()))  # changed, or two swapped
        found = {w for w in found if w[0] == word[0] and _one_slip(word, w)
                 and not (w.startswith(word) or word.startswith(w))}
        return next(iter(found)) if len(found) == 1 else None


def _one_slip(a: str, b: str) -> bool:
    """`a` is `b` with one letter dropped, added or changed to a neighbouring key's (not
    its last: that is an inflection), or two neighbours swapped."""
    if len(a) < len(b):
        a, b = b, a
    i = next((k for k in range(len(b)) if a[k] != b[k]), len(b))
    if len(a) == len(b) + 1:
        return a[i + 1:] == b[i:]
    if len(a) != len(b):
        return False
    if a[i:i + 2] == b[i:i + 2][::-1] and a[i + 2:] == b[i + 2:]:
        return True
    return a[i + 1:] == b[i + 1:] and i < len(b) - 1 and (a[i], b[i]) in _NEIGHBOURS
