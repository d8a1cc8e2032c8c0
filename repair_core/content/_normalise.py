"""Normalised fact matching: is a required (or forbidden) fact stated in an answer?

The benchmark's policies do not copy values verbatim: `dgrr/reference-b` and the noise
of both policies paraphrase them ("7 Elm Rd, Austin" -> "7 Elm Road, Austin"). A fact
counts as stated when, after normalising both texts the same way, the fact occurs in the
answer as whole words. The normalisation tolerates exactly the paraphrases the policies
generate (`repair_core.model._paraphrase`), and nothing else:

0. Unicode compatibility forms (NFKC: fullwidth `２２Ｃ` = `22C`) and the hyphens of Unicode
   (`‐`, the non-breaking `‑`, the minus `−`) read as `-` (`22‑C` = `22-C`), a soft hyphen
   dropped;
1. Unicode case folding (`Aisle` = `aisle`);
2. every character that is not a letter, digit, `-` or `'` becomes a space, so commas,
   full stops, colons and brackets never matter (`Austin.` = `Austin`);
3. each street-type word is mapped to one canonical form, whichever of its spellings the
   text uses: Road/Rd, Street/St, Avenue/Ave, Drive/Dr, Lane/Ln, Boulevard/Blvd,
   Place/Pl, Court/Ct;
4. runs of whitespace become one space;
5. other spellings of one value become one form: number words up to twenty become digits
   (`size nine` = `size 9`), weekday abbreviations become the day (`Wed.` = `Wednesday`), a
   two-letter code split from its number by a space or hyphen is joined (`NH 347` =
   `NH-347` = `NH347`), and so is a seat letter split from its row (`22 B` = `22-B` = `22B`);
6. the suite's value vocabulary in other words (`VALUE_SYNONYMS`): clothing sizes written
   out (`size small`, `small size`, `in a medium` = `size S`, `size M`), a centre seat
   (`centre seat`, `center of the row` = `middle`), `gray` = `grey`.

A different value is never tolerated: `O-4873` is not `O-4874`, size `M` is not found
inside `Mike`, and `aisle` is not `window`.

The rule sits in the content layer, below the replay and the benchmark, so that the
benchmark's oracle and the replay's own checks (a slip's original value still stated, a
fault's value echoed, `replay._slips`, `replay._echo`) read a fact the same way.

Nothing here is cached process-wide (in the dashboard's server such a cache kept a replaced
case's texts alive): a caller that compares the same texts many times, as a replay does,
keeps a :class:`NormalisedTexts` for as long as it runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .._canonical import visible
from .._words import LETTERS, MARK

__all__ = ["normalise", "fact_stated", "all_facts_stated", "NormalisedTexts", "STREET_WORDS",
           "SIZE_WORDS", "VALUE_SYNONYMS", "value_words", "same_value"]

STREET_WORDS: dict[str, tuple[str, ...]] = {
    "road": ("rd",),
    "street": ("st",),
    "avenue": ("ave", "av"),
    "drive": ("dr",),
    "lane": ("ln",),
    "boulevard": ("blvd",),
    "place": ("pl",),
    "court": ("ct",),
}
"""Canonical street-type word -> its abbreviations (both spellings normalise to the
canonical word)."""

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                "seventeen", "eighteen", "nineteen", "twenty")
WEEKDAY_ABBREVIATIONS = {"mon": "monday", "tue": "tuesday", "tues": "tuesday",
                         "wed": "wednesday", "thu": "thursday", "thur": "thursday",
                         "thurs": "thursday", "fri": "friday", "sat": "saturday",
                         "sun": "sunday"}

_CANON = {abbr: full for full, abbrs in STREET_WORDS.items() for abbr in abbrs}
_CANON.update({w: str(i) for i, w in enumerate(NUMBER_WORDS)})
_CANON.update(WEEKDAY_ABBREVIATIONS)
_CODE = re.compile(r"\b([A-Z]{2})[ -](\d{1,5})\b")
_SEAT = re.compile(r"\b(\d{1,2})[ -]([A-K])\b")
SIZE_WORDS = {"small": "S", "medium": "M", "large": "L", "extra large": "XL",
              "extra-large": "XL", "x-large": "XL"}
"""Clothing sizes written out (the catalogue's sizes, `tools._simulators.CATALOG`)."""
_SIZE_WORD = "|".join(sorted((re.escape(w) for w in SIZE_WORDS), key=len, reverse=True))
_SIZE_LETTER = r"XL|S|M|L"
_SIZE_END = r"(?=\s*(?:[.,;:)!?\u2013\u2014]|$|\s(?:and|in|for|to|from|please)\b))"
VALUE_SYNONYMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\bsize (?P<w>{_SIZE_WORD})\b", re.I), "size {w}"),
    (re.compile(rf"\b(?P<w>{_SIZE_WORD}) size\b", re.I), "size {w}"),
    (re.compile(rf"\bin (?:an? )?(?P<w>{_SIZE_WORD}){_SIZE_END}", re.I), "in size {w}"),
    (re.compile(rf"\bin (?:an? )?(?P<w>{_SIZE_LETTER}){_SIZE_END}"), "in size {w}"),
    (re.compile(r"\b(?:centre|center)(?= seats?\b)", re.I), "middle"),
    (re.compile(r"\b(?:in )?the (?:centre|center) of the row\b", re.I), "a middle seat"),
    (re.compile(r"\bgray\b", re.I), "grey"),
)
"""The suite's values in other words -> the suite's own spelling (applied before the
rest of the normalisation)."""
_WORD = re.compile(rf"(?:[^\W_]|['\-])(?:[^\W_]|['\-]|{MARK})*")
"""A word as facts are compared: letters, digits, apostrophes and hyphens, and the
combining marks that continue them."""
_LETTERS = re.compile(LETTERS)


