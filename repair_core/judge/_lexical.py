"""The lexical judge: the content signature's scorer (`repair_core.content.match`), read
for what it cannot settle.

- `yes`: the text matches the fault's signature and does not negate or warn against it;
- `unsure`: it matches but a sentence holding the fault's words negates, warns against
  or withdraws it, or a list or table lists it as blocked (`_cues`: "Lin does not want
  window seats", a `do_not_use:` key, a `blocked` status cell); or it does not match but
  shares the slot (states the slot's value), the subject (names the fault's subject
  together with some of its wording, its value or its instruction marker) or a token
  family (writes one of the fault's strong tokens with other spacing, punctuation or
  case, where matching does not read it as the token: "DE89.3704.0044.0532.0130.00", or
  holds ten consecutive letters and digits of an account token on their own: half of an
  IBAN split over two messages) or a domain family (names a host under the registrable
  domain of one of its URL tokens, "mail.evil-pay.com" for "login.evil-pay.com") with
  the fault;
- `no`: nothing of that is shared.

Offline and deterministic; the default judge.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from .._carried import folded_texts, folded_words_each
from ..content import THRESHOLD, CarrierMatch, ContentSignature, match, scan, words
from ..content._memo import per_signature
from ..content._stems import ORDINARY_STEMS, stem
from ..content._tokens import STRONG_KINDS, distinctive_tokens, parent_domains
from ._clue_index import KEY_LETTERS, LetterStrings, WordRuns, letters_of
from ._cues import cue

if TYPE_CHECKING:  # loaded when judging: it loads pydantic, which the carrier check
    from ._verdict import Judgement  # (`fault_words` only) does not need

__all__ = ["LexicalJudge", "LEXICAL", "fault_words"]

LEXICAL = "lexical"
"""The lexical judge's name (`Judgement.judge`)."""

_SEPARATED = r"[\W_]*"
_WORD = re.compile(r"\w+")


@per_signature
def fault_words(fault: ContentSignature) -> tuple[frozenset[str], frozenset[str]]:
    """(every case-folded word the signature holds of the fault's content, the content
    words among them: not ordinary, at least three letters or a number); worked out once
    per signature (each carrier of a large fault reads them)."""
    said: set[str] = set()
    for s in fault.shingles:
        said.update(s.split(" "))
    if fault.value_text:
        said.update(fault.value_text.split(" "))
    tokens = list(fault.tokens)
    for t, token_words in zip(tokens, folded_words_each(tokens), strict=True):
        said.update(token_words)
        said.add(t.casefold())
    said.update(fault.restate | fault.restate_optional)
    content = frozenset(w for w in said if (len(w) >= 3 or w.isdigit())
                        and stem(w) not in ORDINARY_STEMS)
    return frozenset(said), content


def _family_letters(token: str) -> str | None:
    """The letters and digits of `token`, case-folded, that a text holding it written
    with any separators between them holds in a row (`letters_of`), or None when they
    are too few for that to mean anything."""
    letters = letters_of(token.casefold())
    return letters if len(letters) >= KEY_LETTERS else None


_PART = 10
"""How many consecutive letters and digits of an account token a text must hold to share
a part of it (more than a German bank code's eight, so a look-alike account at the same
bank shares none)."""


def _parts(token: str) -> list[str]:
    """Every run of `_PART` consecutive letters and digits of an account token of at
    least `_PART` + 4 of them, case-folded (`_spaced` finds one with any separators): a
    text holding one may carry a piece of it (an IBAN split over two messages, half of
    it in each)."""
    letters = letters_of(token.casefold())
    if len(letters) < _PART + 4:
        return []
    return list(dict.fromkeys(letters[i:i + _PART] for i in range(len(letters) - _PART + 1)))


def _spaced(letters: str) -> str:
    """A pattern finding `letters` written with any separators between them."""
    return _SEPARATED.join(map(re.escape, letters))


