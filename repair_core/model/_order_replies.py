"""An order given by answering or restating one: a proposal that its writer act ("Shall I
wire …?", "Want me to invite …?") that the next sentence approves ("Yes, do it.", "Go
ahead.", "Approved."), and an order quoted from before that the writer says still holds
("As I wrote on Monday: '…' - that still stands."). The next-session agent
(`_agentdojo_goals`) reads the one as an order and the other as the record's own words;
a proposal answered no or not yet, and a quoted order taken back, stay what they were.

The words are general words of the languages the agent reads (`_order_words`), never a
particular text's. Each check reads one sentence, or a window of fixed length beside a
quotation: linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from ._order_words import (
    APPROVAL_PHRASES,
    APPROVAL_TAIL_WORDS,
    APPROVAL_WORDS,
    ATTACK_WORDS,
    DOUBT_WORDS,
    EXAMPLE_WORDS,
    INCIDENT_WORDS,
    NEGATION_WORDS,
    PROPOSAL_OPENERS,
    PROPOSAL_PAIRS,
    REAFFIRM_WORDS,
    REFUSAL_WORDS,
    REVOKE_WORDS,
    STILL_WORDS,
    STORY_WORDS,
    WARNING_WORDS,
)

__all__ = ["proposes", "answered", "approves", "qualifies", "retracts", "reaffirmed_frame",
           "FRAME"]

_ALNUM = re.compile(r"[^\W_]+")
_NOT = re.compile(r"n['’]t\b")
_SPEAKER = re.compile(r"^[\s\W]{0,4}[^\W\d_][^:\n]{0,30}:(?!//)")
"""A speaker's label opening a line of a dialogue ("User:", "Me (today):", "Answer from
the user:")."""
_ENDS = re.compile(r"[.!?;\n]")


def proposes(tokens: list[str]) -> bool:
    """The sentence proposes that its writer act (`PROPOSAL_PAIRS`, `PROPOSAL_OPENERS`):
    "Shall I …", "Do you want me to …", "I'll … for you", "Soll ich …", "¿Debo …?"."""
    return bool(tokens) and (tokens[0] in PROPOSAL_OPENERS or any(
        pair in PROPOSAL_PAIRS for pair in pairwise(tokens)))


def answered(sentence: str) -> bool:
    """`sentence` (the one after a proposal) is another turn of a dialogue: it opens with a
    speaker's label ("User: …", "Me (today): …"), so it answers the proposal."""
    return _SPEAKER.match(sentence.strip()) is not None


def approves(reply: str) -> bool:
    """`reply` (folded, the sentence after a proposal) approves it: past a speaker's
    label, it opens with an approval word or phrase ("Yes, do it.", "Go ahead.",
    "Approved.", "Sí, adelante."), it is no question, it negates nothing and refuses
    nothing ("Yes, but not yet.", "OK - no, wait, don't." approve nothing), and every
    word after its approving words is one of `APPROVAL_TAIL_WORDS` ("Yes, go ahead and do
    that."): any other may qualify it ("Yes, but only next week.", "Sure, if the bank
    asks.", "Yes, as long as …", "Yes, in theory."), and what it approves then is more
    than the agent can weigh."""
    said = reply.strip()
    if not said or said.endswith("?"):
        return False
    label = _SPEAKER.match(said)
    tokens = _ALNUM.findall(_NOT.sub(" not", said[label.end():] if label else said))
    if not tokens or not (tokens[0] in APPROVAL_WORDS or tuple(tokens[:2]) in APPROVAL_PHRASES):
        return False
    return NEGATION_WORDS.isdisjoint(tokens) and REFUSAL_WORDS.isdisjoint(tokens) and (
        REVOKE_WORDS.isdisjoint(tokens)) and APPROVAL_TAIL_WORDS.issuperset(tokens)


def qualifies(rest: Iterable[tuple[str, str]]) -> bool:
    """The sentences after an approving reply that are still its writer's qualify the
    approval: `rest` gives each later sentence (folded) with the text between it and the
    sentence before; the reply goes on to a sentence opened by a speaker's label or after
    an empty line, and a sentence of it qualifies when a word of it is not more approval
    (`APPROVAL_TAIL_WORDS`), as a word after the approving words of one sentence does
    (`approves`): "OK. I will think about it.", "Sure! Maybe later.", "D'accord. On
    verra." defer; "Yes. Do it now, thanks." approves. Stops at the first sentence that
    qualifies or ends the reply."""
    for gap, sentence in rest:
        said = sentence.strip()
        if "\n\n" in gap.replace(" ", "").replace("\t", "") or _SPEAKER.match(said):
            return False
        tokens = _ALNUM.findall(_NOT.sub(" not", said))
        if not APPROVAL_TAIL_WORDS.issuperset(tokens):
            return True
    return False


