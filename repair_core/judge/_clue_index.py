"""Finding many of a fault's near-miss clues in a text in one pass over it: the strings of
letters and digits of its strong tokens and account parts (`LetterStrings`, read with any
separators between their characters) and its names (`WordRuns`, read as words in a row). A search for many alternatives tries each at every place of the
text, and compiling it costs as much as the alternatives are long; these look every place
of the text up in a dict instead, so a fault naming thousands of tokens costs what one
naming a few does, per character of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["KEY_LETTERS", "letters_of", "LetterStrings", "WordRuns"]

KEY_LETTERS = 8
"""The fewest letters and digits of a string `LetterStrings` looks for: a token family
needs eight (`_lexical._family`), an account part ten."""

_ALNUM = re.compile(r"[^\W_]+")


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


class WordRuns:
    """Runs of words (a name's canonical words) looked for in a text's words, in a row:
    each word of the text is looked up by itself, and only the lengths of the runs
    whose first word it is are tried there."""

    def __init__(self, runs: Iterable[tuple[str, ...]]) -> None:
        self.runs: frozenset[tuple[str, ...]] = frozenset(r for r in runs if r)
        """The runs looked for (an empty one is left out)."""
        lengths: dict[str, set[int]] = {}
        for r in self.runs:
            lengths.setdefault(r[0], set()).add(len(r))
        self._lengths = {key: sorted(ls) for key, ls in lengths.items()}

    def found(self, words: list[str], *, first: bool = False) -> set[tuple[str, ...]]:
        """The runs `words` holds in a row; with `first`, at most one (whether any does).

        >>> sorted(WordRuns([("emma", "johnson"), ("lin",)]).found(["ask", "emma", "johnson"]))
        [('emma', 'johnson')]
        """
        out: set[tuple[str, ...]] = set()
        lengths, runs = self._lengths, self.runs
        for i, w in enumerate(words):
            for n in lengths.get(w, ()):
                run = tuple(words[i:i + n])
                if run in runs:
                    out.add(run)
                    if first:
                        return out
        return out
