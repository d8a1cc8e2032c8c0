"""The content check of a repair result: does anything the agent reads next carry a fault?

The corrected answer, every replayed or refreshed step's output and every active record of
the repaired store are matched against the content signature of every diagnosed fault and
suspected source (`repair_core.content`). The lineage the trace recorded is not consulted,
so a record re-derived from an unmarked poisoned input is found by what it says.

What is found is judged (`repair_core.judge`): the lexical judge's `yes` is a carrier; its
`unsure` (a match that denies or warns against the fault, a near miss) goes to the model
judge when there is one, and what stays unsure is `uncertain`. So is an active record
written after a fault with no recorded lineage that only the lexical judge read (the model
judge, when there is one, is asked about it). The outcome is clean, carriers or
not_certified (`Verification.outcome`).

A result is read as the `RepairResult` model or as its JSON (`dgrr repair --json`); JSON
is untrusted, so its shape is checked and a bad field is named with its value.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import cached_property
from itertools import islice
from types import SimpleNamespace
from typing import Any, Literal, TypeVar

from .._canonical import canonical
from .._errors import DgrrError
from .._text import printable
from ..case._case import Case
from ..content import (
    MAX_CLUES,
    CarrierMatch,
    ContentSignature,
    amounts,
    distinctive_tokens,
    flatten,
    match,
    node_content,
    node_parts,
    quantities,
    scan,
    shingles,
    signatures,
    words,
)
from ..content._counts import dose_counts
from ..content._dates import Day, days, same_day
from ..content._match import RUN_WORDS
from ..content._own_words import WordBits, own_words, text_stems
from ..content._points import Point, points, readings, same_point
from ..content._stems import ORDINARY_STEMS, stem
from ..judge import LEXICAL, Judge, Judgement, LexicalJudge, ModelJudge, Question, untrusted_lineage
from ..judge._untrusted import CONTENTLESS_LABELS
from ._gate import SUPPLIED_BY_HAND, added_writers, gated_store, replay_recomputable
from ._lineage import (
    components,
    first_marks_by_lineage,
    held_by_lineage,
    meets_in_order,
    record_first_marks,
    record_holds,
    record_meets,
    walk_back,
)
from ._models import BlockedWrite, Carrier, Checked, FaultCheck, JudgeUse, Uncertain, Verification
from ._same_source import Refetch, refetched, refetched_by_replay, written_from

__all__ = ["FaultSignatures", "carrier_id", "result_sources", "verify_result"]

CLIP = 300
BLOCKED: Literal["blocked"] = "blocked"
"""The outcome of a replayed write whose record carries a fault (not applied)."""


def carrier_id(where: str, fault: str) -> str:
    """What a reviewer names to acknowledge one carrier: `WHERE:FAULT`."""
    return f"{where}:{fault}"


def _clip(text: str) -> str:
    text = str(text)
    return text if len(text) <= CLIP else text[: CLIP - 1] + "…"


_PLAIN_SCALARS = frozenset({str, int, float, bool, type(None)})
"""The types of a record's values `FaultSignatures.record` remembers its answer for: the
values and their types say everything the answer depends on (True and 1 are equal, so the
type is part of what is remembered)."""


class FaultSignatures:
    """The signatures of a case's diagnosed faults and of the suspected sources given,
    and which of them a value carries."""

    def __init__(self, case: Case, sources: Iterable[str] = ()) -> None:
        faults = list(dict.fromkeys(case.faults))
        extra = sorted(set(sources) - set(faults))
        self.source: dict[str, str] = {f: "fault" for f in faults}
        self.source.update((s, "suspected_source") for s in extra)
        """Node -> `fault` or `suspected_source`."""
        found = signatures(case, [*faults, *extra])
        self.signatures = {n: found[n] for n in self.source if n in found}
        """Node -> its content signature (nodes the case does not hold are left out)."""
        self.case = case
        """The case whose nodes these are."""
        self._scored: dict[tuple[Any, ...], tuple[CarrierMatch, ...]] = {}
        """A record's plain values, with their types -> what `record` found it carries."""

    def of(self, case: Case, sources: Iterable[str]) -> bool:
        """These are the signatures `FaultSignatures(case, sources)` would make, in the
        same order (the same case object and the same nodes): a repair's replay hands
        its own to the final check instead of working them out again."""
        faults = list(dict.fromkeys(case.faults))
        extra = sorted(set(sources) - set(faults))
        return self.case is case and list(self.source) == [*faults, *extra]

    def carried(self, value: Any) -> list[CarrierMatch]:
        """Every signature `value` (a text, or any JSON value) carries."""
        return [m for sig in self.signatures.values() if (m := match(sig, value)) is not None]

    def record(self, key: Any, value: Any, text: Any) -> list[CarrierMatch]:
        """The signatures a record with this slot and text carries (read as the final
        check reads an active record: its text and its value, `node_content`).

        Every `match` of it, found as `scan` finds them: the record is scored only
        against a signature whose clues it holds (or whose slot), so the thousands of
        records a large replay writes, nearly all holding none, have their tokens read
        only when one might match. A record of plain values (a text, a scalar slot) is
        scored once however often the replay writes it again (a large replay writes the
        same record over and over: 2,950 records of 1,584 kinds at 100k steps); the
        matches are frozen, so the same ones are handed out again."""
        plain = (type(key), key, type(value), value, type(text), text)
        if all(type(v) in _PLAIN_SCALARS for v in (key, value, text)):
            held = self._scored.get(plain)
            if held is None:
                held = self._scored[plain] = tuple(self._record(key, value, text))
            return list(held)
        return self._record(key, value, text)

    def _record(self, key: Any, value: Any, text: Any) -> list[CarrierMatch]:
        content = node_content(SimpleNamespace(text=text, value=value))
        if "\0" in content:  # scan joins texts with NUL: such a text is scored as it is
            return [m for sig in self.signatures.values()
                    if (m := match(sig, content, slot=(key, value))) is not None]
        return [m for _i, m in scan(list(self.signatures.values()), [content],
                                    {0: (key, value)})]

    def checks(self) -> list[FaultCheck]:
        return [FaultCheck(node=n, source=self.source[n],  # type: ignore[arg-type]
                           tokens=sorted(s.tokens), markers=list(s.markers))
                for n, s in self.signatures.items()]


def result_sources(result: Any) -> list[str]:
    """The suspected sources a result says it was checked against (its `verification`
    section): checking against them too can only find more."""
    section = _get(result, "verification")
    faults = _get(section, "faults") if section is not None else None
    if not isinstance(faults, list):
        return []
    return [str(_get(f, "node")) for f in faults
            if _get(f, "source") == "suspected_source" and isinstance(_get(f, "node"), str)]


