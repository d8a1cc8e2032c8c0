"""Amounts: the sums of money a text states, each as one comparable form. A thousand or
more written with digit grouping of any convention — groups of three after a first of one
to three digits, split by a comma, a dot, an apostrophe, a blank, a no-break, narrow or
thin space ("3,275.50", "3.275,50", "14 600", "1'250'000"), or the Indian grouping of
lakhs and crores, two-digit groups before the last three split by commas ("1,45,000",
"1,25,00,000") — or with cents ("1120,00", "1450.00") is read whatever the separators; so
is a number of four digits or more that a currency sign or code stands next to ("Rs
245000", "₹245000", "2310 NOK", "2310 kr", "$1450"), and a number times a word that
multiplies it ("1 lakh" = 100000, "2.45 lakh" = 245000, "1.5 crore", "3 thousand", "1.2
million", and a power of a thousand of the languages `_number_words` reads: "2,5 Tausend",
"1,5 millones"), and a number written in words (`_number_words`: "two thousand three
hundred and ten kroner", "zweitausenddreihundertzehn Kronen"); of these, a round number of
thousands or one a year could be (1000 to 2099) is one only with a currency next to it
(`_count_or_year`), but a number of lakhs or crores. A number with a suffix k, m or
bn ("€4.9k", "USD 12k", "$1.2M") is one only with a currency next to it: alone it is a
count or a size ("a 4k screen", "1.2m tall"). A number in scientific notation
("4.86E+04", as a spreadsheet shows 48600; "4,86 x 10^4") is read as a number times a
power of ten in words is: alone unless it is a round number of thousands or one a year
could be. A bare number ("1450", "0932") is not, nor
one inside an id or account ("KF-0932"), nor a date or a time; a number alone on a line
under a key naming an amount is one (a record's value {"amount": 2310} read flattened), and
so is one as the value of such a key in JSON text, one line or indented. Not a distinctive token: two records may state the same rent by chance,
and a text is never called a carrier for it. What a record's lineage explains is asked of
it (`verify.unexplained-amount`).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache

from .._words import MARK
from ._number_words import number_words, powers

__all__ = ["amounts"]

_SEP = "[,.'’ \u00a0\u202f\u2009\u066c]"
# a number standing alone (not inside an id, an account or a longer number): its groups
# of three after a first of one to three digits not starting with 0 ("0.125" is a
# fraction), or two-digit groups then three (lakhs),
# or its digits, then cents or not; each repetition starts with a separator the group
# before cannot hold
_AMOUNT = re.compile(rf"(?<![\w.,'’/:-])([1-9]\d{{0,2}}(?:{_SEP}\d{{3}}){{1,5}}"
                     r"|\d{1,2}(?:,\d{2}){1,5},\d{3}|\d{4,9})"
                     r"(?:[.,](\d{2}))?(?![\w'’/:-]|[.,]\d)")
_UNGROUPED = str.maketrans("", "", ",.'’ \u00a0\u202f\u2009\u066c")
"""Drops the separators `_SEP` holds."""
_SCALES = {"thousand": 3, "thousands": 3, "lakh": 5, "lakhs": 5, "lac": 5, "lacs": 5,
           "crore": 7, "crores": 7, "million": 6, "millions": 6, "billion": 9,
           "billions": 9}
"""A word that multiplies the number before it -> the power of ten it multiplies by; and
each power of a thousand of the languages `number_words` reads ("2,5 Tausend", "1,5
millones", `_scaled_words`)."""
_SCALE_WORDS = ("lakh", "lac", "crore")
"""What every scale word holds that no number word does (those hold `NUMBER_STEMS`)."""


@cache
def _scaled_words() -> tuple[dict[str, int], re.Pattern[str]]:
    """Every scale word (`_SCALES`, and `powers` of the number words) -> its power of ten;
    a pattern of a number times one, standing alone or after a currency sign (one
    canonical text writes as a letter too: "€2.31 thousand" is "ꞓ2.31 thousand")."""
    scales = {**powers(), **_SCALES}
    return scales, re.compile(
        rf"(?<!(?!{_sign()})[\w.,'’/:-])(\d{{1,6}}(?:[.,]\d{{1,6}})?)[ \u00a0\u202f\u2009-]?("
        + "|".join(map(re.escape, sorted(scales, key=len, reverse=True))) + r")(?!\w)",
        re.IGNORECASE)


_SUFFIXES = {"k": 3, "m": 6, "bn": 9}
"""A letter or two after a number that multiply it ("4.9k", "1.2M", "2bn") -> the power
of ten."""


@cache
def _suffixed() -> re.Pattern[str]:
    """A number of one to three digits, maybe a decimal point or comma and one or two
    digits (three would be a thousands group: "1,250k"), then a suffix of `_SUFFIXES`,
    at most one blank between, standing alone or after a currency sign; in lower-case
    text."""
    return re.compile(
        rf"(?<!(?!{_sign()})[\w.,'’/:-])(\d{{1,3}}(?:[.,]\d{{1,2}})?)[ \u00a0\u202f]?"
        r"(k|m|bn)(?!\w)")


_EXPONENT = re.compile(
    r"(?<![\w.'’/:^-])(?<!\d,)(\d{1,3}(?:[.,]\d{1,6})?)(?:e\+?|[ \u00a0]?[x×·⋅*][ \u00a0]?10\^\+?)"
    r"(\d{1,2})(?![\w'’/:^-]|[.,]\d)")
"""A number in scientific notation, in lower-case text: a mantissa of one to three digits,
maybe a decimal point or comma and up to six more, then an exponent of ten written `e`
(`4.86e+04`, `4.86e4`, as a spreadsheet shows a long number) or times ten to a power with
a caret (`4,86 x 10^4`); the exponent's sign `+` or none (a negative one makes no
thousand). A comma may stand before it where no digit stands before the comma: a CSV
field (`roof,4.86e+04,eur`), not a thousands group."""


_AMOUNT_KEYS = ("amount", "price", "total", "cost", "fee", "balance", "betrag", "preis",
                "summe", "montant", "prix", "importe", "precio", "importo", "prezzo", "valor",
                "preço", "preco", "custo", "bedrag", "prijs", "pris", "summa", "beløp", "beløb",
                "belop", "belob", "hinta", "määrä", "maara", "suma", "preț", "pret", "valoare")
"""The words a key naming an amount holds ("costo" holds "cost", "belopp" "belop"), in the
twelve languages `number_words` reads."""


@cache
def _amount_key() -> tuple[tuple[str, ...], re.Pattern[str]]:
    """(each of `_AMOUNT_KEYS` as written and as canonical text writes it, "ø" and "ç" an
    "o" and a "c" with the mark apart; a pattern of a key naming an amount as a whole line:
    "amount", "total_amount", "Betrag")."""
    from .._canonical import canonical

    forms = tuple(sorted({form for key in _AMOUNT_KEYS for form in (key, canonical(key))}))
    return forms, re.compile(r"[a-z_ -]{0,24}(?:" + "|".join(map(re.escape, forms))
                             + r")[a-z_ -]{0,24}", re.IGNORECASE)
_JSON_NUMBER = re.compile(r'"([^"\n]{1,50})": ?"?(\d{4,9})(?:\.(\d{1,2}))?"?(?![\w.])')
"""A number of four to nine digits (maybe cents), maybe quoted, as the value of a JSON
object's key, in a text holding the object as JSON ({"amount": 2310} on one line or
indented over several)."""
_LINE_NUMBER = re.compile(r"\n(\d{4,9})(?:\.(\d{1,2}))?(?![^\n])")
"""A number of four to nine digits alone on a line (not the first): as a record's value
is read flattened, the line before it is its key ({"amount": 2310, "currency": "NOK"} is
"amount\n2310\ncurrency\nNOK")."""
_CODES = ("usd", "eur", "gbp", "inr", "rs", "nok", "sek", "dkk", "chf", "jpy", "cny",
          "rmb", "aud", "cad", "nzd", "sgd", "hkd", "zar", "brl", "mxn", "pln", "czk", "huf",
          "aed", "sar", "kes", "ngn", "idr", "myr", "thb", "krw", "vnd", "ils", "egp", "pkr",
          "bdt", "lkr", "npr", "tl", "kr")
"""ISO 4217 codes of widely used currencies, the rupee's "Rs" and the krone's and krona's
"kr" (how Norway, Sweden and Denmark write a price: "2310 kr"); codes that are English
words ("try", "rub") or names ("php") are left out."""
_CODE_SET = frozenset(_CODES)


@cache
def _signs() -> tuple[str, ...]:
    """Each currency sign: a character of Unicode category Sc (listed once: a pass over
    every character costs a tenth of a second)."""
    return tuple(chr(c) for c in range(sys.maxunicode + 1)
                 if unicodedata.category(chr(c)) == "Sc")


@cache
def _sign() -> str:
    """A pattern of one currency sign: a character of Unicode category Sc, or what
    canonical text writes one as where that is another character or more and holds a
    character outside ASCII ("€" is "ꞓ", "¥" is "y̵"; "₽" as "f" is a letter)."""
    from .._canonical import canonical

    signs = _signs()
    written = sorted({form for form in map(canonical, signs)
                      if not form.isascii() and len(form) > 1 or len(form) == 1
                      and unicodedata.category(form) != "Sc" and not form.isascii()},
                     key=len, reverse=True)
    return "(?:[" + "".join(map(re.escape, signs)) + "]" \
        + "".join("|" + re.escape(form) for form in written) + ")"


@cache
def _currency() -> re.Pattern[str]:
    """A number of four to nine digits standing alone (as `_AMOUNT` reads one) with a
    currency sign (`_sign`) or two or three letters that may be a code (`_CODES` says)
    just before or after it, at most one blank between. The letters are a character
    class, not the codes as alternatives: those were tried at every place of a text."""
    sign = _sign()
    # a sign canonical text writes as a letter ("ꞓ2310") is no word the number is in
    ends = rf"(?!(?!{sign})[\w'’/:-]|[.,]\d)"
    return re.compile(
        rf"{sign}[ \u00a0\u202f]?(?P<n0>\d{{4,9}}){ends}"
        rf"|(?<![^\W\d_])(?P<before>[A-Za-z]{{2,3}})\.?[ \u00a0\u202f]?"
        rf"(?<![\w.,'’/:-])(?P<n1>\d{{4,9}}){ends}"
        rf"|(?<![\w.,'’/:-])(?P<n2>\d{{4,9}}){ends}"
        rf"[ \u00a0\u202f]?(?:{sign}|(?P<after>[A-Za-z]{{2,3}})(?![^\W\d_]))")


def _form(digits: str, cents: str | None) -> str:
    """The integer part's digits, and the cents after a dot unless they are none ("2,310.00"
    is 2310, as "NOK 2310" and "2.31 thousand" are)."""
    return digits.lstrip("0") + (f".{cents}" if cents and cents != "00" else "")


def _scaled(number: str, power: int) -> str | None:
    """`number` (digits, maybe a decimal point or comma and more digits) times ten to
    `power`, as `amounts` writes it; None when under 1000 or not in whole cents. Read
    as strings (a `Decimal` per number cost seven microseconds)."""
    whole, _, frac = number.replace(",", ".").partition(".")
    digits, shift = (whole + frac).lstrip("0"), power - len(frac)
    if shift >= 0:
        value, cents = digits + "0" * shift, ""
    else:
        value, cents = digits[:shift], digits[shift:].rjust(-shift, "0")
        if cents[2:].strip("0"):
            return None
        cents = cents[:2].ljust(2, "0")
    if len(value) < 4:
        return None
    return _form(value, cents)


def amounts(text: str) -> list[str]:
    """The amounts of `text` (canonical or as written), each once, in order of where they
    start, as its integer part's digits and its cents after a dot, unless they are none
    ("3,275.50" -> "3275.50", "14,600" -> "14600", "1450.00" -> "1450", "1,45,000" -> "145000", "2.45 lakh" -> "245000").
    Linear in the text: bounded patterns, each tried at each place a number (or a
    currency sign or code, or a quoted key) can start.

    >>> amounts("KF-0932: 3,275.50 GBP (18 Dec); rates 1.120,00 EUR, 14 600 and 1450.00; "
    ...         "1450 and 99.50 are not")
    ['3275.50', '1120', '14600', '1450']
    >>> amounts("fee ₹1,45,000, then Rs 245000 (2.45 lakh); year 2024, room 1450")
    ['145000', '245000']
    >>> amounts("deux mille trois cent dix couronnes, two thousand customers, in two "
    ...         "thousand and ten, zwei thousand four hundred kroner")
    ['2310', '1400']
    """
    first: dict[str, int] = {}  # each amount -> where it is first stated

    def add(at: int, amount: str) -> None:
        if first.get(amount, at) >= at:
            first[amount] = at

    for m in _AMOUNT.finditer(text):
        whole, cents = m.group(1), m.group(2)
        digits = whole.translate(_UNGROUPED)
        if len(digits) < 4 or not (len(digits) != len(whole) or cents):
            continue
        add(m.start(), _form(digits, cents))
    low = text.lower()
    keys, amount_key = _amount_key()
    keyed = "\n" in text and any(key in low for key in keys)
    for m in _LINE_NUMBER.finditer(text) if keyed else ():  # under a key naming an amount
        key_at = text.rfind("\n", max(0, m.start() - 50), m.start()) + 1
        if (key_at or m.start() <= 50) and amount_key.fullmatch(text, key_at, m.start()):
            add(m.start(1), _form(m.group(1), m.group(2) and m.group(2).ljust(2, "0")))
    json_keyed = '"' in text and any(key in low for key in keys)
    for m in _JSON_NUMBER.finditer(text) if json_keyed else ():  # {"amount": 2310}
        if amount_key.fullmatch(m.group(1)):
            add(m.start(2), _form(m.group(2), m.group(3) and m.group(3).ljust(2, "0")))
    for m in _currency().finditer(text):
        code = m.group("before") or m.group("after")
        if code is not None and code.lower() not in _CODE_SET:
            continue
        group = "n0" if m.group("n0") is not None else "n1" if m.group("n1") is not None \
            else "n2"
        add(m.start(group), m.group(group).lstrip("0"))
    for m in _EXPONENT.finditer(low) if "e" in low or "^" in low else ():
        exponent = int(m.group(2))
        scaled = _scaled(m.group(1), exponent) if exponent <= 15 else None
        # read as a number times a power of ten in words is: a round number of thousands
        # or one a year could be is an amount only with a currency next to it
        if scaled is not None and (not _count_or_year(scaled)
                                   or _priced(low, m.start(), m.end())):
            add(m.start(), scaled)
    for m in _suffixed().finditer(low):
        scaled = _scaled(m.group(1), _SUFFIXES[m.group(2)])
        if scaled is not None and _priced(low, m.start(), m.end()):
            add(m.start(), scaled)
    stems = any(stem in low for stem in NUMBER_STEMS)
    worded = list(number_words(low)) if stems else []
    if stems or any(w in low for w in _SCALE_WORDS):
        scales, scaled_pattern = _scaled_words()
        inside = _Spans(worded)
        for m in scaled_pattern.finditer(low):
            power = scales.get(m.group(2))
            scaled = None if power is None else _scaled(m.group(1), power)
            # "2 thousand" of "2 thousand 310" is no amount of its own; "3 thousand" is
            # read as "three thousand" is
            if scaled is not None and not inside.longer(m.start(), m.end()) and (
                    not _count_or_year(scaled) or any(w in m.group(2) for w in _SCALE_WORDS)
                    or _priced(low, m.start(), m.end())):
                add(m.start(), scaled)
    if stems:
        priced: dict[tuple[str, str], bool] = {}  # by the text around, for this call
        for start, end, value in worded:
            # in order of where they start: a number stated before is added already
            if (amount := str(value)) in first:
                continue
            if not _count_or_year(amount):
                add(start, amount)
                continue
            around = (low[max(0, start - 9):start], low[end:end + 56])  # what _priced reads
            if around not in priced:
                priced[around] = _priced(low, start, end)
            if priced[around]:
                add(start, amount)
    return sorted(first, key=first.__getitem__)


def _count_or_year(amount: str) -> bool:
    """Whether `amount` (as `amounts` writes it) could as well be a count or a year: a
    whole number of thousands, or a whole number from 1000 to 2099. Written as a number
    times a power of a thousand, in words or after digits ("two thousand", "3 thousand",
    "1.5 million"), such a number is an amount only with a currency next to it
    (`_priced`): "one of the 3 thousand customers", "in two thousand and ten"."""
    if "." in amount:
        return False
    value = int(amount)
    return value % 1000 == 0 or 1000 <= value < 2100


class _Spans:
    """Where the numbers in words of a text are (start, end, value), in order of where
    they start, none inside another: asked, in order of where they start, whether a
    span lies inside a longer one."""

    __slots__ = ("spans", "at")

    def __init__(self, spans: list[tuple[int, int, int]]) -> None:
        self.spans, self.at = spans, 0

    def longer(self, start: int, end: int) -> bool:
        while self.at < len(self.spans) and self.spans[self.at][1] <= start:
            self.at += 1
        if self.at == len(self.spans):
            return False
        first, last, _ = self.spans[self.at]
        return first <= start and end <= last and (first, last) != (start, end)


NUMBER_STEMS = ("hundr", "hundert", "honderd", "cent", "thousand", "illion", "tausend",
                "mil", "bilh", "duizend", "tusen", "tusind", "sata", "tuha", "sut", "mie", "mii")
"""What every word of a hundred or a power of a thousand that `number_words` reads holds
(a number in words of a thousand or more has one): a text with none holds no such
number."""
_CURRENCY_WORDS = (
    "kroner krone kronen kronor krona couronne couronnes corona coronas corone coroa coroas "
    "euro euros dollar dollars dólar dólares dolar dolares dollaro dollari pound pounds "
    "sterling pfund livre livres sterline sterlina libra libras franc francs franken "
    "franco francos franchi rupee rupees rupie rupia rupias yen yuan renminbi peso pesos "
    "reais zloty złoty złotych forint forints lira lire shekel shekels ringgit baht "
    "dirham dirhams riyal riyals euroa lei leu")
"""A currency's name, in the languages `number_words` reads ("two thousand three hundred
and ten kroner", "zweitausenddreihundertzehn Kronen"); names that are common words in
one of them ("real", "won", "rand", "mark") are left out."""
_WORD_AFTER = r"[ \u00a0\u202f'’-]{{{}}}(?P<{}>(?:[^\W\d_]|" + MARK + r"){{1,24}})" \
    r"(?![^\W\d_]|" + MARK + ")"
"""A word of at most 24 letters after at most two blanks or an apostrophe ("d'euros")."""


@cache
def _currency_words() -> frozenset[str]:
    from .._canonical import canonical

    return frozenset(form for word in _CURRENCY_WORDS.split()
                     for form in (word.casefold(), canonical(word))) | _CODE_SET


@cache
def _next_to() -> tuple[tuple[str, ...], str, re.Pattern[str]]:
    """Each currency sign as canonical text may write it, and the characters they end
    with; a pattern of a sign, or of the next two words (the second maybe none), at the
    start of a text."""
    from .._canonical import canonical

    sign = _sign()
    signs = _signs()
    forms = {*signs, *map(canonical, signs)} - {""}
    return (tuple(forms), "".join(sorted({form[-1] for form in forms})),
            re.compile(rf"[ \u00a0\u202f]?(?P<sign>{sign})|" + _WORD_AFTER.format("0,2", "w1")
                       + "(?:" + _WORD_AFTER.format("1,2", "w2") + ")?"))


def _priced(low: str, start: int, end: int) -> bool:
    """Whether a currency stands next to the number written in words at `start`..`end`
    of `low` (lower case): a sign or a code (`_CODES`) just before it, at most a blank
    between, or just after it a sign, or a currency's name or code as the next word or
    the one after ("ten kroner", "ten Norwegian kroner", "un million d'euros")."""
    signs, sign_ends, starting = _next_to()
    m = starting.match(low, end)
    if m is not None:
        names = _currency_words()
        if m.group("sign") is not None or m.group("w1") in names or m.group("w2") in names:
            return True
    at = start - 1 if start and low[start - 1] in " \u00a0\u202f" else start
    if at and low[at - 1] in sign_ends and low.endswith(signs, max(0, at - 4), at):
        return True
    at -= at > 0 and low[at - 1] == "."
    letters = at
    while letters > max(0, at - 4) and "a" <= low[letters - 1] <= "z":
        letters -= 1
    return (at - letters in (2, 3) and low[letters:at] in _CODE_SET
            and not (letters and low[letters - 1].isalpha()))
