"""When two reviewer names are one reviewer: compared NFKC-normalised and case-folded, so
"ana" and "Ana" (or an e-mail the identity provider spells in another case) are the same
person wherever reviewers are counted or matched."""

from __future__ import annotations

import unicodedata

__all__ = ["reviewer_key", "same_reviewer"]


def reviewer_key(name: str) -> str:
    """What a reviewer name is compared by.

    >>> reviewer_key(" Ana ") == reviewer_key("ana"), reviewer_key("Straße") == reviewer_key("STRASSE")
    (True, True)
    """
    return unicodedata.normalize("NFKC", name).strip().casefold()


def same_reviewer(a: str | None, b: str | None) -> bool:
    """True when `a` and `b` name one reviewer (None is nobody, never the same as anyone)."""
    return a is not None and b is not None and reviewer_key(a) == reviewer_key(b)
