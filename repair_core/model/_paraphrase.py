"""The value paraphrases the built-in policies produce, and nothing more.

`repair_core.content._normalise.fact_stated` tolerates exactly these rewrites, so a fact a
policy paraphrased still counts as stated; a paraphrase never changes a value's words
otherwise (no synonyms, no reordering, no case change of codes).
"""

from __future__ import annotations

import re

__all__ = ["paraphrase", "STREET_SWAPS"]

STREET_SWAPS: dict[str, str] = {
    "Rd": "Road", "St": "Street", "Ave": "Avenue", "Dr": "Drive", "Ln": "Lane",
    "Blvd": "Boulevard", "Pl": "Place", "Ct": "Court",
}
"""Abbreviated street-type word -> written out (a paraphrase swaps either way)."""

_BOTH = {**STREET_SWAPS, **{v: k for k, v in STREET_SWAPS.items()}}
_STREET = re.compile(r"\b(" + "|".join(sorted(_BOTH, key=len, reverse=True)) + r")\b")


def paraphrase(value: str, *, drop_commas: bool = False) -> str:
    """Swap each street-type word between its abbreviation and its full form, and (with
    `drop_commas`) drop the commas (each becomes a space; runs of spaces become one).

    >>> paraphrase("7 Elm Rd, Austin")
    '7 Elm Road, Austin'
    >>> paraphrase("12 Pine Street, Seattle", drop_commas=True)
    '12 Pine St Seattle'
    >>> paraphrase("O-4873")
    'O-4873'
    """
    out = _STREET.sub(lambda m: _BOTH[m.group(1)], value)
    return re.sub(r" {2,}", " ", out.replace(",", " ")).strip() if drop_commas else out
