"""Instruction markers: the signs of text that addresses the assistant with orders, the
shape prompt injections take (AgentDojo's `important_instructions` attack among them)."""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["MarkerKind", "MARKERS", "instruction_markers"]

MarkerKind = Literal["tag-block", "ignore-previous", "before-task", "to-assistant",
                     "new-instructions"]

MARKERS: dict[str, re.Pattern[str]] = {
    # an XML-like block in upper case wrapped round a message: <INFORMATION>...</INFORMATION>
    "tag-block": re.compile(r"</?\s*(?:INFORMATION|IMPORTANT|INSTRUCTIONS?|SYSTEM|ADMIN)\s*>",
                            re.IGNORECASE),
    "ignore-previous": re.compile(
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|"
        r"above|earlier|your)\s+(?:instructions?|rules|prompts?|tasks?|messages?)", re.IGNORECASE),
    "before-task": re.compile(
        r"\bbefore\s+you\s+(?:can\s+)?(?:solve|do|start|complete|continue)\s+(?:with\s+)?"
        r"(?:the|your|this)\s+task", re.IGNORECASE),
    "to-assistant": re.compile(
        r"\b(?:to\s+you,?\s+the\s+(?:assistant|ai|agent|model)|(?:dear|attention|hey)\s+"
        r"(?:assistant|ai|agent)\b|you\s+(?:are|must)\s+now\s+(?:an?\s+)?(?:act|follow|obey))",
        re.IGNORECASE),
    "new-instructions": re.compile(
        r"\b(?:new|updated|important|system)\s+(?:instructions?|message)\s+(?:from|for)\s+",
        re.IGNORECASE),
}
"""Each marker kind and the pattern that finds it."""

_LEADS: dict[str, tuple[str, ...]] = {
    "tag-block": ("<",), "ignore-previous": ("ignore", "disregard", "forget"),
    "before-task": ("before",), "to-assistant": ("to", "dear", "attention", "hey", "you"),
    "new-instructions": ("new", "updated", "important", "system")}
"""Each marker kind and the words (lower case) one of which its pattern's match begins
with: a text holding none of them, read case-blind, holds no such marker. Looking for
them first is a few fast searches; each pattern, case-blind with a word boundary in
front, tries every place of the text (0.05-0.1 CPU s per megabyte each)."""

_TO_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
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
    folded = (text if text.isascii() else text.translate(_TO_ASCII)).lower()
    return [kind for kind, pattern in MARKERS.items()  # type: ignore[misc]
            if any(lead in folded for lead in _LEADS[kind]) and pattern.search(text)]
