"""Quantities of mass and volume a text states, each in one unit: "0.5 g", "500 mg" and
"500000 µg" are one dose, "1.5 l" and "1500 ml" one volume. A number (a decimal point or
comma, or a thousands comma before three digits; one grouped by blanks is not read) and a unit of the SI written after it,
with or without a blank: µg (μg, mcg, ug), mg, g, kg for mass, µl, ml, cl, dl, l for
volume; a one-letter unit in lower case ("g", "l") or "L", the rest in any case ("5G" is
a network, "MG" a dose). Each is read with its *subject*: the nearest word of three or
more letters before it in its clause (a comma, semicolon, colon, full stop or line break
ends a clause), "lamotrigine" of "morning lamotrigine 500 mg". Not a distinctive token: a
dose is shared by many records by chance; what a record's lineage explains is asked of
it (`verify.unexplained-quantity`).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from .._canonical import visible
from .._words import MARK

__all__ = ["Quantity", "quantities"]

_MASS = {"µg": Decimal("0.001"), "μg": Decimal("0.001"), "mcg": Decimal("0.001"),
         "ug": Decimal("0.001"), "mg": Decimal(1), "g": Decimal(1000),
         "kg": Decimal(1_000_000)}
_VOLUME = {"µl": Decimal("0.001"), "μl": Decimal("0.001"), "ml": Decimal(1),
           "cl": Decimal(10), "dl": Decimal(100), "l": Decimal(1000)}
_UNITS = (r"(?:(?i:mcg|[µμu]g|mg|kg|[µμ]l|ml|cl|dl)|g|l|L)")
_SCAN = re.compile(
    rf"(?P<number>(?<![\w.,])(?<!\d[ \u00a0\u202f])\d{{1,9}}(?:[.,]\d{{1,6}})?)[ \u00a0\u202f]?(?P<unit>{_UNITS})"
    r"(?![\w])"
    rf"|(?P<word>[^\W\d_](?:[^\W\d_]|{MARK}){{2,}})"
    r"|(?P<stop>[,;:!?\n]|\.(?!\d))")
"""One pass over a text: a quantity, a word (a subject), or the end of a clause. Each
alternative is bounded in length or a run of one class."""


class Quantity(NamedTuple):
    """One quantity a text states."""

    amount: str
    """Its size in the base unit and that unit: "500 mg", "1500 ml"."""
    written: str
    """As the text writes it: "0.5 g"."""
    subject: str | None
    """The nearest word before it in its clause, case-folded; None when there is none."""


def _number(text: str) -> Decimal | None:
    if "," in text:
        whole, _, part = text.partition(",")
        # "1,000" is a thousand; "0,5" and "2,25" are decimal commas
        text = whole + part if len(part) == 3 and whole.strip("0") else f"{whole}.{part}"
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def quantities(text: str) -> list[Quantity]:
    """The quantities of mass and volume `text` states, in order. Linear in the text: one
    pattern of bounded alternatives read once.

    >>> [tuple(q) for q in quantities("Lamotrigine changed to 0.5 g; morning lamotrigine "
    ...                               "500 mg, 250MCG and 1,5 l; 5G phone")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('500 mg', '0.5 g', 'changed'), ('500 mg', '500 mg', 'lamotrigine'),
     ('0.25 mg', '250MCG', None), ('1500 ml', '1,5 l', 'and')]
    """
    out: list[Quantity] = []
    subject: str | None = None
    for m in _SCAN.finditer(visible(text)):
        if m.group("stop") is not None:
            subject = None
        elif m.group("word") is not None:
            subject = m.group("word").casefold()
        else:
            unit = m.group("unit")
            key = unit.lower()
            size = _number(m.group("number"))
            if size is None:
                continue
            if key in _MASS:
                base, scale = "mg", _MASS[key]
            else:
                base, scale = "ml", _VOLUME[key]
            amount = format((size * scale).normalize(), "f")
            out.append(Quantity(f"{amount} {base}", m.group(0), subject))
    return out