def verify_result(case: Case, result: Any, *, sources: Iterable[str] = (),
                  judge: Judge | None = None,
                  made: FaultSignatures | None = None) -> Verification:
    """Check `result` (a RepairResult or its JSON) of repairing `case` against the case's
    faults, the suspected sources `sources` and those the result names. `judge`: a judge
    asked about what the lexical judge leaves unsure (a `ModelJudge`); None for the
    lexical judge alone. `made`: signatures already worked out for this case, used when
    they are the ones needed (`FaultSignatures.of`). Bad JSON is a DgrrError naming the
    field and its value. A JSON
    result's store is the one applying it would leave (`gated_store`, which refuses a
    result that says otherwise), never its `store.active` as given."""
    view = _ResultView(result, case)
    wanted = [*sources, *result_sources(result)]
    sigs = made if made is not None and made.of(case, wanted) else FaultSignatures(case, wanted)
    out = Verification(faults=sigs.checks())
    by_node = {f.node: f for f in out.faults}
    checked = Checked(signatures=len(sigs.signatures))
    # (kind, where, text): what is scored, one search over them all (`content.scan`)
    items: list[tuple[str, str, str]] = []
    slots: dict[int, tuple[Any, Any]] = {}
    written: dict[int, int] = {}  # item -> seq of a record written with no lineage
    read_from: dict[int, tuple[int, list[str]]] = {}  # item -> (seq, tool outputs it read)
    lineaged: dict[int, int] = {}  # item -> seq of a record of the case with a lineage
    added: dict[int, Any] = {}  # item -> a record a replayed write added
    as_in_case: dict[int, Any] = {}  # item -> the case's record, when the repair kept it as is
    final = view.final_answer_id()
    replayed = list(view.replayed_steps())
    answer = view.answer
    if answer is None and final is not None:
        # a result that leaves its answer out still shows it as the replayed final step
        answer = next((_step_text(s) for s in replayed if s.id == final), None)
    if answer is not None:
        checked.answer = 1
        items.append(("answer", final or "answer", answer))
    for step in replayed:
        if step.id == final:
            continue
        checked.outputs += 1
        if getattr(step, "key", None) is not None:
            slots[len(items)] = (step.key, getattr(step, "value", None))
        items.append(("output", step.id, _step_text(step)))
    in_case = {m.id: m for m in case.memory}
    steps = {s.id: s for s in case.trajectory}
    for rec in view.active_records():
        checked.records += 1
        # a record of the case is read with its lineage there (the JSON path's store is
        # recomputed and holds none); one a replayed write added has that write as lineage
        known = rec if hasattr(rec, "created_seq") else in_case.get(rec.id)
        seq = getattr(known, "created_seq", None)
        if isinstance(seq, int) and not _evidenced(getattr(known, "deps", None), steps):
            written[len(items)] = seq
        elif isinstance(seq, int):
            read = _outputs_read(getattr(known, "deps", None), steps)
            if read:
                read_from[len(items)] = (seq, read)
            if known is not None and rec.id in in_case:
                lineaged[len(items)] = seq
        if rec.id not in in_case:
            added[len(items)] = rec
        elif node_content(rec) == node_content(in_case[rec.id]):
            as_in_case[len(items)] = in_case[rec.id]
        slots[len(items)] = (rec.key, rec.value)
        items.append(("record", rec.id, node_content(rec)))
    blocked = view.blocked_writes()
    checked.blocked_writes = len(blocked)
    blocked_texts = [text for _, text in blocked]
    for i, m in scan(list(sigs.signatures.values()), blocked_texts):
        step_id = blocked[i][0]
        out.blocked.append(BlockedWrite(step=step_id, fault=m.node, evidence=m.evidence(),
                                        text=_clip(blocked_texts[i])))
        if step_id not in by_node[m.node].blocked:
            by_node[m.node].blocked.append(step_id)
    model = judge if isinstance(judge, ModelJudge) else None
    if model is not None:  # the prompt quotes each fault's own text
        for node, text in _texts(case, [n for n in sigs.signatures
                                        if n not in model.fault_texts]).items():
            model.fault_texts[node] = text
    before = _use(model)
    judges = {LEXICAL}
    judged: set[tuple[int, str]] = set()
    # (item, fault, judgement, score, reason): the model's questions are answered all
    # together below (deduplicated, batched, within its budget), then everything is added
    # in this order; a judgement still None is the model's question of the same index
    found: list[tuple[int, str, Judgement | None, float, str]] = []
    questions: list[Question] = []
    kinds: list[int] = []  # per question: 0 lexical unsure, 1 unknown lineage, 2 untrusted

    def put(i: int, fault: ContentSignature, j: Judgement, score: float, reason: str,
            kind: int) -> None:
        if model is not None:
            found.append((i, fault.node, None, score, reason))
            questions.append(Question(texts[i], fault, j))
            kinds.append(kind)
        else:
            found.append((i, fault.node, j, score, reason))

    def unsure(i: int, fault: ContentSignature, why: str, reason: str) -> None:
        """Puts the lexical judge's 'unsure' on item `i` and `fault`, for `why`, unless
        the pair is judged already (by the screen or an earlier rule)."""
        if (i, fault.node) in judged:
            return
        judged.add((i, fault.node))
        put(i, fault, Judgement(verdict="unsure", judge=LEXICAL, evidence=why if model
                                else why + "; only the lexical judge read it"),
            0.0, reason, 1)

    texts = [t for _, _, t in items]
    sig_list = list(sigs.signatures.values())
    who_writes = _WhoWrites(case, sig_list, in_case, steps)
    for i, fault, j, hit in _screened_once(sig_list, texts, slots):
        judged.add((i, fault.node))
        if j.verdict == "yes" and hit is not None and i in as_in_case \
                and names_only(hit, fault):
            record = as_in_case[i]
            if who_writes.older(record):
                continue  # rule verify.older-record-names
            why = who_writes.own_lineage(record, texts[i], fault, hit)
            if why is not None:  # rule verify.own-lineage-names
                j = Judgement(verdict="unsure", judge=LEXICAL, evidence=(
                    f"shares only {why} with {fault.node} ({hit.evidence()}), each held by "
                    "its own recorded lineage, which reaches no fault or suspected source"
                    + ("" if model else "; only the lexical judge read it")))
        score = hit.score if j.verdict == "yes" and hit is not None else 0.0
        if j.verdict == "unsure" and model is not None:
            put(i, fault, j, score, "judge-unsure", 0)
            continue
        if j.verdict == "unsure" and judge is not None:
            j = judge.carries(texts[i], fault)
        found.append((i, fault.node, j, score, "judge-unsure"))
    untrusted = model is not None and model.untrusted
    fault_seqs: list[dict[str, int]] = []

    def seqs_of_faults() -> dict[str, int]:
        """`_seqs` of the faults' nodes, the case read once for every rule that asks."""
        if not fault_seqs:
            fault_seqs.append(_seqs(case, [f.node for f in sig_list]))
        return fault_seqs[0]

    written_at = seqs_of_faults() if written or untrusted else {}
    for i, seq in written.items():
        for fault in sig_list:
            at = written_at.get(fault.node)
            if at is not None and seq > at:
                unsure(i, fault, f"written at seq {seq}, after {fault.node} (seq {at}), "
                       "with no recorded lineage to any evidence", "unknown-lineage")
    if read_from:
        origins = _fault_origins(case, [f.node for f in sig_list], steps)
        at_of = _seqs(case, list(origins))
        for i, (seq, read) in read_from.items():
            for fault in sig_list:
                origin = _same_origin(fault.node, at_of.get(fault.node), origins, seq,
                                      read, steps)
                if origin is not None:
                    unsure(i, fault, origin, "same-origin")
    made_same: list[_SameSources] = []

    def same() -> _SameSources:
        """The same-source rules' shared walk of the faults (made when first asked)."""
        if not made_same:
            made_same.append(_SameSources(case, sig_list, seqs_of_faults()))
        return made_same[0]

    if lineaged:
        at_of = seqs_of_faults()
        graph = _Graph(case, in_case, steps)
        # a record its recorded lineage does not explain: a fault's token or amount it
        # holds, or a suspected source its lineage reaches (each record once, in order)
        for unexplained, kind in (
                (_unexplained_tokens(graph, items, lineaged, sig_list, at_of),
                 "unexplained-token"),
                (_unexplained_amounts(graph, items, lineaged, sig_list, at_of),
                 "unexplained-token"),
                (_unexplained_points(graph, items, lineaged, sig_list, at_of),
                 "unexplained-token"),
                (_unexplained_days(graph, items, lineaged, sig_list, at_of),
                 "unexplained-token"),
                (_unexplained_quantities(graph, items, lineaged, sig_list, at_of),
                 "unexplained-quantity"),
                (_unexplained_counts(graph, items, lineaged, sig_list, at_of),
                 "unexplained-quantity"),
                (_suspect_lineage(graph, items, lineaged, sig_list, at_of, steps),
                 "suspect-lineage"),
                (_same_source(graph, items, lineaged, sig_list, at_of, steps, same()),
                 "same-source"),
                (_unexplained_record_tokens(graph, items, lineaged, sig_list, at_of),
                 "unexplained-record-token"),
                (_unread_scripts(items, lineaged, sig_list, at_of), "unread-script"),
                (_same_subject(case, items, lineaged, sig_list, at_of), "same-subject")):
            for i, fault, why in unexplained:
                unsure(i, fault, why, kind)
        # last: a record the judge already found carrying a fault, or that it or another
        # rule holds uncertain (for any fault: it is not certified either way), is not
        # asked again for its words
        flagged = {i for i, _ in judged}
        for i, fault, why in _unexplained_words(
                graph, items, {i: seq for i, seq in lineaged.items() if i not in flagged},
                sig_list, at_of):
            unsure(i, fault, why, "unexplained-words")
        del graph  # and its index of dependents, as large as the case's deps
    if added and sig_list:
        for i, fault, why in _same_source_replayed(case, view.steps(), replayed, items,
                                                   added, sig_list, view.decisions(),
                                                   same(), view.unmade_outputs(),
                                                   in_case=steps):
            unsure(i, fault, why, "same-source")
    if untrusted:
        for i, fault in _untrusted_after(case, items, view.active_records(), sig_list,
                                         written_at):
            if (i, fault.node) not in judged:
                put(i, fault, Judgement(
                    verdict="unsure", judge=LEXICAL,
                    evidence=f"written at or after {fault.node} from an untrusted input "
                             "(its lineage reaches a tool observation); the lexical judge "
                             "finds nothing of the fault in it"), 0.0, "judge-unsure", 2)
    answers: dict[int, Judgement] = {}
    if model is not None and questions:
        # what matters most first, should the budget not cover them all
        order = sorted(range(len(questions)), key=kinds.__getitem__)
        answers = dict(zip(order, model.judge_all([questions[q] for q in order]),
                           strict=True))
        out.judge_estimate = model.estimates[-1]
    asked_no = 0
    for i, node, said, score, reason in found:
        if said is None:  # the model's question: its answer, or its budget spent
            j = answers[asked_no]
            asked_no += 1
            reason = "judge-budget-spent" if j.unasked else "judge-unsure"
        else:
            j = said
        if j.verdict != "unsure" or j.judge != LEXICAL:
            judges.add(j.judge)
        _add_judgement(out, by_node, items[i], node, j, score, reason)
    out.judges = sorted(judges, key=lambda name: (name != LEXICAL, name))
    out.judge_use = _spent(before, _use(model))
    out.checked = checked
    return out


def _screened_once(faults: list[ContentSignature], texts: list[str],
                   slots: Mapping[int, tuple[Any, Any]]
                   ) -> Iterator[tuple[int, ContentSignature, Judgement, CarrierMatch | None]]:
    """`LexicalJudge().screen_scored(faults, texts, slots)`, the same tuples in the same
    order, with each distinct text and slot screened once: a judgement depends on the
    text, its slot and the faults alone, and a large store holds the same text again and
    again (the 300k-step synthetic case: 60,000 records of a few thousand texts). A slot
    of values other than plain scalars is screened on its own; a plain one is told apart
    by its values' types too (True and 1 are equal)."""
    first: dict[tuple[Any, ...], int] = {}  # (text, slot) -> its index among the screened
    of: list[int] = []  # item -> the index of the screened text standing for it
    screened: list[str] = []
    screened_slots: dict[int, tuple[Any, Any]] = {}
    for i, text in enumerate(texts):
        slot = slots.get(i)
        key: tuple[Any, ...] | None
        if slot is None:
            key = (text,)
        elif all(type(v) in _PLAIN_SCALARS for v in slot):
            key = (text, type(slot[0]), slot[0], type(slot[1]), slot[1])
        else:
            key = None
        at = first.get(key) if key is not None else None
        if at is None:
            at = len(screened)
            if key is not None:
                first[key] = at
            screened.append(text)
            if slot is not None:
                screened_slots[at] = slot
        of.append(at)
    found: dict[int, list[tuple[ContentSignature, Judgement, CarrierMatch | None]]] = {}
    for k, fault, j, hit in LexicalJudge().screen_scored(faults, screened, screened_slots):
        found.setdefault(k, []).append((fault, j, hit))
    if not found:
        return
    for i, k in enumerate(of):
        for fault, j, hit in found.get(k, ()):
            yield i, fault, j, hit


NAME_KINDS = frozenset({"name", "id", "email"})
"""The token kinds that say who wrote or whom a text is about (a name, a reference, a
sender's address), not where money, a click or a call goes (an account, a URL, a number)."""


def names_only(hit: CarrierMatch, fault: ContentSignature) -> bool:
    """Whether `hit`, a text's match of `fault`, rests on names, references and e-mail
    addresses of the fault (`NAME_KINDS`) and shared wording alone: no account, URL or
    number token of it, no slot value, no instruction marker, no restatement or copy."""
    if hit.slot is not None or hit.markers or hit.restated or hit.copied or not hit.tokens:
        return False
    kinds = {t.casefold(): k for t, k in fault.tokens.items()}
    return all(kinds.get(t.casefold()) in NAME_KINDS for t in hit.tokens)


LINEAGE_READ = 256
"""How many nodes of a record's lineage `_WhoWrites.own_lineage` reads at most, nearest
first: a genuine record's own inputs hold what it shares within a few; past this many
the record keeps the verdict it had (a carrier), so the rule never costs more than this
per record it is asked about, however deep a chain of summaries goes."""


class _WhoWrites:
    """When a record of the case was written against the faults and suspected sources a
    check reads, and what its own recorded lineage holds: the two tests of a record that
    shares only names, references and a sender with one of them (`names_only`)."""

    def __init__(self, case: Case, faults: list[ContentSignature],
                 records: Mapping[str, Any], steps: Mapping[str, Any]) -> None:
        self._case = case
        self._nodes = {f.node for f in faults}
        self._records = records
        self._steps = steps
        self._held: dict[str, tuple[str, frozenset[str]]] = {}

    @cached_property
    def _first(self) -> int | None:
        """The earliest seq of a fault or suspected source, or None when one of them has
        none (it predates the execution: no record of the case is older than it)."""
        at = _seqs(self._case, sorted(self._nodes))
        return None if not self._nodes or len(at) < len(self._nodes) else min(at.values())

    @cached_property
    def _graph(self) -> _Graph:
        return _Graph(self._case, self._records, self._steps)

    @cached_property
    def _reaching(self) -> set[str]:
        """The nodes whose recorded lineage reaches a fault or suspected source, found in
        one pass forward from them, never by walking each record's lineage back."""
        graph = self._graph
        return _reaching(graph, {n for n in self._nodes if n in graph.deps})

    def older(self, record: Any) -> bool:
        """Whether `record` was written before every fault and suspected source (the store
        held it before the run, or its `created_seq` is earlier than each of theirs) and
        its recorded lineage reaches none of them (rule `verify.older-record-names`)."""
        first = self._first
        if first is None:
            return False
        seq = record.created_seq
        if seq is not None and seq >= first:
            return False
        return record.id not in self._reaching

    def own_lineage(self, record: Any, text: str, fault: ContentSignature,
                    hit: CarrierMatch) -> str | None:
        """What `record` (its content `text`) shares with `fault` ("'Weber',
        'k.weber@…'", `hit` its match), when its recorded lineage reaches no fault or
        suspected source and its texts hold each of those tokens and every 5-word run of
        the fault's that `text` holds (rule `verify.own-lineage-names`); else None. The
        lineage is read nearest first and no further than what it holds needs, at most
        `LINEAGE_READ` nodes."""
        if record.id in self._reaching:
            return None
        graph = self._graph
        tokens = {t.casefold() for t in hit.tokens}
        runs = set(shingles(text) & fault.shingles)
        for node in islice(_nearest_first(record.id, graph.deps), LINEAGE_READ):
            said, runs_held = self._read(node)
            tokens = {t for t in tokens if t not in said}
            runs -= runs_held
            if not tokens and not runs:
                return ", ".join(repr(t) for t in hit.tokens)
        return None

    def _read(self, node: str) -> tuple[str, frozenset[str]]:
        """A node's content text case-folded and its 5-word runs, read once per check."""
        got = self._held.get(node)
        if got is None:
            text = self._graph.text(node)
            got = self._held[node] = (text.casefold(), shingles(text))
        return got


def _nearest_first(node: str, deps: Mapping[str, list[str]]) -> Iterator[str]:
    """The nodes `node`'s recorded deps reach, each once, nearest first (breadth first),
    as `walk_back` meets them otherwise: ids that are not keys of `deps` left out."""
    seen = {node}
    queue = deque([node])
    while queue:
        for d in deps.get(queue.popleft(), ()):
            if d not in seen:
                seen.add(d)
                if d in deps:
                    yield d
                    queue.append(d)


