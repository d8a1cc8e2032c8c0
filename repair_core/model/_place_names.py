"""A place's name as another language writes it: the next-session agent (`_agentdojo_goals`)
finds a goal's city ("Paris") in a text that names it "Parijs", "Parigi" or "Paříž".

No table of names: a word the text writes with a capital is read as the place when it
begins with the same four letters as the place's name (folded: case and accents dropped)
and differs from it by at most two letters dropped, added or changed. That is how the
exonyms of the languages the agent reads mostly differ from a city's own name (a changed or
added ending); a name that differs more ("Wien" for Vienna, "Londres" for London) is not
found. Each search is one fixed pattern over the text and a comparison of two short words:
linear in the text's length.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from ._order_words import plain

__all__ = ["capitalised_names", "place_name_at", "PREFIX", "MAX_EDITS"]

PREFIX = 4
"""Letters a place's name in another language shares with it at its start."""
MAX_EDITS = 2
"""Letters dropped, added or changed at most between the two names."""

_WORD = re.compile(r"[^\W\d_]+")


def capitalised_names(text: str) -> frozenset[str]:
    """The words `text` (as written) spells with a capital followed by small letters, any
    alphabet's ("Parijs", "Paříži"), folded."""
    return frozenset(plain(w) for w in _WORD.findall(text)
                     if len(w) > 1 and w[0].isupper() and w[1:].islower())


@functools.cache
def _pattern(place: str) -> re.Pattern[str]:
    longest = len(place) + MAX_EDITS - PREFIX
    return re.compile(rf"(?<![^\W_]){re.escape(place[:PREFIX])}[^\W\d_]{{0,{longest}}}"
                      rf"(?![^\W_])")


def place_name_at(place: str, folded: str, capitalised: frozenset[str]) -> Iterator[int]:
    """Where the folded text `folded` names the place `place` (folded, one word of letters,
    at least `PREFIX` long) under another language's name: a word of `capitalised` that
    begins with its first `PREFIX` letters and is at most `MAX_EDITS` letters away. The
    place written as it is is not yielded (the caller finds it)."""
    if len(place) < PREFIX or not place.isalpha():
        return
    for m in _pattern(place).finditer(folded):
        word = m.group()
        if word != place and word in capitalised and _within(word, place, MAX_EDITS):
            yield m.start()


def _within(a: str, b: str, most: int) -> bool:
    """`a` becomes `b` by at most `most` letters dropped, added or changed (edit distance;
    both words are short, so the table is small)."""
    if abs(len(a) - len(b)) > most:
        return False
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1] <= most
