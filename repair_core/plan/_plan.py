"""Stage 3: the rule-guided plan (deterministic rules, no optimisation) and its report."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import networkx as nx
from pydantic import BaseModel, Field

from .._canonical import long_texts_read_once
from .._errors import ObjectiveError
from .._perf import without_gc
from .._text import plural
from ..analysis._analysis import Analysis, Support, analyse
from ..case._case import SUFFICIENT_LABELS, Case, MemoryRecord
from ..case._load import with_faults
from ..content import ContentSignature, node_content, signatures
from ..graph._graph import CHAIN, premises
from ._carrier_producers import CarrierProducer, WriterInput, rederive_reason
from ._ops import Op
from ._reasons import (
    FAULT_STEP,
    FINAL_ANSWER,
    NOT_REACHING,
    PAST_ANSWER,
    REACHES_ANSWER,
    REFRESHED,
    carrier_superseded_reason,
    closure_reason,
    fault_record_reason,
    held_seed_reason,
    irreversible_note,
    kept_as_written_reason,
    not_needed_reason,
    producer_reason,
    quarantine_reason,
    rejecting_reason,
    replayed_reason,
    retired_reason,
    seed_reason,
    store_quarantine_reason,
    undone_update_reason,
)
from ._suspects import (
    CONTENT_KINDS,
    ProducerInput,
    Suspected,
    SuspectMode,
    carrier_bounds,
    carrier_reason,
    find_carriers,
    find_sources,
    held_seeds,
    rejecting_records,
    same_inputs,
    source_reason,
)
from ._warnings import PlanWarning, case_warnings

__all__ = [
    "MemoryAction",
    "Objective",
    "OBJECTIVES",
    "StepAction",
    "PlanEdit",
    "PlanReport",
    "RepairPlan",
    "plan_case",
    "answer_relevant_steps",
    "replay_closure",
    "replay_set",
    "rederivable_producers",
    "store_producers",
    "objective_starts",
    "cleanable_steps",
    "resolve_objective",
]

MemoryAction = Literal["keep", "delete", "quarantine", "restore"]
StepAction = Literal["keep", "invalidate", "replay", "refresh"]
Objective = Literal["answer", "store", "both"]
OBJECTIVES: tuple[str, ...] = Objective.__args__  # type: ignore[attr-defined]
"""What a plan repairs: the last run's final `answer` (the paper), the `store` the next
session reads, or `both`."""


class PlanEdit(BaseModel):
    """A reviewer's decision overriding the computed plan for one record or step."""

    node: str
    """Record or step id."""
    action: str
    """New disposition (keep/delete/quarantine/restore) or step action
    (keep/invalidate/replay/refresh)."""
    before: str
    """The decision it replaced."""
    comment: str | None = None
    """Why the reviewer changed it."""


class PlanReport(BaseModel):
    """The plan report of `dgrr plan CASE --json` (see `case-format.md`)."""

    case_id: str
    """The case planned."""
    seeds: dict[str, str]
    """Each faulty record -> its seed node."""
    affected: list[str]
    """`A0`, sorted."""
    supported: list[str]
    """Affected nodes kept by independent support, sorted."""
    unsupported: list[str]
    """`A0` minus supported, sorted."""
    answer_relevant: list[str]
    """Unsupported steps that still reach the final answer once faults are cut, sorted."""
    memory: dict[str, MemoryAction]
    """One entry per record."""
    steps: dict[str, StepAction]
    """One entry per step."""
    reasons: dict[str, str] = Field(default_factory=dict)
    """One line per non-keep decision (and per affected node kept by support)."""
    # Written only when not `answer`, so an answer plan's report reads as before.
    objective: Objective = Field(default="answer", exclude_if=lambda v: v == "answer")
    """What the plan repairs: answer (the paper), store or both."""
    suspected: list[Suspected] = Field(default_factory=list, exclude_if=lambda v: not v)
    """Suspected sources and carriers of the faults, found by content (method.md,
    "Suspects"): sources first, then carriers, each in case order; absent when none."""
    ops: list[Op] | None = Field(default=None, exclude_if=lambda v: v is None)
    """The plan as ordered operations (`dgrr plan --ops`, docs/replay-api.md); absent
    unless asked for."""
    warnings: list[PlanWarning] = Field(default_factory=list, exclude_if=lambda v: not v)
    """What the plan warns about in its case (`_warnings`): e.g. a record the trace
    returned with conflicting texts; absent when none."""


