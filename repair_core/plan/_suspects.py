"""Suspects: what the lineage does not name but the content says (method.md, "Suspects").

One module for both planners (`_plan`, the networkx planner, and `_columnar_plan`), which
hand it the same plain inputs (ids, contents, times) and apply what it returns:

- a **suspected source** of a diagnosed record is an input of the record's producer (an
  observation, a document, a user turn or a record, not itself diagnosed) that carries
  the record's content (`repair_core.content.match` against the record's signature, at
  the lower bar `SOURCE_THRESHOLD`: the candidates are the few inputs the producer wrote
  the record from).
  Replaying the producer on that input would write the fault again, so by default
  (`quarantine`) the plan cleans it like a diagnosed fault (rule `suspect.source`).
  Every other input of the producer that is not the user's own turn is a suspected
  source **by lineage**, whatever its words: cleaned when no other input can explain
  the fault, else flagged (rule `suspect.lineage`);
- a **suspected carrier** is a record, observation or step outside the affected set whose
  content carries a diagnosed fault's (and that is not earlier than the fault's time
  bound: the fault may have copied it). It is listed; under the store and both
  objectives an active record that the plan keeps is quarantined by default (rule
  `suspect.carrier`) — only where its content is the fault: one that negates or warns
  against the fault, or folds it into other facts, is flagged (`what_it_holds`, rule
  `suspect.carrier-holds`).

`--suspects flag` lists both and changes nothing; `off` looks for neither. A reviewer
un-marks a suspect by naming it (`not_suspect`), or cleans a suspected source the rules
only flag, with a reason (`cleaned`: rule `suspect.reviewer-clean`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from .._canonical import canonical_each
from .._carried import words_of_canonical
from .._errors import PlanEditError
from .._words import WORD
from ..content import (
    MARKERS,
    SOURCE_THRESHOLD,
    THRESHOLD,
    CarrierMatch,
    ContentSignature,
    match,
    scan,
)
from ..content._shingles import word_shingles
from ._carrier_producers import (
    CarrierProducer,
    held_back_by,
    not_rederived_line,
    rederived_line,
    writes_from,
)

__all__ = ["SuspectMode", "SUSPECT_MODES", "Suspected", "ProducerInput", "find_sources",
           "find_carriers", "carrier_bounds", "same_inputs", "held_seeds",
           "cleaned_by_reviewer",
           "what_it_holds", "holds", "rejecting_word", "unsure_line", "folded_facts", "facts_line",
           "source_reason", "carrier_reason", "CONTENT_KINDS", "rejecting_records"]

SuspectMode = Literal["quarantine", "flag", "off"]
SUSPECT_MODES: tuple[str, ...] = SuspectMode.__args__  # type: ignore[attr-defined]
CONTENT_KINDS = ("record", "tool_observation", "turn")
"""What can be a suspected source: what can be diagnosed (a record, a tool observation
or document, a user turn)."""


@dataclass(frozen=True)
class Suspected:
    """A node the lineage does not name that carries a diagnosed fault's content (a
    frozen dataclass, so that the columnar planner starts without pydantic; the plan
    report, a pydantic model, validates and serialises it)."""

    id: str
    """The suspected node (record, step or turn id)."""
    kind: Literal["record", "step", "turn"]
    """What the node is."""
    role: Literal["source", "carrier"]
    """`source`: an input of the fault's producer that carries the fault's content;
    `carrier`: a node outside the affected set that carries it."""
    fault: str
    """The diagnosed fault whose content it carries."""
    action: Literal["clean", "quarantine", "flag"]
    """What the plan does: `clean` (a source cleaned like a diagnosed fault),
    `quarantine` (a carrier record) or `flag` (listed only)."""
    evidence: str
    """What matched, as one line of plain text (tokens, slot, markers, shared runs)."""
    score: float
    """The match's score (at least the scorer's threshold)."""


@dataclass(frozen=True)
class ProducerInput:
    """An input of a diagnosed record's producer, as both planners hand it over."""

    id: str
    """The input (record, step or turn id)."""
    kind: Literal["record", "step", "turn"]
    """What it is: a record (cited, or reached through a `memory_read`), a step (a tool
    observation or document) or a user turn."""
    content: str
    """Its content (`node_content`)."""
    via: str | None = None
    """The `memory_read` the producer reached the record through, if it did."""
    derived: tuple[str, ...] = ()
    """What else was derived from it: its dependents other than the fault's producers,
    the fault and the read it came through, sorted by id."""


