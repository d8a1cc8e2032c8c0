"""Finding many of a fault's near-miss clues in a text in one pass over it: the strings of
letters and digits of its strong tokens and account parts (`LetterStrings`, read with any
separators between their characters) and its names (`BoundedPhrases`, read between
non-word characters). A search for many alternatives tries each at every place of the
text, and compiling it costs as much as the alternatives are long; these look every place
of the text up in a dict instead, so a fault naming thousands of tokens costs what one
naming a few does, per character of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["KEY_LETTERS", "letters_of", "LetterStrings", "BoundedPhrases"]

KEY_LETTERS = 8
"""The fewest letters and digits of a string `LetterStrings` looks for: a token family
needs eight (`_lexical._family`), an account part ten."""

_ALNUM = re.compile(r"[^\W_]+")
_WORD = re.compile(r"\w+")


def letters_of(text: str) -> str:
    """The letters and digits of `text` (its characters other than `[\\W_]`), in order: a
    string of them is found in it, whatever separates them, where it is a substring of
    this.

    >>> letters_of("de89.3704 0044_x")
    'de8937040044x'
    """
    return "".join(_ALNUM.findall(text))


class LetterStrings:
    """Strings of letters and digits, each at least `KEY_LETTERS` long, looked for in a
    text's `letters_of`: each place of the text is looked up by the `KEY_LETTERS`
    characters starting there, and only the lengths of the strings that start so are
    tried there (a handful: the lengths a token's kind has)."""

    def __init__(self, strings: Iterable[str]) -> None:
        self.strings: frozenset[str] = frozenset(strings)
        """The strings looked for."""
        if any(len(s) < KEY_LETTERS for s in self.strings):
            raise ValueError(f"a string shorter than {KEY_LETTERS} letters cannot be looked up")
        lengths: dict[str, set[int]] = {}
        for s in self.strings:
            lengths.setdefault(s[:KEY_LETTERS], set()).add(len(s))
        self._lengths = {key: sorted(ls) for key, ls in lengths.items()}

    def found(self, letters: str, *, first: bool = False) -> set[str]:
        """The strings that occur in `letters` (a text's `letters_of`); with `first`, at
        most one (whether any does).

        >>> sorted(LetterStrings(["de893704", "3704004405"]).found("xde8937040044050"))
        ['3704004405', 'de893704']
        """
        out: set[str] = set()
        lengths, strings = self._lengths, self.strings
        for i in range(len(letters) - KEY_LETTERS + 1):
            tried = lengths.get(letters[i:i + KEY_LETTERS])
            if tried is None:
                continue
            for n in tried:
                s = letters[i:i + n]
                if s in strings:
                    out.add(s)
                    if first:
                        return out
        return out


class BoundedPhrases:
    """Phrases (case-folded names) looked for where a text writes them with no word
    character just before or after (`(?<!\\w)phrase(?!\\w)`): each word of the text is
    looked up by itself, and only the lengths of the phrases whose first word it is are
    tried there. A phrase that does not start with a word character is left to the
    caller (`unindexed`)."""

    def __init__(self, phrases: Iterable[str]) -> None:
        lengths: dict[str, set[int]] = {}
        unindexed: list[str] = []
        kept: set[str] = set()
        for p in phrases:
            first = _WORD.match(p)
            if first is None:
                unindexed.append(p)
                continue
            kept.add(p)
            lengths.setdefault(first.group(), set()).add(len(p))
        self.phrases: frozenset[str] = frozenset(kept)
        """The phrases looked up."""
        self.unindexed: tuple[str, ...] = tuple(dict.fromkeys(unindexed))
        """Phrases not starting with a word character, which this does not look for."""
        self._lengths = {key: sorted(ls) for key, ls in lengths.items()}

    def found(self, text: str, *, first: bool = False) -> set[str]:
        """The phrases `text` writes between non-word characters; with `first`, at most
        one (whether any does).

        >>> sorted(BoundedPhrases(["emma johnson", "lin"]).found("ask emma johnson, not lina"))
        ['emma johnson']
        """
        out: set[str] = set()
        lengths, phrases = self._lengths, self.phrases
        end = len(text)
        for m in _WORD.finditer(text):
            tried = lengths.get(m.group())
            if tried is None:
                continue
            at = m.start()
            for n in tried:
                stop = at + n
                if stop > end or text[at:stop] not in phrases:
                    continue
                # what follows is no word character: \w is a letter, a digit or "_"
                if stop == end or not (text[stop].isalnum() or text[stop] == "_"):
                    out.add(text[at:stop])
                    if first:
                        return out
        return out