@dataclass(frozen=True)
class RepairPlan:
    """A plan with everything it was derived from."""

    case: Case
    analysis: Analysis
    memory: dict[str, MemoryAction]
    steps: dict[str, StepAction]
    answer_relevant: frozenset[str]
    replay_set: frozenset[str]
    reasons: dict[str, str]
    edits: tuple[PlanEdit, ...] = ()
    """Reviewer edits applied on top of the computed plan (see `apply_edits`)."""
    forced: bool = False
    """True when an edit that breaks an invariant was applied with `force`."""
    objective: Objective = "answer"
    """What the plan repairs (see `plan_case`)."""
    suspected: tuple[Suspected, ...] = ()
    """Suspected sources and carriers (see `plan_case`)."""
    suspects: SuspectMode = "quarantine"
    """What the plan does with suspects: quarantine (the default), flag or off."""
    not_suspect: frozenset[str] = frozenset()
    """Nodes a reviewer un-marked: never suspects."""
    clean_source: Mapping[str, str] = field(default_factory=dict)
    """Suspected sources a reviewer cleaned like a fault -> the reviewer's reason."""
    held_back: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """Fault seeds not replayed (`suspect.no-rederive`): seed step -> (its fault, the tool
    outputs it would read again unchanged)."""

    def report(self) -> PlanReport:
        """The plan report of the format spec."""
        a = self.analysis
        return PlanReport(
            case_id=self.case.case_id,
            seeds=dict(a.seeds),
            affected=sorted(a.affected),
            supported=sorted(a.supported),
            unsupported=sorted(a.unsupported),
            answer_relevant=sorted(self.answer_relevant),
            memory=dict(self.memory),
            steps=dict(self.steps),
            reasons=dict(self.reasons),
            objective=self.objective,
            suspected=list(self.suspected),
            warnings=case_warnings(self.case),
        )

    def replay_order(self) -> list[str]:
        """The replay set in original trajectory order."""
        return [s.id for s in self.case.steps_in_order() if s.id in self.replay_set]


