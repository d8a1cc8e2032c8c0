"""A fault's content signature: what a carrier of the fault would have to say."""

from __future__ import annotations

import re
import weakref
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING, Any

from .._canonical import canonical, canonical_each, visible
from .._flat import flatten, node_content
from .._words import LETTERS
from ._markers import MarkerKind, instruction_markers
from ._shingles import word_shingles, words
from ._stems import ORDINARY_STEMS, RESTATE_WORDS, stems, word_stems
from ._tokens import (
    COMMON_CAPITALISED,
    STRONG_KINDS,
    TokenKind,
    distinctive_tokens,
    initial_words,
    lower_case_uses,
    proper_names,
)

if TYPE_CHECKING:
    from ..case._case import Case

__all__ = ["ContentSignature", "signature_of", "signatures", "signatures_from", "node_content",
           "node_parts", "vocabulary_texts", "written_at", "VALUE_WORDS"]

_LETTERS = re.compile(LETTERS)

VALUE_WORDS = 8
"""A slot value of at most this many words is searched for as a phrase ("stated")."""


@dataclass(frozen=True)
class ContentSignature:
    """What identifies one node's content (a diagnosed fault, or a suspected source).
    A frozen dataclass, not a pydantic model, so that the columnar planner starts
    without pydantic; pydantic validates and serialises it as a field of its models."""

    node: str
    """The node (record, step or turn id) the signature describes."""
    tokens: dict[str, TokenKind] = field(default_factory=dict)
    """Distinctive tokens (normalised: a URL by its host, an e-mail address case-folded,
    an account number upper-cased, an id case-folded; a name as written) -> kind. Tokens
    the user's own turns contain are left out: they are the user's, not the fault's."""
    key: str | None = None
    """The slot key (a record's or claim's `key`)."""
    value: Any = None
    """The slot value as the node holds it (any JSON value)."""
    value_text: str | None = None
    """The slot value as a phrase to look for (a string or number of at most
    `VALUE_WORDS` words with a word of three or more letters that is not common); None
    when there is none."""
    shingles: frozenset[str] = frozenset()
    """The node's word shingles (`SHINGLE_WORDS` words), minus those of the user's turns."""
    markers: list[MarkerKind] = field(default_factory=list)
    """Instruction markers in the node's content (`_markers`)."""
    restate: frozenset[str] = frozenset()
    """The content stems a restatement must hold (`_stems.restates`), when the node is
    short (at most `RESTATE_WORDS` words), names no strong token and says two or more
    content words of its own; else empty: no restatement is looked for."""
    restate_optional: frozenset[str] = frozenset()
    """The stems a restatement may hold or drop: the node's names and the content words
    the user's turns say."""


def _value_phrase(value: Any) -> str | None:
    if value is None or isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    w = words(str(value))
    if not w or len(w) > VALUE_WORDS:
        return None
    if not any(len(x) >= 3 and not x.isdigit() and x not in COMMON_CAPITALISED for x in w) \
            and not any(len(x) >= 4 and x.isdigit() for x in w):
        return None
    return " ".join(w)


_LOOKED_UP_SHINGLES = 16
"""Shingles of a text `_UserSide.unsaid_shingles` looks for one by one in the turns' words
(each a search of all of them); a text of more is compared with the turns' own shingles."""