def _untrusted_after(case: Case, items: list[tuple[str, str, str]], records: Iterable[Any],
                     faults: list[ContentSignature], written_at: Mapping[str, int]
                     ) -> Iterable[tuple[int, ContentSignature]]:
    """(item, fault) for every item written at or after the fault (its seq not earlier
    than the fault's; every item, for a fault that predates the execution) whose lineage
    in the case reaches an untrusted input (`judge.untrusted_lineage`). A record the case
    does not hold (one a replayed write added) counts as written after every fault, from
    its producer's lineage."""
    bounds = [(f, written_at.get(f.node)) for f in faults]
    reached = untrusted_lineage(case)
    seq_of: dict[str, int | None] = {s.id: s.seq for s in case.trajectory}
    seq_of.update((m.id, m.created_seq) for m in case.memory)
    added = {r.id: r for r in records if r.id not in seq_of}
    for i, (_kind, where, _text) in enumerate(items):
        if where in added:
            seq: int | None = None
            deps = getattr(added[where], "deps", None) or ()
            if not any(getattr(d, "id", None) in reached for d in deps):
                continue
        else:
            seq = seq_of.get(where)
            if seq is None or where not in reached:
                continue  # predates the execution, or no untrusted input behind it
        for fault, at in bounds:
            if seq is None or at is None or seq >= at:
                yield i, fault


def _unexplained_tokens(graph: _Graph, items: list[tuple[str, str, str]],
                        lineaged: Mapping[int, int], faults: list[ContentSignature],
                        written_at: Mapping[str, int]
                        ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that holds one of the fault's distinctive tokens — a strong
    token, or two consecutive words of a name — which nothing in its recorded lineage
    holds (rule `verify.unexplained-token`): its lineage does not explain what it says,
    so an edge from the fault may be missing. Neither a fault nor a suspected source
    explains anything; the user's turns written before the record do. One search over
    the records finds those holding a piece at all (with more pieces than `MAX_CLUES`,
    each record's own tokens and word pairs are looked up instead); the texts of their
    lineages are then read once each, in one pass over the graph (`held_by_lineage`)."""
    pieces: dict[str, list[tuple[ContentSignature, str]]] = {}
    for f in faults:
        if f.node not in written_at:
            continue
        for t, kind in f.tokens.items():
            if kind == "name":
                ws = words(t)
                for a, b in zip(ws, ws[1:], strict=False):
                    pieces.setdefault(f"{a} {b}", []).append((f, t))
            else:
                pieces.setdefault(t.casefold(), []).append((f, t))
    if not pieces:
        return
    if len(pieces) <= MAX_CLUES:
        search = re.compile("|".join(rf"(?<!\w){_piece_pattern(p)}(?!\w)"
                                     for p in sorted(pieces, key=len, reverse=True)))
        holding = {i: seq for i, seq in lineaged.items()
                   if search.search(items[i][2].casefold()) is not None}
    else:  # one search for thousands of alternatives tries each at every place
        holding = dict(lineaged)
    if not holding:
        return
    order = {p: k for k, p in enumerate(pieces)}
    # in the faults' order of tokens, so the piece a why names is the same every run
    wanted: dict[int, list[tuple[ContentSignature, str, str]]] = {}
    for i, seq in holding.items():
        said = words(items[i][2])
        own = {t.casefold() for t in distinctive_tokens(items[i][2], names=False)}
        own.update(f"{a} {b}" for a, b in zip(said, said[1:], strict=False))
        held = [(f, t, p) for p in sorted(own.intersection(pieces), key=order.__getitem__)
                for f, t in pieces[p] if seq > written_at[f.node]]
        if held:
            wanted[i] = held
    if not wanted:
        return

    bit = {p: 1 << k for k, p in enumerate(dict.fromkeys(
        p for held in wanted.values() for _, _, p in held))}

    def explained(text: str) -> int:
        """The pieces held a lineage text explains (bit `bit[piece]`): as whole words,
        or as one of its strong tokens. A piece holds no run of blanks, so none is found
        across two texts' words."""
        heard = f" {' '.join(words(text))} "
        strong = {t.casefold() for t in distinctive_tokens(text, names=False)}
        return sum(b for p, b in bit.items() if f" {p} " in heard or p in strong)

    stating = {i: [(f, bit[p], (t, p)) for f, t, p in held] for i, held in wanted.items()}
    for i, seq, fault, (token, piece) in _unexplained_by_lineage(
            graph, items, stating, holding, faults, explained):
        what = (f"{token!r}" if piece == token.casefold()
                else f"{piece!r} of the name {token!r}")
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), it holds {what} of "
                         f"{fault.node}, which nothing in its recorded lineage holds: "
                         "an edge from the fault may be missing")


def _unexplained_amounts(graph: _Graph, items: list[tuple[str, str, str]],
                         lineaged: Mapping[int, int], faults: list[ContentSignature],
                         written_at: Mapping[str, int]
                         ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that states an amount of the fault's text (`amounts`: a
    thousand or more, with a thousands separator or cents) which no text of its recorded
    lineage states (rule `verify.unexplained-amount`): a summary that keeps only a
    fake invoice's amount and date holds no distinctive token, and without an edge from
    the fault nothing else tells it from a true payable. Faults and suspected sources
    explain nothing; the user's turns written before the record do. Each record's
    amounts are read once; the texts of the lineages of those stating one of a fault's
    are read once each, in one pass over the graph (`held_by_lineage`)."""
    texts = graph.texts([f.node for f in faults if f.node in written_at])
    wanted: dict[str, list[ContentSignature]] = {}
    for f in faults:
        for amount in amounts(canonical(texts.get(f.node, ""))):
            wanted.setdefault(amount, []).append(f)
    if not wanted:
        return
    bit = {a: 1 << k for k, a in enumerate(wanted)}
    stating = _stating(items, lineaged, written_at, lambda text: [
        (f, bit[a], a) for a in amounts(canonical(text)) if a in wanted for f in wanted[a]])
    if not stating:
        return

    def explained(text: str) -> int:
        """The wanted amounts a lineage text states (bit `bit[amount]`)."""
        return sum({bit[a] for a in amounts(canonical(text)) if a in bit})

    for i, seq, fault, amount in _unexplained_by_lineage(
            graph, items, stating, lineaged, faults, explained):
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), it states the amount {amount} of "
                         f"{fault.node}, which nothing in its recorded lineage states: "
                         "an edge from the fault may be missing")


def _unexplained_points(graph: _Graph, items: list[tuple[str, str, str]],
                        lineaged: Mapping[int, int], faults: list[ContentSignature],
                        written_at: Mapping[str, int]
                        ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that states a point the fault's text states, in any of
    decimal degrees, degrees and minutes or degrees, minutes and seconds (`points`, within
    the tolerance each is written to), which no text of its recorded lineage states (rule
    `verify.unexplained-point`): a meeting point converted to another notation holds no
    distinctive token. Faults and suspected sources explain nothing; the user's turns
    written before the record do. The fault's points are looked up by a grid of cells of
    0.01 degree (a tolerance is at most 0.0005), so each point read costs nine lookups."""
    texts = graph.texts([f.node for f in faults if f.node in written_at])
    grid: dict[tuple[int, int], list[tuple[Point, int, ContentSignature]]] = {}
    k = 0
    for f in faults:
        for p in points(canonical(texts.get(f.node, ""))):
            # a coordinate written without a letter or a sign under its mirror too
            for cell in {_cell(*reading) for reading in readings(p)}:
                grid.setdefault(cell, []).append((p, 1 << k, f))
            k += 1
    if not grid:
        return

    def near(p: Point) -> Iterator[tuple[Point, int, ContentSignature]]:
        seen: set[int] = set()
        for lat, lon in {_cell(*reading) for reading in readings(p)}:
            for dlat in (-1, 0, 1):
                for dlon in (-1, 0, 1):
                    for q, b, f in grid.get((lat + dlat, lon + dlon), ()):
                        if b not in seen and same_point(p, q):
                            seen.add(b)
                            yield q, b, f

    stating = _stating(items, lineaged, written_at, lambda text: [
        (f, b, p) for p in points(canonical(text)) for _q, b, f in near(p)])
    if not stating:
        return

    def explained(text: str) -> int:
        """The bits of the fault's points a lineage text states."""
        return sum({b for p in points(canonical(text)) for _q, b, _f in near(p)})

    for i, seq, fault, p in _unexplained_by_lineage(
            graph, items, stating, lineaged, faults, explained):
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), it states the point {p.written!r} "
                         f"({p.lat:.5f}, {p.lon:.5f}) of {fault.node}, which nothing in its "
                         "recorded lineage states: an edge from the fault may be missing")


def _unexplained_days(graph: _Graph, items: list[tuple[str, str, str]],
                      lineaged: Mapping[int, int], faults: list[ContentSignature],
                      written_at: Mapping[str, int]
                      ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that states a calendar day the fault's text states, in any
    notation `days` reads ("19 marca 2027" = "19.III.2027" = "2027-W11-5"), which no text
    of its recorded lineage states (rule `verify.unexplained-date`): a visit a fake text
    moved, restated with its month in Roman numerals, holds no distinctive token.
    Faults and suspected sources explain nothing; the user's turns written before the
    record do. The fault's days are looked up by month and day."""
    texts = graph.texts([f.node for f in faults if f.node in written_at])
    wanted: dict[tuple[int, int], list[tuple[Day, int, ContentSignature]]] = {}
    k = 0
    for f in faults:
        for d in days(canonical(texts.get(f.node, ""))):
            wanted.setdefault((d.month, d.day), []).append((d, 1 << k, f))
            k += 1
    if not wanted:
        return

    def near(d: Day) -> Iterator[tuple[int, ContentSignature]]:
        for w, b, f in wanted.get((d.month, d.day), ()):
            if same_day(d, w):
                yield b, f

    stating = _stating(items, lineaged, written_at, lambda text: [
        (f, b, d) for d in days(canonical(text)) for b, f in near(d)])
    if not stating:
        return

    def explained(text: str) -> int:
        """The bits of the fault's days a lineage text states."""
        return sum({b for d in days(canonical(text)) for b, _f in near(d)})

    for i, seq, fault, d in _unexplained_by_lineage(
            graph, items, stating, lineaged, faults, explained):
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), it states the day {d.written!r} of "
                         f"{fault.node}, which nothing in its recorded lineage states: an "
                         "edge from the fault may be missing")


