"""Calendar days a text states, in the notations a day is written in: ISO 8601
("2027-03-19", its week date "2027-W11-5" and ordinal date "2027-078"), digits with a
four-digit year ("19.03.2027", "19/03/2027", "03/19/2027"; a day and a month that can
each be the other are read both ways), day and month each closed by a dot and no year
("am 19.3. um 10:30", day first, as German and Polish write it), the month in Roman numerals ("19.III.2027",
"19 III 2027") and the month by name, day first or month first, with or without a year
("19 March 2027", "March 19, 2027", "19 marca 2027", "le 19 mars", "19 de março de 2027";
`_MONTH_NAMES`; month first, a name of three letters only with a year: "you may 5" is no
day). Read in canonical text (lower case). Not a distinctive token: what a
record's lineage explains is asked of it (`verify.unexplained-date`).

Every pattern is a bounded run of characters with no nested repetition, so one pass over a
text is linear in its length.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import cache
from typing import NamedTuple

from .._canonical import canonical

__all__ = ["Day", "days", "month_names", "same_day"]


class Day(NamedTuple):
    """A calendar day as a text writes it: its month, day and year (None when the text
    names none), and the text it was read from."""

    month: int
    day: int
    year: int | None
    written: str


_MONTH_NAMES = {
    1: "january jan januar jänner janvier enero gennaio janeiro januari stycznia styczeń",
    2: "february feb februar février febrero febbraio fevereiro februari lutego luty",
    3: "march mar märz maerz mars marzo março maart marts marca marzec",
    4: "april apr avril abril aprile kwietnia kwiecień",
    5: "may mai mayo maggio maio mei maj maja",
    6: "june jun juni juin junio giugno junho czerwca czerwiec",
    7: "july jul juli juillet julio luglio julho lipca lipiec",
    8: "august aug août agosto augustus augusti sierpnia sierpień",
    9: "september sep sept septembre septiembre settembre setembro września wrzesień",
    10: "october oct oktober octobre octubre ottobre outubro okt października październik",
    11: "november nov novembre noviembre novembro listopada listopad",
    12: "december dec dezember décembre diciembre dicembre dezembro desember dez grudnia "
        "grudzień",
}
"""The names of each month read next to a day: English (and its three-letter
abbreviations), German, French, Spanish, Italian, Portuguese, Dutch, Norwegian, Danish,
Swedish and Polish (whose dates write the genitive: "19 marca")."""

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8,
          "ix": 9, "x": 10, "xi": 11, "xii": 12}
"""The months in Roman numerals, as Polish, Czech, Hungarian and Romanian dates write
them."""

_YEAR = r"((?:19|20)\d\d)"


@cache
def _month_of() -> dict[str, int]:
    """A month's canonical name (`_MONTH_NAMES`) -> its number."""
    return {canonical(w): m for m, names in _MONTH_NAMES.items() for w in names.split()}