def find_sources(signatures: Mapping[str, ContentSignature],
                 inputs: Mapping[str, Sequence[ProducerInput]],
                 diagnosed: Container[str], not_suspect: Container[str],
                 mode: SuspectMode, cleaned: Mapping[str, str] | None = None,
                 derived_from: dict[str, list[str]] | None = None
                 ) -> dict[str, Suspected]:
    """The suspected sources of each diagnosed record (a key of `inputs`, taken by id),
    each mapped to the first fault it is found for, or to the first that cleans it where
    another only flags it. Inputs that are diagnosed or un-marked are skipped.

    - **By content**: an input that carries the record's signature at the source bar
      (`content.SOURCE_THRESHOLD`: the producer wrote the fault from these inputs, so a
      shorter shared run says where it came from) — cleaned (rule `suspect.source`);
    - **by lineage**: every other input that is not the user's own turn (a tool
      observation, a document, a record, one reached through a read), whatever its
      words (rule `suspect.lineage`), ranked by what its content shares with the fault.
      It is cleaned when no other input can explain the fault (no input carries it by
      content and it is the producer's only such input); otherwise flagged for a
      reviewer to clean or clear, so no benign input is cleaned for sitting beside a
      poisoned one.

    `cleaned`: the suspected sources a reviewer cleans -> the reviewer's reason
    (`cleaned_by_reviewer`); each is cleaned whatever the rules did with it.

    `derived_from` gets, per fault, the sources it was derived from, whatever `mode`
    does with them: those that carry it by content, the one by lineage that alone
    explains it, and those a reviewer cleans (the carriers' time bound, `carrier_bounds`).
    A user turn is never one: its words are the user's own."""
    found: dict[str, Suspected] = {}
    derived = derived_from if derived_from is not None else {}
    if mode == "off":
        return cleaned_by_reviewer(found, cleaned or {}, not_suspect, mode)
    # faults by id and a tie in score by the input's id, never by the order a case lists
    # its records or dependencies in: the plan is the same however they are shuffled
    for fault in sorted(inputs):
        candidates = inputs[fault]
        sig = signatures.get(fault)
        if sig is None:
            continue
        explained = False
        lineage: list[tuple[float, int, ProducerInput, Any]] = []
        for rank, cand in enumerate(candidates):
            node = cand.id
            if node in diagnosed or node in not_suspect:
                continue
            hit = match(sig, cand.content, threshold=SOURCE_THRESHOLD)
            if hit is not None:
                explained = True
                if cand.kind != "turn":
                    derived.setdefault(fault, []).append(node)
                if node not in found or _weaker(found[node], mode):
                    found[node] = Suspected(
                        id=node, kind=cand.kind, role="source", fault=fault,
                        action="clean" if mode == "quarantine" else "flag",
                        evidence=hit.evidence(), score=hit.score)
            elif cand.kind != "turn":
                partial = match(sig, cand.content, threshold=0.0)
                lineage.append((partial.score if partial else 0.0, rank, cand, partial))
        # a cleared input is benign by a reviewer's word: it explains nothing
        others = [c for c in candidates if c.kind != "turn" and c.id not in diagnosed
                  and c.id not in not_suspect]
        alone = not explained and len(others) == 1
        if alone and lineage:
            derived.setdefault(fault, []).append(lineage[0][2].id)
        for score, _rank, cand, partial in sorted(lineage, key=lambda x: (-x[0], x[2].id)):
            if cand.id in found and not (alone and _weaker(found[cand.id], mode)):
                continue
            shared = partial.evidence() if partial is not None and score > 0 else ""
            found[cand.id] = Suspected(
                id=cand.id, kind=cand.kind, role="source", fault=fault,
                action="clean" if alone and mode == "quarantine" else "flag",
                evidence=_lineage_evidence(cand, shared, alone), score=round(score, 4))
    for node in sorted(cleaned or ()):  # the reviewer's word: the fault came from it
        if (node in found and found[node].kind != "turn"
                and node not in derived.get(found[node].fault, ())):
            derived.setdefault(found[node].fault, []).append(node)
    return cleaned_by_reviewer(found, cleaned or {}, not_suspect, mode)