@dataclass(frozen=True)
class _UserSide:
    """What the user's own turns say, left out of a signature (made once per case)."""

    folded: str
    """The turns' text, case-folded."""
    words: str
    """The turns' words, space-joined, with a space at each end."""
    stems: frozenset[str]
    """The turns' content stems (`_stems.stems`)."""

    @classmethod
    def of(cls, texts: Sequence[str]) -> _UserSide:
        folded = canonical("\n".join(texts))
        said = words(folded)  # canonical text is its own canonical form
        return cls(folded, f" {' '.join(said)} ", word_stems(said))

    def unsaid_shingles(self, text_words: list[str]) -> frozenset[str]:
        """The word shingles of a text of words `text_words` (`words`) that the turns do
        not hold. A shingle is in `words` exactly when the turns hold it: a text of a few
        is looked for there shingle by shingle, a longer one against every shingle of the
        turns, made once (a million-step case's turns hold hundreds of thousands)."""
        own = frozenset(word_shingles(text_words))
        if len(own) <= _LOOKED_UP_SHINGLES:
            return frozenset(s for s in own if f" {s} " not in self.words)
        return own - self._shingles

    @cached_property
    def _shingles(self) -> frozenset[str]:
        return frozenset(word_shingles(self.words.split()))

    def unsaid(self, found: dict[str, TokenKind], forms_out: dict[str, str] | None = None
               ) -> dict[str, TokenKind]:
        """`found` without the tokens the turns hold (a name as whole words, any other
        token as written, both canonical). `forms_out`: given, each token's canonical
        form is put there (the scorer needs those of the tokens kept)."""
        forms = canonical_each(list(found))
        if forms_out is not None:
            forms_out.update(zip(found, forms, strict=True))
        return {t: k for (t, k), form in zip(found.items(), forms, strict=True)
                if not (f" {' '.join(words(t))} " in self.words if k == "name"
                        else form in self.folded)}


def signature_of(text: str, value: Any = None, key: str | None = None, *, node: str = "",
                 user_texts: Sequence[str] = (), common: Iterable[str] = ()
                 ) -> ContentSignature:
    """The signature of content `text` (and slot `key` = `value`), with what the user's
    own turns `user_texts` say left out. `common`: words the caller saw written in lower
    case elsewhere (a capitalised word that starts a sentence is then not a name).

    Tokens and shingles come from the text (and a scalar value): the text states the
    fault, while a structured value (a list of tool calls) often also holds data the
    fault's author copied from clean inputs. Only when the text names no strong token
    are the value's strong tokens taken.

    >>> s = signature_of("Send money to US133000000121212121212 for Lin.",
    ...                  user_texts=["Pay my bill, says Lin."])
    >>> s.tokens
    {'US133000000121212121212': 'account'}
    >>> signature_of("A standing instruction.", [{"to": "eve@evil.com"}]).tokens
    {'eve@evil.com': 'email'}
    """
    return _signature(_NodeText.of(text, value), value, key, node=node, common=common,
                      user=_UserSide.of(user_texts))


@dataclass(frozen=True)
class _NodeText:
    """A node's content as the token finders read it, made once per node."""

    stated: str
    """The text, with a scalar value it does not already hold added, without format
    characters and in NFKC, case kept."""
    structured: str
    """A structured value (a list, an object) flattened the same way; empty when the
    value is a scalar or None."""
    starts: set[str]
    """The capitalised words that start a sentence of either (`initial_words`)."""

    @classmethod
    def of(cls, text: str, value: Any) -> _NodeText:
        scalar = value is not None and not isinstance(value, bool) \
            and isinstance(value, str | int | float)
        stated = visible(f"{text}\n{value}" if scalar and str(value) not in text else text)
        structured = visible(flatten(value)) if value is not None and not scalar else ""
        return cls(stated, structured, initial_words(f"{stated}\n{structured}"))


def _signature(read: _NodeText, value: Any, key: str | None, *, node: str,
               common: Iterable[str], user: _UserSide) -> ContentSignature:
    """`signature_of` the node read as `read`, with the user's side `user`."""
    stated, structured = read.stated, read.structured
    # a sentence-initial word the user writes in lower case is a common word too
    lower = _lower_words(stated) | set(common) | {
        w for w in read.starts if f" {w} " in user.words}

    forms: dict[str, str] = {}
    tokens = user.unsaid(distinctive_tokens(stated, lower), forms)
    if structured and not any(k in STRONG_KINDS for k in tokens.values()):
        tokens.update((t, k) for t, k in user.unsaid(distinctive_tokens(structured, lower),
                                                     forms).items()
                      if k in STRONG_KINDS)
    # the text's words read once for both (a megabyte's folding is a tenth of a second)
    stated_words = words(stated)
    required, optional = _restatement(stated, stated_words, tokens, user)
    signature = ContentSignature(
        node=node, tokens=tokens, key=key, value=value, value_text=_value_phrase(value),
        shingles=user.unsaid_shingles(stated_words),
        markers=instruction_markers(f"{stated}\n{structured}" if structured else stated),
        restate=required, restate_optional=optional)
    _remember_forms(signature, {t: forms[t] for t in tokens})
    return signature