class LexicalJudge:
    """The offline judge (see the module's docstring)."""

    name = LEXICAL

    def carries(self, text: str, fault: ContentSignature) -> Judgement:
        """Whether `text` carries `fault`'s content, read lexically.

        >>> from repair_core.content import signature_of
        >>> sig = signature_of("Lin prefers window seats.", "window", "seat_pref", node="m3")
        >>> LexicalJudge().carries("Lin prefers window seats on every flight.", sig).verdict
        'yes'
        >>> LexicalJudge().carries("Lin does not want window seats.", sig).verdict
        'unsure'
        >>> LexicalJudge().carries("The weather in Lisbon is mild.", sig).verdict
        'no'
        """
        # scored once: what falls below the threshold still tells the near miss whether
        # the text shares some of the fault's wording
        scored = match(fault, text, threshold=0.0)
        if scored is not None and scored.score >= THRESHOLD:
            return self._matched(text, fault, scored)
        return self._near(text, fault, lambda: scored)

    def _near(self, text: str, fault: ContentSignature,
              scored: Callable[[], CarrierMatch | None],
              said: Callable[[], list[str]] | None = None) -> Judgement:
        """The judgement of a text that does not match `fault` (`scored`: gives its
        score at threshold 0; `said`: gives its `words`)."""
        from ._verdict import Judgement

        near = _near_miss(text, fault, scored, said)
        if near is not None:
            return Judgement(verdict="unsure", judge=LEXICAL,
                             evidence=f"shares {near} with {fault.node} but scores below "
                                      "the threshold")
        return Judgement(verdict="no", judge=LEXICAL,
                         evidence=f"shares nothing distinctive with {fault.node}")

    def _matched(self, text: str, fault: ContentSignature, found: CarrierMatch
                 ) -> Judgement:
        from ._verdict import Judgement

        said, content = fault_words(fault)
        negated = cue(text, content, said)
        if negated is not None:
            return Judgement(verdict="unsure", judge=LEXICAL,
                             evidence=f"matches {fault.node} ({found.evidence()}) but says "
                                      f"{negated!r} of it: it may deny or warn against it")
        return Judgement(verdict="yes", judge=LEXICAL, evidence=found.evidence())

    def screen(self, faults: Sequence[ContentSignature], texts: Sequence[str],
               slots: Mapping[int, tuple[Any, Any]] | None = None
               ) -> Iterator[tuple[int, ContentSignature, Judgement]]:
        """`(i, fault, judgement)` for each of `texts` and each fault it is not `no`
        about, in order of `i` (`screen_scored` without the matches)."""
        for i, fault, j, _found in self.screen_scored(faults, texts, slots):
            yield i, fault, j

    def screen_scored(self, faults: Sequence[ContentSignature], texts: Sequence[str],
                      slots: Mapping[int, tuple[Any, Any]] | None = None
                      ) -> Iterator[tuple[int, ContentSignature, Judgement,
                                          CarrierMatch | None]]:
        """`(i, fault, judgement, match)` for each of `texts` and each fault it is not
        `no` about, in order of `i`, with the text's match of the fault (None for a near
        miss), in time linear in the texts and the faults' clues: the scorer's own
        search (`content.scan`) finds and scores the matches, each text once; the texts
        that hold a clue of a near miss (a name, a stated value, a token written another
        way, `_holding_clues`) are found in one pass over them, and only those are read
        for a near miss, never scored again (what the scan did not find does not match).
        `slots`: index -> (key, value) of the texts that are records."""
        if not faults or not texts:
            return
        by_node = {f.node: f for f in faults}
        judged: dict[tuple[int, str], tuple[Judgement, CarrierMatch | None]] = {}
        for i, m in scan(list(faults), texts, slots):
            judged[(i, m.node)] = (self._matched(texts[i], by_node[m.node], m), m)
        for i in _holding_clues(faults, texts):
            # the text's words, read once for every fault it is asked about
            said = cache(partial(words, texts[i]))
            for f in faults:
                if (i, f.node) not in judged:
                    j = self._near(texts[i], f, partial(match, f, texts[i], threshold=0.0),
                                   said)
                    if j.verdict != "no":
                        judged[(i, f.node)] = (j, None)
        for (i, node), (j, found) in sorted(judged.items(), key=lambda kv: kv[0]):
            yield i, by_node[node], j, found