def carrier_bounds(seed_bounds: Mapping[str, float], derived_from: Mapping[str, list[str]],
                   time_of: Callable[[str], float | None]) -> dict[str, float]:
    """Each fault's time bound for its carriers (rule `suspect.carrier`): the earliest of
    its seed's (`seed_bounds`) and the times of the sources it was derived from
    (`find_sources`' `derived_from`; `time_of`: a step's seq, a record's `created_seq`,
    None for a record without one). From the first of those the payload was in the run,
    so a record written after it that carries the fault is a copy, not what the fault
    copied; an input that only sat beside the source moves no bound, and a source with no
    write time cannot be placed, so it moves none either."""
    out = dict(seed_bounds)
    for fault, bound in seed_bounds.items():
        times = [t for t in map(time_of, derived_from.get(fault, ())) if t is not None]
        if times:
            out[fault] = min(bound, *times)
    return out


def cleaned_by_reviewer(found: dict[str, Suspected], cleaned: Mapping[str, str],
                        not_suspect: Container[str], mode: str) -> dict[str, Suspected]:
    """`found` with each suspected source of `cleaned` (id -> the reviewer's reason)
    cleaned like a diagnosed fault, whatever the rules did with it (rule
    `suspect.reviewer-clean`). Refused (`PlanEditError`, every problem named) when an id
    is not a suspected source of this plan, is also cleared (`not_suspect`), or comes
    without a reason: a reviewer cleans what the plan lists, for a stated reason."""
    problems = []
    for node in sorted(cleaned):
        reason = cleaned[node]
        if not isinstance(reason, str) or not reason.strip():
            problems.append(f"clean-source {node!r}: give the reviewer's reason "
                            "(ID=REASON)")
        elif node in not_suspect:
            problems.append(f"clean-source {node!r}: also cleared as not suspect; "
                            "clean it or clear it, not both")
        elif node not in found or found[node].role != "source":
            why = ("--suspects off looks for no suspects" if mode == "off" else
                   "the plan does not list it as a suspected source of a diagnosed fault")
            problems.append(f"clean-source {node!r}: not a suspected source ({why}); "
                            "diagnose it as a fault instead (--faults)")
        else:
            found[node] = replace(found[node], action="clean")
    if problems:
        raise PlanEditError(problems)
    return found


def same_inputs(inputs: Mapping[str, Sequence[ProducerInput]],
                sources: Mapping[str, Suspected], diagnosed: Container[str],
                not_suspect: Container[str], refreshed: Container[str],
                mode: SuspectMode) -> dict[str, tuple[str, ...]]:
    """Each diagnosed record (a key of `inputs`) whose producer would read again, unchanged,
    a tool output it wrote the record from -> those inputs, sorted (rule
    `suspect.no-rederive`). Such an input is a step (a tool observation or document) that
    is not diagnosed, not a cleaned source, not cleared by a reviewer (`not_suspect`) and
    not `refreshed` (the caller's: affected without support, so the replay calls its tool
    again). Replaying the producer on it would derive the record again from the text it
    was derived from: the record is removed instead.

    Records the producer cited or read are the agent's memory, not tool output: a
    summary that drifted from the records it consolidated is written again from them (a
    record carrying the fault is a source by content and cleaned). Only under
    `quarantine`: `flag` and `off` give the plan as before suspects existed."""
    if mode != "quarantine":
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for fault in sorted(inputs):
        same = sorted({x.id for x in inputs[fault]
                       if x.kind == "step" and x.id not in diagnosed
                       and x.id not in not_suspect and x.id not in refreshed
                       and not (x.id in sources and sources[x.id].action == "clean")})
        if same:
            out[fault] = tuple(same)
    return out