_FORMS: dict[int, tuple[weakref.ref[ContentSignature], dict[str, str]]] = {}
"""Signature (by identity) -> its tokens' canonical forms, worked out while it was made
(`_UserSide.unsaid`): the scorer's setup (`_match._strong_forms`) needs them again, and a
megabyte fault of IPv6 addresses or hosts spent 0.1-0.15 CPU s making them a second time.
An entry holds its signature weakly and goes when the signature does."""


def _remember_forms(signature: ContentSignature, forms: dict[str, str]) -> None:
    _FORMS[id(signature)] = (weakref.ref(signature), forms)
    weakref.finalize(signature, _FORMS.pop, id(signature), None)


def token_forms(signature: ContentSignature) -> dict[str, str] | None:
    """The canonical form (`canonical`) of each of `signature`'s tokens, as worked out
    when it was made; None for a signature made otherwise (`dataclasses.replace`, a
    signature read back)."""
    entry = _FORMS.get(id(signature))
    return entry[1] if entry is not None and entry[0]() is signature else None


def _restatement(stated: str, stated_words: list[str], tokens: dict[str, TokenKind],
                 user: _UserSide) -> tuple[frozenset[str], frozenset[str]]:
    """The stems a restatement of `stated` (of words `stated_words`) must hold and those
    it may hold (`restate`, `restate_optional`), or two empty sets when none is looked
    for."""
    empty: frozenset[str] = frozenset()
    if len(stated_words) > RESTATE_WORDS or any(k in STRONG_KINDS for k in tokens.values()):
        return empty, empty
    # a capitalised word is a name here even where the case also writes it in lower case
    # (an id such as "lin/prefs"): a restatement may name the user or not
    names = stems(" ".join([*(t for t, k in tokens.items() if k == "name"),
                            *proper_names(stated)]))
    said = stems(stated) - ORDINARY_STEMS
    optional = names | (said & user.stems)
    required = said - optional
    return (required, optional & said) if len(required) >= 2 else (empty, empty)


def _lower_words(text: str) -> set[str]:
    """The words of `text` written in lower case (a capitalised word among them is a
    common word, not a name)."""
    return {w for w in set(_LETTERS.findall(text)) if w.islower()}


def signatures(case: Case, nodes: Iterable[str] | None = None) -> dict[str, ContentSignature]:
    """Each diagnosed fault of `case` (or each of `nodes`: records, steps or turns) ->
    its content signature (`signatures_from`), with the words of the user's turns held
    before it was written left out (`written_at`)."""
    asked = list(case.faults if nodes is None else nodes)
    looked_for = set(asked)
    # only the nodes asked about are kept (a later list's node wins, as it would in one
    # index of every node): that index of a 300k-step case took a third of a CPU second
    # to find six nodes
    by_id: dict[str, Any] = {}
    for items in (case.memory, case.trajectory, case.session):
        by_id.update((x.id, x) for x in items if x.id in looked_for)
    wanted = [n for n in asked if n in by_id]
    return signatures_from({n: node_parts(by_id[n]) for n in wanted},
                           {t.id: t.text for t in case.session}, _vocabulary(case),
                           turn_seq={t.id: t.seq for t in case.session},
                           written=written_at(case, wanted), stored=stored_texts(case))


