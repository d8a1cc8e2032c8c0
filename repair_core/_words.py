"""What a word is to the text readers: a run of letters, or of letters and digits, that
a combining mark (Unicode categories Mn, Mc, Me) continues. A vowel sign of Devanagari,
Bengali, Tamil or Thai, a Hebrew or Arabic point and an accent written apart from its
letter (NFD "é" is "e" and U+0301) are no letters to `str.isalpha` nor to a regular
expression's `\\w`, so a reader of runs of those cut "किराया" into "क", "र", "य". A mark
that follows no letter (a run of marks alone) starts no word.

The patterns are strings to build a reader's regular expression from; each matches a
character one way only, so a reader stays linear in its text.
"""

from __future__ import annotations

import unicodedata

__all__ = ["BMP_MARKS", "OTHER_MARKS", "MARK", "WORD", "LETTERS", "is_mark"]


def _mark_ranges(planes: tuple[range, ...]) -> str:
    """A character class body of the combining marks in `planes`, as ranges."""
    out: list[tuple[int, int]] = []
    for plane in planes:
        for o in plane:
            if unicodedata.category(chr(o))[0] == "M":
                if out and out[-1][1] == o - 1:
                    out[-1] = (out[-1][0], o)
                else:
                    out.append((o, o))
    return "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in out)


# Marks lie in these planes only (a pass over them at import costs about 20 ms). Those
# of the Basic Multilingual Plane are a class of their own: the regex engine tests a
# class of such characters by a table, one with characters beyond it range by range,
# seven times slower over a megabyte
BMP_MARKS = _mark_ranges((range(0x300, 0x10000),))
"""The body of a character class of the combining marks of the Basic Multilingual Plane,
for a reader whose class holds other characters too (or is negated)."""
OTHER_MARKS = _mark_ranges((range(0x10000, 0x20000), range(0xE0100, 0xE01F0)))
"""The body of a character class of the combining marks beyond it: a text holding no
character above U+FFFF holds none of them."""

MARK = f"(?:[{BMP_MARKS}]|[{OTHER_MARKS}])"
"""One combining mark."""

WORD = rf"\w(?:[\w{BMP_MARKS}]|[{OTHER_MARKS}])*"
"""A word: a letter, digit or `_`, then any of them and combining marks (regular
expressions' `\\w+` with the marks a word is written with)."""

LETTERS = rf"[^\W\d_](?:[^\W\d_]|{MARK})*"
"""A run of letters and the combining marks after them (`[^\\W\\d_]+` with the marks)."""


def is_mark(ch: str) -> bool:
    """Whether `ch` is a combining mark (it continues the word it follows).

    >>> is_mark("\\u093f"), is_mark("\\u0301"), is_mark("a")
    (True, True, False)
    """
    return unicodedata.category(ch)[0] == "M"
