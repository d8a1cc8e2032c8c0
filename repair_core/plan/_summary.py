"""The readable plan `dgrr plan` prints, as data: what a person follows (faults and their
seeds, the counts, the first decisions with their reasons, the replay order), made by
either planner (`plan_summary` here, `columnar_plan_summary` for large cases) and
written by `commands.plan.write_summary`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING

from ..case._trace import span_label, span_labels

if TYPE_CHECKING:
    from ._plan import RepairPlan

__all__ = ["FaultLine", "PlanSummary", "SummaryRow", "SuspectLine", "plan_summary",
           "seed_description", "suspect_lines"]

MAX_ROWS = 200
"""Decisions shown of the store and of the trajectory (the rest: `dgrr plan --json`)."""


@dataclass(frozen=True)
class FaultLine:
    """A diagnosed fault and where its damage starts."""

    id: str
    text: str
    what: str | None
    """A fault that is a step or a user turn: what it is ("tool observation", "user
    turn"); None for a record."""
    seed: str
    """A record's seed, in words (empty for a step or a turn: it is dropped from every
    replayed step's inputs)."""


@dataclass(frozen=True)
class SuspectLine:
    """A suspected source or carrier: what it is suspected of, what the plan does, why."""

    id: str
    role: str
    fault: str
    action: str
    evidence: str


def suspect_lines(suspected: Iterable[object]) -> list[SuspectLine]:
    """The summary's lines of a plan's suspects (`_suspects.Suspected` records)."""
    return [SuspectLine(s.id, s.role, s.fault, s.action, s.evidence)  # type: ignore[attr-defined]
            for s in suspected]


@dataclass(frozen=True)
class SummaryRow:
    """One decision shown: a record's or a step's action and its reason."""

    id: str
    action: str
    text: str
    reason: str
    """The plan's reason ("" when it has none)."""
    seq: int | None = None
    """A step's seq (None for a record)."""
    type: str | None = None
    """A step's type (None for a record)."""
    span: str | None = None
    """An imported step's span as the trace names it (`case._trace.span_label`), None
    when the trace recorded no name or the row is a record's."""


@dataclass(frozen=True)
class PlanSummary:
    """What the readable plan shows of a plan."""

    case_id: str
    domain: str | None
    user_id: str
    steps: int
    """Steps in the trajectory."""
    records: int
    faults: int
    objective: str
    fault_lines: list[FaultLine]
    """The faults with a seed, in the plan's order."""
    affected: int
    supported: int
    unsupported: int
    answer_relevant: int
    memory_counts: dict[str, int]
    """Records per action, actions in name order."""
    memory_rows: list[SummaryRow]
    """The first records not simply kept (store order), at most `max_rows` of them."""
    more_records: bool
    """Whether records not simply kept are left out of `memory_rows`."""
    records_with_reasons: int
    step_counts: dict[str, int]
    """Steps per action, actions in name order."""
    step_rows: list[SummaryRow]
    """The first steps not simply kept (seq order), at most `max_rows` of them."""
    more_steps: bool
    """Whether steps not simply kept are left out of `step_rows`."""
    replay: list[tuple[str, bool]]
    """The replayed steps in seq order, each with whether it is a refresh."""
    suspected: list[SuspectLine] = field(default_factory=list)
    """Suspected sources, then carriers (`_suspects`)."""
    warnings: list[str] = field(default_factory=list)
    """One line per warning of the plan (`_warnings`), with its kind."""
    replay_spans: dict[str, str] = field(default_factory=dict)
    """Step id -> its span's name (`case._trace.span_label`), for each step of the replay
    order whose trace recorded one: an imported id is a hex span id that tells a person
    nothing."""


def seed_description(fault: str, seed: str, *, failed: bool, seq: int, type: str) -> str:
    """How a record fault's damage enters the execution, in words: at the record itself,
    at the failed step that read it, or at the step that produced it (`seq` and `type`
    are the seed step's; unused when the seed is the record)."""
    if seed == fault:
        return "the record itself (it predates the execution and has no producer)"
    if failed:
        return f"failed {type} {seed} (seq {seq})"
    return f"its producer {seed} (seq {seq}, {type})"


def plan_summary(plan: RepairPlan, max_rows: int = MAX_ROWS) -> PlanSummary:
    """The readable summary of `plan` (the networkx planner's).

    >>> from repair_core import load_example, plan_case
    >>> s = plan_summary(plan_case(load_example()))
    >>> s.memory_counts, [r.id for r in s.memory_rows], s.replay[-2:]
    ({'delete': 1, 'keep': 5, 'quarantine': 1}, ['m3', 'm6'], [('s7', True), ('s10', False)])
    """
    case, a = plan.case, plan.analysis
    steps = {s.id: s for s in case.trajectory}
    records = {m.id: m for m in case.memory}
    turns = {t.id: t for t in case.session}
    faults = []
    for fault, seed in a.seeds.items():
        if fault in steps:
            faults.append(FaultLine(fault, steps[fault].text,
                                    steps[fault].type.replace("_", " "), ""))
        elif fault in turns:
            faults.append(FaultLine(fault, turns[fault].text, "user turn", ""))
        elif seed == fault:
            faults.append(FaultLine(fault, records[fault].text, None,
                                    seed_description(fault, seed, failed=False, seq=-1,
                                                     type="")))
        else:
            s = steps[seed]
            faults.append(FaultLine(fault, records[fault].text, None, seed_description(
                fault, seed, failed=s.status == "failed", seq=s.seq, type=s.type)))
    shown_records = _shown(plan.memory.items(), plan.reasons, max_rows + 1)
    memory_rows = [SummaryRow(rid, action, records[rid].text, plan.reasons.get(rid, ""))
                   for rid, action in shown_records[:max_rows]]
    shown_steps = _shown(plan.steps.items(), plan.reasons, max_rows + 1)
    step_rows = [SummaryRow(sid, action, steps[sid].text, plan.reasons.get(sid, ""),
                            steps[sid].seq, steps[sid].type, span_label(steps[sid]))
                 for sid, action in shown_steps[:max_rows]]
    replay = [(s, plan.steps.get(s) == "refresh") for s in plan.replay_order()]
    from ._warnings import case_warnings  # here: the columnar summary imports this module

    return PlanSummary(
        case_id=case.case_id, domain=case.domain, user_id=case.user_id,
        steps=len(case.trajectory), records=len(case.memory), faults=len(case.faults),
        objective=plan.objective, fault_lines=faults, affected=len(a.affected),
        supported=len(a.supported), unsupported=len(a.unsupported),
        answer_relevant=len(plan.answer_relevant),
        memory_counts=dict(sorted(Counter(plan.memory.values()).items())),
        memory_rows=memory_rows, more_records=len(shown_records) > max_rows,
        records_with_reasons=sum(1 for r in plan.memory if r in plan.reasons),
        step_counts=dict(sorted(Counter(plan.steps.values()).items())),
        step_rows=step_rows, more_steps=len(shown_steps) > max_rows,
        replay=replay, suspected=suspect_lines(plan.suspected),
        warnings=[f"{w.kind}: {w.message}" for w in case_warnings(plan.case)],
        replay_spans=span_labels(map(steps.__getitem__, (s for s, _ in replay))))


def _shown(decisions: Iterable[tuple[str, str]], reasons: Container[str], limit: int
           ) -> list[tuple[str, str]]:
    """The first `limit` (id, action) of `decisions` that are not a keep without a reason."""
    return list(islice(((node, action) for node, action in decisions
                        if action != "keep" or node in reasons), limit))