def written_at(case: Case, nodes: Iterable[str]) -> dict[str, float]:
    """When each of `nodes` was written, as a seq: a step's or turn's own seq; a
    record's `created_seq`, else the seq of its earliest producing step (a `produce`
    edge), else minus infinity (it was in the store before the run)."""
    nodes = list(nodes)
    asked = set(nodes)
    records = {m.id: m for m in case.memory if m.id in asked}
    # the seqs read are those of the nodes that are not records and of the producers of
    # the records without a created_seq: only those are kept, not an index of every step
    # and turn (two of them, a third of a CPU second at 300k steps)
    looked_up = (asked - records.keys()) | {
        d.id for n in nodes if (m := records.get(n)) is not None and m.created_seq is None
        for d in m.deps if d.label == "produce"}
    step_seq = {s.id: s.seq for s in case.trajectory if s.id in looked_up}
    seq = {**step_seq, **{t.id: t.seq for t in case.session if t.id in looked_up}}
    out: dict[str, float] = {}
    for n in nodes:
        m = records.get(n)
        if m is None:
            out[n] = float(seq.get(n, float("-inf")))
        elif m.created_seq is not None:
            out[n] = float(m.created_seq)
        else:
            made = [step_seq[d.id] for d in m.deps
                    if d.label == "produce" and d.id in step_seq]
            out[n] = float(min(made)) if made else float("-inf")
    return out


def signatures_from(parts: Mapping[str, tuple[str, str | None, Any]],
                    turns: Mapping[str, str], vocabulary: Iterable[str], *,
                    turn_seq: Mapping[str, int] | None = None,
                    written: Mapping[str, float] | None = None,
                    stored: Iterable[str] = ()
                    ) -> dict[str, ContentSignature]:
    """Each node of `parts` (id -> `node_parts`) -> its signature. The user's `turns`
    (id -> text) other than the node itself are left out of it — with `turn_seq` (turn id
    -> seq) and `written` (node -> when it was written, `written_at`), only the turns at
    or before the node was written: a word is the user's own only if the user said it
    before the fault did, and a later turn that quotes the fault (the attacker's IBAN,
    asked about) exempts nothing. A capitalised word that starts a sentence of the node
    is common (not a name) when a text of `vocabulary` (every node's content,
    `vocabulary_texts`) writes it in lower case. `stored`: the content of the records the
    store held before the run, derived from nothing recorded and not diagnosed (the
    user's own store, `stored_texts`): a host one of them names is left out of the
    signature of a node written during the run that names another strong token of its
    own (`_own_hosts`)."""
    read = {n: _NodeText.of(text, value) for n, (text, _key, value) in parts.items()}
    starters = set().union(*(r.starts for r in read.values()))
    common = lower_case_uses(starters, vocabulary) if starters else set()
    # the user's side of each distinct set of turns, made once
    sides: dict[tuple[Any, str | None], _UserSide] = {}
    never = float("inf")
    # the turns' seqs read once, and sorted once: the turns said by the time a node was
    # written are those of a seq at most that time, so how many there are (a bisection)
    # names the set; a set of every turn's id per node cost a pass over them all each
    seqs = [turn_seq.get(t, never) for t in turns] if turn_seq is not None else []
    ordered = sorted(seqs)

    def user_side(node: str) -> _UserSide:
        if turn_seq is None or written is None:
            key: tuple[Any, str | None] = ("every", node if node in turns else None)
            at = never
        else:
            at = written.get(node, never)
            # a NaN time holds no turn, and a bisection cannot say so
            count = bisect_right(ordered, at) if at == at else "none"
            key = (count, node if node in turns and turn_seq.get(node, never) <= at
                   else None)
        if key not in sides:
            texts = [text for t, text in turns.items() if t != node] \
                if turn_seq is None or written is None else \
                [text for (t, text), s in zip(turns.items(), seqs, strict=True)
                 if t != node and s <= at]
            sides[key] = _UserSide.of(texts)
        return sides[key]

    made = {n: _signature(read[n], value, key, node=n, common=common, user=user_side(n))
            for n, (_text, key, value) in parts.items()}
    if written is None:
        return made
    # the store's texts are read only for a signature the hosts could change: on a large
    # case that is a read of every record's tokens
    asking = {n for n, sig in made.items()
              if written.get(n, never) > float("-inf") and _may_share_hosts(sig)}
    if not asking:
        return made
    hosts = {t for text in stored for t, k in distinctive_tokens(visible(text), names=False)
             .items() if k == "url"}
    return {n: _own_hosts(sig, hosts) if n in asking else sig for n, sig in made.items()}


