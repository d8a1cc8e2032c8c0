"""Small wording helpers shared by the library's summaries and the CLI."""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, noun: str) -> str:
    """`1 turn`, `2 turns`, `0 turns`.

    >>> plural(1, "plan edit"), plural(3, "fault")
    ('1 plan edit', '3 faults')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
