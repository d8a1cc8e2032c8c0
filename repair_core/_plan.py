"""Stage 3: the rule-guided plan (deterministic rules, no optimisation) and its report."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from ._analysis import Analysis, Support, analyse
from ._case import SUFFICIENT_LABELS, Case
from ._graph import CHAIN, premises
from ._perf import without_gc

__all__ = [
    "MemoryAction",
    "StepAction",
    "PlanEdit",
    "PlanReport",
    "RepairPlan",
    "plan_case",
    "answer_relevant_steps",
    "replay_closure",
    "replay_set",
    "rederivable_producers",
]

MemoryAction = Literal["keep", "delete", "quarantine", "restore"]
StepAction = Literal["keep", "invalidate", "replay", "refresh"]


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
        )

    def replay_order(self) -> list[str]:
        """The replay set in original trajectory order."""
        return [s.id for s in self.case.steps_in_order() if s.id in self.replay_set]


@without_gc
def plan_case(case: Case, analysis: Analysis | None = None) -> RepairPlan:
    """Plan the repair of `case` by the fixed rules of stage 3.

    >>> from repair_core import load_example
    >>> p = plan_case(load_example())
    >>> p.memory["m3"], p.memory["m6"], p.steps["s7"], p.steps["s11"]
    ('delete', 'quarantine', 'refresh', 'invalidate')
    """
    a = analysis if analysis is not None else analyse(case)
    memory, memory_reasons = _memory_dispositions(case, a)
    removed = frozenset(m for m, d in memory.items() if d in ("delete", "quarantine"))
    relevant = answer_relevant_steps(a, removed)
    seed_steps = {s for s in a.seeds.values() if a.graph.nodes[s]["kind"] == "step"}
    quarantined = frozenset(m for m, d in memory.items() if d == "quarantine")
    replay, why = replay_set(a, relevant | {a.final_answer} | seed_steps, quarantined)
    steps, step_reasons = _step_actions(case, a, relevant, replay, why)
    reasons = {**memory_reasons, **step_reasons}
    for v, sup in a.support.items():
        if v not in reasons:
            reasons[v] = _kept_reason(sup)
            hops = a.inferred_hops(v)
            if hops:
                reasons[v] += (" (it was reached over inferred edge(s) "
                               + ", ".join(f"{u} → {w}" for u, w in hops) + ")")
    return RepairPlan(case=case, analysis=a, memory=memory, steps=steps,
                      answer_relevant=relevant, replay_set=replay,
                      reasons=_in_case_order(reasons, [*(m.id for m in case.memory), *steps]))


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
    deleted and quarantined records are cut out of the graph."""
    G = a.graph
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
    return frozenset(n for n in seen if n in unsupported and G.nodes[n]["kind"] == "step")


def replay_set(a: Analysis, start: set[str] | frozenset[str], quarantined: frozenset[str],
               *, fixed: frozenset[str] = frozenset()) -> tuple[frozenset[str], dict[str, str]]:
    """The execution closure of `start`, plus the producers of the quarantined records
    that a step of the set reads (and their closure), repeated until nothing is added.
    Returns the set and, for each added step, the step (or record) that pulled it in."""
    replay, why = replay_closure(a, start, fixed=fixed)
    while True:
        producers = {p: r for p, r in rederivable_producers(a, quarantined, replay).items()
                     if p not in replay and p not in fixed}
        if not producers:
            return replay, why
        more, more_why = replay_closure(a, replay | producers.keys(), fixed=fixed)
        why = {**more_why, **producers, **why}
        replay = more


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
            for p, label, _ in premises(G, rec):
                if (label == "produce" and G.nodes[p]["kind"] == "step" and p in unsupported
                        and G.nodes[p]["type"] == "memory_write"):
                    found.setdefault(p, rec)
    return found