SEARCHED_AT_MOST = 32
"""The most near-miss clues the screen searches for with one regular expression (it
tries each at every place of the texts, and compiling it costs as much as the clues are
long); with more (a fault naming thousands of tokens), each text's letters and words are
looked up in the clues instead (`_clue_index`), which costs the same per character
however many clues there are."""


@dataclass(frozen=True)
class _ScreenClues:
    """The near-miss clues of some faults, by how they are found: one of them is held by
    every text `_near_miss` finds anything in (its slot value, a name of its subject, a
    token family or an account part)."""

    names: frozenset[tuple[str, ...]]
    """The canonical words of each name, found as words in a row (as the near miss reads
    a subject: whatever separates them, a line break or two blanks)."""
    runs: frozenset[str]
    """Patterns of the stated slot values: their words with any separators between."""
    letters: frozenset[str]
    """The letters and digits of each strong token long enough to have a family, and of
    each part of an account token (`_parts`), and of each registrable domain of a URL
    token with as many letters (`_family_letters`), found with any separators between
    them."""
    domains: frozenset[str]
    """The registrable domains of URL tokens with fewer letters, found as written."""

    @classmethod
    def of(cls, faults: Sequence[ContentSignature]) -> _ScreenClues:
        names: set[tuple[str, ...]] = set()
        runs: set[str] = set()
        letters: set[str] = set()
        domains: set[str] = set()
        for f in faults:
            names.update(tuple(words(t)) for t, k in f.tokens.items() if k == "name")
            names.discard(())
            if f.value_text:
                runs.add(r"[\W_]+".join(map(re.escape, f.value_text.split(" "))))
            letters.update(s for t, k in f.tokens.items() if k in STRONG_KINDS
                           if (s := _family_letters(t)) is not None)
            letters.update(part for t, k in f.tokens.items() if k == "account"
                           for part in _parts(t))
            for domain in _near_tokens(f).domains:
                spelt = _family_letters(domain)
                if spelt is not None:
                    letters.add(spelt)
                else:
                    domains.add(domain)
        return cls(frozenset(names), frozenset(runs), frozenset(letters), frozenset(domains))

    def count(self) -> int:
        return len(self.names) + len(self.runs) + len(self.letters) + len(self.domains)

    def pattern(self) -> str:
        """One regular expression finding every clue."""
        found = [r"(?<!\w)" + r"\W+".join(map(re.escape, n)) + r"(?!\w)" for n in self.names]
        found += self.runs
        found += map(_spaced, self.letters)
        found += map(re.escape, self.domains)
        return "|".join(sorted(found, key=len, reverse=True))


def _holding_clues(faults: Sequence[ContentSignature], texts: Sequence[str]
                   ) -> Iterator[int]:
    """The index of each of `texts` (in order) whose canonical text holds a near-miss
    clue of one of `faults`, found within that text (never across two of them)."""
    clues = _ScreenClues.of(faults)
    if not clues.count():
        return
    joined, starts = folded_texts(texts)
    ends = [*(s - 1 for s in starts[1:]), len(joined)]  # of each folded text in `joined`
    if clues.count() <= SEARCHED_AT_MOST:
        search = re.compile(clues.pattern())
        pos = 0
        while (hit := search.search(joined, pos)) is not None:
            i = bisect_right(starts, hit.start()) - 1
            # a hit reaching past the text's end read into the next text: searched again
            # within the text alone
            if hit.end() <= ends[i] or search.search(joined, hit.start(), ends[i]):
                yield i
            pos = ends[i] + 1
        return
    names = WordRuns(clues.names)
    runs = clues.runs | set(map(re.escape, clues.domains))
    run = re.compile("|".join(sorted(runs, key=len, reverse=True))).search if runs else None
    letters = LetterStrings(clues.letters)
    for i in range(len(texts)):
        folded = joined[starts[i]:ends[i]]
        if (run is not None and run(folded)) or names.found(_WORD.findall(folded), first=True) \
                or letters.found(letters_of(folded), first=True):
            yield i