def held_seeds(seeds: Mapping[str, str], producers: Mapping[str, Iterable[str]],
               same: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each fault's seed held back (`suspect.no-rederive`) -> (the fault, the inputs it
    would read again unchanged): the seed of each fault of `same` (`same_inputs`) that is
    one of the fault's producers, for the first such fault by id."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for fault in sorted(same):
        seed = seeds.get(fault)
        if seed is not None and seed in producers.get(fault, ()):
            out.setdefault(seed, (fault, same[fault]))
    return out


def _weaker(found: Suspected, mode: str) -> bool:
    """Whether a source already found for another fault is only flagged where this fault
    would clean it: the stronger action wins, whichever fault came first, so the plan does
    not depend on the order the faults are listed in."""
    return mode == "quarantine" and found.action == "flag"


def _lineage_evidence(cand: ProducerInput, shared: str, alone: bool) -> str:
    """The evidence line of a suspected source by lineage."""
    parts = [BY_LINEAGE + "an input of its producer"
             + (f", reached through {cand.via}" if cand.via else "")]
    parts.append(f"below the source bar, its content shares {shared}" if shared
                 else "its content shares nothing distinctive with it")
    parts.append("no other input explains the fault" if alone
                 else "another input may explain the fault: flagged for a reviewer to "
                      "clean or clear")
    if cand.derived:
        shown = ", ".join(cand.derived[:SHOWN_DERIVED])
        more = (f" and {len(cand.derived) - SHOWN_DERIVED} more"
                if len(cand.derived) > SHOWN_DERIVED else "")
        parts.append(f"also derived from it: {shown}{more}")
    return "; ".join(parts)


BY_LINEAGE = "by lineage: "
"""How the evidence of a suspected source by lineage starts."""
SHOWN_DERIVED = 5
"""Dependents of a suspected source by lineage named in its evidence."""


def find_carriers(signatures: Mapping[str, ContentSignature], bounds: Mapping[str, float],
                  ids: Sequence[str], kinds: Sequence[str], times: Sequence[float],
                  contents: Sequence[str], slots: Mapping[int, tuple[str | None, Any]],
                  quarantinable: Container[int], mode: SuspectMode,
                  producer_of: Callable[[str], CarrierProducer | None] | None = None,
                  not_suspect: Container[str] = (),
                  rederived: dict[str, str] | None = None) -> list[Suspected]:
    """The suspected carriers among the candidates (`ids`, each with its kind, time and
    content; the caller leaves out what the lineage covers), in the candidates' order.
    A candidate earlier than a fault's time bound (`bounds`) does not carry that fault;
    one that carries several is listed for the best-scoring (the first on a tie).
    `quarantinable`: the candidates (by index) the plan quarantines when `mode` is
    `quarantine` (the caller's: active records the plan keeps, under the store and
    both objectives); the rest are flagged.

    `producer_of`: a quarantinable record's single producing write (the caller's, asked
    only about the carriers that fold a fault into other facts). Such a carrier that folds its fault into other facts is quarantined and put
    into `rederived` (carrier -> producer) when its producer may be replayed
    (`_carrier_producers.held_back_by` finds nothing; `not_suspect`: the inputs a
    reviewer cleared), else flagged (rule `suspect.carrier-rederive`)."""
    if mode == "off" or not signatures:
        return []
    sigs = list(signatures.values())
    best: dict[int, tuple[float, int, Any]] = {}
    order = {s.node: k for k, s in enumerate(sigs)}
    for i, hit in scan(sigs, contents, slots):
        if times[i] < bounds.get(hit.node, float("-inf")):
            continue
        rank = (hit.score, -order[hit.node])
        if i not in best or rank > best[i][:2]:
            best[i] = (*rank, hit)
    out: list[Suspected] = []
    by_node = {s.node: s for s in sigs}
    # what a carrier holds depends on its fault and its text only: a text carried by
    # many nodes (a copied record, a repeated tool output) is read once
    held_by: dict[tuple[str, str], tuple[str | None, list[str]]] = {}
    for i in sorted(best):
        hit = best[i][2]
        fault = by_node[hit.node]
        key = (hit.node, contents[i])
        if key not in held_by:
            held_by[key] = holds(fault, contents[i])
        negated, facts = held_by[key]
        acting = mode == "quarantine" and i in quarantinable
        action: Literal["quarantine", "flag"] = "flag"
        if negated is not None:
            held = unsure_line(negated)
        elif not facts:
            held, action = "", "quarantine" if acting else "flag"
        else:
            producer = writes_from(producer_of(ids[i])) if acting and producer_of else None
            back = held_back_by(fault, producer, not_suspect) if producer else ()
            if producer is None:
                held = _flagged_line(facts)
            elif back:
                held = not_rederived_line(facts_line(facts), producer.step, back)
            else:
                held, action = rederived_line(facts_line(facts), producer.step), "quarantine"
                if rederived is not None:
                    rederived[ids[i]] = producer.step
        out.append(Suspected(
            id=ids[i], kind=kinds[i], role="carrier", fault=hit.node,  # type: ignore[arg-type]
            action=action, evidence=hit.evidence() + (f"; {held}" if held else ""),
            score=hit.score))
    return out


