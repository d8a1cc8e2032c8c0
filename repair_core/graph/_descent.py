"""Which removed tool actions are the user's own (rule `replay.world.own-action`).

A repair method may replay or invalidate a range of the failed run wider than what the
faults reached (a redo from the first exposure, a full re-run, a retried turn). A
state-changing call in that range that no diagnosed fault led to is something the user
asked for and the agent rightly did: the executor keeps its effect, whatever the method,
and takes back only the calls that descend from a fault. Descent is read from the failed
run's dependency edges alone, in one pass over the trajectory in order: a step descends
from a fault when one of its premises is a fault or descends from one, and a record a
descending write produced descends too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..case._case import Case, MemoryWrite, Step, ToolAction

__all__ = ["fault_descendants", "own_actions"]


def fault_descendants(case: Case, faults: Iterable[str],
                      order: Sequence[Step] | None = None) -> set[str]:
    """The faults, every step of `case` with a premise among them (transitively), and
    every record such a step wrote. `order`: `case.steps_in_order()`, when the caller
    holds it already."""
    reached = set(faults)
    produced_by: dict[str, list[str]] = {}
    for rec in case.memory:
        for d in rec.deps:
            if d.label in ("produce", "update", "consolidate", "supersede"):
                produced_by.setdefault(d.id, []).append(rec.id)
    for step in case.steps_in_order() if order is None else order:
        if step.id in reached or any(d.id in reached for d in step.deps):
            reached.add(step.id)
            if isinstance(step, MemoryWrite):
                reached.update(step.target)
            reached.update(produced_by.get(step.id, ()))
    return reached


def own_actions(case: Case, faults: Iterable[str], removed: Iterable[str], *,
                steps: Mapping[str, Step] | None = None,
                order: Sequence[Step] | None = None) -> set[str]:
    """The actions among `removed` that are the user's own: a call that succeeded in the
    failed run, of a tool the case does not declare `pure` (it changed the world), with
    no premise that descends from a fault. `steps` (the case's steps by id) and `order`
    (`case.steps_in_order()`): what the caller holds already (the replay's set-up), so
    the whole trajectory is not indexed and sorted again."""
    if steps is None:
        steps = {s.id: s for s in case.trajectory}
    pure = {t.name for t in case.tools if t.effect == "pure"}
    candidates = [steps[sid] for sid in removed if sid in steps]
    candidates = [s for s in candidates if isinstance(s, ToolAction) and s.status == "ok"
                  and s.tool not in pure]
    if not candidates:
        return set()
    tainted = fault_descendants(case, faults, order)
    return {s.id for s in candidates if s.id not in tainted}
