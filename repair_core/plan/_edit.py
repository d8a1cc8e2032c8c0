"""Reviewer edits to a plan, as data: `apply_edits(plan, edits)` returns a new plan.

An edit that breaks one of the method's invariants (an unsupported record or step kept
as evidence, an irreversible tool replayed, a premise of a replayed step dropped) is
refused with the reason unless `force=True`. Refused even when forced: edits that make no
sense at all (an unknown id, a step action on a record, restoring an active record), an
edit that re-admits a diagnosed fault (replay never re-admits one: unmark the fault
instead), and edits the replay could not honour (keeping the final answer, which is
always regenerated; keeping an observation whose action is replayed, or an action whose
observation is refreshed), so the plan's decisions are the replay's outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from .._errors import PlanEditError
from ._kept_calls import kept_call_note, kept_calls, revoked_ids
from ._plan import (
    MemoryAction,
    PlanEdit,
    RepairPlan,
    StepAction,
    answer_relevant_steps,
    cleanable_steps,
    objective_starts,
    replay_set,
)
from ._reasons import fault_record_reason, released_seed_reason

__all__ = ["apply_edits", "check_edits", "edits_from_report", "plan_diff", "PlanChange",
           "allowed_actions", "kind_actions", "edit_kind", "EDIT_KINDS"]

MEMORY_ACTIONS: tuple[str, ...] = get_args(MemoryAction)
STEP_ACTIONS: tuple[str, ...] = get_args(StepAction)

EDIT_KINDS: dict[str, str] = {"record": "Records", "step": "Steps",
                              "tool_observation": "Tool observations"}
"""The kinds of node an edit treats differently (what `kind_actions` takes), with a
heading for each: records take dispositions, tool observations are refreshed, every
other step is replayed."""

# Why a step action is refused for a kind of step (the kind rule of `_problems`).
_KIND_REFUSALS = {
    "refresh": "only tool observations are refreshed; a {type} is replayed",
    "replay": "an observation is never replayed on its own; refresh it (its action is "
              "replayed)",
}


def kind_actions(kind: str) -> tuple[str, ...]:
    """The actions an edit may set on a node of `kind` (`record`, `step`, or a step
    type): records take the record dispositions; a tool observation is refreshed, never
    replayed; any other step is replayed, never refreshed. Rules about one node (a fault,
    the final answer, restoring an active record) narrow this further: see
    :func:`allowed_actions`.

    >>> kind_actions("record"), kind_actions("tool_observation"), kind_actions("claim")
    (('keep', 'delete', 'quarantine', 'restore'), ('keep', 'invalidate', 'refresh'), ('keep', 'invalidate', 'replay'))
    """
    if kind == "record":
        return MEMORY_ACTIONS
    unfit = "replay" if kind == "tool_observation" else "refresh"
    return tuple(a for a in STEP_ACTIONS if a != unfit)


def edit_kind(type_: str) -> str:
    """The key of `EDIT_KINDS` for a node of type `type_` (`record` or a step type)."""
    return type_ if type_ in ("record", "tool_observation") else "step"


class PlanChange(PlanEdit):
    """One decision that differs between two plans (`kind` is `record` or `step`)."""

    kind: str
    """`record` or `step`."""
    edited: bool = False
    """A reviewer's edit set this decision; False when it changed only because the
    edits recomputed the replay set (e.g. a record deleted instead of quarantined takes
    the write that re-derives it out of the replay)."""


def apply_edits(plan: RepairPlan, edits: Mapping[str, str], *, force: bool = False,
                comment: str | None = None) -> RepairPlan:
    """A new plan with the reviewer's `edits` (node id -> action) applied and the
    answer-relevant and replay sets recomputed.

    >>> from repair_core import load_example, plan_case
    >>> p = plan_case(load_example())
    >>> apply_edits(p, {"m3": "keep"})
    Traceback (most recent call last):
    ...
    repair_core._errors.PlanEditError: plan edit refused: ...
    >>> q = apply_edits(p, {"s11": "replay"})
    >>> q.steps["s11"], q.memory["m6"]
    ('replay', 'quarantine')
    """
    new_edits = dict(edits)
    base = _base(plan)
    prior = {e.node: e for e in plan.edits}
    merged = {**{k: e.action for k, e in prior.items()}, **edits}
    edits = {k: v for k, v in merged.items() if _current(base, k) != v}
    hard, soft = _problems(base, edits)
    a = base.analysis
    memory = dict(base.memory)
    memory.update({k: v for k, v in edits.items() if k in memory})  # type: ignore[misc]
    step_edits = {k: v for k, v in edits.items() if k in base.steps}
    removed = frozenset(m for m, d in memory.items() if d in ("delete", "quarantine"))
    relevant = answer_relevant_steps(a, removed)
    quarantined = frozenset(m for m, d in memory.items() if d == "quarantine")
    only = None if base.objective == "answer" else cleanable_steps(a)
    edited_fixed = frozenset(k for k, v in step_edits.items() if v in ("keep", "invalidate"))
    held = dict(base.held_back)
    while True:
        # a seed held back (suspect.no-rederive) is replayed by the reviewer's own edit,
        # or once the reviewer's edits refresh every tool output that held it back
        seed_steps = {s for f, s in a.seeds.items()
                      if s in base.steps and s != f and s not in held}
        start = (set().union(*objective_starts(a, base.objective, relevant, seed_steps,
                                               quarantined).values())
                 | {k for k, v in step_edits.items() if v in ("replay", "refresh")})
        fixed = edited_fixed | frozenset(k for k in held if step_edits.get(k) != "replay")
        replay, pulled = replay_set(a, start - fixed, quarantined, fixed=fixed, only=only)
        replay, paired = _with_pairs(base, replay, fixed)
        if not held:  # no seed to release: the usual plan asks nothing of the tools
            break
        fresh = _called_again(base, replay)
        released = {k for k, (_f, same) in held.items() if set(same) <= fresh}
        if not released:
            break
        held = {k: v for k, v in held.items() if k not in released}
    hard += paired
    soft += [(k, f"is a premise of replayed step {pulled[k]}; it must be replayed too")
             for k in sorted(fixed) if step_edits.get(k) == "invalidate" and k in pulled
             and pulled[k] in replay and k in a.unsupported]
    soft += [(k, f"replays the producer of fault {held[k][0]} on the same "
                 f"input(s) {', '.join(held[k][1])} it wrote the fault from; clear, clean "
                 "or refresh them instead") for k in sorted(step_edits)
             if step_edits[k] == "replay" and k in held]
    # Edits forced earlier stay accepted; only new ones need force.
    if plan.forced:
        soft = [(k, m) for k, m in soft if k in new_edits]
    if hard or (soft and not force):
        if hard:
            soft = [(k, m) for k, m in soft if k not in {h for h, _ in hard}]
        raise PlanEditError([f"{k}: {m}" for k, m in hard + soft]
                            + ([] if hard else ["(apply with force and a comment to override)"]),
                            nodes=dict.fromkeys(k for k, _ in hard))
    steps: dict[str, StepAction] = {}
    for s in base.case.steps_in_order():
        if s.id in replay:
            steps[s.id] = "refresh" if s.type == "tool_observation" else "replay"
        elif s.id in step_edits:
            steps[s.id] = step_edits[s.id]  # type: ignore[assignment]
        else:
            steps[s.id] = ("invalidate" if s.id in a.unsupported or s.id in held
                           else "keep")
    reasons = dict(base.reasons)
    records = [PlanEdit(node=k, action=v, before=str(_current(base, k)),
                        comment=comment if k not in prior or k in new_edits else prior[k].comment)
               for k, v in sorted(edits.items())]
    for e in records:
        note = f"reviewer edit: {e.action} (computed: {e.before})"
        reasons[e.node] = note + (f" — {e.comment}" if e.comment else "")
    for k, v in steps.items():
        if v != base.steps[k] and k not in edits:
            reasons[k] = (f"follows reviewer edits: {v} (computed: {base.steps[k]})"
                          + (f"; pulled in by {pulled[k]}" if k in pulled else ""))
    for seed, (fault, same) in base.held_back.items():
        if seed not in held and seed in replay and seed not in edits:
            reasons[seed] = released_seed_reason(fault, same)
            reasons[fault] = fault_record_reason(seed)
    # an edit asking for a call the replay keeps (the user's own) says it is not made
    cleaned = [s.id for s in base.suspected if s.action == "clean"]
    for sid, call in kept_calls(base.case, revoked_ids(base.case, cleaned, memory),
                                replay).items():
        if sid in edits or steps[sid] != base.steps[sid]:
            reasons[sid] = f"{reasons[sid]}; {kept_call_note(call)}"
    return RepairPlan(case=base.case, analysis=a, memory=memory, steps=steps,
                      answer_relevant=relevant, replay_set=replay, reasons=reasons,
                      edits=tuple(records), forced=plan.forced or bool(soft),
                      objective=base.objective, suspected=base.suspected,
                      suspects=base.suspects, not_suspect=base.not_suspect,
                      clean_source=base.clean_source, held_back=held)


def check_edits(plan: RepairPlan, edits: Mapping[str, str]) -> list[str]:
    """Every reason `edits` would be refused without `force` (empty when acceptable)."""
    try:
        apply_edits(plan, edits)
    except PlanEditError as exc:
        return [p for p in exc.problems if not p.startswith("(apply with force")]
    return []


def edits_from_report(plan: RepairPlan, report: Any) -> dict[str, str]:
    """The edits an edited plan report (the `--plan` file) makes to `plan`.

    Accepts the shape of `dgrr plan --json` (its `memory` and `steps` maps; other keys
    are ignored) or `{"edits": {node: action}}`.
    """
    if not isinstance(report, Mapping):
        raise PlanEditError([f"(root): expected a JSON object, got {type(report).__name__}"])
    if not any(k in report for k in ("edits", "memory", "steps")):
        raise PlanEditError(["(root): expected a plan report (with 'memory' and 'steps', as "
                             "printed by dgrr plan --json) or {\"edits\": {id: action}}, "
                             f"got keys {sorted(report)}"])
    problems: list[str] = []
    cid = report.get("case_id")
    if cid is not None and cid != plan.case.case_id:
        problems.append(f"case_id: the plan is for '{cid}', the case is '{plan.case.case_id}'")
    edits: dict[str, str] = {}
    sections = ("edits",) if "edits" in report else ("memory", "steps")
    for section in sections:
        value = report.get(section, {})
        if not isinstance(value, Mapping):
            problems.append(f"{section}: expected an object of id -> action, got {value!r}")
            continue
        for node, action in value.items():
            if not isinstance(action, str):
                problems.append(f"{section}.{node}: expected an action name, got {action!r}")
            elif _current(plan, node) != action:
                edits[str(node)] = action
    if problems:
        raise PlanEditError(problems)
    return edits


def plan_diff(computed: RepairPlan, edited: RepairPlan) -> list[PlanChange]:
    """Decisions of `edited` that differ from `computed`, records first, then steps."""
    changes = [PlanChange(node=k, kind="record", before=v, action=edited.memory[k])
               for k, v in computed.memory.items() if edited.memory.get(k, v) != v]
    changes += [PlanChange(node=k, kind="step", before=v, action=edited.steps[k])
                for k, v in computed.steps.items() if edited.steps.get(k, v) != v]
    notes = {e.node: e.comment for e in edited.edits}
    for c in changes:
        c.comment = notes.get(c.node)
        c.edited = c.node in notes
    return changes


def _with_pairs(plan: RepairPlan, replay: frozenset[str], fixed: frozenset[str]
                ) -> tuple[frozenset[str], list[tuple[str, str]]]:
    """`replay` closed the way the replay runs it: a refreshed observation re-issues its
    action and a re-issued action refreshes all its observations. A reviewer's keep or
    invalidate on the other half of such a pair cannot be honoured: a problem each."""
    steps = {s.id: s for s in plan.case.trajectory}
    pairs = [(s.id, d.id) for s in plan.case.steps_in_order() if s.type == "tool_observation"
             for d in s.deps if d.label == "produce" and d.id in steps
             and steps[d.id].type == "tool_action"]
    out = set(replay)
    problems: list[tuple[str, str]] = []
    changed = True
    while changed:
        changed = False
        for obs, act in pairs:
            if obs in out and act not in out:
                if act in fixed:
                    problems.append((act, f"its observation {obs} is refreshed, which re-issues "
                                          "this action; it cannot be kept out of the replay"))
                    fixed = fixed - {act}
                out.add(act)
                changed = True
            if act in out and obs not in out:
                if obs in fixed:
                    problems.append((obs, f"its action {act} is replayed, which refreshes this "
                                          "observation; it cannot be kept out of the replay"))
                    fixed = fixed - {obs}
                out.add(obs)
                changed = True
    return frozenset(out), problems


def _called_again(plan: RepairPlan, replay: frozenset[str]) -> set[str]:
    """The observations of `replay` whose tool the replay calls again, so that a step
    reading them reads new text: each action producing it is replayed and either failed
    in the run or calls a tool the case declares `pure`. A successful call of any other
    tool that no fault led to is the user's own: the replay keeps its output instead of
    re-issuing it (rule `replay.world.own-action`), so its observation is the same text."""
    steps = {s.id: s for s in plan.case.trajectory}
    pure = {t.name for t in plan.case.tools if t.effect == "pure"}
    fresh: set[str] = set()
    for sid in replay:
        obs = steps.get(sid)
        if obs is None or obs.type != "tool_observation":
            continue
        actions = [steps[d.id] for d in obs.deps if d.label == "produce" and d.id in steps
                   and steps[d.id].type == "tool_action"]
        if actions and all(a.id in replay and (a.status != "ok"
                                               or getattr(a, "tool", None) in pure)
                           for a in actions):
            fresh.add(sid)
    return fresh


def _base(plan: RepairPlan) -> RepairPlan:
    # Edits always apply to the computed plan: re-plan from the same analysis.
    if not plan.edits:
        return plan
    from ._plan import plan_case

    return plan_case(plan.case, plan.analysis, objective=plan.objective,
                     suspects=plan.suspects, not_suspect=plan.not_suspect,
                     clean_source=plan.clean_source)


def _current(plan: RepairPlan, node: str) -> str | None:
    return plan.memory.get(node) or plan.steps.get(node)


def _problems(plan: RepairPlan, edits: Mapping[str, str]
              ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    hard: list[tuple[str, str]] = []
    soft: list[tuple[str, str]] = []
    a = plan.analysis
    case = plan.case
    records = {m.id: m for m in case.memory}
    steps = {s.id: s for s in case.trajectory}
    tools = {t.name: t.effect for t in case.tools}
    for node, action in edits.items():
        if node in records:
            if action not in kind_actions("record"):
                hard.append((node, f"'{action}' is not a record disposition "
                                   f"(expected one of {', '.join(MEMORY_ACTIONS)})"))
            elif action == "restore" and records[node].status == "active":
                hard.append((node, "is active; there is nothing to restore"))
            elif node in a.faults and action in ("keep", "restore"):
                hard.append((node, "is a diagnosed fault; replay never re-admits it, even "
                                   f"forced ({action}): unmark the fault instead (--faults, "
                                   "or the Faults page)"))
            elif action == "keep" and plan.memory[node] == "quarantine":
                soft.append((node, "is affected with no independent support; keeping it "
                                   "active lets the fault's effect back into the store"))
        elif node in steps:
            step = steps[node]
            tool = str(getattr(step, "tool", "") or "")
            if action not in STEP_ACTIONS:
                hard.append((node, f"'{action}' is not a step action "
                                   f"(expected one of {', '.join(STEP_ACTIONS)})"))
            elif node in a.faults and action != "invalidate":
                hard.append((node, "is a diagnosed fault; it is never evidence again and "
                                   f"never re-run, even forced ({action})"))
            elif action not in kind_actions(step.type):
                hard.append((node, _KIND_REFUSALS[action].format(type=step.type)))
            elif node == a.final_answer:
                hard.append((node, "is the final answer; it is always regenerated (this "
                                   "cannot be overridden)"))
            elif action == "keep" and node in a.unsupported:
                soft.append((node, "is affected with no independent support; keeping it "
                                   "lets its output be used as evidence"))
            elif (action == "replay" and step.type == "tool_action"
                    and tools.get(tool, "irreversible") == "irreversible"):
                soft.append((node, f"calls '{tool}', an irreversible tool; it is never "
                                   "replayed"))
        else:
            hard.append((node, "unknown record or step id"))
    return hard, soft


def allowed_actions(plan: RepairPlan, node: str) -> list[str]:
    """The actions an edit of `node` may set without being refused outright (forcing
    overrides only the softer checks): what a picker should offer for that node.

    >>> from repair_core import load_example, plan_case
    >>> p = plan_case(load_example())
    >>> allowed_actions(p, "s7"), allowed_actions(p, "m3")
    (['keep', 'invalidate', 'refresh'], ['delete', 'quarantine'])
    """
    if node in plan.memory:
        candidates = kind_actions("record")
    elif node in plan.steps:
        candidates = kind_actions(plan.analysis.graph.nodes[node]["type"])
    else:
        return []
    return [a for a in candidates if not _problems(plan, {node: a})[0]]
