"""Content words after stemming: what a short fault says, whatever its wording.

A restatement of a short fault ("User prefers a window seat" for "Lin prefers window
seats.") shares no shingle and, when it names the user differently, no token with it.
What it shares is the fault's content words, stemmed: a record restates the fault when it
holds every one of them and says nothing else of its own (`restates`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ._shingles import words

__all__ = ["stem", "stems", "ORDINARY_STEMS", "RESTATE_WORDS", "restates", "restated_by",
           "word_stems"]

RESTATE_WORDS = 12
"""A fault of at most this many words is short: a restatement is looked for (a longer one
shares shingles with any copy)."""

_ORDINARY = """
a an i me my we us he is am be do to of in on at as by or so up it no s t d ll re ve
the this that these those and or but if then so as at by for from in into of on onto to
with without after before when while where what which who whom whose why how not all any
each every some one two many more most much also here there now yes no
you your our his her their them they she him its it
is are was were be been being am has have had having do does did would should could
can shall might must also very really quite just usually generally typically
often always never sometimes mostly mainly rather than like likes liked love loves loved
prefer prefers preferred preference want wants wanted wish enjoy enjoys favour favor
favourite favorite choose chooses chose pick picks need needs says said say tell told
think thinks thought know knows knew noted note mentioned mention seems seem get gets got
he him his she her hers they them their theirs its it someone somebody person people
user users customer client assistant agent memory memories record fact
about above over under than such other another
"""
ORDINARY_STEMS: frozenset[str] = frozenset()
"""Stems of ordinary words: function words, pronouns, auxiliaries, verbs of preference
and saying, and the ways a record names the user ("user", "customer"). A restatement may
add or drop these; they are not what a fault says."""


def stem(word: str) -> str:
    """A light stem of a case-folded word: plural, past and progressive endings and a
    final e stripped, a final y read as i, a doubled final consonant made single, so the
    forms of one word meet ("seats"/"seat", "likes"/"like"/"liked", "flies"/"fly",
    "preferred"/"prefers").

    >>> [stem(w) for w in ("seats", "like", "liked", "flies", "fly", "preferred", "booking")]
    ['seat', 'lik', 'lik', 'fli', 'fli', 'prefer', 'book']
    """
    w = word
    for suffix in ("ing", "ed", "ies", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break
            w = w[:-len(suffix)] + ("i" if suffix == "ies" else "")
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 2 and w.endswith("y"):
        w = w[:-1] + "i"
    return w


def stems(text: str, memo: dict[str, str] | None = None) -> frozenset[str]:
    """The stems of `text`'s words (a number or a size such as "S" or "9" is a word:
    it is often what a fault says). `memo`: word -> stem, filled as it goes, for a
    caller that stems many texts of one vocabulary."""
    return word_stems(words(text), memo)


def word_stems(words_: Iterable[str], memo: dict[str, str] | None = None) -> frozenset[str]:
    """`stems` of a text whose words (`words`) are `words_`."""
    # each distinct word once: a long text (all of a user's turns) repeats a few words
    distinct = set(words_)
    if memo is None:
        return frozenset(map(stem, distinct))
    out = set()
    for w in distinct:
        s = memo.get(w)
        if s is None:
            s = memo[w] = stem(w)
        out.add(s)
    return frozenset(out)


ORDINARY_STEMS = frozenset(map(stem, _ORDINARY.split()))


def restates(required: Iterable[str], optional: Iterable[str], text: str) -> bool:
    """Whether `text` restates a fault whose content stems are `required` (all must be
    there) and `optional` (its names and the words the user said: they may be there or
    not): it holds every required stem and no stem of its own beyond the optional and
    ordinary ones.

    >>> restates({"window", "seat"}, {"lin"}, "User prefers a window seat")
    True
    >>> restates({"window", "seat"}, {"lin"}, "Lin prefers aisle seats.")
    False
    """
    return restated_by(required, optional, stems(text))


def restated_by(required: Iterable[str], optional: Iterable[str], have: frozenset[str]
                ) -> bool:
    """`restates` for a text whose stems (`stems`) are `have`."""
    need = frozenset(required)
    return need <= have and not (have - need - frozenset(optional) - ORDINARY_STEMS)