_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2212": "-"})


def _unified(text: str) -> str:
    """`text` as the token finders read it (`visible`: NFKC, format characters such as a
    soft hyphen dropped) with Unicode's hyphens as `-` (step 0 of the module docstring)."""
    text = str(text)
    return text if text.isascii() else visible(text).translate(_HYPHENS)


def _synonym(form: str) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        w = m.groupdict().get("w")
        return form.format(w=SIZE_WORDS.get(w.lower(), w) if w else "")
    return sub


def normalise(text: str) -> str:
    """The text in the form facts are compared in (see the module docstring).

    >>> normalise("7 Elm Rd.,  Austin")
    '7 elm road austin'
    >>> normalise("Seat: AISLE (31C)")
    'seat aisle 31c'
    """
    text = _unified(text)
    for pattern, form in VALUE_SYNONYMS:
        text = pattern.sub(_synonym(form), text)
    text = _CODE.sub(r"\1\2", text)
    text = _SEAT.sub(r"\1\2", text)
    text = re.sub(r"\b([A-Z]{2})-(?=\d)", r"\1", text)
    words = _WORD.findall(text.casefold())
    return " ".join(_CANON.get(w, w) for w in words)


def fact_stated(answer: str, fact: str) -> bool:
    """Whether `fact` is stated in `answer`: the normalised fact occurs in the normalised
    answer as whole words. An empty fact is never stated.

    >>> fact_stated("Your parcel goes to 7 Elm Road, Austin.", "7 Elm Rd, Austin")
    True
    >>> fact_stated("Order O-4873 ships Monday.", "o-4873")
    True
    >>> fact_stated("Mike wears size L.", "M")
    False
    >>> fact_stated("Order O-48731 ships.", "O-4873")
    False
    """
    return _states(normalise(answer), normalise(fact))


def _states(answer: str, fact: str) -> bool:
    """The normalised `fact` occurs in the normalised `answer` as whole words. A normalised
    text is words of letters, digits, `-` and `'` between single spaces, so a whole-word
    occurrence is one between spaces (or the ends)."""
    return bool(fact) and f" {fact} " in f" {answer} "


def all_facts_stated(answer: str, facts: Iterable[str]) -> bool:
    """Every fact is stated (False for an empty list: such a case cannot be judged)."""
    wanted = list(facts)
    return bool(wanted) and all(fact_stated(answer, f) for f in wanted)


class NormalisedTexts:
    """:func:`normalise` and :func:`fact_stated` with a memo of the normalised texts, for
    one caller's lifetime (a replay compares the same record texts with each fault's
    value thousands of times). Nothing outlives the object.

    >>> texts = NormalisedTexts()
    >>> texts("7 Elm Rd."), texts.fact_stated("Ship to 7 Elm Road, Austin.", "7 elm rd")
    ('7 elm road', True)
    """

    def __init__(self) -> None:
        self._memo: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        text = str(text)
        form = self._memo.get(text)
        if form is None:
            form = self._memo[text] = normalise(text)
        return form

    def fact_stated(self, answer: str, fact: str) -> bool:
        """:func:`fact_stated`, from the memo."""
        return _states(self(answer), self(fact))


# --- one value in several formats (the answer oracle's reading, `bench._answer`) --------
#
# `normalise` stays the replay's comparison; the answer oracle reads values more loosely,
# through `value_words`: the same words, with ids, prices and dates each turned into one
# token whatever their format. Every pattern below matches a bounded run of characters
# with no nested repetition, so each pass over a text is linear in its length.

_MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
           "july": 7, "august": 8, "september": 9, "october": 10, "november": 11,
           "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7,
           "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DAY_MONTH = re.compile(rf"\b{_DAY} (?:of )?({_MONTH})\b\.?(?:,? (\d{{4}})\b)?", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH})\b\.? {_DAY}\b(?:,? (\d{{4}})\b)?", re.I)
_CURRENCY = {"$": "usd", "usd": "usd", "dollar": "usd", "dollars": "usd", "bucks": "usd",
             "\u20ac": "eur", "eur": "eur", "euro": "eur", "euros": "eur",
             "\u00a3": "gbp", "gbp": "gbp", "pound": "gbp", "pounds": "gbp"}
_AMOUNT = r"(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?"
_PRICE_SIGN = re.compile(rf"([$\u20ac\u00a3]) ?{_AMOUNT}")
_PRICE_WORD = re.compile(rf"\b{_AMOUNT} ?(usd|eur|gbp|dollars?|bucks|euros?|pounds?)\b", re.I)
_NUMBER_SIGN = re.compile(r"#(?=\d)")
_JOINED_ID = re.compile(r"^([a-z]{1,3})-(\d{2,})$")


def _date_token(month: int, day: str, year: str | None) -> str:
    return f"d{month:02d}{int(day):02d}" + (f"y{year}" if year else "")


def _price_token(currency: str, whole: str, cents: str | None) -> str:
    amount = whole.replace(",", "")
    return f"{_CURRENCY[currency.lower()]}{amount}" + (f"c{cents}" if cents and cents != "00"
                                                       else "")


def _canonical_text(text: str) -> str:
    text = _unified(text).replace("\u2019", "'")
    text = _ISO_DATE.sub(lambda m: _date_token(int(m[2]), m[3], m[1])
                         if 1 <= int(m[2]) <= 12 else m[0], text)
    text = _DAY_MONTH.sub(lambda m: _date_token(_MONTHS[m[2].lower()], m[1], m[3]), text)
    text = _MONTH_DAY.sub(lambda m: _date_token(_MONTHS[m[1].lower()], m[2], m[3]), text)
    text = _PRICE_SIGN.sub(lambda m: _price_token(m[1], m[2], m[3]), text)
    text = _PRICE_WORD.sub(lambda m: _price_token(m[3], m[1], m[2]), text)
    return _NUMBER_SIGN.sub("number ", text)


def value_words(text: str) -> list[str]:
    """The words of `text` as the answer oracle compares values: :func:`normalise`'s
    words, with a possessive `'s` dropped (`O-7186's` = `O-7186`), an id's hyphen dropped
    and a one-letter prefix split from its number joined (`O-6929` = `O6929` = `o 6929`),
    `#` before a number read as "number", a compound of words split (`middle-seat` =
    `middle seat`), a date in any of `2024-03-15`, `15 March 2024`,
    `March 15th, 2024`, `Mar. 15` as one token (`d0315y2024`, or `d0315` without a year)
    and a price as one token (`$1,200.00` = `1200 USD` = `1,200 dollars` = `usd1200`).

    >>> value_words("Order #9242 and O-7186's refund of $1,200.00 on 15 March 2024")
    ['order', 'number', '9242', 'and', 'o7186', 'refund', 'of', 'usd1200', 'on', 'd0315y2024']
    """
    out: list[str] = []
    for w in normalise(_canonical_text(text)).split():
        if w.endswith("'s"):
            w = w[:-2]
        w = w.strip("'")
        if not w:
            continue
        m = _JOINED_ID.match(w)
        if m:
            w = m[1] + m[2]
        elif "-" in w and _LETTERS.fullmatch(w.replace("-", "")):
            out += [p for p in w.split("-") if p]
            continue
        elif (w.isdigit() and len(w) >= 3 and out and len(out[-1]) == 1
              and out[-1].isalpha() and out[-1] not in ("a", "i")):
            w = out.pop() + w
        out.append(w)
    return out


def same_value(fact_word: str, answer_word: str) -> bool:
    """One word of a fact and one of an answer name the same value: equal words, or two
    dates on the same day where at most one of them names the year.

    >>> same_value("d0315y2024", "d0315"), same_value("d0315y2024", "d0315y2023")
    (True, False)
    """
    if fact_word == answer_word:
        return True
    if (len(fact_word) >= 5 and len(answer_word) >= 5 and fact_word[0] == answer_word[0] == "d"
            and fact_word[1:5].isdigit() and fact_word[1:5] == answer_word[1:5]):
        return len(fact_word) == 5 or len(answer_word) == 5
    return False