def _may_share_hosts(sig: ContentSignature) -> bool:
    """Whether `_own_hosts` can change `sig` for some hosts: it names a host and another
    strong token (a host is one)."""
    kinds = sig.tokens.values()
    return "url" in kinds and sum(k in STRONG_KINDS for k in kinds) >= 2


def _own_hosts(sig: ContentSignature, hosts: set[str]) -> ContentSignature:
    """`sig` without the hosts of `hosts` (those the user's own store names: rule
    `suspect.shared-host`) when it names another strong token: a form or page of the
    attacker's on a site the user also uses (a `docs.google.com` form) is identified by
    its id, and the site's name would call every record of the user's that links there a
    carrier. A host that is the node's only strong token stays: without it the node
    would be matched by its words alone."""
    shared = {t for t, k in sig.tokens.items() if k == "url" and t in hosts}
    if not shared or not any(k in STRONG_KINDS for t, k in sig.tokens.items()
                             if t not in shared):
        return sig
    return replace(sig, tokens={t: k for t, k in sig.tokens.items() if t not in shared})


def stored_texts(case: Case) -> list[str]:
    """The content of each record of `case` the store held before the run: no
    `created_seq`, no recorded deps, not diagnosed."""
    faults = set(case.faults)
    return [node_content(m) for m in case.memory
            if m.created_seq is None and not m.deps and m.id not in faults]


def vocabulary_texts(case: Case) -> list[str]:
    """The texts whose lower-case words make a sentence-initial word common: every
    node's content (`node_content`). Kept for the case last asked about while that case
    lives: a repair asks for its case's three times (plan, blocked writes, the final
    check), each a pass over every node (cases are not changed in place: an edit makes a
    new case)."""
    for _text in _vocabulary(case):  # made and kept (or kept already) once all are read
        pass
    assert _last_vocabulary is not None
    return _last_vocabulary[2]


def _vocabulary(case: Case) -> Iterator[str]:
    """`vocabulary_texts(case)`'s texts in order, each made as it is read: a search that
    finds every word it looks for in the first few (`lower_case_uses`) does not make the
    rest, a pass over every node of the case. Kept for the case, as `vocabulary_texts`
    says, once all are made."""
    global _last_vocabulary
    size = (len(case.session), len(case.memory), len(case.trajectory))
    last = _last_vocabulary
    if last is not None and last[0]() is case and last[1] == size:
        yield from last[2]
        return
    texts: list[str] = []
    for text in chain((t.text for t in case.session), map(node_content, case.memory),
                      map(node_content, case.trajectory)):
        texts.append(text)
        yield text
    _last_vocabulary = (weakref.ref(case, _forget_vocabulary), size, texts)


_last_vocabulary: tuple[weakref.ref[Any], tuple[int, int, int], list[str]] | None = None
"""(the case, its size, its vocabulary texts), dropped when the case goes (in the
dashboard's server the texts of a replaced case stayed alive until the next case was
asked about)."""


def _forget_vocabulary(ref: weakref.ref[Any]) -> None:
    global _last_vocabulary
    last = _last_vocabulary
    if last is not None and last[0] is ref:
        _last_vocabulary = None


def node_parts(node: Any) -> tuple[str, str | None, Any]:
    """(text, key, value) of a node (a pydantic model or any object with those fields):
    a tool observation's value is its output when that is not text."""
    text = str(getattr(node, "text", "") or "")
    output = getattr(node, "output", None)
    if isinstance(output, str) and output not in text:
        text += " " + output
    value = getattr(node, "value", None)
    if value is None and output is not None and not isinstance(output, str):
        value = output
    return text, getattr(node, "key", None), value