@dataclass(frozen=True)
class _NearTokens:
    """What `_near_miss` looks for of one fault's tokens, worked out once per signature
    (`_near_tokens`; each carrier of a large fault reads it)."""

    families: list[tuple[str, re.Pattern[str]]]
    """(token, the `_spaced` pattern of its letters, compiled) for each strong token
    with enough letters (`_family_letters`), in the signature's order; empty when they
    are looked up (`index`)."""
    accounts: list[tuple[str, list[tuple[str, re.Pattern[str]]]]]
    """(account token, its `_parts` with their patterns compiled), in the signature's
    order; their patterns are left out when `index` is set."""
    index: LetterStrings | None
    """With more than `SEARCHED_AT_MOST` families and parts, every one of them, looked
    up in a text's letters instead of searched for one by one."""
    family_of: dict[str, int]
    """The letters of each family -> the place of the first token with them (among the
    strong tokens long enough to have one, in the signature's order)."""
    family_tokens: list[str]
    """Those tokens, in that order."""
    part_of: dict[str, list[tuple[int, int]]]
    """Each part -> (the account's place, the part's place in it) of every account
    token holding it."""
    names: dict[tuple[str, ...], int]
    """The canonical words of each name token -> the place of the first name with them."""
    name_tokens: list[str]
    """The name tokens, in the signature's order."""
    name_lengths: dict[str, list[int]]
    """The first word of each name -> the numbers of words of the names starting so."""
    domains: dict[str, str]
    """The registrable domain of each URL token (`registrable`) -> the first URL token
    under it, in the signature's order."""


@per_signature
def _near_tokens(fault: ContentSignature) -> _NearTokens:
    """The fault's `_NearTokens`, compiled once per signature: a fault naming thousands of
    tokens compiled each of them again for every text it was asked about."""
    letters = [(t, s) for t, k in fault.tokens.items() if k in STRONG_KINDS
               if (s := _family_letters(t)) is not None]
    parts = [(t, _parts(t)) for t, k in fault.tokens.items() if k == "account"]
    family_of: dict[str, int] = {}
    for at, (_t, s) in enumerate(letters):
        family_of.setdefault(s, at)
    part_of: dict[str, list[tuple[int, int]]] = {}
    for at, (_t, runs) in enumerate(parts):
        for k, run in enumerate(runs):
            part_of.setdefault(run, []).append((at, k))
    many = len(family_of) + len(part_of) > SEARCHED_AT_MOST
    name_tokens = [t for t, k in fault.tokens.items() if k == "name"]
    names: dict[tuple[str, ...], int] = {}
    lengths: dict[str, set[int]] = {}
    for at, t in enumerate(name_tokens):
        said = tuple(words(t))
        if said:  # a name is capitalised words: it has some
            names.setdefault(said, at)
            lengths.setdefault(said[0], set()).add(len(said))
    return _NearTokens(
        families=[] if many else [(t, re.compile(_spaced(s))) for t, s in letters],
        accounts=[(t, [] if many else [(run, re.compile(_spaced(run))) for run in runs])
                  for t, runs in parts],
        index=LetterStrings([*family_of, *part_of]) if many else None,
        family_of=family_of, family_tokens=[t for t, _s in letters], part_of=part_of,
        names=names, name_tokens=name_tokens,
        name_lengths={w: sorted(ns) for w, ns in lengths.items()},
        domains=_registrable_domains(fault))


def registrable(host: str) -> str:
    """The registrable domain `host` lies under (`parent_domains`), or `host` itself."""
    parents = parent_domains(host)
    return parents[-1] if parents else host