def _cell(lat: float, lon: float) -> tuple[int, int]:
    return int(lat * 100 // 1), int(lon * 100 // 1)


def _unexplained_quantities(graph: _Graph, items: list[tuple[str, str, str]],
                            lineaged: Mapping[int, int], faults: list[ContentSignature],
                            written_at: Mapping[str, int]
                            ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that states a quantity of mass or volume the fault's text
    states, in any unit (`quantities`: "0.5 g" is "500 mg"), which no text of its recorded
    lineage states of the same subject (rule `verify.unexplained-quantity`): a lineage
    text explains it only when it states that quantity and holds the word the record
    writes before it ("lamotrigine 500 mg" is not explained by "paracetamol 500 mg").
    Faults and suspected sources explain nothing; the user's turns written before the
    record do. Each record's quantities are read once; the texts of the lineages of those
    stating one of a fault's are read once each, in one pass over the graph
    (`held_by_lineage`)."""
    texts = graph.texts([f.node for f in faults if f.node in written_at])
    wanted: dict[str, list[tuple[ContentSignature, str]]] = {}
    for f in faults:
        for q in quantities(texts.get(f.node, "")):
            if all(g is not f for g, _ in wanted.get(q.amount, ())):
                wanted.setdefault(q.amount, []).append((f, q.written))
    if not wanted:
        return
    stating: dict[int, list[tuple[Any, ContentSignature, str]]] = {}
    for i, seq in lineaged.items():
        held = [(q, f, written) for q in quantities(items[i][2]) if q.amount in wanted
                for f, written in wanted[q.amount] if seq > written_at[f.node]]
        if held:
            stating[i] = held
    if not stating:
        return
    # a bit per (amount, subject) a record states: a text explains it when it states the
    # amount and, where there is a subject, holds that word
    bit: dict[tuple[str, str | None], int] = {}
    for held in stating.values():
        for q, _, _ in held:
            bit.setdefault((q.amount, q.subject), 1 << len(bit))
    subjects: dict[str, list[tuple[str | None, int]]] = {}
    for (amount, subject), b in bit.items():
        subjects.setdefault(amount, []).append((subject, b))

    def explained(text: str) -> int:
        """The (amount, subject) bits a lineage text states."""
        found = [amount for amount in {q.amount for q in quantities(text)}
                 if amount in subjects]
        if not found:
            return 0
        said = frozenset(w.casefold() for w in _WORDS.findall(text))
        return sum(b for amount in found for subject, b in subjects[amount]
                   if subject is None or subject in said)

    pieces = {i: [(f, bit[q.amount, q.subject], (q, written)) for q, f, written in held]
              for i, held in stating.items()}
    for i, seq, fault, (q, written) in _unexplained_by_lineage(
            graph, items, pieces, lineaged, faults, explained):
        what = f"{q.subject} {q.written}" if q.subject else q.written
        also = "" if q.written == written else f" ({written} in other units)"
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), it states {what!r}, the quantity "
                         f"{q.amount} of {fault.node}{also}, which nothing in its "
                         "recorded lineage states of the same thing: an edge from the "
                         "fault may be missing")


def _unexplained_counts(graph: _Graph, items: list[tuple[str, str, str]],
                        lineaged: Mapping[int, int], faults: list[ContentSignature],
                        written_at: Mapping[str, int]
                        ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault that states a dose (a quantity of mass or volume,
    `quantities`), which states a count of doses (`dose_counts`: "one and a half of the
    pink tablets") that no text of its recorded lineage states (rule
    `verify.unexplained-quantity`): a false dose restated as how many tablets to take
    leaves no quantity to compare. A lineage text explains a count when it states the
    same count of the same unit; faults and suspected sources explain nothing, the user's
    turns written before the record do."""
    texts = graph.texts([f.node for f in faults if f.node in written_at])
    dosed = [(f, q[0].written) for f in faults
             if (q := quantities(texts.get(f.node, "")))]
    if not dosed:
        return
    bit: dict[str, int] = {}
    stating: dict[int, list[tuple[ContentSignature, int, Any]]] = {}
    for i, seq in lineaged.items():
        held = [(f, written, n) for n in dose_counts(items[i][2]) for f, written in dosed
                if seq > written_at[f.node]]
        if held:
            stating[i] = [(f, bit.setdefault(n.amount, 1 << len(bit)), (n, written))
                          for f, written, n in held]
    if not stating:
        return

    def explained(text: str) -> int:
        """The counts a lineage text states."""
        return sum(bit.get(n.amount, 0) for n in {n.amount: n for n in dose_counts(text)}
                   .values())

    for i, seq, fault, (n, written) in _unexplained_by_lineage(
            graph, items, stating, lineaged, faults, explained):
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), which states the dose {written}, it "
                         f"states the count {n.written!r} ({n.amount}), which nothing in "
                         "its recorded lineage states: a dose restated as how many to "
                         "take; an edge from the fault may be missing")


_P = TypeVar("_P")


def _stating(items: list[tuple[str, str, str]], lineaged: Mapping[int, int],
             written_at: Mapping[str, int],
             held_by: Callable[[str], list[tuple[ContentSignature, int, _P]]]
             ) -> dict[int, list[tuple[ContentSignature, int, _P]]]:
    """Item -> the (fault, bit, piece) of a fault's that its record's text holds
    (`held_by(text)`, each record of `lineaged` read once), of the faults written before
    the record (item -> the seq it was written at), for each record holding one: the
    records the `verify.unexplained-*` rules go on to ask `_unexplained_by_lineage`
    about."""
    stating: dict[int, list[tuple[ContentSignature, int, _P]]] = {}
    for i, seq in lineaged.items():
        held = [(f, b, piece) for f, b, piece in held_by(items[i][2])
                if seq > written_at[f.node]]
        if held:
            stating[i] = held
    return stating


def _unexplained_by_lineage(graph: _Graph, items: list[tuple[str, str, str]],
                            stating: Mapping[int, list[tuple[ContentSignature, int, Any]]],
                            seqs: Mapping[int, int], faults: list[ContentSignature],
                            explained: Callable[[str], int]
                            ) -> Iterator[tuple[int, int, ContentSignature, Any]]:
    """(item, seq, fault, piece) for the first piece of each fault a record of `stating`
    holds (item -> [(fault, the piece's bit, the piece)], in the order a why names them)
    that nothing explains: not the texts of its recorded lineage, read once each in one
    pass over the graph (`held_by_lineage`; faults and suspected sources explain
    nothing), nor the user's turns written before the record (at seq `seqs[item]`).
    `explained(text)` gives the bits of the pieces a text explains. The shared end of the
    `verify.unexplained-*` rules of tokens, amounts and quantities."""
    barred = {f.node for f in faults}
    got = held_by_lineage(graph.deps, lambda n: 0 if n in barred else explained(
        graph.text(n)), (d for i in stating for d in graph.deps.get(items[i][1], ())))
    turns = _TurnsBefore(graph.case, explained)
    for i, held in stating.items():
        seq = seqs[i]
        known = record_holds(items[i][1], graph.deps, got) | turns.before(seq)
        told: set[str] = set()
        for fault, b, piece in held:
            if fault.node in told or known & b:
                continue
            told.add(fault.node)
            yield i, seq, fault, piece


_WORDS = re.compile(r"[^\W\d_]{3,}")
"""A word as `quantities` reads a subject: three or more letters."""


def _suspect_lineage(graph: _Graph, items: list[tuple[str, str, str]],
                     lineaged: Mapping[int, int], faults: list[ContentSignature],
                     written_at: Mapping[str, int], steps: Mapping[str, Any]
                     ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, node, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault or suspected source whose recorded lineage reaches that
    node, or a tool output a fault record was written from (rule
    `verify.suspect-lineage`): what it says came from an input nobody cleared, so a
    lexical judge finding none of the node's tokens in it is no judgement of its
    meaning. Which of those nodes each record's lineage reaches, in the order a walk
    back from it meets them, is worked out for every record in one pass over the graph
    (`meets_in_order`), never by walking each record's lineage."""
    records = {m.id: m for m in graph.case.memory}
    reach: dict[str, list[tuple[ContentSignature, str]]] = {}
    for f in faults:
        if f.node not in written_at:
            continue
        reach.setdefault(f.node, []).append((f, f.node))
        for obs in _outputs_read(getattr(records.get(f.node), "deps", None), steps):
            reach.setdefault(obs, []).append((f, obs))
    for i, met in _lineages_meeting(graph, items, lineaged, set(reach)):
        seq = lineaged[i]
        told: set[str] = set()
        for n in met:
            for fault, source in reach[n]:
                if fault.node in told or seq <= written_at[fault.node]:
                    continue
                told.add(fault.node)
                what = (f"{fault.node} itself" if source == fault.node
                        else f"{source}, which {fault.node} was written from")
                yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                                 f"{written_at[fault.node]}), its recorded lineage reaches "
                                 f"{what}: the lexical judge found nothing of the fault in "
                                 "it, which says nothing of what it means")


def _reaching(graph: _Graph, targets: set[str]) -> set[str]:
    """The nodes from which a node of `targets` can be reached through recorded deps:
    one pass forward from them."""
    dependents = graph.dependents
    tainted: set[str] = set()
    stack = list(targets)
    while stack:
        for m in dependents.get(stack.pop(), ()):
            if m not in tainted:
                tainted.add(m)
                stack.append(m)
    return tainted


def _lineages_meeting(graph: _Graph, items: list[tuple[str, str, str]],
                      lineaged: Mapping[int, int], wanted: set[str]
                      ) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(item, the nodes of `wanted` its recorded lineage meets, in the order a walk back
    from it meets them) for each record of `lineaged` whose lineage meets any, worked
    out for every record in one pass over the graph (`meets_in_order`), never by walking
    each record's lineage; only the nodes a wanted node can be reached from are
    entered (`_reaching`)."""
    targets = {n for n in wanted if n in graph.deps}
    if not targets:
        return
    tainted = _reaching(graph, targets)
    asked = [i for i in lineaged if items[i][1] in tainted]
    met = meets_in_order(graph.deps, targets,
                         (d for i in asked for d in graph.deps.get(items[i][1], ())),
                         tainted | targets)
    for i in asked:
        yield i, record_meets(items[i][1], graph.deps, met)


class _SameSources:
    """What `refetched` and `refetched_by_replay` find for one check's faults: the walk
    back from the faults to the inputs they were written from (`written_from`, over the
    whole case) made once, and the case's own observations fetched again found once,
    whichever same-source rules ask (the rule of the case's records and the rule of the
    replayed writes each walked the case again: three walks, about 2 % of a 300k-step
    repair)."""

    def __init__(self, case: Case, faults: list[ContentSignature],
                 written_at: Mapping[str, int]) -> None:
        self.case, self.faults, self.written_at = case, faults, written_at

    @cached_property
    def walked(self) -> dict[str, str]:
        """`written_from` of the faults."""
        return written_from(self.case, self.faults, self.written_at)

    @cached_property
    def kept(self) -> dict[str, list[Refetch]]:
        """`refetched` of the faults."""
        return refetched(self.case, self.faults, self.written_at, walked=self.walked)

    def by_replay(self, fresh: list[Any], repaired: Mapping[str, Any]
                  ) -> dict[str, list[Refetch]]:
        """`refetched_by_replay` of the faults."""
        return refetched_by_replay(self.case, self.faults, self.written_at, fresh, repaired,
                                   walked=self.walked)


def _same_source(graph: _Graph, items: list[tuple[str, str, str]],
                 lineaged: Mapping[int, int], faults: list[ContentSignature],
                 written_at: Mapping[str, int], steps: Mapping[str, Any],
                 same: _SameSources | None = None
                 ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, node, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault or suspected source whose recorded lineage reaches a tool
    observation, written after the node, that is the untrusted input the node was
    written from fetched again (`refetched`: the same call, the same document or
    message, or a text holding the node's content; rule `verify.same-source`): its
    lineage is not free of the faults, though it reaches none of them, and the lexical
    judge finding nothing of the node in it says nothing of what it means. Which nodes
    each record's lineage reaches so, with one such observation each, is worked out for
    every record in one pass over the graph, the nodes carried as marks
    (`first_marks_by_lineage`): however many observations are fetched again, a record
    costs its deps times the faults. `same`: the check's `_SameSources` of these faults,
    when it has one."""
    again = (same or _SameSources(graph.case, faults, written_at)).kept
    targets = {obs for obs in again if obs in graph.deps}
    if not targets:
        return
    marks = {obs: [r.fault for r in again[obs]] for obs in targets}
    tainted = _reaching(graph, targets)
    asked = [i for i in lineaged if items[i][1] in tainted]
    got = first_marks_by_lineage(graph.deps, marks,
                                 (d for i in asked for d in graph.deps.get(items[i][1], ())),
                                 tainted | targets)
    for i in asked:
        seq = lineaged[i]
        reached = record_first_marks(items[i][1], graph.deps, got)
        for fault in faults:
            obs = reached.get(fault.node)
            if obs is None or seq <= written_at[fault.node]:
                continue
            r = next(r for r in again[obs] if r.fault == fault.node)
            yield i, fault, (
                f"written at seq {seq}, after {r.fault} (seq {written_at[r.fault]}), "
                f"its recorded lineage reaches {obs} (seq {steps[obs].seq}), "
                f"{r.said}: the same untrusted source as {r.whence}, fetched again. The "
                "lexical judge found nothing of the fault in it, which says nothing "
                "of what it means")

