"""Whether a condition on a date fails by the calendar alone: a date that does not exist
("the 31st of February", "30 de febrero") or a date said to fall on a weekday it does not
fall on ("if 3 March 2025 is a Friday": it is a Monday). Python's `calendar` decides; the
agent needs no clock and no workspace for it.

The words are the month and weekday names of the languages the agent reads (English,
French, German, Spanish, Italian, Portuguese, Dutch); a month named in another language is
recognised when it is at least five letters long and shares its first four with one of
those names ("febrer", "setembre"). Each search is one pass of a fixed pattern without
nested repetition: linear in the sentence's length.
"""

from __future__ import annotations

import calendar
import datetime
import re
from collections.abc import Iterable

from ._order_words import NEGATION_WORDS, plain

__all__ = ["date_condition_fails"]


def _numbered(lines: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for number, line in enumerate(lines.strip().splitlines(), start=1):
        for word in line.split():
            out[plain(word)] = number
    return out


_MONTHS = _numbered("""
january jan janvier januar enero gennaio janeiro januari
february feb fevrier februar febrero febbraio fevereiro februari
march mar mars marz maerz marzo marco maart
april apr avril abril aprile
may mai mayo maggio maio mei
june jun juin juni junio giugno junho
july jul juillet juli julio luglio julho
august aug aout agosto augustus
september sep sept septembre septiembre settembre setembro
october oct octobre oktober octubre ottobre outubro
november nov novembre noviembre novembro
december dec decembre dezember diciembre dicembre dezembro
""")
"""Month names (and English abbreviations) of the languages read, folded, to their number."""

_WEEKDAYS = {word: number - 1 for word, number in _numbered("""
monday lundi montag lunes lunedi segunda maandag
tuesday mardi dienstag martes martedi terca dinsdag
wednesday mercredi mittwoch miercoles mercoledi quarta woensdag
thursday jeudi donnerstag jueves giovedi quinta donderdag
friday vendredi freitag viernes venerdi sexta vrijdag
saturday samedi samstag sonnabend sabado sabato zaterdag
sunday dimanche sonntag domingo domenica zondag
""").items()}
"""Weekday names of the languages read, folded, to Python's weekday (Monday 0)."""

_PREFIXES = {name[:4]: number for name, number in _MONTHS.items() if len(name) >= 5}

_NEGATIONS = NEGATION_WORDS | {"isn", "aren", "wasn"}
"""The negations of the languages read, and the English ones the word pattern splits
("isn't" reads "isn", "t")."""

_DAY_MONTH = re.compile(r"(?<![\d.,])(\d{1,2})(?:st|nd|rd|th|er|o|º)?\.?[ \t]+"
                        r"(?:(?:de|of|di|del|van)[ \t]+)?([^\W\d_]+)\.?"
                        r"(?:[ \t]+(?:(?:de|del|of|van)[ \t]+)?(\d{4}))?(?![\d])")
_MONTH_DAY = re.compile(r"(?<![^\W\d_])([^\W\d_]+)\.?[ \t]+(\d{1,2})(?:st|nd|rd|th)?"
                        r"(?:,?[ \t]+(\d{4}))?(?![\d])")
_ISO = re.compile(r"(?<![\d])(\d{4})-(\d{2})-(\d{2})(?![\d])")
_WORD = re.compile(r"[^\W\d_]+")


def _month(word: str) -> int | None:
    if word in _MONTHS:
        return _MONTHS[word]
    return _PREFIXES.get(word[:4]) if len(word) >= 5 else None


def _dates(folded: str) -> Iterable[tuple[int, int, int | None, int]]:
    """(day, month, year or None, where the date ends) of each date the folded sentence
    writes."""
    for m in _DAY_MONTH.finditer(folded):
        if (month := _month(m.group(2))) is not None:
            yield int(m.group(1)), month, int(m.group(3)) if m.group(3) else None, m.end()
    for m in _MONTH_DAY.finditer(folded):
        if (month := _month(m.group(1))) is not None:
            yield int(m.group(2)), month, int(m.group(3)) if m.group(3) else None, m.end()
    for m in _ISO.finditer(folded):
        yield int(m.group(3)), int(m.group(2)), int(m.group(1)), m.end()


def _days_in(month: int, year: int | None) -> int:
    # with no year, February may be a leap one: only a 30th or 31st of it never exists
    return calendar.monthrange(2024 if year is None else year, month)[1]


def date_condition_fails(sentence: str) -> bool:
    """The `sentence` (a condition's, any case) writes a date that does not exist, or a
    date with its year followed within four words by a weekday it does not fall on ("1
    March 2027 is a Sunday"; by the one it falls on, where a negation stands between: "is
    not a Monday"). A weekday with no year, or not said of the date ("if it is a Monday,
    book … for 17 May 2024"), is left to hold: the calendar cannot tell it."""
    folded = plain(sentence)
    for day, month, year, end in _dates(folded):
        if not 1 <= month <= 12 or day < 1 or day > _days_in(month, year):
            return True
        if year is None:
            continue
        after = _WORD.findall(folded[end:end + _REACH])[:_AFTER]
        at = next((k for k, w in enumerate(after) if w in _WEEKDAYS), None)
        if at is not None:
            negated = not _NEGATIONS.isdisjoint(after[:at])
            falls = datetime.date(year, month, day).weekday() == _WEEKDAYS[after[at]]
            if falls == negated:
                return True
    return False


_AFTER = 4
"""Words after a date within which a weekday is said of it ("… is not a Sunday")."""
_REACH = 60
"""Characters after a date looked at for those words: four words fit."""