def month_names() -> frozenset[str]:
    """Every month name the date rules read (`_MONTH_NAMES`), as canonical text."""
    return frozenset(_month_of())


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    names = "|".join(re.escape(w) for w in sorted(_month_of(), key=len, reverse=True))
    roman = "|".join(sorted(_ROMAN, key=len, reverse=True))
    return (
        # ISO 8601 and year-first dates: 2027-03-19, 2027/03/19, 2027.03.19
        re.compile(rf"(?<![\d.,/-]){_YEAR}([-/.])(\d{{1,2}})\2(\d{{1,2}})(?![\d])"),
        # ISO week date: 2027-W11-5, 2027W115
        re.compile(rf"(?<![\d.,/-]){_YEAR}-?w(\d\d)-?([1-7])(?![\d])"),
        # ISO ordinal date: 2027-078
        re.compile(rf"(?<![\d.,/-]){_YEAR}-(\d{{3}})(?![\d/-])"),
        # digits, day or month first, four-digit year: 19.03.2027, 19. 3. 2027, 03/19/2027
        re.compile(rf"(?<![\d.,/-])(\d{{1,2}})([./-]) ?(\d{{1,2}})\2 ?{_YEAR}(?![\d])"),
        # day and month with the dots a German or Polish date writes, no year: am 19.3.
        re.compile(r"(?<![\d.,/-])(\d{1,2})\. ?(\d{1,2})\.(?![\d.])"),
        # the month in Roman numerals: 19.III.2027, 19 III 2027
        re.compile(rf"(?<![\d.,/-])(\d{{1,2}})\.? ?[./ -] ?({roman})[./ -] ?{_YEAR}(?![\d])"),
        # day first: 19 March 2027, 19th of March, 19. März 2027, 19 de março de 2027
        re.compile(rf"(?<![\d.,/-])(\d{{1,2}})(?:st|nd|rd|th|er|\.)? ?(?:de |of )?({names})"
                   rf"(?![^\W\d_])\.?(?:,? (?:de )?{_YEAR}(?![\d]))?"),
        # month first: March 19, 2027, Mar. 19
        re.compile(rf"(?<![^\W\d_])({names})\.? (\d{{1,2}})(?:st|nd|rd|th)?(?![\d])"
                   rf"(?:,? {_YEAR}(?![\d]))?"),
    )


def _day(year: int | None, month: int, day: int, written: str) -> Day | None:
    try:
        date(2000 if year is None else year, month, day)  # 2000: 29 February is a day
    except ValueError:
        return None
    return Day(month, day, year, written)


def days(text: str) -> list[Day]:
    """The calendar days `text` (canonical text) states, in the order of the patterns
    and then of the text; a date of digits whose first two numbers can each be the day or
    the month is both days.

    >>> [(d.month, d.day, d.year) for d in days("19.iii.2027 and 2027-w11-5")]
    [(3, 19, 2027), (3, 19, 2027)]
    """
    if not any(c.isdigit() for c in text):
        return []
    iso, week, ordinal, digits, dotted, roman, day_first, month_first = _patterns()
    month_of = _month_of()
    out: list[Day | None] = []
    for m in iso.finditer(text):
        out.append(_day(int(m[1]), int(m[3]), int(m[4]), m[0]))
    for m in week.finditer(text):
        try:
            d = date.fromisocalendar(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            continue
        out.append(Day(d.month, d.day, d.year, m[0]))
    for m in ordinal.finditer(text):
        n = int(m[2])
        if 1 <= n <= 366:
            d = date(int(m[1]), 1, 1) + timedelta(n - 1)
            if d.year == int(m[1]):
                out.append(Day(d.month, d.day, d.year, m[0]))
    for m in digits.finditer(text):
        first, second, year = int(m[1]), int(m[3]), int(m[4])
        out.append(_day(year, second, first, m[0]))
        if first != second:
            out.append(_day(year, first, second, m[0]))
    for m in dotted.finditer(text):
        out.append(_day(None, int(m[2]), int(m[1]), m[0]))
    for m in roman.finditer(text):
        out.append(_day(int(m[3]), _ROMAN[m[2]], int(m[1]), m[0]))
    for m in day_first.finditer(text):
        out.append(_day(int(m[3]) if m[3] else None, month_of[m[2]], int(m[1]), m[0]))
    for m in month_first.finditer(text):
        if len(m[1]) <= 3 and not m[3]:
            continue  # "may 5", "mar 3": a word and a number unless a year follows
        out.append(_day(int(m[3]) if m[3] else None, month_of[m[1]], int(m[2]), m[0]))
    return [d for d in out if d is not None]


def same_day(a: Day, b: Day) -> bool:
    """`a` and `b` are one calendar day: the same month and day, and the same year when
    both name one ("19 March" is the day of "2027-03-19")."""
    return (a.month, a.day) == (b.month, b.day) and (
        a.year is None or b.year is None or a.year == b.year)