def _same_source_replayed(case: Case, repaired: list[Any], replayed: list[Any],
                          items: list[tuple[str, str, str]], added: Mapping[int, Any],
                          faults: list[ContentSignature], decided: Mapping[str, str],
                          same: _SameSources, unmade: str | None = None, *,
                          in_case: Mapping[str, Any]
                          ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, node, why) for each record a replayed write added (`added`: item -> the
    record) whose lineage in the repaired trajectory (`repaired`, its `replayed` steps
    the replay's own) reaches the untrusted input a fault or suspected source was
    written from fetched again: an observation the replay refreshed that is the same
    source (`refetched_by_replay`), or one of the case fetched again after the node
    that the replay kept (`refetched`). The rule `verify.same-source` asks of the
    case's records, asked of what the apply would write (`verify.same-source-replayed`).
    Which nodes each record's lineage reaches so is worked out for every record in one
    pass over the repaired graph (`first_marks_by_lineage`).

    The lineage is not the result's word alone (`verify.replayed-lineage-recomputed`):
    a step's deps are the repaired trajectory's and the case's, less the inputs the
    decisions remove (`decided`: id -> action), an observation the decisions refresh is
    refreshed whatever the result marks, and an added record is written by the case's
    write whose replay names it so (`added_writers`). `same`: the check's `_SameSources`
    of these faults.

    The words an added record is compared with (`verify.same-source-words`) are the
    marked observation's text in the result and in the case, and an output the replay
    refreshed is the result's word unless the gate makes it certain (`unmade`: why not,
    from `_ResultView.unmade_outputs`): then a record written after it that no other
    test flags for that fault is uncertain all the same (`verify.refreshed-text-certain`).
    `in_case`: the case's steps by id."""
    by_id = _MergedSteps({s.id: s for s in repaired}, in_case, decided)
    refreshed = {s.id for s in replayed if s.type == "tool_observation"}
    refreshed |= {s.id for s in repaired if s.type == "tool_observation"
                  and decided.get(s.id) in ("refresh", "replay")}
    fresh = {o: by_id[o] for o in refreshed if o in by_id}
    again = same.by_replay(list(fresh.values()), by_id)
    kept = {obs: found for obs, found in same.kept.items() if obs not in refreshed}
    marks = {obs: [r.fault for r in found] for obs, found in [*again.items(), *kept.items()]}
    if not marks:
        return
    writer: dict[str, list[str]] = {}
    for s in repaired:
        if s.type == "memory_write":
            for t in _step_part(s, "target"):
                writer.setdefault(t, []).append(s.id)
    own_writers = added_writers(case, [r.id for r in added.values()])
    made: dict[str, Any] = {m.id: m for m in case.memory}
    writers_of = {i: _writers_of(rec, writer, own_writers, decided)
                  for i, rec in added.items()}
    for i, rec in added.items():
        own = list(getattr(rec, "deps", None) or ())
        own += [SimpleNamespace(id=w, label="produce") for w in dict.fromkeys(writers_of[i])
                if all(d.id != w for d in own)]
        made[rec.id] = SimpleNamespace(deps=own)
    deps = _ContentDeps(by_id.beside(made))
    got = first_marks_by_lineage(deps, marks, (r.id for r in added.values()))
    # the case's text of each marked observation is compared too: a result's copy of it
    # (a refreshed or kept step) is its word, the case's is not
    texts = {obs: (_step_text(by_id[obs]) if obs in by_id else "",
                   _step_text(in_case[obs]) if obs in in_case else "") for obs in marks}
    runs = {obs: _word_runs(mine) | (_word_runs(theirs) if theirs != mine else set())
            for obs, (mine, theirs) in texts.items()}
    # rule verify.refreshed-text-certain: what the replay's call of the source gave is
    # the result's word when the gate cannot make it again, even when it says the case's
    # text came back (the tool was called again: nothing recorded says it returns that)
    # (the latest first: the one a record is named with is the last refresh before it)
    unsure_text = sorted(again, key=lambda o: -by_id[o].seq) if unmade is not None else []
    for i, rec in added.items():
        reached = record_first_marks(rec.id, deps, got)
        held = _run_held(items[i][2], runs)
        written = [by_id[w].seq for w in writers_of[i] if w in by_id]
        for fault in faults:
            obs = reached.get(fault.node)
            # rule verify.same-source-words: which replayed write wrote which text is the
            # result's word; the words are the record's own
            worded = obs is None and held is not None and fault.node in marks[held]
            if worded:
                obs = held
            if obs is None:
                hidden = next((o for o in unsure_text if fault.node in marks[o]
                               and (not written or max(written) > by_id[o].seq)), None)
                if hidden is not None:
                    r = next(r for r in again[hidden] if r.fault == fault.node)
                    yield i, fault, (
                        f"written by the replay after it refreshed {hidden}, {r.said}: the "
                        f"same untrusted source as {r.whence}. What {hidden} gave this time is "
                        f"the result's word, and not the case's: {unmade}; so this record's "
                        "words cannot be compared with it, and the lexical judge found "
                        "nothing of the fault in it, which says nothing of what it means")
                continue
            r = next(r for r in (again if obs in again else kept)[obs] if r.fault == fault.node)
            how = "refreshed by the replay" if obs in again else "fetched again"
            reach = (f"its recorded lineage does not reach {obs} ({how}), yet it holds "
                     f"{RUN_WORDS} or more words in a row of it" if worded
                     else f"its lineage reaches {obs} ({how})")
            yield i, fault, (
                f"written by the replay, {reach}, {r.said}: the same untrusted source as "
                f"{r.whence}. The lexical judge found nothing of the fault in it, which says "
                "nothing of what it means")


def _writers_of(rec: Any, writer: Mapping[str, list[str]],
                own_writers: Mapping[str, Any], decided: Mapping[str, str]) -> list[str]:
    """The steps that wrote the added record `rec`: the writes whose target names it in
    the repaired trajectory, and the case's write whose replay names it so."""
    return [*writer.get(rec.id, ()),
            *(w for w in own_writers.get(rec.id, ()) if decided.get(w) == "replay")]


def _word_runs(text: str) -> set[tuple[str, ...]]:
    """Each run of `RUN_WORDS` consecutive (case-folded) words of `text`."""
    w = words(canonical(text))
    return set(zip(*(w[k:] for k in range(RUN_WORDS)), strict=False))


def _run_held(text: str, runs: Mapping[str, set[tuple[str, ...]]]) -> str | None:
    """The first key of `runs` whose runs of words `text` holds one of, or None."""
    if not any(runs.values()):
        return None
    mine = _word_runs(text)
    return next((obs for obs, theirs in runs.items() if not mine.isdisjoint(theirs)), None)


_REMOVED = frozenset({"delete", "quarantine", "invalidate"})
"""The decisions that take an input away from the replay: a replayed step no longer
sees it (`report.no_longer_sees`)."""


_V = TypeVar("_V")


class _ReadWhenAsked(Mapping[str, _V]):
    """Node id -> a value made from the node of `nodes` when asked (`__getitem__`): its
    ids are `nodes`' (a value per node of a million-step case is not kept)."""

    def __init__(self, nodes: Mapping[str, Any]) -> None:
        self._nodes = nodes

    def __contains__(self, node: object) -> bool:
        return node in self._nodes

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


class _MergedSteps(_ReadWhenAsked[Any]):
    """The repaired trajectory's steps by id, each read with the deps the replay could
    have given it: its own (read and checked from a result file) and those of the
    case's step of that id whose input the decisions keep, replay or refresh. Made when
    asked, once."""

    def __init__(self, repaired: Mapping[str, Any], in_case: Mapping[str, Any],
                 decided: Mapping[str, str]) -> None:
        super().__init__(repaired)
        self._case, self._decided = in_case, decided
        self._made: dict[str, Any] = {}

    def beside(self, others: Mapping[str, Any]) -> Mapping[str, Any]:
        """These steps and `others` (records), a step first."""
        return _Beside(self, others)

    def __getitem__(self, node: str) -> Any:
        got = self._made.get(node)
        if got is None:
            s = self._nodes[node]
            deps = _step_part(s, "deps")
            have = {(d.id, d.label) for d in deps}
            original = self._case.get(node)
            deps += [d for d in getattr(original, "deps", None) or ()
                     if (d.id, d.label) not in have and self._decided.get(d.id) not in _REMOVED]
            # a result file's step is read without its JSON, which holds only its own deps
            got = self._made[node] = (
                SimpleNamespace(**{k: v for k, v in vars(s).items() if k != "raw"}, deps=deps)
                if getattr(s, "raw", None) is not None else s.model_copy(update={"deps": deps}))
        return got


class _Beside(Mapping[str, Any]):
    """Two mappings read as one, the first first."""

    def __init__(self, first: Mapping[str, Any], second: Mapping[str, Any]) -> None:
        self._first, self._second = first, second

    def __getitem__(self, node: str) -> Any:
        return self._first[node] if node in self._first else self._second[node]

    def __contains__(self, node: object) -> bool:
        return node in self._first or node in self._second

    def __iter__(self) -> Iterator[str]:
        yield from self._first
        yield from (n for n in self._second if n not in self._first)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _DepIds(_ReadWhenAsked[list[str]]):
    """Node id -> the ids of its recorded deps, read from the node when asked."""

    def __getitem__(self, node: str) -> list[str]:
        return [d.id for d in getattr(self._nodes[node], "deps", None) or ()]


class _ContentDeps(_DepIds):
    """Node id -> the ids of its deps over edges that carry content (`CONTENTLESS_LABELS`
    left out), read from the node when asked, once: a step of a result file has its deps
    read (and checked) only when a lineage reaches it."""

    def __init__(self, nodes: Mapping[str, Any]) -> None:
        super().__init__(nodes)
        self._read: dict[str, list[str]] = {}

    def __getitem__(self, node: str) -> list[str]:
        got = self._read.get(node)
        if got is None:
            got = self._read[node] = [d.id for d in _step_part(self._nodes[node], "deps")
                                      if d.label not in CONTENTLESS_LABELS]
        return got


def _step_part(node: Any, part: Literal["deps", "target"]) -> list[Any]:
    """A node's `deps` or `target`: its own, or, for a step of a result file, read from
    its JSON and checked (a bad one is a DgrrError naming its field)."""
    raw = getattr(node, "raw", None)
    if raw is None:
        return list(getattr(node, part, None) or ())
    if part == "target":
        return _texts_field(raw, "target", node.field)
    return _deps_field(raw, node.field)


_NOT_ALNUM = re.compile(r"[\W_]+")
_GROUPED_DIGITS = re.compile(r"(?<![\d])\d(?:[ \t]?\d){9,}")
"""Ten or more digits in groups split by single blanks: an account the tokeniser leaves
out (an IBAN-shaped run that fails its checksum, a number too long for a card)."""
_NATIONAL_DIGITS = 9
"""A phone number's last digits, the same in every national and international form
("07700 900586", "+44 7700 900586", "447700900586")."""


WALKED_FIRST = 32
"""How many lineage nodes `verify.unexplained-record-token` walks back from a record,
stopping once every token of its own is explained, before it leaves the record to the
one pass over the lineages of every record still open (`_tokens_held_by_lineage`)."""
_BITS_PER_PASS = 4096
"""The most open tokens one pass over the lineages carries as bits: the bits a node
keeps stay a few hundred bytes however many records are left open."""