def resolve_objective(case: Case, objective: str | None, default: Objective = "answer"
                      ) -> Objective:
    """The objective to plan `case` for: `objective` when given, else `default`, except
    that a case without an answer step (`case.store-only`: a store's records and lineage,
    no steps) is planned for the `store` when none is given, and refuses `answer` and
    `both` with the reason (rule `objective.no-answer`).

    >>> from repair_core import load_example
    >>> resolve_objective(load_example(), None, "both")
    'both'
    """
    if objective is not None and objective not in OBJECTIVES:
        raise ValueError(f"objective: expected one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if case.has_answer():
        return objective if objective is not None else default  # type: ignore[return-value]
    if objective is None or objective == "store":
        return "store"
    raise ObjectiveError(
        f"objective {objective!r}: case {case.case_id!r} has no answer step (trajectory: "
        f"{plural(len(case.trajectory), 'step')}; a store's records and lineage), so there is "
        "no answer to repair: plan it with --objective store (the default for a case "
        "without an answer step)")


@without_gc
@long_texts_read_once()  # the carrier search, rejecting records and their facts fold each
def plan_case(case: Case, analysis: Analysis | None = None, *,
              objective: Objective | None = None, suspects: SuspectMode = "quarantine",
              not_suspect: Iterable[str] = (),
              clean_source: Mapping[str, str] | None = None) -> RepairPlan:
    """Plan the repair of `case` by the fixed rules of stage 3.

    `objective` says what the plan repairs: `answer` (the paper: the last run's final
    answer; the default), `store` (the memory the next session reads: every quarantined
    record whose producer's inputs can be cleaned is re-derived, no past answer is
    regenerated) or `both` (the union). A case without an answer step (a store's records
    and lineage alone) is planned for the `store` by default and refuses `answer` and
    `both` with :class:`ObjectiveError` (`resolve_objective`).

    `suspects` says what the plan does with what the faults' content finds beyond their
    lineage (`_suspects`): `quarantine` (the default) cleans a suspected source like a
    diagnosed fault and, under the store and both objectives, quarantines an active
    suspected carrier record; `flag` lists them only; `off` looks for none.
    `not_suspect`: nodes a reviewer un-marked. `clean_source`: suspected sources a
    reviewer cleans like a fault, each with the reviewer's reason (refused with
    `PlanEditError` unless each is a suspected source of the plan: rule
    `suspect.reviewer-clean`). A given `analysis` must have been made with the sources
    as faults (`RepairPlan.analysis` is).

    >>> from repair_core import load_example
    >>> p = plan_case(load_example())
    >>> p.memory["m3"], p.memory["m6"], p.steps["s7"], p.steps["s11"]
    ('delete', 'quarantine', 'refresh', 'invalidate')
    >>> plan_case(load_example(), objective="store").steps["s11"]
    'replay'
    """
    objective = resolve_objective(case, objective)
    unmarked = frozenset(not_suspect)
    cleaned_by = dict(clean_source or {})
    sigs = signatures(case) if suspects != "off" else {}
    inputs = _producer_inputs(case)
    derived_from: dict[str, list[str]] = {}
    sources = find_sources(sigs, inputs, set(case.faults), unmarked, suspects, cleaned_by,
                           derived_from)
    if analysis is not None:
        a = analysis
    else:
        cleaned = [n for n, s in sources.items() if s.action == "clean"]
        a = analyse(with_faults(case, [*case.faults, *cleaned]) if cleaned else case)
    producers = _producers(case)
    held = held_seeds(a.seeds, producers, same_inputs(
        inputs, sources, set(case.faults), unmarked, a.unsupported, suspects))
    memory, memory_reasons = _memory_dispositions(case, a)
    kept_as_written: frozenset[str] = frozenset()
    if suspects == "quarantine" and sigs:
        kept_as_written = _keep_rejecting(case, a, sigs, memory, memory_reasons)
    for seed, (fault, same) in held.items():
        memory_reasons[fault] = fault_record_reason(seed, same)
    removed = frozenset(m for m, d in memory.items() if d in ("delete", "quarantine"))
    # a record kept for rejecting a fault is read as written: its producer is not re-run
    relevant = answer_relevant_steps(a, removed | kept_as_written)
    # A fault that is a step (an observation, a document) is dropped, never replayed; a
    # producer that would read its fault's tool output again unchanged is held back.
    seed_steps = {s for f, s in a.seeds.items() if a.graph.nodes[s]["kind"] == "step"
                  and s != f and s not in held}
    quarantined = frozenset(m for m, d in memory.items() if d == "quarantine")
    need: dict[str, str] | None = None
    held_steps = frozenset(held)  # never pulled in by a step that read their output
    if objective == "answer":
        replay, why = replay_set(a, relevant | {a.final_answer} | seed_steps, quarantined,
                                 fixed=held_steps)
    else:
        replay, why, need = _objective_replay(a, objective, relevant, seed_steps, quarantined,
                                              held_steps)
        for rid, line in _store_record_reasons(a, memory, quarantined, replay).items():
            memory_reasons[rid] = line
    steps, step_reasons = _step_actions(case, a, relevant, replay, why, need)
    for rid in sorted(kept_as_written):
        for p in a.producers(rid):
            if steps.get(p) == "invalidate" and p in a.unsupported and p not in a.faults:
                step_reasons[p] = (f"affected via {_path(a, p)}; no independent support; "
                                   + kept_as_written_reason(rid))
    for seed, (fault, same) in held.items():
        if seed not in replay:
            steps[seed] = "invalidate"
            step_reasons[seed] = held_seed_reason(fault, same)
    reasons = {**memory_reasons, **step_reasons}
    for node, src in sources.items():
        if src.action == "clean" and src.kind != "turn":  # a turn has no decision
            reasons[node] = source_reason(src, producers.get(src.fault, []),
                                          cleaned_by.get(node))
    rederived: dict[str, str] = {}
    carriers = _carriers(case, a, sigs, sources, unmarked, memory, objective, suspects,
                         derived_from, rederived)
    for c in carriers:
        if c.action == "quarantine":
            memory[c.id] = "quarantine"
            reasons[c.id] = carrier_reason(c)
            if c.id in rederived:  # its producer, kept so far, writes it again
                steps[rederived[c.id]] = "replay"
                reasons[rederived[c.id]] = rederive_reason(c.id, c.fault)
    if rederived:
        replay = replay | frozenset(rederived.values())
    _restore_carrier_superseded(case, a, carriers, memory, reasons)
    for v, sup in a.support.items():
        if v not in reasons:
            reasons[v] = _kept_reason(sup)
            hops = a.inferred_hops(v)
            if hops:
                reasons[v] += (" (it was reached over inferred edge(s) "
                               + ", ".join(f"{u} → {w}" for u, w in hops) + ")")
    return RepairPlan(case=case, analysis=a, memory=memory, steps=steps,
                      answer_relevant=relevant, replay_set=replay,
                      reasons=_in_case_order(reasons, [*(m.id for m in case.memory), *steps]),
                      objective=objective, suspected=(*sources.values(), *carriers),
                      suspects=suspects, not_suspect=unmarked, clean_source=cleaned_by,
                      held_back=held)



def _producers(case: Case) -> dict[str, list[str]]:
    """Each diagnosed record -> its producing steps (`produce` premises), by seq."""
    steps = {s.id: s for s in case.trajectory}
    faults = set(case.faults)
    return {m.id: sorted({d.id for d in m.deps if d.label == "produce" and d.id in steps},
                         key=lambda p: (steps[p].seq, p))
            for m in case.memory if m.id in faults}


def _producer_inputs(case: Case) -> dict[str, list[ProducerInput]]:
    """Each diagnosed record -> the inputs of its producers that can be a suspected
    source (records, tool observations, user turns; the records a `memory_read` input
    returned, through that read), producers by seq, each one's inputs in the order it
    lists them, each with what else was derived from it (its dependents by id)."""
    steps = {s.id: s for s in case.trajectory}
    records = {m.id: m for m in case.memory}
    turns = {t.id: t for t in case.session}
    made = _producers(case)
    wanted = {d.id for ps in made.values() for p in ps for d in steps[p].deps}
    wanted |= {r.id for q in wanted if q in steps and steps[q].type == "memory_read"
               for r in steps[q].deps if r.id in records}
    dependents: dict[str, set[str]] = {}
    for n in [*case.memory, *case.trajectory]:
        for d in n.deps:
            if d.id in wanted:
                dependents.setdefault(d.id, set()).add(n.id)
    out: dict[str, list[ProducerInput]] = {}
    for fault, producers in made.items():
        # input -> the read it came through: none when it is also a direct input, else
        # the first read by id, so the reason reads the same in any order of the file
        seen: dict[str, str | None] = {}
        for p in producers:
            for d in steps[p].deps:
                q = steps.get(d.id)
                if q is not None and q.type == "memory_read":
                    for r in q.deps:
                        if r.id in records and (r.id not in seen or (
                                seen[r.id] is not None and q.id < seen[r.id])):  # type: ignore[operator]
                            seen[r.id] = q.id
                elif (q is not None and q.type in CONTENT_KINDS) or d.id in records \
                        or d.id in turns:
                    seen[d.id] = None
        skip = {*producers, fault}
        rows: list[ProducerInput] = []
        for node_id, via in seen.items():
            node: Any = records.get(node_id) or turns.get(node_id) or steps[node_id]
            rows.append(ProducerInput(
                id=node_id, content=node_content(node), via=via,
                kind="record" if node_id in records else "turn" if node_id in turns
                else "step",
                derived=tuple(sorted(x for x in dependents.get(node_id, ())
                                     if x not in skip and x != via))))
        out[fault] = rows
    return out


def _keep_rejecting(case: Case, a: Analysis, sigs: dict[str, ContentSignature],
                    memory: dict[str, MemoryAction], reasons: dict[str, str]
                    ) -> frozenset[str]:
    """Keep, flagged, each record `memory` quarantines for its lineage that quotes a fault
    to reject it (`_suspects.rejecting_records`; rule `suspect.rejecting-affected`).
    Returns their ids."""
    held = [m for m in case.memory if memory.get(m.id) == "quarantine"]
    found = rejecting_records(sigs, [m.id for m in held], [node_content(m) for m in held],
                              {i: (m.key, m.value) for i, m in enumerate(held)},
                              {i for i, m in enumerate(held) if m.created_seq is not None})
    for rid, (fault, word) in found.items():
        memory[rid] = "keep"
        reasons[rid] = rejecting_reason(_path(a, rid), fault, word)
    return frozenset(found)


def _carriers(case: Case, a: Analysis, sigs: dict[str, ContentSignature],
              sources: dict[str, Suspected], unmarked: frozenset[str],
              memory: dict[str, MemoryAction], objective: Objective, mode: SuspectMode,
              derived_from: Mapping[str, list[str]],
              rederived: dict[str, str] | None = None) -> list[Suspected]:
    """The suspected carriers (`_suspects.find_carriers`) among the records (store order)
    and steps (seq order) that the affected set, the faults, the sources and the
    reviewer's un-marking leave out, each fault's bound moved back to the sources it was
    derived from (`derived_from`, `_suspects.carrier_bounds`); `rederived` gets each
    folding carrier whose producer is replayed (`suspect.carrier-rederive`)."""
    if mode == "off" or not sigs:
        return []
    skip = a.affected | a.faults | sources.keys() | unmarked
    nodes: list[Any] = [m for m in case.memory if m.id not in skip]
    nodes += [s for s in case.steps_in_order() if s.id not in skip]
    n_records = sum(1 for n in nodes if isinstance(n, MemoryRecord))
    seq_of = {s.id: s.seq for s in case.trajectory}
    seq_of.update((t.id, t.seq) for t in case.session)
    written = {m.id: m.created_seq for m in case.memory}

    def time_of(node: str) -> float | None:  # a source's: a step's seq, a record's write
        at = seq_of[node] if node in seq_of else written.get(node)
        return None if at is None else float(at)

    bounds = carrier_bounds(
        {f: float(seq_of.get(a.seeds[f], float("-inf"))) for f in sigs if f in a.seeds},
        derived_from, time_of)
    store = objective != "answer"
    every: dict[str, Any] = {}

    def by_id() -> dict[str, Any]:  # built once, and only for a folding carrier
        if not every:
            every.update((n.id, n) for n in (*case.session, *case.trajectory, *case.memory))
        return every

    return find_carriers(
        sigs, bounds, [n.id for n in nodes],
        ["record" if i < n_records else "step" for i in range(len(nodes))],
        [(float(n.created_seq) if n.created_seq is not None else float("-inf"))
         if i < n_records else float(n.seq) for i, n in enumerate(nodes)],
        [node_content(n) for n in nodes],
        {i: (n.key, n.value) for i, n in enumerate(nodes[:n_records])},
        {i for i, n in enumerate(nodes[:n_records])
         if store and n.status == "active" and memory.get(n.id) == "keep"}, mode,
        producer_of=lambda rid: _carrier_producer(a, by_id(), rid), not_suspect=unmarked,
        rederived=rederived)


def _carrier_producer(a: Analysis, nodes: Mapping[str, Any], record: str
                      ) -> CarrierProducer | None:
    """The one memory write that produced `record` and no other record, with its inputs
    (a `memory_read` premise by the records it cites), or None."""
    G = a.graph
    made = [p for p, by_label in G._pred[record].items()
            if "produce" in by_label and G.nodes[p]["kind"] == "step"]
    if len(made) != 1 or G.nodes[made[0]]["type"] != "memory_write":
        return None
    writer = made[0]
    if any(v != record and "produce" in by_label and G.nodes[v]["kind"] == "record"
           for v, by_label in G._succ[writer].items()):
        return None
    seen: dict[str, None] = {}
    kind = G.nodes
    for d in nodes[writer].deps:
        if kind[d.id]["kind"] == "step" and kind[d.id]["type"] == "memory_read":
            seen.update((r.id, None) for r in nodes[d.id].deps
                        if r.id in kind and kind[r.id]["kind"] == "record")
        else:
            seen.setdefault(d.id, None)
    return CarrierProducer(writer, tuple(
        WriterInput(x, kind[x]["kind"] == "step" and kind[x]["type"] == "tool_observation",
                    node_content(nodes[x]), kind[x]["kind"] == "turn") for x in seen))


def _objective_replay(a: Analysis, objective: Objective, relevant: frozenset[str],
                      seed_steps: set[str], quarantined: frozenset[str],
                      fixed: frozenset[str] = frozenset()
                      ) -> tuple[frozenset[str], dict[str, str], dict[str, str]]:
    """The replay set of a `store` or `both` plan, why each step was pulled in, and which
    objective needed each replayed step ("answer", "store" or "answer and store");
    `fixed`: steps never added."""
    sets: dict[str, frozenset[str]] = {}
    why: dict[str, str] = {}
    # a producer none of whose inputs survives the cleaning would write nothing true
    cleanable = cleanable_steps(a)
    producers = store_producers(a, quarantined, cleanable)
    starts = objective_starts(a, objective, relevant, seed_steps, quarantined, producers)
    if "answer" in starts:
        sets["answer"], why = replay_set(a, starts["answer"], quarantined, only=cleanable,
                                         fixed=fixed)
    sets["store"], store_why = replay_set(a, starts["store"], quarantined, only=cleanable,
                                          fixed=fixed)
    why = {**store_why, **producers, **why}
    replay = frozenset().union(*sets.values())
    need = {s: " and ".join(o for o, members in sets.items() if s in members) for s in replay}
    return replay, why, need


def objective_starts(a: Analysis, objective: Objective, relevant: frozenset[str],
                     seed_steps: set[str], quarantined: frozenset[str],
                     producers: Mapping[str, str] | None = None) -> dict[str, set[str]]:
    """The steps each objective of the plan starts its replay set from: `answer` the
    answer-relevant steps, the final answer and the seed steps; `store` the seed steps and
    the producers that re-derive quarantined records (`store_producers`, unless given)."""
    starts: dict[str, set[str]] = {}
    if objective != "store":
        starts["answer"] = set(relevant) | {a.final_answer} | seed_steps
    if objective != "answer":
        if producers is None:
            producers = store_producers(a, quarantined)
        starts["store"] = set(seed_steps) | producers.keys()
    return starts


def store_producers(a: Analysis, quarantined: frozenset[str],
                    cleanable: frozenset[str] | None = None) -> dict[str, str]:
    """The producing memory writes of quarantined records that the store objective
    replays, each mapped to the (first) record: unsupported writes whose inputs can be
    cleaned (`cleanable_steps`, unless given). A fault's own producer is its seed,
    replayed anyway."""
    G = a.graph
    if cleanable is None:
        cleanable = cleanable_steps(a)
    found: dict[str, str] = {}
    for rec in sorted(quarantined):
        for p in a.producers(rec):
            if p in cleanable and G.nodes[p]["type"] == "memory_write":
                found.setdefault(p, rec)
    return found


def cleanable_steps(a: Analysis) -> frozenset[str]:
    """Unsupported steps that still have an input once every fault and every unsupported
    input is dropped: a premise (other than `initiate`) that is clean (a user turn, a kept
    or unaffected step or record), a memory read (it re-queries the repaired store), or
    an unsupported step or record that is itself cleanable. Premises come earlier in seq,
    so one pass in seq order sees every premise's verdict (records: by their producers)."""
    G = a.graph
    unsupported = a.unsupported
    nodes = G.nodes
    ok: set[str] = set()

    def clean(p: str) -> bool:
        if p in a.faults or p in a.carried:
            return False
        if p not in unsupported:
            return True
        kind = nodes[p]["kind"]
        if kind == "step":
            return nodes[p]["type"] == "memory_read" or p in ok
        return kind == "record" and any(q in ok for q in a.producers(p))

    steps = sorted((n for n in unsupported if nodes[n]["kind"] == "step"),
                   key=lambda n: (nodes[n]["seq"], n))
    for v in steps:
        if v in a.faults:
            continue
        if any(clean(p) for p, label, _ in premises(G, v) if label != "initiate"):
            ok.add(v)
    return frozenset(ok)


def _store_record_reasons(a: Analysis, memory: dict[str, MemoryAction],
                          quarantined: frozenset[str], replay: frozenset[str]
                          ) -> dict[str, str]:
    """A quarantined record's reason, saying whether the store objective re-derives it."""
    out: dict[str, str] = {}
    for rec in sorted(quarantined):
        producers = sorted(a.producers(rec))
        out[rec] = store_quarantine_reason(_path(a, rec), producers,
                                           [p for p in producers if p in replay])
    return out


def _in_case_order(reasons: dict[str, str], ids: list[str]) -> dict[str, str]:
    """`reasons` with records first (in store order), then steps (in seq order); any other
    node first of all, in its original order."""
    order = {n: i for i, n in enumerate(ids)}
    if len(order) != len(ids):  # an id used twice (a case built without the loader)
        return dict(sorted(reasons.items(), key=lambda kv: order.get(kv[0], -1)))
    ordered = {n: r for n, r in reasons.items() if n not in order}
    for n in ids:
        if n in reasons:
            ordered[n] = reasons[n]
    return ordered


def answer_relevant_steps(a: Analysis, removed: frozenset[str]) -> frozenset[str]:
    """Unsupported steps that reach the final answer over propagation edges once the
    `removed` records (deleted, quarantined, or kept as written) are cut out of the
    graph."""
    G = a.graph
    if not a.final_answer:  # a case without steps: no answer to reach
        return frozenset()
    seen = {a.final_answer}
    queue = deque([a.final_answer])
    pred = G._pred
    while queue:
        node = queue.popleft()
        for p, by_label in pred[node].items():
            if p in seen or p in removed or all(lb == "chain" for lb in by_label):
                continue
            seen.add(p)
            queue.append(p)
    unsupported = a.unsupported
    # a diagnosed observation is dropped, never re-run (fault.input-seed)
    return frozenset(n for n in seen if n in unsupported and G.nodes[n]["kind"] == "step"
                     and n not in a.faults)


def replay_set(a: Analysis, start: set[str] | frozenset[str], quarantined: frozenset[str],
               *, fixed: frozenset[str] = frozenset(), only: frozenset[str] | None = None
               ) -> tuple[frozenset[str], dict[str, str]]:
    """The execution closure of `start`, plus the producers of the quarantined records
    that a step of the set reads (and their closure), repeated until nothing is added.
    Returns the set and, for each added step, the step (or record) that pulled it in.
    `only` (store and both plans: the cleanable steps) limits which producers are added."""
    replay, why = replay_closure(a, start, fixed=fixed)
    # A round reads only the steps the round before added, and closes from its producers
    # only: the set is closed already, and a producer an earlier step reads was added or
    # refused then. Closing the whole set again each round cost a chain the fault reaches
    # its length squared (each round adds one link's writer).
    added, grown = replay, set(replay)
    while True:
        producers = {p: r for p, r in rederivable_producers(a, quarantined, added).items()
                     if p not in grown and p not in fixed and (only is None or p in only)}
        if not producers:
            return frozenset(grown), why
        grown.update(producers)
        more_why = _close(a, grown, sorted(producers), fixed)
        # what pulled a step in first stays; then a producer's record; then the walk's
        for p, r in producers.items():
            why.setdefault(p, r)
        for p, r in more_why.items():
            why.setdefault(p, r)
        # the walk adds every step it names but those of `fixed`
        added = frozenset([*producers, *(p for p in more_why if p not in fixed)])


def rederivable_producers(a: Analysis, quarantined: frozenset[str],
                          replay: frozenset[str]) -> dict[str, str]:
    """The unsupported producing steps of every quarantined record that a step of `replay`
    reads, each mapped to the record. Replaying the producer writes the record again from
    the repaired run (as a fault's seed step is replayed), so the replayed reader does not
    lose an input that the clean run would have had."""
    G = a.graph
    unsupported = a.unsupported
    found: dict[str, str] = {}
    for v in sorted(replay):
        for rec, _label, _ in premises(G, v):
            if rec not in quarantined:
                continue
            for p in a.producers(rec):
                if p in unsupported and G.nodes[p]["type"] == "memory_write":
                    found.setdefault(p, rec)
    return found


def replay_closure(a: Analysis, start: set[str] | frozenset[str], *,
                   fixed: frozenset[str] = frozenset()
                   ) -> tuple[frozenset[str], dict[str, str]]:
    """Close `start` under execution: add every unsupported step premise of a step in the
    set (an observation always brings its action), and the observations of every replayed
    action. Returns the set and, for each added step, the step that pulled it in.

    Steps in `fixed` (a reviewer's keep or invalidate, a held-back seed) are never
    added, even from `start`; `pulled` still
    names the first step that needed each of them. A diagnosed fault (an observation) is
    never added: it is dropped from its dependents' inputs.
    """
    replay = set(start) - fixed
    pulled = _close(a, replay, sorted(replay), fixed)
    return frozenset(replay), pulled


def _close(a: Analysis, replay: set[str], queue_from: list[str], fixed: frozenset[str]
           ) -> dict[str, str]:
    """`replay_closure`'s walk from `queue_from` (members of `replay`), adding to `replay`
    in place; `replay` is closed already but for them. Returns what pulled in each step
    the walk added (and each step of `fixed` it needed)."""
    G = a.graph
    unsupported = a.unsupported
    faults = a.faults
    nodes = G.nodes
    pulled: dict[str, str] = {}
    queue = deque(queue_from)
    while queue:
        v = queue.popleft()
        is_obs = nodes[v]["type"] == "tool_observation"
        for p, label, _ in premises(G, v):
            if p in replay or nodes[p]["kind"] != "step" or p in faults:
                continue
            if p in unsupported or (is_obs and label == "produce"):
                pulled.setdefault(p, v)
                if p not in fixed:
                    replay.add(p)
                    queue.append(p)
        if nodes[v]["type"] == "tool_action":
            for d, by_label in G._succ[v].items():
                if ("produce" in by_label and d not in replay and d not in fixed
                        and nodes[d]["type"] == "tool_observation" and d in unsupported
                        and d not in faults):
                    replay.add(d)
                    pulled[d] = v
                    queue.append(d)
    return pulled


def _memory_dispositions(case: Case, a: Analysis) -> tuple[dict[str, MemoryAction], dict[str, str]]:
    G = a.graph
    pred = G._pred
    affected = a.affected
    unsupported = a.unsupported
    memory: dict[str, MemoryAction] = {}
    reasons: dict[str, str] = {}
    fault_records = [m for m in case.memory if m.id in a.faults]
    undone = _undone_updates(case, a, fault_records)
    for m in case.memory:
        rid = m.id
        if rid in undone and m.status != "active" and rid not in a.faults:
            poisoned = _poisoned_value(a, fault_records, m)
            memory[rid] = "keep" if poisoned else "restore"
            reasons[rid] = undone_update_reason(undone[rid], poisoned)
            continue
        if rid in a.faults:
            memory[rid] = "delete"
            seed = a.seeds[rid]
            reasons[rid] = fault_record_reason(None if seed == rid else seed)
            continue
        if rid not in unsupported:
            memory[rid] = "keep"
            if rid in affected and m.status != "active":
                _restore_kept(G, a, m, memory, reasons)
            continue
        # premises(G, rid) inlined, a premise's labels read only when it is in A0
        in_a0 = [(p, lb) for p, by_label in pred[rid].items() if p in affected
                 for lb in by_label if lb != CHAIN]
        if in_a0 and all(lb == "delete" for _, lb in in_a0):
            retirers = sorted({p for p, lb, _ in premises(G, rid) if lb == "delete"})
            poisoned = _poisoned_value(a, [], m) if m.status != "active" else None
            restored = (poisoned is None and m.status != "active"
                        and all(r in unsupported for r in retirers))
            memory[rid] = "restore" if restored else "keep"
            reasons[rid] = retired_reason(", ".join(retirers), poisoned, restored,
                                          m.status == "active")
            continue
        memory[rid] = "quarantine"
        reasons[rid] = quarantine_reason(_path(a, rid))
    return memory, reasons


def _undone_updates(case: Case, a: Analysis, fault_records: list[MemoryRecord]
                    ) -> dict[str, str]:
    """Records retired by the successful `update` write that wrote a diagnosed record's
    value (the latest `update` edge into it, no `produce` edge) -> that write: undoing the
    faulty update restores the value before it (method.md, "Updates";
    memory.update-undone). Without such a write, the retired versions a diagnosed record
    rewrote (`update` edges record → record) -> the diagnosed record
    (memory.version-undone)."""
    G = a.graph
    nodes = G.nodes
    out: dict[str, str] = {}
    if not fault_records:
        return out
    failed = {s.id for s in case.trajectory if s.status == "failed"}
    for f in fault_records:
        labels = {lb for _p, lb, _ in premises(G, f.id)}
        if "produce" in labels:
            continue
        writes = [w for w, lb, _ in premises(G, f.id)
                  if lb == "update" and nodes[w]["kind"] == "step" and w not in failed
                  and nodes[w]["type"] == "memory_write"]
        if not writes:
            # a version that rewrote an earlier, retired version of the record (an
            # `update` edge record → record, as a Mem0 history import writes): that
            # version is the value before the faulty rewrite (memory.version-undone)
            for old in sorted(p for p, lb, _ in premises(G, f.id) if lb == "update"
                              and nodes[p]["kind"] == "record"):
                out.setdefault(old, f.id)
            continue
        # the diagnosed value is what the latest update wrote; earlier updates of the same
        # record wrote values it since replaced, and what they retired stays retired
        w = max(writes, key=lambda s: (nodes[s]["seq"], s))
        for old, by_label in G._succ[w].items():
            if "delete" in by_label and nodes[old]["kind"] == "record":
                out.setdefault(old, w)
    return out


def _restore_kept(G: nx.MultiDiGraph, a: Analysis, m: MemoryRecord,
                  memory: dict[str, MemoryAction], reasons: dict[str, str]) -> None:
    """A retired record whose own content is kept by support or inheritance, and that only
    unsupported mutations retired, is restored like an unsupported one (memory.restore):
    otherwise the rollback loses a true record that a faulty mutation retired."""
    retirers = sorted({p for p, lb, _ in premises(G, m.id) if lb == "delete"})
    if retirers and all(r in a.unsupported for r in retirers):
        memory[m.id] = "restore"
        reasons[m.id] = retired_reason(", ".join(retirers), None, True, False,
                                       kept_by_support=True)


def _restore_carrier_superseded(case: Case, a: Analysis, carriers: Iterable[Suspected],
                                memory: dict[str, MemoryAction], reasons: dict[str, str]
                                ) -> None:
    """Restore each retired record that a carrier the plan quarantines superseded (rule
    `memory.carrier-superseded`): one the carrier or its producing write retires over a
    `delete` edge, or one of the carrier's key that its producing write reads (a new
    version written over the old). Not a fault, a carrier or a record the plan removes or
    restores already; only where everything that retired it is removed or unsupported, and
    never a record carrying a fault's value (`memory.never-restore-poison`)."""
    removed = {c.id: c.fault for c in carriers if c.action == "quarantine"}
    if not removed:
        return
    G = a.graph
    nodes = G.nodes
    records = {m.id: m for m in case.memory}
    fault_records = [records[f] for f in sorted(a.faults) if f in records]
    gone = {r for r, d in memory.items() if d in ("delete", "quarantine")}
    for cid, fault in removed.items():
        carrier = records.get(cid)
        if carrier is None:
            continue
        writers = [p for p, lb, _ in premises(G, cid) if lb in ("produce", "update")
                   and nodes[p]["kind"] == "step" and nodes[p]["type"] == "memory_write"]
        olds: set[str] = set()
        for w in (cid, *writers):
            olds.update(d for d, by_label in G._succ[w].items()
                        if "delete" in by_label and nodes[d]["kind"] == "record")
        if carrier.key is not None:
            for w in writers:
                olds.update(p for p, _lb, _ in premises(G, w)
                            if p in records and records[p].key == carrier.key)
        for old in sorted(olds - {cid}):
            m = records.get(old)
            if (m is None or m.status == "active" or old in a.faults or old in removed
                    or memory.get(old, "keep") != "keep"):
                continue
            retirers = {p for p, lb, _ in premises(G, old) if lb == "delete"}
            if any(r not in gone and r not in a.unsupported and r != cid
                   and r not in writers for r in retirers):
                continue
            if _poisoned_value(a, fault_records, m) is not None:
                continue
            memory[old] = "restore"
            reasons[old] = carrier_superseded_reason(cid, fault)


def _poisoned_value(a: Analysis, fault_records: list[MemoryRecord], m: MemoryRecord
                    ) -> str | None:
    """Why restoring retired record `m` would restore a fault's value (None if it would
    not): it carries a fault's text, or states the key and value of one of
    `fault_records` (given for the record a faulty update replaced: the update did not
    change the value, so its earliest value is the poison)."""
    if m.id in a.carried:
        return f"it carries the text of {a.origin[m.id].fault}"
    if m.key is None:
        return None
    for f in fault_records:
        if f.key == m.key and f.value == m.value and f.value is not None:
            return f"same {m.key} = {m.value!r} as diagnosed {f.id}"
    return None


def _step_actions(case: Case, a: Analysis, relevant: frozenset[str], replay: frozenset[str],
                  pulled: dict[str, str], need: dict[str, str] | None = None
                  ) -> tuple[dict[str, StepAction], dict[str, str]]:
    """Step actions and reasons. `need` (store and both plans only) names the objective
    that required each replayed step; an answer plan's reasons carry no objective."""
    steps: dict[str, StepAction] = {}
    reasons: dict[str, str] = {}
    seed_of: dict[str, str] = {}  # a seed of several faults names the first by id
    for fault in sorted(a.seeds):
        seed_of.setdefault(a.seeds[fault], fault)
    unsupported = a.unsupported
    tools = {t.name: t.effect for t in case.tools}
    final = a.final_answer
    not_needed = "" if need is None else not_needed_reason(_objective_of(need))
    for s in case.steps_in_order():
        sid = s.id
        if sid in replay:
            step_type = s.type
            if step_type == "tool_observation":
                steps[sid] = "refresh"
                why = REFRESHED
            else:
                steps[sid] = "replay"
                if sid == final:
                    why = FINAL_ANSWER
                elif sid in seed_of:
                    why = seed_reason(seed_of[sid])
                elif sid in relevant and (need is None or "answer" in need[sid]):
                    why = REACHES_ANSWER
                elif a.graph.nodes.get(pulled.get(sid, ""), {}).get("kind") == "record":
                    why = producer_reason(pulled[sid],
                                          store=need is not None and "store" in need[sid])
                else:
                    why = closure_reason(pulled.get(sid, "?"))
            why = replayed_reason(
                why, _path(a, sid) if sid in unsupported and sid not in seed_of else None,
                None if need is None else need[sid])
            if step_type == "tool_action":
                tool = getattr(s, "tool", None)
                if tools.get(tool or "", "irreversible") == "irreversible":
                    why += irreversible_note(tool)
            reasons[sid] = why
        elif sid in a.faults:
            steps[sid] = "invalidate"
            reasons[sid] = FAULT_STEP
        elif sid in unsupported and need is not None:
            steps[sid] = "invalidate"
            reasons[sid] = f"affected via {_path(a, sid)}; no independent support; " + (
                PAST_ANSWER if s.type == "answer" else not_needed)
        elif sid in unsupported:
            steps[sid] = "invalidate"
            reasons[sid] = f"affected via {_path(a, sid)}; no independent support; {NOT_REACHING}"
        else:
            steps[sid] = "keep"
    return steps, reasons


def _objective_of(need: dict[str, str]) -> str:
    # a both plan always replays the final answer for the answer objective
    return "both" if any("answer" in v for v in need.values()) else "store"


def _path(a: Analysis, node: str) -> str:
    path = " → ".join(a.path_from_fault(node))
    if not a.graph.graph.get("has_inferred"):
        return path
    hops = a.inferred_hops(node)
    if hops:
        path += " (over inferred edge" + ("s " if len(hops) > 1 else " ") + ", ".join(
            f"{u} → {v}" for u, v in hops) + ": guessed by the importer, not recorded)"
    unvouched = sorted({p for p, by_label in a.graph._pred[node].items()
                        for lb, attrs in by_label.items()
                        if attrs.get("inferred") and (lb in SUFFICIENT_LABELS or attrs["sufficient"]
                                                       or lb == "produce")})
    if unvouched:
        path += (f"; inferred edge(s) from {', '.join(unvouched)} not counted as support "
                 "(an inferred edge never vouches)")
    return path


def _kept_reason(sup: Support) -> str:
    if sup.inherited_from:
        return f"affected but kept: every producer ({', '.join(sup.inherited_from)}) is kept"
    suffix = ", sufficient" if sup.label == "cite" else ""
    return f"affected but kept: independent support from {sup.premise} ({sup.label}{suffix})"
