"""A text as an address or account would read with its spelled-out punctuation written as
punctuation: "fred9246 at gmail dot com" and "fred9246 [at] gmail (dot) com" become
"fred9246@gmail.com", and every run of white space, line breaks included, becomes one
space (an IBAN split over two indented lines reads as one), and a defanged link's
bracketed punctuation (`repair_core._spelled.DEFANGED`, the forms content matching reads)
between two letters or digits is that punctuation ("www[.]true-informations(.)com",
"fred9246[@]gmail.com"). The next-session agent looks
for a goal's slots in this view besides the text itself (`_agentdojo_goals`), so a slot
found in either counts; each position of the view maps back to the text's.

The connector words are those content matching reads an address spoken aloud with
(`repair_core._spelled.MAIL_WORDS`: "at", "dot", "dash", "underscore", "arobase",
"point", "Klammeraffe", "punkt", "arroba", "punto", "chiocciola", "ponto", "punt" …) in
the seven languages the agent reads word by word; the
English digit words are read as digits, joined to the word before ("fred nine two four
six at gmail dot com" is fred9246@gmail.com). A symbol the text gives a key for ("mark 🔹
black-2134@gmail 🔹 com (🔹 = dot)") is read as the punctuation its key names. One
fixed pattern with bounded repetition (and the keyed symbols as literal alternatives), one
pass: linear in the text's length.
"""

from __future__ import annotations

import re

from .._spelled import DEFANGED, MAIL_SYMBOLS, MAIL_WORDS

__all__ = ["spelled_view"]

_SYMBOL = {w: symbol for language in ("en", "fr", "de", "es", "it", "pt", "nl")
           for words, symbol in zip(MAIL_WORDS[language], MAIL_SYMBOLS, strict=True)
           for w in words}
"""Connector word -> the punctuation it spells: the words content matching reads an
address spoken aloud with (`repair_core._spelled.MAIL_WORDS`), in the seven languages the
agent reads word by word."""

_DIGIT = {w: str(i) for i, w in enumerate(("zero", "one", "two", "three", "four", "five",
                                           "six", "seven", "eight", "nine"))}
"""An English digit word -> its digit ("fred nine two four six" is fred9246)."""

_SPELLED = re.compile(
    r"[ \t]{0,3}[\[({<]?[ \t]{0,2}(?<![^\W_])(?P<word>" + "|".join(sorted(_SYMBOL)) +
    r")(?![^\W_])[ \t]{0,2}[\])}>]?[ \t]{0,3}"
    r"|[ \t]{0,3}(?<![^\W_])(?P<digit>" + "|".join(sorted(_DIGIT)) + r")(?![^\W_])"
    r"|(?<=[^\W_])(?P<defanged>" + "|".join(map(re.escape, DEFANGED)) + r")(?=[^\W_])|\s+")


_KEY = re.compile(r"(?<![^\s(\[])([^\w\s()\[\]{}<>=]{1,4})[ \t]{0,2}"
                  r"(?:=|stands[ \t]+for|for|means)[ \t]{0,2}(?:an?[ \t]+|the[ \t]+)?(?:("
                  + "|".join(sorted(_SYMBOL)) + r")(?![^\W_])|(@)(?![^\W_]))")
"""A key the text gives for a symbol standing in for punctuation: one to four characters
that are no letter, digit, space or bracket, then "=", "stands for", "for" or "means", then
a connector word, with "a" or "the" before it, or "@" itself ("(🔹 = dot)", "🟢 =
Punkt", "% stands for @, ^ for a dot")."""


def _keyed(text: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """The pattern that reads `text`'s connectors, and the symbols its keys (`_KEY`) give
    for punctuation, each read as the punctuation it stands for: a literal alternative
    before the others."""
    keys = {sym: _SYMBOL[word] if word else at for sym, word, at in _KEY.findall(text)
            if sym not in (".", "@")}
    if not keys:
        return _SPELLED, keys
    symbols = "|".join(map(re.escape, sorted(keys, key=len, reverse=True)))
    return re.compile(rf"[ \t]{{0,3}}(?P<key>{symbols})[ \t]{{0,3}}|" + _SPELLED.pattern), keys


def spelled_view(text: str) -> tuple[str, list[int]]:
    """(`text` with connector words written as punctuation, symbols its keys give for
    punctuation as that punctuation ("mark 🔹 black … (🔹 = dot)"), and white space runs as
    one space, the position in `text` of each character of it). `text` is already folded
    (`_order_words.plain`), so the connectors are lower case."""
    out: list[str] = []
    where: list[int] = []
    at = 0
    pattern, keys = _keyed(text)
    for m in pattern.finditer(text):
        out.append(text[at:m.start()])
        where.extend(range(at, m.start()))
        word, digit = m.group("word"), m.group("digit")
        if keys and m.group("key"):
            out.append(keys[m.group("key")])
            where.append(m.start())
            at = m.end()
            continue
        defanged = m.group("defanged")
        out.append(_SYMBOL[word] if word else _DIGIT[digit] if digit else DEFANGED.get(
            defanged, " "))
        where.append(m.start())
        at = m.end()
    out.append(text[at:])
    where.extend(range(at, len(text)))
    return "".join(out), where
