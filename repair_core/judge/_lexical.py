"""The lexical judge: the content signature's scorer (`repair_core.content.match`), read
for what it cannot settle.

- `yes`: the text matches the fault's signature and does not negate or warn against it;
- `unsure`: it matches but a sentence holding the fault's words negates, warns against
  or withdraws it (`_cues`: "Lin does not want window seats"); or it does not match but
  shares the slot (states the slot's value), the subject (names the fault's subject
  together with some of its wording, its value or its instruction marker) or a token
  family (writes one of the fault's strong tokens with other spacing, punctuation or
  case, where matching does not read it as the token: "DE89.3704.0044.0532.0130.00", or
  holds ten consecutive letters and digits of an account token on their own: half of an
  IBAN split over two messages) with the fault;
- `no`: nothing of that is shared.

Offline and deterministic; the default judge.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._carried import folded_texts
from ..content import CarrierMatch, ContentSignature, match, scan, words
from ..content._memo import per_signature
from ..content._stems import ORDINARY_STEMS, stem
from ..content._tokens import STRONG_KINDS, distinctive_tokens
from ._cues import cue

if TYPE_CHECKING:  # loaded when judging: it loads pydantic, which the carrier check
    from ._verdict import Judgement  # (`fault_words` only) does not need

__all__ = ["LexicalJudge", "LEXICAL", "fault_words"]

LEXICAL = "lexical"
"""The lexical judge's name (`Judgement.judge`)."""

_SEPARATED = r"[\W_]*"
_ALNUM = re.compile(r"[^\W_]+")


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
    for t in fault.tokens:
        said.update(words(t))
        said.add(t.casefold())
    said.update(fault.restate | fault.restate_optional)
    content = frozenset(w for w in said if (len(w) >= 3 or w.isdigit())
                        and stem(w) not in ORDINARY_STEMS)
    return frozenset(said), content


def _family(token: str) -> str | None:
    """A pattern finding `token` (case-folded) written with any separators between its
    letters and digits, or None when it is too short for that to mean anything."""
    parts = _ALNUM.findall(token.casefold())
    letters = "".join(parts)
    if len(letters) < 8:
        return None
    return _SEPARATED.join(map(re.escape, letters))


_PART = 10
"""How many consecutive letters and digits of an account token a text must hold to share
a part of it (more than a German bank code's eight, so a look-alike account at the same
bank shares none)."""


def _parts(token: str) -> list[tuple[str, str]]:
    """(part, pattern) for every run of `_PART` consecutive letters and digits of an
    account token of at least `_PART` + 4 of them, the pattern finding it with any
    separators: a text holding one may carry a piece of it (an IBAN split over two
    messages, half of it in each)."""
    letters = "".join(_ALNUM.findall(token.casefold()))
    if len(letters) < _PART + 4:
        return []
    runs = dict.fromkeys(letters[i:i + _PART] for i in range(len(letters) - _PART + 1))
    return [(run, _SEPARATED.join(map(re.escape, run))) for run in runs]


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
        from ._verdict import Judgement

        found = match(fault, text)
        if found is not None:
            return self._matched(text, fault, found)
        near = _near_miss(text, fault)
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
        about, in order of `i`, in time linear in the texts: the scorer's own search
        (`content.scan`) finds the matches; one search over all the texts together
        finds those that hold a clue of a near miss (a name, a stated value, a token
        written another way), and only those are judged. `slots`: index -> (key, value)
        of the texts that are records."""
        if not faults or not texts:
            return
        by_node = {f.node: f for f in faults}
        judged: dict[tuple[int, str], Judgement] = {}
        for i, m in scan(list(faults), texts, slots):
            judged[(i, m.node)] = self._matched(texts[i], by_node[m.node], m)
        clues = sorted({c for f in faults for c in _near_clues(f)}, key=len, reverse=True)
        if clues:
            search = re.compile("|".join(clues))
            joined, starts = folded_texts(texts)
            pos = 0
            while (hit := search.search(joined, pos)) is not None:
                i = bisect_right(starts, hit.start()) - 1
                for f in faults:
                    if (i, f.node) not in judged:
                        j = self.carries(texts[i], f)
                        if j.verdict != "no":
                            judged[(i, f.node)] = j
                pos = starts[i + 1] if i + 1 < len(starts) else len(joined)
        for (i, node), j in sorted(judged.items(), key=lambda kv: kv[0]):
            yield i, by_node[node], j


def _near_clues(fault: ContentSignature) -> list[str]:
    """Patterns (of case-folded text) one of which every near miss of `fault` holds."""
    out = [r"(?<!\w)" + re.escape(t.casefold()) + r"(?!\w)"
           for t, k in fault.tokens.items() if k == "name"]
    if fault.value_text:
        out.append(r"[\W_]+".join(map(re.escape, fault.value_text.split(" "))))
    out += [p for t, k in fault.tokens.items() if k in STRONG_KINDS
            if (p := _family(t)) is not None]
    out += [p for t, k in fault.tokens.items() if k == "account" for _, p in _parts(t)]
    return out


@per_signature
def _families(fault: ContentSignature) -> list[tuple[str, re.Pattern[str]]]:
    """(token, its `_family` pattern compiled) for each strong token of `fault` long
    enough to have one, compiled once per signature: a fault naming thousands of tokens
    compiled each of them again for every text it was asked about."""
    return [(t, re.compile(p)) for t, k in fault.tokens.items()
            if k in STRONG_KINDS and (p := _family(t)) is not None]


@per_signature
def _account_parts(fault: ContentSignature) -> list[tuple[str, list[tuple[str, re.Pattern[str]]]]]:
    """(account token, its `_parts` with their patterns compiled) for each account token
    of `fault`, compiled once per signature."""
    return [(t, [(part, re.compile(p)) for part, p in _parts(t)])
            for t, k in fault.tokens.items() if k == "account"]


def _near_miss(text: str, fault: ContentSignature) -> str | None:
    """What a text that does not match `fault` still shares with it, as a few words (the
    slot, the subject or a token family), or None."""
    folded = text.casefold()
    for t, pattern in _families(fault):
        if pattern.search(folded):
            return f"the token {t!r} written another way (token family)"
    accounts = _account_parts(fault)
    if accounts:
        # a part inside another whole account of the text is that account's (a savings
        # account at the same bank), not a piece of the fault's
        mine = {t for t, _parts_of in accounts}
        own = [a.casefold() for a, k in distinctive_tokens(text).items()
               if k == "account" and a not in mine]
        for t, parts in accounts:
            for part, pattern in parts:
                if pattern.search(folded) and not any(part in a for a in own):
                    return f"a part of the token {t!r} ({part}) on its own (token family)"
    said = f" {' '.join(words(text))} "
    if fault.value_text and f" {fault.value_text} " in said:
        return f"the slot value {fault.value_text!r} (slot)"
    names = [t for t, k in fault.tokens.items()
             if k == "name" and f" {' '.join(words(t))} " in said]
    if names:
        partial = match(fault, text, threshold=0.0)
        if partial is not None and (partial.markers or partial.shingle_count):
            return f"the subject {names[0]!r} and some of its wording (subject)"
        if fault.key is not None and f" {' '.join(words(fault.key))} " in said:
            return f"the subject {names[0]!r} and the slot {fault.key!r} (subject)"
    return None