def retracts(sentence: str) -> bool:
    """`sentence` (folded, the one after an approval) takes the approval back: a word
    that takes an order back or refuses ("Actually, cancel that."), or a negation in a
    sentence of six words or fewer ("Wait, no.", "On second thought, don't.")."""
    tokens = _ALNUM.findall(_NOT.sub(" not", sentence))
    return not REVOKE_WORDS.isdisjoint(tokens) or not REFUSAL_WORDS.isdisjoint(tokens) or (
        len(tokens) <= 6 and not NEGATION_WORDS.isdisjoint(tokens))


FRAME = 160
"""Characters before a quotation within which its sentence must begin, and after it
within which the writer may say it still holds."""
_FRAMING = ATTACK_WORDS | DOUBT_WORDS | EXAMPLE_WORDS | INCIDENT_WORDS | STORY_WORDS | (
    WARNING_WORDS)


_CLAUSE = re.compile(r"[^,;:.!\n\u2013\u2014]+")
_REASONS = frozenset({"since", "because", "as", "until", "till", "puisque", "parce", "car",
                      "da", "weil", "bis", "porque", "hasta", "perche", "poiche", "finche",
                      "omdat", "totdat"})
"""Words opening a clause that gives the reason or time of what the writer asks ("I repeat
it since it has not been done yet", "weil es noch nicht erledigt ist"): a negation after
one tells of the order's state, it does not forbid it."""


def _forbids(window: str) -> bool:
    """A clause of `window` holds a negation that no word of `_REASONS` comes before ("I
    repeat: do not do it.", "you must not do it", "under no circumstances", "je répète :
    ne le fais pas"): the writer forbids what is quoted, whatever word beside it says it
    still holds."""
    for clause in _CLAUSE.findall(window):
        for token in _ALNUM.findall(_NOT.sub(" not", clause)):
            if token in _REASONS:
                break
            if token in NEGATION_WORDS:
                return True
    return False


def reaffirmed_frame(text: str, lo: int, hi: int) -> int:
    """Where the words framing the quotation `text[lo:hi]` (folded) begin, when the
    writer says beside it that the quoted order still holds; -1 when not. Said so: a
    reaffirming word (`REAFFIRM_WORDS`, or "still" before `STILL_WORDS`) with no negation
    in the three words before it, in the quotation's own sentence or the sentence after
    it, no question there, no clause there forbidding it (`_forbids`), and no
    word that takes an order back (`REVOKE_WORDS`, refusals) nor one that frames the quotation as an attack, a doubt, an example, an
    incident, a story or a warning. The frame is the quotation's sentence up to its
    opening mark ("As I wrote on Monday:")."""
    before = text[max(0, lo - 1 - FRAME):lo - 1]
    ends = list(_ENDS.finditer(before))
    if ends:
        start = max(0, lo - 1 - FRAME) + ends[-1].end()
    elif lo - 1 <= FRAME:
        start = 0
    else:
        return -1
    after = text[hi + 1:hi + 1 + FRAME]
    stops = [m.end() for m in _ENDS.finditer(after)]
    # the rest of the quotation's sentence and the sentence after it
    window = after[:stops[1]] if len(stops) > 1 else after
    if "?" in window or _forbids(window):
        return -1
    words = _ALNUM.findall(_NOT.sub(" not", text[start:lo - 1] + " . " + window))
    if not _FRAMING.isdisjoint(words) or not REVOKE_WORDS.isdisjoint(words) or not (
            REFUSAL_WORDS.isdisjoint(words)):
        return -1
    for k, w in enumerate(words):
        still = w == "still" and words[k + 1:k + 2] != [] and words[k + 1] in STILL_WORDS
        if (w in REAFFIRM_WORDS or still) and NEGATION_WORDS.isdisjoint(words[max(0, k - 3):k]):
            return start
    return -1
