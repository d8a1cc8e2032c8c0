"""Counts of doses a text states: a number, in digits or in words, and a unit a dose is
taken in ("one and a half of the pink tablets", "2 capsules", "½ tablet", "three puffs").
Where a false dose is restated as how many tablets to take, no quantity of mass or volume
is left to compare (`quantities`): what a record's lineage explains is asked of the count
(`verify.unexplained-quantity`).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NamedTuple

from .._words import LETTERS

__all__ = ["DoseCount", "dose_counts"]

_UNIT = re.compile(
    r"(?<![^\W\d_])(?P<unit>tablets?|pills?|capsules?|caplets?|lozenges?|sachets?|puffs?"
    r"|drops?|sprays?|patch(?:es)?|pessar(?:y|ies)|suppositor(?:y|ies)|ampoules?|vials?"
    r"|injections?|spoonfuls?|teaspoons?(?:ful)?s?|tablespoons?(?:ful)?s?|doses?)"
    r"(?![^\W\d_])", re.IGNORECASE)
"""A unit a dose is counted in, a whole word, singular or plural."""
_LOOK_BACK = 48
"""How many characters before a unit its number is looked for in ("one and a half of the
pink" is 25)."""
_CLAUSE_END = re.compile(r"[;:!?\n()]|[.,](?!\d)")
_NUMBER_WORDS: dict[str, int | Decimal] = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4,
                 "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12, "half": Decimal("0.5"),
                 "quarter": Decimal("0.25")}
_TOKEN = re.compile(r"\d{1,4}(?:[.,]\d{1,3})?½?|½|¼|¾|" + LETTERS)
_FRACTIONS = {"½": Decimal("0.5"), "¼": Decimal("0.25"), "¾": Decimal("0.75")}
_NUMBER = re.compile(r"[\d½¼¾]|(?<![^\W\d_])(?:" + "|".join(_NUMBER_WORDS) + r")(?![^\W\d_])",
                     re.IGNORECASE)
"""A digit, a fraction or a number's word: a window without one states no count."""
_FILLERS = frozenset({"of", "the", "your", "her", "his", "their", "my", "these", "those",
                      "and", "more", "extra", "whole", "full"})
"""Words that may stand between a number and its unit or inside a number's words."""
_MAX_BETWEEN = 3
"""How many other words (a colour, a size, a shape: "pink", "small round") may stand
between a number and its unit."""


class DoseCount(NamedTuple):
    """One count of doses a text states."""

    amount: str
    """How many and the unit, singular and in lower case: "1.5 tablet"."""
    written: str
    """As the text writes it, from its number to its unit: "one and a half of the pink
    tablets"."""


def _unit_of(word: str) -> str:
    w = word.casefold()
    for plural, single in (("ies", "y"), ("ches", "ch"), ("fuls", "ful"), ("s", "")):
        if w.endswith(plural) and not w.endswith("ss"):
            return w[: len(w) - len(plural)] + single
    return w


def _token_value(token: str) -> Decimal | None:
    if token in _FRACTIONS:
        return _FRACTIONS[token]
    if token[0].isdigit():
        half = token.endswith("½")
        digits = token.rstrip("½").replace(",", ".")
        return Decimal(digits) + (Decimal("0.5") if half else 0)
    value = _NUMBER_WORDS.get(token.casefold())
    return None if value is None else Decimal(value)


def _count_before(tokens: list[str]) -> tuple[Decimal, int] | None:
    """The count the words before a unit state (nearest last), and how many of the words
    it starts back from the end, or None. Reads "N", "N and a half", "half a",
    "a half", "one and a half", skipping up to `_MAX_BETWEEN` other words."""
    k = len(tokens) - 1
    skipped = 0
    while k >= 0 and _token_value(tokens[k]) is None:
        if tokens[k].casefold() not in _FILLERS:
            skipped += 1
            if skipped > _MAX_BETWEEN:
                return None
        k -= 1
    if k < 0:
        return None
    # the number's words end at k; read back over "N and a half" / "half a" / "a half"
    words = [t.casefold() for t in tokens[max(0, k - 3): k + 1]]  # the last four at most
    if words[-1] == "half" and len(words) >= 4 and words[-2] in ("a", "an") \
            and words[-3] == "and":
        whole = _token_value(tokens[k - 3])
        if whole is not None and whole >= 1 and tokens[k - 3].casefold() not in ("a", "an"):
            return whole + Decimal("0.5"), k - 3
    if words[-1] in ("a", "an") and len(words) >= 2 and words[-2] == "half":
        return Decimal("0.5"), k - 1
    if words[-1] in ("half", "quarter") and len(words) >= 2 and words[-2] in ("a", "an", "one"):
        return _token_value(tokens[k]) or Decimal(0), k - 1
    value = _token_value(tokens[k])
    return None if value is None else (value, k)


def dose_counts(text: str) -> list[DoseCount]:
    """The counts of doses `text` states, in order. Linear in the text: each unit found by
    one pattern, its number looked for in at most `_LOOK_BACK` characters before it, in
    its clause.

    >>> [tuple(c) for c in dose_counts("Evening: one and a half of the pink tablets; "
    ...                                "2 capsules, ½ tablet and three puffs. Tablets 5 mg")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('1.5 tablet', 'one and a half of the pink tablets'), ('2 capsule', '2 capsules'),
     ('0.5 tablet', '½ tablet'), ('3 puff', 'three puffs')]
    """
    out: list[DoseCount] = []
    shown = text  # as written: NFKC would make "1½" the digits "11⁄2"
    # what the words before a unit count depends on those words only: a text that repeats
    # a line (a log, a copied label) reads each window once
    read: dict[tuple[str, bool], tuple[str, int] | None] = {}
    for m in _UNIT.finditer(shown):
        lo = max(0, m.start() - _LOOK_BACK)
        before = shown[lo:m.start()]
        ends = list(_CLAUSE_END.finditer(before))
        if ends:
            lo += ends[-1].end()
            before = before[ends[-1].end():]
        key = (before, lo > 0 and shown[lo - 1].isalnum())
        if key not in read:
            read[key] = _count_in(*key)
        counted = read[key]
        if counted is not None:
            amount, offset = counted
            out.append(DoseCount(f"{amount} {_unit_of(m.group('unit'))}",
                                 shown[lo + offset:m.end()]))
    return out


def _count_in(before: str, cut: bool) -> tuple[str, int] | None:
    """The count (written as a plain decimal) the words `before` a unit state, and where
    its number starts in `before`; `cut`: its first word may be a word cut by the window."""
    if not _NUMBER.search(before):
        return None
    found = list(_TOKEN.finditer(before))
    if cut and found and found[0].start() == 0:
        found = found[1:]  # a word cut by the window
    tokens = [t.group(0) for t in found]
    counted = _count_before(tokens) if tokens else None
    if counted is None or counted[0] <= 0:
        return None
    value, first = counted
    return format(value.normalize(), "f"), found[first].start()
