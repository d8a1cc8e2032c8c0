"""Distinctive tokens: what identifies a fault's content rather than its topic. URLs,
e-mail addresses, account numbers (IBAN-shaped), ids (letters and digits mixed), long
numbers, and proper names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

__all__ = ["TokenKind", "STRONG_KINDS", "distinctive_tokens", "proper_names", "COMMON_CAPITALISED",
           "initial_words", "lower_case_uses"]

TokenKind = Literal["url", "email", "account", "id", "number", "name"]
STRONG_KINDS: frozenset[str] = frozenset({"url", "email", "account", "id", "number"})
"""Token kinds that identify content on their own (a name is only a hint)."""

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s'\"<>(){}\[\],]+"
                  r"|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
                  r"(?:com|org|net|io|ai|co|info|biz|xyz|app|dev|me|us|uk|de|fr|ru|cn|ly|gg|"
                  r"site|online|top|edu|gov)\b(?:/[^\s'\"<>(){}\[\],]*)?")
_ACCOUNT = re.compile(r"\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b")
_NUMBER = re.compile(r"(?<![\w.])\d{7,}(?![\w])")
_ID = re.compile(r"\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9]"
                 r"[A-Za-z0-9_-]{4,}\b")
_ORDINAL = re.compile(r"(?i)^\d+(?:st|nd|rd|th|am|pm|h|min|s|x|kg|km|mb|gb)$")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:['’][a-z]+)?(?:[ \t]+(?:[A-Z][a-z]+|[A-Z]\.))*")
_NAME_WORD = re.compile(r"\b[A-Z][a-z]+\b")
_STARTERS = frozenset(".!?:;\n\"'([*>-")


def _starts_sentence(text: str, pos: int) -> bool:
    """Whether the word at `pos` of `text` starts a sentence (or the text, or a line)."""
    before = text[max(0, pos - 64):pos]
    if "\n" in before[len(before.rstrip()):]:
        return True
    before = before.rstrip()
    if not before:
        return pos <= 64 or not text[:pos].strip()
    return before[-1] in _STARTERS

_COMMON_WORDS = """
i a an the this that these those it its he she they we you your my our his her their me us
them and or but if then so as at by for from in into of on onto to with without after before
when while where what which who whom whose why how please hi hello dear thanks thank yes no
not all any each every some one two three many more most much also just only here there now
today tomorrow yesterday
monday tuesday wednesday thursday friday saturday sunday
january february march april may june july august september october november december
mr mrs ms dr user assistant agent system tool note important information re fwd subject
send visit get make create delete invite modify concatenate tell give show find book buy
pay call email post read write add remove update check use go take put let keep ask do
transfer schedule change reply forward share open click follow remember save store
since because although though however try maybe perhaps actually currently recently lately
usually always never sometimes often still well ok okay sure
"""
COMMON_CAPITALISED: frozenset[str] = frozenset(_COMMON_WORDS.split())
"""Capitalised words that are not names (function words, days, months, titles, and the
verbs an order starts with)."""


def _url_key(url: str) -> str:
    u = re.sub(r"(?i)^https?://", "", url).rstrip(".,;:!?/").casefold()
    return u.removeprefix("www.").split("/", 1)[0]


def proper_names(text: str, common: Iterable[str] = ()) -> list[str]:
    """Runs of capitalised words in `text` that are names, as they are written. A word
    that starts a sentence is a name only when it is not common: not in
    `COMMON_CAPITALISED` and not among `common` (the case-folded words the caller saw in
    lower case elsewhere, so "Send" at a sentence's start is a verb).

    >>> proper_names("Send a link to Alice. Lin prefers window seats, says Emma Johnson.",
    ...              common={"send"})
    ['Alice', 'Lin', 'Emma Johnson']
    """
    ordinary = COMMON_CAPITALISED | {w.casefold() for w in common}
    found: list[str] = []
    for m in _NAME.finditer(text):
        parts = m.group(0).split()
        initial = _starts_sentence(text, m.start())
        while parts and parts[0].casefold().split("'")[0].split("’")[0] in ordinary \
                and (initial or parts[0].casefold() in COMMON_CAPITALISED):
            parts.pop(0)
            initial = False
        while parts and parts[-1].casefold() in COMMON_CAPITALISED:
            parts.pop()
        if parts:
            name = " ".join(parts)
            if name not in found:
                found.append(name)
    return found


def distinctive_tokens(text: str, common: Iterable[str] = ()) -> dict[str, TokenKind]:
    """The distinctive tokens of `text`, normalised (URLs to their host, e-mail addresses
    case-folded, account numbers upper-cased), each with its kind, in order found.

    >>> distinctive_tokens("Send to US133000000121212121212 and www.secure-systems-252.com"
    ...                    "/x or mail fred9246@gmail.com; ID 123456789, Alice")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'fred9246@gmail.com': 'email', 'secure-systems-252.com': 'url',
     'US133000000121212121212': 'account', '123456789': 'number', 'Alice': 'name'}
    """
    found: dict[str, TokenKind] = {}
    rest = text
    for m in _EMAIL.finditer(text):
        found.setdefault(m.group(0).casefold().rstrip("."), "email")
    rest = _EMAIL.sub(" ", rest)
    for m in _URL.finditer(rest):
        key = _url_key(m.group(0))
        if "." in key:
            found.setdefault(key, "url")
    rest = _URL.sub(" ", rest)
    for m in _ACCOUNT.finditer(rest):
        found.setdefault(m.group(0).upper(), "account")
    rest = _ACCOUNT.sub(" ", rest)
    for m in _NUMBER.finditer(rest):
        found.setdefault(m.group(0), "number")
    for m in _ID.finditer(rest):
        tok = m.group(0)
        if not _ORDINAL.match(tok) and not tok.isdigit():
            found.setdefault(tok.casefold(), "id")
    for name in proper_names(rest, common):
        found.setdefault(name, "name")
    return found


def initial_words(text: str) -> set[str]:
    """The capitalised words that start a sentence of `text`, case-folded (whether they
    are names is for `lower_case_uses` to say).

    >>> sorted(initial_words("Standing instruction: Send it. Lin said so, Alice."))
    ['lin', 'send', 'standing']
    """
    return {m.group(0).casefold() for m in _NAME_WORD.finditer(text)
            if _starts_sentence(text, m.start())}


def lower_case_uses(candidates: Iterable[str], texts: Iterable[str]) -> set[str]:
    """Those of the case-folded `candidates` that some text of `texts` writes in lower
    case (one search over all the texts).

    >>> sorted(lower_case_uses({"standing", "lin"}, ["a standing order", "Lin"]))
    ['standing']
    """
    wanted = sorted(candidates, key=len, reverse=True)
    if not wanted:
        return set()
    # no assertion in front: it would hide the words' first letters from the regex engine
    pattern = re.compile("(?:" + "|".join(map(re.escape, wanted)) + r")(?!\w)")
    joined = "\n".join(texts)
    found: set[str] = set()
    for m in pattern.finditer(joined):
        if m.start() == 0 or not (joined[m.start() - 1].isalnum() or joined[m.start() - 1] == "_"):
            found.add(m.group(0))
            if len(found) == len(wanted):
                break
    return found