def replay_closure(a: Analysis, start: set[str] | frozenset[str], *,
                   fixed: frozenset[str] = frozenset()
                   ) -> tuple[frozenset[str], dict[str, str]]:
    """Close `start` under execution: add every unsupported step premise of a step in the
    set (an observation always brings its action), and the observations of every replayed
    action. Returns the set and, for each added step, the step that pulled it in.

    Steps in `fixed` (a reviewer's keep or invalidate) are never added; `pulled` still
    names the first step that needed each of them.
    """
    G = a.graph
    unsupported = a.unsupported
    nodes = G.nodes
    replay = set(start)
    pulled: dict[str, str] = {}
    queue = deque(sorted(start))
    while queue:
        v = queue.popleft()
        is_obs = nodes[v]["type"] == "tool_observation"
        for p, label, _ in premises(G, v):
            if p in replay or nodes[p]["kind"] != "step":
                continue
            if p in unsupported or (is_obs and label == "produce"):
                pulled.setdefault(p, v)
                if p not in fixed:
                    replay.add(p)
                    queue.append(p)
        if nodes[v]["type"] == "tool_action":
            for d, by_label in G._succ[v].items():
                if ("produce" in by_label and d not in replay and d not in fixed
                        and nodes[d]["type"] == "tool_observation" and d in unsupported):
                    replay.add(d)
                    pulled[d] = v
                    queue.append(d)
    return frozenset(replay), pulled


def _memory_dispositions(case: Case, a: Analysis) -> tuple[dict[str, MemoryAction], dict[str, str]]:
    G = a.graph
    pred = G._pred
    affected = a.affected
    unsupported = a.unsupported
    memory: dict[str, MemoryAction] = {}
    reasons: dict[str, str] = {}
    for m in case.memory:
        rid = m.id
        if rid in a.faults:
            memory[rid] = "delete"
            seed = a.seeds[rid]
            reasons[rid] = "diagnosed fault: leaves the active store" + (
                "" if seed == rid else f" (seed {seed} is replayed)")
            continue
        if rid not in unsupported:
            memory[rid] = "keep"
            continue
        # premises(G, rid) inlined, a premise's labels read only when it is in A0
        in_a0 = [(p, lb) for p, by_label in pred[rid].items() if p in affected
                 for lb in by_label if lb != CHAIN]
        if in_a0 and all(lb == "delete" for _, lb in in_a0):
            retirers = sorted({p for p, lb, _ in premises(G, rid) if lb == "delete"})
            if m.status != "active" and all(r in unsupported for r in retirers):
                memory[rid] = "restore"
                reasons[rid] = (f"retired only by unsupported mutation(s) {', '.join(retirers)}: "
                                "restored to the active store with its content")
            else:
                memory[rid] = "keep"
                reasons[rid] = ("affected only through delete edges: keeps its content and "
                                "status (a mutation that retired it still stands)"
                                if m.status != "active" else
                                "affected only through delete edges and still active: kept")
            continue
        memory[rid] = "quarantine"
        reasons[rid] = (f"affected via {_path(a, rid)}; no independent support: quarantined "
                        "(kept for audit, never retrieved)")
    return memory, reasons


def _step_actions(case: Case, a: Analysis, relevant: frozenset[str], replay: frozenset[str],
                  pulled: dict[str, str]) -> tuple[dict[str, StepAction], dict[str, str]]:
    steps: dict[str, StepAction] = {}
    reasons: dict[str, str] = {}
    seed_of = {s: f for f, s in a.seeds.items()}
    unsupported = a.unsupported
    tools = {t.name: t.effect for t in case.tools}
    final = a.final_answer
    for s in case.steps_in_order():
        sid = s.id
        if sid in replay:
            step_type = s.type
            if step_type == "tool_observation":
                steps[sid] = "refresh"
                why = "observation re-produced by replaying its action"
            else:
                steps[sid] = "replay"
                if sid == final:
                    why = "final answer: always regenerated"
                elif sid in seed_of:
                    why = f"seed of fault {seed_of[sid]}: replayed so the store gets the correct record"
                elif sid in relevant:
                    why = "reaches the final answer"
                elif a.graph.nodes.get(pulled.get(sid, ""), {}).get("kind") == "record":
                    why = (f"producer of quarantined record {pulled[sid]}, which a replayed "
                           "step reads: replayed so the store gets it re-derived")
                else:
                    why = f"premise of replayed step {pulled.get(sid, '?')} (execution closure)"
            if sid in unsupported and sid not in seed_of:
                why = f"affected via {_path(a, sid)}; no independent support; {why}"
            if step_type == "tool_action":
                tool = getattr(s, "tool", None)
                if tools.get(tool or "", "irreversible") == "irreversible":
                    why += (f"; its tool '{tool}' is irreversible (or undeclared): the executor "
                            "will not re-issue it and reports the effect")
            reasons[sid] = why
        elif sid in unsupported:
            steps[sid] = "invalidate"
            reasons[sid] = (f"affected via {_path(a, sid)}; no independent support; does not "
                            "reach the final answer once faults are cut: invalidated, not replayed")
        else:
            steps[sid] = "keep"
    return steps, reasons


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
