"""Instruction markers: the signs of text that addresses the assistant with orders, the
shape prompt injections take (AgentDojo's `important_instructions` attack among them)."""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["MarkerKind", "MARKERS", "instruction_markers"]

MarkerKind = Literal["tag-block", "ignore-previous", "before-task", "to-assistant",
                     "new-instructions"]

_OPENINGS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    # an XML-like block in upper case wrapped round a message: <INFORMATION>...</INFORMATION>
    "tag-block": ((("<",), r"/?\s*(?:INFORMATION|IMPORTANT|INSTRUCTIONS?|SYSTEM|ADMIN)\s*>"),),
    "ignore-previous": ((
        ("ignore", "disregard", "forget"),
        r"\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|your)\s+"
        r"(?:instructions?|rules|prompts?|tasks?|messages?)"),),
    "before-task": ((
        ("before",),
        r"\s+you\s+(?:can\s+)?(?:solve|do|start|complete|continue)\s+(?:with\s+)?"
        r"(?:the|your|this)\s+task"),),
    "to-assistant": (
        (("to",), r"\s+you,?\s+the\s+(?:assistant|ai|agent|model)"),
        (("dear", "attention", "hey"), r"\s+(?:assistant|ai|agent)\b"),
        (("you",), r"\s+(?:are|must)\s+now\s+(?:an?\s+)?(?:act|follow|obey)")),
    "new-instructions": ((
        ("new", "updated", "important", "system"),
        r"\s+(?:instructions?|message)\s+(?:from|for)\s+"),),
}
"""Each marker kind as the ways its text opens: the words (lower case) one of which a
match begins with, and the pattern of the rest. Its pattern (`MARKERS`) and the words
looked for first (`_LEADS`) are both read from here, so neither can miss the other."""


def _pattern(openings: tuple[tuple[tuple[str, ...], str], ...]) -> re.Pattern[str]:
    """One case-blind pattern that finds any of `openings`; a lead that begins with a
    letter or digit is found only at the start of a word."""
    return re.compile("|".join(
        "(?:" + "|".join((r"\b" if re.match(r"\w", lead) else "") + re.escape(lead)
                         for lead in leads) + f"){rest}"
        for leads, rest in openings), re.IGNORECASE)


MARKERS: dict[str, re.Pattern[str]] = {
    kind: _pattern(openings) for kind, openings in _OPENINGS.items()}
"""Each marker kind and the pattern that finds it."""

_LEADS: dict[str, tuple[str, ...]] = {
    kind: tuple(lead for leads, _ in openings for lead in leads)
    for kind, openings in _OPENINGS.items()}
"""Each marker kind and the words (lower case) one of which its pattern's match begins
with: a text holding none of them, read case-blind, holds no such marker. Looking for
them first is a few fast searches; each pattern, case-blind with a word boundary in
front, tries every place of the text (0.05-0.1 CPU s per megabyte each)."""

_FOLDED_TO_ASCII = "\u0130\u0131\u017f\u212a"
"""The characters `_TO_ASCII` maps."""
_TO_ASCII = str.maketrans(dict(zip(_FOLDED_TO_ASCII, "iisk", strict=True)))
"""The characters besides ASCII letters that Python's case-blind patterns read as an
ASCII letter, each to that letter: dotted and dotless I, long s, the Kelvin sign
(`str.lower` alone leaves the long s and makes the dotted I two characters)."""


def instruction_markers(text: str) -> list[MarkerKind]:
    """The marker kinds found in `text`, in the order of `MARKERS`.

    >>> instruction_markers("<INFORMATION> This is an important message from me, Emma, "
    ...                     "to you, the assistant. Before you can solve the task ...")
    ['tag-block', 'before-task', 'to-assistant', 'new-instructions']
    >>> instruction_markers("Lin prefers window seats; ignore the aisle.")
    []
    """
    # (a mapping's translation reads each character of a text beyond ASCII through the
    # table, 0.06 CPU s a megabyte: only a text holding one of the four is translated)
    folded = (text if text.isascii() or not any(c in text for c in _FOLDED_TO_ASCII)
              else text.translate(_TO_ASCII)).lower()
    return [kind for kind, pattern in MARKERS.items()  # type: ignore[misc]
            if any(lead in folded for lead in _LEADS[kind]) and pattern.search(text)]