def _unexplained_record_tokens(graph: _Graph, items: list[tuple[str, str, str]],
                               lineaged: Mapping[int, int], faults: list[ContentSignature],
                               written_at: Mapping[str, int], *, walked: int = WALKED_FIRST
                               ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault that holds a strong token of its own (`distinctive_tokens`
    of its canonical text, names aside: a number, account, URL host, e-mail address,
    handle or id; or ten or more digits grouped by blanks, `_GROUPED_DIGITS`) which no
    text of its recorded lineage and no user turn before it holds
    (rule `verify.unexplained-record-token`). It reads the record, not the fault: a
    payload written in an encoding the matcher does not read still shows as a token
    nothing the record was written from explains. A token is explained when its
    canonical form is a token of a lineage text, or its letters and digits occur in the
    lineage's canonical letters and digits (so a number regrouped, an id in other case or
    a host inside a longer URL is explained), or, for a number of nine or more digits,
    its last nine digits occur in the lineage's digits (a phone in another national or
    international form). Faults and suspected sources explain nothing. One finding per
    record, against the first fault it was written after.

    Each lineage text is read once. A record's walk back stops once every token of its
    own is explained, or after `walked` nodes; the records still open then (those with a
    finding, and those explained only far back) are answered together: the texts of
    their lineages are read once, each looked up for the open tokens it holds, and one
    pass over the graph carries a bit per open token from a text holding it to the
    records it explains (`_tokens_held_by_lineage`). Walking each such record's whole
    lineage instead was quadratic on a long chain of records each with a finding."""
    bounds = [(f, written_at[f.node]) for f in faults if f.node in written_at]
    if not bounds:
        return
    turns = [(getattr(t, "seq", None), node_parts(t)[0]) for t in graph.case.session]
    barred = {f.node for f in faults}
    read: dict[str, _Read] = {}

    def known(key: str) -> _Read:
        """A lineage node's (or `turn:K`, turn K's) canonical tokens, letters and digits,
        and digits (read once)."""
        got = read.get(key)
        if got is None:
            text = turns[int(key[5:])][1] if key.startswith("turn:") else graph.text(key)
            flat = canonical(text)
            alnum = _NOT_ALNUM.sub("", flat)
            got = read[key] = (frozenset(distinctive_tokens(flat, names=False)), alnum,
                               "".join(c for c in alnum if c.isdigit()))
        return got

    # item -> (seq, fault, its own tokens with their kinds, those still open)
    still: dict[int, tuple[int, ContentSignature, Mapping[str, str], _OpenTokens]] = {}
    deeper: dict[int, _OpenTokens] = {}  # those whose walk stopped at its bound
    for i, seq in lineaged.items():
        fault = next((f for f, at in bounds if seq > at), None)
        if fault is None:
            continue
        flat = canonical(items[i][2])
        own = distinctive_tokens(flat, names=False)
        for m in _GROUPED_DIGITS.finditer(flat):
            own.setdefault(m.group(0).replace(" ", "").replace("\t", ""), "number")
        if not own:
            continue
        # token -> (its letters and digits, its last nine digits): those no text read
        # so far explains, in the record's order; the walk stops once none is left
        open_: _OpenTokens = {}
        for token, kind in own.items():
            folded = _NOT_ALNUM.sub("", token)
            open_[token] = (folded, folded[-_NATIONAL_DIGITS:] if kind in ("number", "account")
                            and folded.isdigit() and len(folded) >= _NATIONAL_DIGITS else None)
        for count, n in enumerate(walk_back(items[i][1], graph.deps)):
            if not open_:
                break
            if count == walked:
                deeper[i] = open_
                break
            if n not in barred:
                _explain(open_, known(n))
        for k, (at, _text) in enumerate(turns):
            if open_ and isinstance(at, int) and at < seq:
                _explain(open_, known(f"turn:{k}"))
        if open_:
            still[i] = (seq, fault, own, open_)
    held = _tokens_held_by_lineage(graph, items, {i: open_ for i, open_ in deeper.items()
                                                  if open_}, barred, known)
    for i, (seq, fault, kinds, open_) in still.items():
        first = next((t for t in open_ if t not in held.get(i, ())), None)
        if first is not None:
            yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                             f"{written_at[fault.node]}), it holds the {kinds[first]} {first!r}, "
                             "which neither its recorded lineage nor an earlier user turn "
                             "holds in any form: what it says came from somewhere its "
                             "lineage does not record")


_OpenTokens = dict[str, tuple[str, str | None]]
"""A record's tokens not yet explained, in its order -> (the token's letters and digits,
its last nine digits when it is a number or account of nine or more)."""
_Read = tuple[frozenset[str], str, str]
"""A text as `verify.unexplained-record-token` reads it: its canonical strong tokens, its
canonical letters and digits, and its digits."""


def _explain(open_: _OpenTokens, text: _Read) -> None:
    """Drop from `open_` the tokens the text `text` explains."""
    toks, alnum, digits = text
    for token in [t for t, (folded, tail) in open_.items() if t in toks
                  or (folded and folded in alnum) or (tail is not None and tail in digits)]:
        del open_[token]


def _tokens_held_by_lineage(graph: _Graph, items: list[tuple[str, str, str]],
                            asked: Mapping[int, _OpenTokens], barred: Collection[str],
                            known: Callable[[str], _Read]) -> dict[int, set[str]]:
    """Item -> the tokens of `asked[item]` some text of its record's recorded lineage
    explains (faults and suspected sources, `barred`, explain nothing), for every item
    asked at once. Each text of the lineages is read once and looked up for the asked
    tokens it holds: as a token, by its letters and digits at each place (one set of the
    text's pieces per length of an asked token's) and by nine digits at each place. A
    text that holds one can explain it only when it comes before the record in the
    order of the lineage's components (or in the record's own cycle), so most texts
    holding a record's token (the record itself, the records after it copying it) are
    dropped then; one pass over the graph (`held_by_lineage`) carries a bit per token
    still held somewhere from the texts holding it to the records, `_BITS_PER_PASS`
    tokens at a time."""
    if not asked:
        return {}
    queries: list[tuple[int, str]] = []
    by_token: dict[str, list[int]] = {}
    by_piece: dict[int, dict[str, list[int]]] = {}  # length -> letters and digits -> queries
    by_tail: dict[str, list[int]] = {}
    for i, open_ in asked.items():
        for token, (folded, tail) in open_.items():
            q = len(queries)
            queries.append((i, token))
            by_token.setdefault(token, []).append(q)
            if folded:
                by_piece.setdefault(len(folded), {}).setdefault(folded, []).append(q)
            if tail is not None:
                by_tail.setdefault(tail, []).append(q)
    # each node's place in an order in which what a node's deps reach comes first
    place: dict[str, int] = {}
    cyclic: set[int] = set()
    for k, component in enumerate(components(graph.deps, (items[i][1] for i in asked))):
        if len(component) > 1 or component[0] in graph.deps[component[0]]:
            cyclic.add(k)
        for n in component:
            place[n] = k
    holding: dict[str, list[int]] = {}
    for n, at in place.items():
        if n in barred:
            continue
        toks, alnum, digits = known(n)
        hits: set[int] = set()
        for t in toks:
            hits.update(by_token.get(t, ()))
        for length, pieces in by_piece.items():
            if len(alnum) >= length:
                for piece in pieces.keys() & {alnum[j:j + length]
                                              for j in range(len(alnum) - length + 1)}:
                    hits.update(pieces[piece])
        if by_tail and len(digits) >= _NATIONAL_DIGITS:
            for tail in by_tail.keys() & {digits[j:j + _NATIONAL_DIGITS] for j in
                                          range(len(digits) - _NATIONAL_DIGITS + 1)}:
                hits.update(by_tail[tail])
        before = [q for q in hits if at < place[items[queries[q][0]][1]]
                  or (at == place[items[queries[q][0]][1]] and at in cyclic)]
        if before:
            holding[n] = before
    out: dict[int, set[str]] = {}
    wanted = sorted({q for qs in holding.values() for q in qs})
    for start in range(0, len(wanted), _BITS_PER_PASS):
        bit = {q: 1 << k for k, q in enumerate(wanted[start:start + _BITS_PER_PASS])}
        records = {items[queries[q][0]][1] for q in bit}

        def holds(n: str, bit: Mapping[int, int] = bit) -> int:
            return sum(bit[q] for q in holding.get(n, ()) if q in bit)

        got = held_by_lineage(graph.deps, holds,
                              (d for r in records for d in graph.deps.get(r, ())))
        reached = {r: record_holds(r, graph.deps, got) for r in records}
        for q, b in bit.items():
            i, token = queries[q]
            if reached[items[i][1]] & b:
                out.setdefault(i, set()).add(token)
    return out


UNREAD_SHARE = 1 / 3
"""The share of a text's letters in scripts other than Latin from which the lexical judge
cannot read it: its words, stems and cues are those of languages written in Latin letters."""


def unread_letters(text: str) -> bool:
    """Whether a third or more of the letters of `text` are in a script other than Latin
    (Greek, Cyrillic, Arabic, Han, Thai, ...): the lexical judge has no words for it, so
    finding no token of a fault in it says nothing of what it means. One pass.

    >>> unread_letters("Ρυθμίσεις λογαριασμών: OFF"), unread_letters("Hotel Москва for the Łódź trip")
    (True, False)
    """
    if text.isascii():
        return False
    letters = other = 0
    for c in text:
        if c.isalpha():
            letters += 1
            if not c.isascii() and not unicodedata.name(c, "").startswith("LATIN"):
                other += 1
    return letters > 0 and other >= letters * UNREAD_SHARE


def _unread_scripts(items: list[tuple[str, str, str]], lineaged: Mapping[int, int],
                    faults: list[ContentSignature], written_at: Mapping[str, int]
                    ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault whose text is mostly in a script the lexical judge has no
    words for (`unread_letters`; rule `verify.unread-script`): its lineage may be free of
    the faults and still not explain what it says (a settings note in Greek written from
    the user's request to keep a note), and the lexical judge finding no token in text it
    cannot read is no judgement of its meaning. One finding per record, against the first
    fault it was written after."""
    bounds = [(f, written_at[f.node]) for f in faults if f.node in written_at]
    for i, seq in lineaged.items():
        fault = next((f for f, at in bounds if seq > at), None)
        if fault is None or not unread_letters(items[i][2]):
            continue
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), it is written mostly in a script the "
                         "lexical judge has no words for: finding none of the fault's "
                         "tokens in it says nothing of what it means")

UNEXPLAINED_WORDS = 3
"""The fewest own words (`content._own_words`) of a record that its lineage must leave
unexplained for `verify.unexplained-words` to hold it uncertain."""
UNEXPLAINED_SHARE = 0.5
"""The least share of a record's own words its lineage must leave unexplained for
`verify.unexplained-words` to hold it uncertain."""


