"""Which steps of a plan's replay set the replay keeps instead of calling their tool again
(rule `replay.world.own-action`).

A tool call that succeeded in the failed run, of a tool the case does not declare `pure`,
with no diagnosed fault among its premises, is the user's own: the executor keeps its
effect and its output, and its observations read the same text. A reviewer's edit that
refreshes such an observation (or replays its action) therefore calls nothing: the plan
says so in the edit's reason, and the replay in the step's outcome, instead of reading as
if the tool were called again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..case._case import Case, ToolAction
from ..graph._descent import own_actions

if TYPE_CHECKING:
    from ._plan import RepairPlan

__all__ = ["KeptCall", "kept_calls", "kept_call_note", "plan_kept_calls", "revoked_ids"]


@dataclass(frozen=True)
class KeptCall:
    """A replayed step whose tool the replay does not call again."""

    action: str
    """The tool action whose call is kept (the step itself, or the action that produced
    the observation)."""
    tool: str
    """That action's tool, as the case names it."""


def kept_calls(case: Case, revoked: Iterable[str], replay: Collection[str]
               ) -> dict[str, KeptCall]:
    """Step of `replay` -> the call the replay keeps for it: each action of `replay` that
    is the user's own (`own_actions`, with `revoked`, the ids the plan's operations
    revoke, as the faults the executor reads descent from) and each observation of
    `replay` such an action produced."""
    own = own_actions(case, revoked, replay)
    if not own:
        return {}
    steps = {s.id: s for s in case.trajectory}
    out: dict[str, KeptCall] = {}
    for aid in own:
        action = steps[aid]
        assert isinstance(action, ToolAction)
        out[aid] = KeptCall(action=aid, tool=action.tool)
    for s in case.steps_in_order():
        if s.type != "tool_observation" or s.id not in replay:
            continue
        for d in s.deps:
            if d.label == "produce" and d.id in own:
                out[s.id] = out[d.id]
                break
    return out


def revoked_ids(case: Case, cleaned_sources: Iterable[str],
                memory: Mapping[str, str]) -> set[str]:
    """The ids a plan's operations revoke (`plan_ops`): the diagnosed faults, the sources
    it cleans and every record it deletes."""
    return {*case.faults, *cleaned_sources, *(r for r, a in memory.items() if a == "delete")}


def kept_call_note(kept: KeptCall) -> str:
    """What a plan's reason adds for a step whose call is kept."""
    return (f"not called again: '{kept.tool}' ({kept.action}) succeeded in the run and no "
            "diagnosed fault led to it, so it is the user's own and the replay keeps its "
            "output (rule replay.world.own-action); declare the tool `pure` to call it again")


def plan_kept_calls(plan: RepairPlan) -> dict[str, KeptCall]:
    """:func:`kept_calls` of `plan`'s replay set, as its operations revoke."""
    cleaned = [s.id for s in plan.suspected if s.action == "clean"]
    return kept_calls(plan.case, revoked_ids(plan.case, cleaned, plan.memory), plan.replay_set)