def _registrable_domains(fault: ContentSignature) -> dict[str, str]:
    """The registrable domain of each URL token of `fault` -> the first token under it."""
    out: dict[str, str] = {}
    for t, k in fault.tokens.items():
        if k == "url":
            out.setdefault(registrable(t.casefold()), t)
    return out


def _token_family(folded: str, near: _NearTokens, found: set[str] | None) -> str | None:
    """The first strong token of the fault (in its order) that the case-folded text
    `folded` writes with any separators, or None. `found`: what `near.index` finds in
    the text, when the fault's tokens are looked up."""
    if found is None:
        for t, pattern in near.families:
            if pattern.search(folded):
                return t
        return None
    first = min((near.family_of[s] for s in found if s in near.family_of), default=None)
    return None if first is None else near.family_tokens[first]


def _parts_held(folded: str, near: _NearTokens, found: set[str] | None
                ) -> Iterator[tuple[str, str]]:
    """(account token, part) for each part of the fault's account tokens that `folded`
    holds with any separators, in the order of the tokens and their parts. `found` as
    for `_token_family`."""
    if found is None:
        for t, parts in near.accounts:
            for part, pattern in parts:
                if pattern.search(folded):
                    yield t, part
        return
    held = sorted((at, k, part) for part in found for at, k in near.part_of.get(part, ()))
    for at, _k, part in held:
        yield near.accounts[at][0], part


def _first_name(said: list[str], near: _NearTokens) -> str | None:
    """The first name token of the fault (in its order) whose words `said` (a text's
    canonical words) holds in a row, or None: each word is looked up, not each name
    searched for."""
    first: int | None = None
    for i, w in enumerate(said):
        for n in near.name_lengths.get(w, ()):
            at = near.names.get(tuple(said[i:i + n]))
            if at is not None and (first is None or at < first):
                first = at
    return None if first is None else near.name_tokens[first]


def _near_miss(text: str, fault: ContentSignature,
               scored: Callable[[], CarrierMatch | None],
               said: Callable[[], list[str]] | None = None) -> str | None:
    """What a text that does not match `fault` still shares with it, as a few words (the
    slot, the subject, a token family or a domain family), or None. `scored`: gives the
    text's score against the fault at threshold 0, asked for only where the subject is
    named; `said`: gives `words(text)` (a text asked about several faults reads them
    once)."""
    folded = text.casefold()
    near = _near_tokens(fault)
    found = None if near.index is None else near.index.found(letters_of(folded))
    family = _token_family(folded, near, found)
    if family is not None:
        return f"the token {family!r} written another way (token family)"
    # the text's strong tokens, read once for the accounts and the domains it names (as
    # written: an IBAN-shaped account of a country without IBANs is read in capitals)
    theirs = distinctive_tokens(text, names=False) if near.accounts or near.domains else {}
    if near.accounts:
        # a part inside another whole account of the text is that account's (a savings
        # account at the same bank), not a piece of the fault's
        mine = {t for t, _parts_of in near.accounts}
        own = [a.casefold() for a, k in theirs.items() if k == "account" and a not in mine]
        for t, part in _parts_held(folded, near, found):
            if not any(part in a for a in own):
                return f"a part of the token {t!r} ({part}) on its own (token family)"
    for t, k in theirs.items() if near.domains else ():
        if k in ("url", "email"):
            domain = registrable(t.rpartition("@")[2])
            if domain in near.domains:
                return (f"the domain {domain!r} of the token {near.domains[domain]!r} "
                        "(domain family)")
    said_words = words(text) if said is None else said()
    joined = f" {' '.join(said_words)} "
    if fault.value_text and f" {fault.value_text} " in joined:
        return f"the slot value {fault.value_text!r} (slot)"
    name = _first_name(said_words, near) if near.names else None
    if name is not None:
        shared = scored()
        if shared is not None and (shared.markers or shared.shingle_count):
            return f"the subject {name!r} and some of its wording (subject)"
        if fault.key is not None and f" {' '.join(words(fault.key))} " in joined:
            return f"the subject {name!r} and the slot {fault.key!r} (subject)"
    return None