def rejecting_records(signatures: Mapping[str, ContentSignature], ids: Sequence[str],
                      contents: Sequence[str], slots: Mapping[int, tuple[str | None, Any]],
                      timed: Container[int] = ()) -> dict[str, tuple[str, str]]:
    """Each of the records `ids` (with their contents and slots: the caller's affected
    records the plan would quarantine for their lineage) that rejects a diagnosed fault
    -> (that fault, the word it says): a test, a block rule, a warning or a summary
    written from the fault that says it was rejected is flagged for a reviewer rather
    than quarantined (rule `suspect.rejecting-affected`).

    - A record that carries the fault rejects it when a sentence holding the fault's
      words negates, warns against or withdraws it (`rejecting_word`: "assert not …",
      "a scam host, never allow it").
    - A record that does not carry it (nothing of its payload: it was written from the
      fault, not copied) rejects it only by a warning, a withdrawal or a block label in
      such a sentence (`judge._cues.cue` with `negations=False`: "ignored a fake
      parcel-fee text"), never by a bare negation: "Lin does not want aisle seats",
      written from "Lin prefers window seats", states the fault's consequence in other
      words. Only the records
      of `timed` (indices: those with a known write time, `created_seq`) are read so:
      the content check finds nothing of the fault in such a record, and only its
      write time lets the check say it is not certified (`verify.suspect-lineage`)
      rather than clean.

    One scan over the contents for the carriers, in time linear in them, and a cue pass
    per fault over the others; a record is read for the first fault in `signatures`'
    order that it carries, else the first it rejects."""
    if not signatures or not ids:
        return {}
    sigs = list(signatures.values())
    order = {f.node: k for k, f in enumerate(sigs)}
    first: dict[int, ContentSignature] = {}
    for i, hit in scan(sigs, contents, slots):
        if i not in first or order[hit.node] < order[first[i].node]:
            first[i] = signatures[hit.node]
    out: dict[str, tuple[str, str]] = {}
    # as in `find_carriers`: the word depends on the fault and the text only, and the
    # store holds copies (a 1M-step case's 5,038 such records hold 1,628 distinct pairs).
    # Only the word is read here, not the other facts `holds` looks for after it
    said: dict[tuple[str, str], str | None] = {}
    for i in sorted(first):
        key = (first[i].node, contents[i])
        if key not in said:
            said[key] = rejecting_word(first[i], contents[i])
        negated = said[key]
        if negated is not None:
            out[ids[i]] = (first[i].node, negated)
    from ..judge._lexical import fault_words

    # the faults whose content words a record holds, by word, so that a record is asked
    # only about the faults it names, not each fault of a large case; every fault that
    # holds a word, since a cue word one fault says itself may reject another
    words = [fault_words(f) for f in sigs]
    naming: dict[str, list[int]] = {}
    for k, (_said, content_words) in enumerate(words):
        for w in content_words:
            naming.setdefault(w, []).append(k)
    # what a record says depends on its text only: a copied text is read once
    read: dict[str, tuple[str, str] | None] = {}
    for i, content in enumerate(contents):
        if i in first or i not in timed:
            continue
        if content not in read:
            read[content] = _rejected_by_cue(content, sigs, words, naming)
        if (found := read[content]) is not None:
            out[ids[i]] = found
    return {rid: out[rid] for rid in ids if rid in out}


