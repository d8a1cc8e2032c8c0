"""Amounts: the sums of money a text states, each as one comparable form. A thousand or
more written with a thousands separator or with cents ("3,275.50", "3.275,50", "14,600",
"1 120,00", "1450.00") is read whatever the separators; a bare number ("1450", "0932")
is not, nor one inside an id or account ("KF-0932"), nor a date or a time. Not a
distinctive token: two records may state the same rent by chance, and a text is never
called a carrier for it. What a record's lineage explains is asked of it
(`verify.unexplained-amount`).
"""

from __future__ import annotations

import re

__all__ = ["amounts"]

# a number standing alone (not inside an id, an account or a longer number): its groups
# of three after a first of one to three digits, or its digits, then cents or not; each
# repetition starts with a separator the group before cannot hold
_AMOUNT = re.compile(r"(?<![\w.,'’/:-])(\d{1,3}(?:[,.'’ \u00a0\u202f]\d{3}){1,5}|\d{4,9})"
                     r"(?:[.,](\d{2}))?(?![\w'’/:-]|[.,]\d)")


def amounts(text: str) -> list[str]:
    """The amounts of `text` (canonical or as written), each once, in order, as its
    integer part's digits and its cents after a dot ("3,275.50" -> "3275.50", "14,600" ->
    "14600"). Linear in the text: one bounded pattern, tried at each place a number can
    start.

    >>> amounts("KF-0932: 3,275.50 GBP (18 Dec); rates 1.120,00 EUR, 14 600 and 1450.00; "
    ...         "1450 and 99.50 are not")
    ['3275.50', '1120.00', '14600', '1450.00']
    """
    out: dict[str, None] = {}
    for m in _AMOUNT.finditer(text):
        whole, cents = m.group(1), m.group(2)
        digits = re.sub(r"\D", "", whole)
        grouped = len(digits) != len(whole)
        if len(digits) < 4 or not (grouped or cents):
            continue
        out.setdefault(digits.lstrip("0") + (f".{cents}" if cents else ""), None)
    return list(out)