def _unexplained_words(graph: _Graph, items: list[tuple[str, str, str]],
                       lineaged: Mapping[int, int], faults: list[ContentSignature],
                       written_at: Mapping[str, int], *, walked: int = WALKED_FIRST
                       ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after a fault of which at least `UNEXPLAINED_WORDS` own words, and at
    least `UNEXPLAINED_SHARE` of them (`own_words`), are said by no text of its recorded
    lineage (faults and suspected sources explain nothing) and no user turn written
    before it (rule `verify.unexplained-words`): a paraphrase of a fault written with no
    edge to it holds no token of the fault and none of its inputs' words, and a lineage
    free of the faults that does not say what the record says does not explain it. One
    finding per record, against the first fault it was written after; its why lists the
    words.

    Each text is read once. The user's turns are read once for every record's words
    together (`_TurnsBefore`: a record against each earlier turn was quadratic in a long
    session). A record's walk back stops once too few of its words are left unexplained,
    or after `walked` nodes; the records still open then are answered by one pass over
    the graph (`held_by_lineage`) carrying a bit per open word, `_BITS_PER_PASS` at a
    time."""
    bounds = [(f, written_at[f.node]) for f in faults if f.node in written_at]
    if not bounds:
        return
    memo: dict[str, str] = {}
    barred = {f.node for f in faults}
    stems_of: dict[str, frozenset[str]] = {}
    # a text's stems and own words depend on the text alone: a store holds the same text
    # again and again, each read once
    text_stems_of: dict[str, frozenset[str]] = {}
    own_of: dict[str, dict[str, str]] = {}

    def stems(text: str) -> frozenset[str]:
        got = text_stems_of.get(text)
        if got is None:
            got = text_stems_of[text] = text_stems(text, memo)
        return got

    def read(node: str) -> frozenset[str]:
        got = stems_of.get(node)
        if got is None:
            got = stems_of[node] = frozenset() if node in barred else stems(graph.text(node))
        return got

    # item -> (seq, fault, its own words: stem -> word)
    owned: dict[int, tuple[int, ContentSignature, dict[str, str]]] = {}
    for i, seq in lineaged.items():
        fault = next((f for f, at in bounds if seq > at), None)
        if fault is None:
            continue
        text = items[i][2]
        own = own_of.get(text)
        if own is None:
            own = own_of[text] = own_words(text, memo)
        if len(own) >= UNEXPLAINED_WORDS:
            owned[i] = (seq, fault, own)
    if not owned:
        return
    # a bit per own word of every record: the user's turns are read once for them all
    said = WordBits(s for _seq, _fault, own in owned.values() for s in own)
    turns = _TurnsBefore(graph.case, lambda text: said.explained(text_stems(text, memo)))
    # item -> (seq, fault, its own words, those still open)
    still: dict[int, tuple[int, ContentSignature, dict[str, str], set[str]]] = {}
    deeper: set[int] = set()
    for i, (seq, fault, own) in owned.items():
        known = turns.before(seq)
        open_ = {s for s in own if not known & said.bit[s]}
        for count, n in enumerate(walk_back(items[i][1], graph.deps)):
            if not _enough(open_, own):
                break
            if count == walked:
                deeper.add(i)
                break
            known |= said.explained(read(n))
            open_ = {s for s in open_ if not known & said.bit[s]}
        if _enough(open_, own):
            still[i] = (seq, fault, own, open_)
    asked = {i: still[i][3] for i in deeper if i in still}
    wanted = sorted({s for open_ in asked.values() for s in open_})
    for start in range(0, len(wanted), _BITS_PER_PASS):
        bits = WordBits(wanted[start:start + _BITS_PER_PASS])

        def holds(n: str, bits: WordBits = bits) -> int:
            return bits.explained(read(n))

        got = held_by_lineage(graph.deps, holds,
                              (d for i in asked for d in graph.deps.get(items[i][1], ())))
        for i, open_ in asked.items():
            known = record_holds(items[i][1], graph.deps, got)
            open_ -= {s for s in open_ if s in bits.bit and known & bits.bit[s]}
    for i, (seq, fault, own, open_) in still.items():
        if not _enough(open_, own):
            continue
        listed = ", ".join(repr(own[s]) for s in own if s in open_)
        yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                         f"{written_at[fault.node]}), {len(open_)} of its {len(own)} own "
                         f"words are said by nothing its recorded lineage reaches and no "
                         f"earlier user turn: {listed}. Its lineage is free of the faults "
                         "but does not explain what it says; the lexical judge cannot "
                         "read a fault restated in other words")


def _enough(open_: Collection[str], own: Collection[str]) -> bool:
    """Whether `open_`, of a record's own words `own`, are too many unexplained words for
    `verify.unexplained-words` to certify it."""
    return len(open_) >= UNEXPLAINED_WORDS and len(open_) >= UNEXPLAINED_SHARE * len(own)


_POSSESSIVE = re.compile(r"['\u2019]s$")
"""A name written as its owner's ("Noah's"): its subject is the name without it."""
_KEY_WORD_LETTERS = 4
"""The fewest letters of a word of a fault's slot key that names its subject."""


def _subjects(fault: ContentSignature, text: str) -> list[tuple[tuple[str, ...], str]]:
    """What `fault` is about, as (canonical words in a row, how a why names it): each of
    its names (without a possessive "'s": "Noah's" is about Noah), and each word of its
    slot key of `_KEY_WORD_LETTERS` letters or more that is not an ordinary word and that
    its text `text` says too ("allergy" of `noah_allergy_update`, not "update")."""
    out: dict[tuple[str, ...], str] = {}
    for t, kind in fault.tokens.items():
        if kind == "name":
            said = tuple(words(_POSSESSIVE.sub("", t)))
            if said:
                out.setdefault(said, f"the name {t!r}")
    if fault.key:
        stated = set(words(text))
        for w in words(fault.key.replace("_", " ")):
            if len(w) >= _KEY_WORD_LETTERS and w.isalpha() and w in stated \
                    and stem(w) not in ORDINARY_STEMS:
                out.setdefault((w,), f"the word {w!r} of its slot {fault.key!r}")
    return list(out.items())


def _same_subject(case: Case, items: list[tuple[str, str, str]],
                  lineaged: Mapping[int, int], faults: list[ContentSignature],
                  written_at: Mapping[str, int]
                  ) -> Iterator[tuple[int, ContentSignature, str]]:
    """(item, fault, why) for each record of `lineaged` (item -> the seq it was written
    at) written after `fault` that names what the fault is about — a person or entity
    it names, or a word of its slot key its text says (`_subjects`) — in which the
    lexical judge found nothing of the fault (rule `verify.same-subject`; the caller
    skips what another rule or the judge already read). A new fact about the fault's
    subject and the fault said in other words look alike to a judge of words: a party
    menu that acts on a false "allergy cleared" names the child and no word of the
    clearance. Each record's words are read once, each looked up as the first word of a
    subject, once per length of the subjects it starts."""
    texts = _texts(case, [f.node for f in faults if f.node in written_at])
    subjects: dict[tuple[str, ...], list[tuple[ContentSignature, str]]] = {}
    lengths: dict[str, set[int]] = {}  # first word -> the lengths of subjects so starting
    for f in faults:
        if f.node not in written_at:
            continue
        for subject, what in _subjects(f, texts.get(f.node, "")):
            subjects.setdefault(subject, []).append((f, what))
            lengths.setdefault(subject[0], set()).add(len(subject))
    if not subjects:
        return
    for i, seq in lineaged.items():
        record = words(items[i][2])
        told: set[str] = set()
        for k, w in enumerate(record):
            for n in sorted(lengths.get(w, ()), reverse=True):  # the longest named first
                for fault, what in subjects.get(tuple(record[k:k + n]), ()):
                    if fault.node in told or seq <= written_at[fault.node]:
                        continue
                    told.add(fault.node)
                    yield i, fault, (f"written at seq {seq}, after {fault.node} (seq "
                                     f"{written_at[fault.node]}), it names {what} of "
                                     f"{fault.node}, and the lexical judge found nothing "
                                     f"more of {fault.node} in it: a judge of words cannot "
                                     "tell a new fact about the same subject from the "
                                     "fault said in other words")


def _piece_pattern(piece: str) -> str:
    """A pattern of case-folded text finding `piece` (two words of a name, with any
    non-word characters between them, or a token as written)."""
    if " " in piece:
        return r"[\W_]+".join(map(re.escape, piece.split(" ")))
    return re.escape(piece)


class _Graph:
    """The records and steps of a case by id, with their recorded deps: the lineage the
    rules of unexplained records follow back."""

    def __init__(self, case: Case, records: Mapping[str, Any] | None = None,
                 steps: Mapping[str, Any] | None = None) -> None:
        self.case = case
        """The case."""
        self.nodes: dict[str, Any]
        """Id -> its record or step (a step of the id of a record wins, as it always has)."""
        if records is None or steps is None:
            self.nodes = {n.id: n for n in [*case.memory, *case.trajectory]}
        else:  # the caller's maps of the case's records and steps by id, merged in C
            self.nodes = {**records, **steps}
        self.deps = _DepIds(self.nodes)
        """Id -> the ids of its deps."""
        self._texts: dict[str, str | None] = {}
        """Id -> its content text, or None when the case holds no node of that id, for
        the nodes `texts` was asked about."""

    @cached_property
    def dependents(self) -> dict[str, list[str]]:
        """Id -> the ids of the nodes that name it as a dep, read once for every rule that
        walks forward (`_reaching`: the suspect-lineage and same-source rules each built
        it over the whole case)."""
        dependents: dict[str, list[str]] = {}
        for n, node in self.nodes.items():
            for d in getattr(node, "deps", None) or ():
                dependents.setdefault(d.id, []).append(n)
        return dependents

    def texts(self, nodes: list[str]) -> dict[str, str]:
        """`_texts(self.case, nodes)`: the content text of each of `nodes` the case holds,
        the case read once for all the rules that ask (each of the amounts, points, days,
        quantities and counts rules read the whole case for the few faults' texts)."""
        known = self._texts
        missing = [n for n in nodes if n not in known]
        if missing:
            found = _texts(self.case, missing)
            known.update((n, found.get(n)) for n in missing)  # None: not in the case
        return {n: text for n in nodes if (text := known[n]) is not None}

    def text(self, node: str) -> str:
        """A node's content text (`node_parts`)."""
        return node_parts(self.nodes[node])[0]


class _TurnsBefore:
    """What the user's turns written before a seq hold, each distinct turn text read
    once: the union (bits) of `holds` (a function of the text alone) over every turn of
    the case whose seq is earlier. A long session repeats its requests (the 300k-step
    synthetic case: 31,538 turns, eight texts), and reading every turn split and
    stemmed the same text again and again."""

    def __init__(self, case: Case, holds: Callable[[str], int]) -> None:
        timed = sorted(((t.seq, node_parts(t)[0]) for t in case.session
                        if isinstance(getattr(t, "seq", None), int)), key=lambda t: t[0])
        self._seqs = [at for at, _ in timed]
        self._upto = [0]
        held: dict[str, int] = {}
        for _, text in timed:
            bits = held.get(text)
            if bits is None:
                bits = held[text] = holds(text)
            self._upto.append(self._upto[-1] | bits)

    def before(self, seq: int) -> int:
        return self._upto[bisect_left(self._seqs, seq)]


def _evidenced(deps: Any, steps: Mapping[str, Any]) -> bool:
    """Whether a record's recorded lineage reaches any evidence: a premise of its own, or
    a write that produced it citing something. A write whose only premise is the turn that
    started it explains nothing of what it wrote (a hop whose edge to what it copied was
    never recorded), so its record counts as written with no lineage."""
    for d in deps or ():
        producer = steps.get(d.id) if d.label == "produce" else None
        if producer is None:
            return True
        if any(p.label != "initiate" for p in producer.deps):
            return True
    return False


def _outputs_read(deps: Any, steps: Mapping[str, Any]) -> list[str]:
    """The tool observations (and documents) a record's producing writes cited."""
    found: list[str] = []
    for d in deps or ():
        producer = steps.get(d.id) if d.label == "produce" else None
        for p in getattr(producer, "deps", None) or ():
            q = steps.get(p.id)
            if q is not None and q.type == "tool_observation" and p.id not in found:
                found.append(p.id)
    return found


def _origin(obs: str, steps: Mapping[str, Any]) -> tuple[str, str] | None:
    """Where a tool observation came from: the tool its action called and the folder
    (or host) of the first argument that names a path or URL ('' when none does); None
    when no action with a tool produced it."""
    for d in steps[obs].deps:
        action = steps.get(d.id) if d.label == "produce" else None
        tool = getattr(action, "tool", None)
        if action is None or not tool:
            continue
        args = getattr(action, "args", None)
        folder = ""
        if isinstance(args, Mapping):
            for v in args.values():
                if isinstance(v, str) and "/" in v:
                    folder = v.rsplit("/", 1)[0]
                    break
        return str(tool), folder
    return None


def _fault_origins(case: Case, nodes: list[str], steps: Mapping[str, Any]
                   ) -> dict[str, dict[tuple[str, str], str]]:
    """Each fault or suspected source -> the origins of the tool outputs it came from
    (its own, for an observation; those its producing writes cited, for a record), each
    with the first such output."""
    records = {m.id: m for m in case.memory}
    out: dict[str, dict[tuple[str, str], str]] = {}
    for node in nodes:
        outputs = ([node] if node in steps and steps[node].type == "tool_observation"
                   else _outputs_read(getattr(records.get(node), "deps", None), steps))
        found: dict[tuple[str, str], str] = {}
        for obs in outputs:
            origin = _origin(obs, steps)
            if origin is not None:
                found.setdefault(origin, obs)
        if found:
            out[node] = found
    return out


def _same_origin(fault: str, at: int | None, origins: Mapping[str, dict[tuple[str, str], str]],
                 seq: int, read: list[str], steps: Mapping[str, Any]) -> str | None:
    """Why a record written at `seq` from the tool outputs `read` is not certified for
    `fault` (rule `verify.same-origin`), or None: it must be written after the fault,
    from an output of the same tool on the same folder as one the fault came from."""
    if at is None or seq <= at or fault not in origins:
        return None
    for obs in read:
        origin = _origin(obs, steps)
        source = origins[fault].get(origin) if origin is not None else None
        if source is None:
            continue
        tool, folder = origin  # type: ignore[misc]
        where = f"{tool!r}" + (f" on {folder!r}" if folder else "")
        like = f"{fault} itself" if source == fault else f"{source}, which {fault} came from"
        return (f"written at seq {seq}, after {fault} (seq {at}), from {obs}, an output of "
                f"{where} like {like}: the lexical judge found nothing of the fault in it, "
                "but it cannot read the fault restated in other words or another language")
    return None


def _add_judgement(out: Verification, by_node: dict[str, FaultCheck], item: tuple[str, str, str],
            fault: str, j: Judgement, score: float, reason: str) -> None:
    """Add a judgement of `item` against `fault` to `out`: a carrier (yes), an uncertain
    item (unsure) or nothing (no)."""
    kind, where, text = item
    cid = carrier_id(where, fault)
    if j.verdict == "yes":
        out.carriers.append(Carrier(id=cid, kind=kind,  # type: ignore[arg-type]
                                    where=where, fault=fault, evidence=j.evidence,
                                    score=score, text=_clip(text), judge=j.judge))
        by_node[fault].carriers.append(cid)
    elif j.verdict == "unsure":
        out.uncertain.append(Uncertain(id=cid, kind=kind,  # type: ignore[arg-type]
                                       where=where, fault=fault,
                                       reason=reason,  # type: ignore[arg-type]
                                       why=j.evidence, judge=j.judge, text=_clip(text)))


def _seqs(case: Case, nodes: list[str]) -> dict[str, int]:
    """When each of `nodes` (records, steps or turns of `case`) was written: its seq (a
    record's `created_seq`); a node that predates the execution is left out."""
    wanted = set(nodes)
    found: dict[str, int] = {}
    for m in case.memory:
        if m.id in wanted and m.created_seq is not None:
            found[m.id] = m.created_seq
    for s in case.trajectory:
        if s.id in wanted:
            found[s.id] = s.seq
    for t in case.session:
        seq = getattr(t, "seq", None)
        if t.id in wanted and isinstance(seq, int):
            found[t.id] = seq
    return found


def _texts(case: Case, nodes: list[str]) -> dict[str, str]:
    """The content text of each of `nodes` (records, steps or turns of `case`)."""
    wanted = set(nodes)
    return {n.id: node_parts(n)[0] for n in [*case.memory, *case.trajectory, *case.session]
            if n.id in wanted} if wanted else {}


def _use(model: ModelJudge | None) -> JudgeUse:
    if model is None:
        return JudgeUse()
    return JudgeUse(calls=model.calls, cached=model.cache_hits, tokens=model.tokens,
                    cost=model.cost, unasked=model.unasked)


def _spent(before: JudgeUse, after: JudgeUse) -> JudgeUse:
    return JudgeUse(calls=after.calls - before.calls, cached=after.cached - before.cached,
                    tokens=after.tokens - before.tokens,
                    cost=round(after.cost - before.cost, 8),
                    unasked=after.unasked - before.unasked)


def _step_text(step: Any) -> str:
    """A step's content (`node_content`) with a tool call's arguments."""
    text = node_content(step)
    args = getattr(step, "args", None)
    shown = flatten(args) if args else ""
    return f"{text}\n{shown}" if shown and shown not in text else text


def _get(obj: Any, key: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


class _ResultView:
    """The parts of a result the check reads, from the model or from untrusted JSON."""

    def __init__(self, result: Any, case: Case) -> None:
        self.model = not isinstance(result, Mapping)
        self.result = result
        if self.model:  # made in this process by the replay: its store is its own
            self.answer = result.answer
            return
        answer = result.get("answer")
        if answer is not None and not isinstance(answer, str):
            raise DgrrError(f"RESULT: answer: expected text or null, got {_shown(answer)}")
        self.answer = answer
        self._trajectory = _list(_obj(result, "trajectory", "trajectory"),
                                 "trajectory", "trajectory.trajectory")
        self._report = _obj_or_none(result, "report", "report") or {}
        for i, r in enumerate(_list(_obj(result, "store", "store"), "active", "store.active")):
            _record(r, i)  # each named with its value before the store is recomputed
        # a replayed step left out is named as such (gate.outputs-by-report) before the
        # gate finds the trajectory short of a step of the case (gate.steps-of-case)
        self._replayed = self._replayed_steps()
        self._applied = gated_store(case, result).active

    def final_answer_id(self) -> str | None:
        if self.model:
            t = self.result.trajectory
            return t.final_answer().id if t.has_answer() else None
        answers = [s for s in self._steps() if s.type == "answer"]
        return max(answers, key=lambda s: s.seq).id if answers else None

    def _steps(self) -> list[Any]:
        if self.model:
            return list(self.result.trajectory.trajectory)
        if not hasattr(self, "_parsed"):
            self._parsed = [_step(s, i) for i, s in enumerate(self._trajectory)]
        return self._parsed

    def steps(self) -> list[Any]:
        """Every step of the repaired trajectory."""
        return self._steps()

    def replayed_steps(self) -> Iterable[Any]:
        return self._replayed_steps() if self.model else self._replayed

    def _replayed_steps(self) -> list[Any]:
        if self.model:  # the few replayed ids, not a dict of every step's outcome
            replayed = {i for i, outcome in _id_outcomes(self.result.report.steps)
                        if outcome in ("replayed", "refreshed")}
            return [s for s in self.result.trajectory.trajectory if s.id in replayed]
        # rule gate.outputs-by-report: a step the report says was replayed is read even
        # when the trajectory marks it otherwise (and the reverse): reading both can only
        # find more
        steps = _list(_get(self._report, "steps") or [], None, "report.steps")
        said = {_step_id(o, f"report.steps[{i}].id") for i, o in enumerate(steps)
                if _get(o, "outcome") in ("replayed", "refreshed")}
        decided = {_step_id(d, f"report.decisions[{i}].id")
                   for i, d in enumerate(_get(self._report, "decisions") or [])
                   if _get(d, "action") in ("replay", "refresh")}
        present = {s.id for s in self._steps()}
        absent = sorted(o for o in said | decided if isinstance(o, str) and o not in present)
        if absent:  # left out of the trajectory, its output would not be read at all
            raise DgrrError(f"RESULT: trajectory.trajectory: step {printable(absent[0][:120])!r} "
                            "is replayed by the report but is not in the trajectory, so its "
                            "output cannot be read (rule gate.outputs-by-report; refused)")
        return [s for s in self._steps() if s.repair in ("replayed", "refreshed")
                or s.id in said]

    def unmade_outputs(self) -> str | None:
        """Why the outputs the result says its refreshed observations gave are its word
        alone, or None when they are certain (rule verify.refreshed-text-certain): a
        result made in this process is its own replay's (the tool was called, or its
        output given by this process's caller); a result file of the reference model
        that adds records is made again after the check (`gate.replay-recomputed`), its
        tools called again in the reference world, but for an output its outcomes say
        was supplied by hand, which the recomputation takes from the file itself."""
        if self.model:
            return None
        model = _get(self._report, "model")
        if not replay_recomputable(self.result):
            return (f"the gate does not make a result of model {printable(str(model)[:80])!r} "
                    "again, nor can it call the tool again: nothing the case records "
                    "(a tool's name, effect and description) says what it returns")
        steps = _list(_get(self._report, "steps") or [], None, "report.steps")
        if any(_get(o, "detail") == SUPPLIED_BY_HAND for o in steps):
            return ("an output was supplied by hand, and making the result again takes it "
                    "from the result itself")
        return None

    def decisions(self) -> dict[str, str]:
        """The result's decision on each record and step, id -> action."""
        if self.model:  # read from its rows where the report keeps them (`id_actions`)
            decisions = self.result.report.decisions
            rows = getattr(decisions, "id_actions", None)
            return dict(rows()) if rows is not None else {d.id: d.action for d in decisions}
        return {_step_id(d, f"report.decisions[{i}].id"): str(_get(d, "action"))
                for i, d in enumerate(_get(self._report, "decisions") or [])}

    def active_records(self) -> Iterable[Any]:
        if self.model:
            return self.result.store.active
        return self._applied

    def blocked_writes(self) -> list[tuple[str, str]]:
        """(step, text) of each record a blocked write did not apply."""
        report = self.result.report if self.model else self._report
        steps = _get(report, "steps") or []
        skipped = _get(report, "skipped_writes") or []
        if not self.model:
            steps = _list(steps, None, "report.steps")
            skipped = _list(skipped, None, "report.skipped_writes")
        pairs = (_id_outcomes(steps) if self.model
                 else ((_get(o, "id"), _get(o, "outcome")) for o in steps))
        blocked = {str(step) for step, outcome in pairs if outcome == BLOCKED}
        out = []
        for i, w in enumerate(skipped):
            step, text = _get(w, "step"), _get(w, "text")
            if not isinstance(step, str):
                raise DgrrError(f"RESULT: report.skipped_writes[{i}].step: expected a step "
                                f"id, got {_shown(step)}")
            if step in blocked:
                if not isinstance(text, str):
                    raise DgrrError(f"RESULT: report.skipped_writes[{i}].text: expected "
                                    f"text, got {_shown(text)}")
                out.append((str(step), text))
        return out


def _step_id(item: Any, field: str) -> str:
    """A report entry's `id`, which must be a step or record id (text)."""
    value = _get(item, "id")
    if not isinstance(value, str):
        raise DgrrError(f"RESULT: {field}: expected a step id, got {_shown(value)}")
    return value


def _id_outcomes(steps: Iterable[Any]) -> Iterable[tuple[str, str]]:
    """(id, outcome) of each step outcome of a report made in this process: read from
    its rows where it keeps them (`id_outcomes`), without making a model per step."""
    rows = getattr(steps, "id_outcomes", None)
    return rows() if rows is not None else ((o.id, o.outcome) for o in steps)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _missing(field: str) -> Any:
    raise DgrrError(f"RESULT: {field}: missing (not a `dgrr repair --json` result)")


def _obj_or_none(data: Mapping[str, Any], key: str, field: str) -> Mapping[str, Any] | None:
    value = data.get(key)
    if value is not None and not isinstance(value, Mapping):
        raise DgrrError(f"RESULT: {field}: expected an object, got {_shown(value)}")
    return value


def _obj(data: Mapping[str, Any], key: str, field: str) -> Mapping[str, Any]:
    value = _obj_or_none(data, key, field)
    return value if value is not None else _missing(field)


def _list(data: Any, key: str | None, field: str) -> list[Any]:
    value = data.get(key) if key is not None else data
    if value is None and key is not None:
        _missing(field)
    if not isinstance(value, list):
        raise DgrrError(f"RESULT: {field}: expected a list, got {_shown(value)}")
    return value


def _text_field(item: Mapping[str, Any], key: str, field: str, *, optional: bool = False
                ) -> Any:
    value = item.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise DgrrError(f"RESULT: {field}.{key}: expected text, got {_shown(value)}")
    return value


def _step(item: Any, i: int) -> Any:
    field = f"trajectory.trajectory[{i}]"
    if not isinstance(item, Mapping):
        raise DgrrError(f"RESULT: {field}: expected an object, got {_shown(item)}")
    seq = item.get("seq", 0)
    if isinstance(seq, bool) or not isinstance(seq, int | float):
        raise DgrrError(f"RESULT: {field}.seq: expected a number, got {_shown(seq)}")
    return SimpleNamespace(
        id=_text_field(item, "id", field), type=_text_field(item, "type", field), seq=seq,
        text=_text_field(item, "text", field, optional=True) or "",
        output=item.get("output"), value=item.get("value"), key=item.get("key"),
        args=item.get("args") if isinstance(item.get("args"), Mapping) else None,
        tool=item.get("tool") if isinstance(item.get("tool"), str) else None,
        raw=item, field=field, repair=item.get("repair"))


def _texts_field(item: Mapping[str, Any], key: str, field: str) -> list[str]:
    """A step's list of ids (`target`): absent is none."""
    value = item.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DgrrError(f"RESULT: {field}.{key}: expected a list of ids, got {_shown(value)}")
    return value


def _deps_field(item: Mapping[str, Any], field: str) -> list[Any]:
    """A step's recorded deps (`id` and `label` each), what the lineage of a record a
    replayed write added is read from: absent is none."""
    value = item.get("deps")
    if value is None:
        return []
    if not isinstance(value, list):
        raise DgrrError(f"RESULT: {field}.deps: expected a list, got {_shown(value)}")
    out = []
    for k, d in enumerate(value):
        if not isinstance(d, Mapping):
            raise DgrrError(f"RESULT: {field}.deps[{k}]: expected an object, got {_shown(d)}")
        out.append(SimpleNamespace(id=_text_field(d, "id", f"{field}.deps[{k}]"),
                                   label=_text_field(d, "label", f"{field}.deps[{k}]",
                                                     optional=True) or ""))
    return out


def _record(item: Any, i: int) -> Any:
    field = f"store.active[{i}]"
    if not isinstance(item, Mapping):
        raise DgrrError(f"RESULT: {field}: expected an object, got {_shown(item)}")
    key = item.get("key")
    if key is not None and not isinstance(key, str):
        raise DgrrError(f"RESULT: {field}.key: expected text or null, got {_shown(key)}")
    return SimpleNamespace(id=_text_field(item, "id", field),
                           text=_text_field(item, "text", field), key=key,
                           value=item.get("value"))