def _rejected_by_cue(content: str, sigs: Sequence[ContentSignature],
                     words: Sequence[tuple[frozenset[str], frozenset[str]]],
                     naming: Mapping[str, list[int]]
                     ) -> tuple[str, str] | None:
    """(the first fault of `sigs` that `content` names and rejects by a warning, a
    withdrawal or a block label, the word), else None (`rejecting_records`' cue pass;
    `words`: each fault's `fault_words`, `naming`: word -> the faults holding it)."""
    from ..judge._cues import cue, may_reject

    held = may_reject(content)
    if not held:
        return None
    for k in sorted({k for w in held | _words_of(content) for k in naming.get(w, ())}):
        rejected = cue(content, words[k][1], words[k][0], negations=False)
        if rejected is not None:
            return sigs[k].node, rejected
    return None


def _words_of(text: str) -> set[str]:
    """The case-folded words of `text` as the cue check reads them (`_words.WORD`: a
    word runs on over its combining marks)."""
    return set(_CUE_WORD.findall(text.casefold()))


_CUE_WORD = re.compile(WORD)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
"""Where a sentence ends: after . ! ? or ; and a space, or at a line break (a URL's or a
number's dot is followed by no space, so it ends nothing)."""
FACT_WORDS = 3
"""A sentence of at least this many words that shares nothing with a fault is another
fact a carrier holds ("Rent is 1200 EUR."); a shorter one ("Regards.") is not."""
SHOWN_FACTS = 3
"""Other facts quoted in a carrier's evidence, each clipped to `FACT_CHARS`."""
FACT_CHARS = 80


def what_it_holds(fault: ContentSignature, content: str) -> str | None:
    """Why a carrier of `fault` with this `content` is flagged rather than quarantined
    whole, as words to add to its evidence, or None when its content is the fault
    (`holds`): it negates, warns against or withdraws the fault, or it folds the fault
    into other facts, quoted (plain text, clipped)."""
    negated, others = holds(fault, content)
    if negated is not None:
        return unsure_line(negated)
    if not others:
        return None
    return _flagged_line(others)


def _flagged_line(facts: Sequence[str]) -> str:
    """The evidence words of a carrier flagged for the facts it folds its fault into."""
    return (f"{facts_line(facts)}: flagged, not quarantined, so they stay in the store "
            "until a reviewer decides")


def holds(fault: ContentSignature, content: str) -> tuple[str | None, list[str]]:
    """What a carrier of `fault` holds besides the fault: (the negation, warning or
    retraction word a sentence holding the fault's words says of it, `judge.cue`, else
    None; the other facts it folds the fault into, `folded_facts`, looked for only when
    it says no such word). Both empty: its content is the fault.

    - a negation or warning makes whether it carries the fault unsure, for a reviewer
      to say ("Lin does not want window seats", a bank's "DE89… is a reported scam
      account");
    - other facts would leave the store with the record if it were quarantined whole."""
    negated = rejecting_word(fault, content)
    if negated is not None:
        return negated, []
    return None, folded_facts(fault, content)


def rejecting_word(fault: ContentSignature, content: str) -> str | None:
    """The first part of `holds`: the negation, warning or retraction word a sentence of
    `content` holding `fault`'s words says of it (`judge.cue`), else None."""
    from ..judge._cues import cue
    from ..judge._lexical import fault_words

    said, content_words = fault_words(fault)
    return cue(content, content_words, said)


def unsure_line(negated: str) -> str:
    """The evidence words of a carrier that negates or warns against its fault."""
    return (f"unsure: it says {negated!r} of it (it may deny or warn against it): "
            "flagged for a reviewer, never quarantined on its own")


def folded_facts(fault: ContentSignature, content: str) -> list[str]:
    """The other facts a carrier of `fault` folds it into: besides the sentences that
    carry the fault, its sentences of at least `FACT_WORDS` words that share nothing with
    it (no token, name, shingle, marker or value), stripped. Empty when the sentences
    carry the fault only together (one fact)."""
    # the sentences are folded in one call, and a sentence written again is scored once:
    # a megabyte of "a . " is 250,000 sentences, and a call per sentence cost 25 CPU s.
    # One score per sentence, with no bar (`match` applies its bar last): whether it
    # carries the fault, and whether it holds any of it
    split = _SENTENCE_END.split(content)
    sentences = [(x, f, w) for x, f in zip(split, canonical_each(split), strict=True)
                 if (w := words_of_canonical(f))]
    if len(sentences) < 2:
        return []
    scored: dict[str, CarrierMatch | None] = {}
    found = [scored[x] if x in scored
             else scored.setdefault(x, match(fault, x, threshold=0.0, folded=f))
             for x, f, _w in sentences]
    carrying = [m is not None and m.score >= THRESHOLD for m in found]
    if not any(carrying):  # carried only by the sentences together: one fact
        return []
    apart: dict[str, bool] = {}
    return [x.strip() for (x, _f, w), m, c in zip(sentences, found, carrying, strict=True)
            if not c and len(w) >= FACT_WORDS
            and (apart[x] if x in apart
                 else apart.setdefault(x, _shares_nothing(fault, x, w, m)))]


def facts_line(others: Sequence[str]) -> str:
    """"it folds the fault into N other fact(s): 'a' | 'b'", the facts clipped."""
    shown = " | ".join(repr(x if len(x) <= FACT_CHARS else x[:FACT_CHARS - 1] + "…")
                       for x in others[:SHOWN_FACTS])
    more = f" and {len(others) - SHOWN_FACTS} more" if len(others) > SHOWN_FACTS else ""
    return f"it folds the fault into {len(others)} other fact(s): {shown}{more}"


def _shares_nothing(fault: ContentSignature, sentence: str, sentence_words: list[str],
                    found: CarrierMatch | None) -> bool:
    """Whether `sentence` (its canonical words `sentence_words`; `found`: its match with
    no bar) holds nothing of `fault`: no token or name, no shingle, no instruction
    marker, not its value, no restatement."""
    if fault.shingles and word_shingles(sentence_words) & fault.shingles:
        return False
    if fault.value_text and f" {fault.value_text} " in f" {' '.join(sentence_words)} ":
        return False
    if any(MARKERS[k].search(sentence) for k in fault.markers):
        return False
    return found is None or found.score == 0


def source_reason(s: Suspected, producers: Iterable[str],
                  reviewer_reason: str | None = None) -> str:
    """The reason line of a suspected source; `reviewer_reason`: why a reviewer cleaned
    it (`cleaned_by_reviewer`), when one did."""
    by = ", ".join(producers)
    if s.evidence.startswith(BY_LINEAGE):
        head = (f"suspected source of {s.fault} by lineage: an input of its producer {by} "
                f"that the diagnosis did not mark ({s.evidence[len(BY_LINEAGE):]})")
    else:
        head = (f"suspected source of {s.fault}: an input of its producer {by} that the "
                f"diagnosis did not mark carries its content ({s.evidence})")
    if s.action == "clean":
        who = ("" if reviewer_reason is None
               else f"; cleaned by a reviewer (reason: {reviewer_reason})")
        return (head + who + "; cleaned like a diagnosed fault: never evidence again, dropped "
                "from every replayed step's inputs, so no replay writes the fault again from "
                "it")
    return head + "; flagged only (--suspects flag)"


def carrier_reason(s: Suspected) -> str:
    """The reason line of a quarantined suspected carrier."""
    return (f"suspected carrier of {s.fault}: no recorded lineage from it, but it carries its "
            f"content ({s.evidence}): quarantined (kept for audit, never retrieved)")
