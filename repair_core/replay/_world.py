"""The tool world of a repair, with a ledger of the failed run's effects on it (stage 4, 6a).

The world starts as the failed run left it: every successful call of a tool that changes
state is applied again, in trajectory order, and entered in the ledger with the effect the
case declares for its tool (a tool the case does not list is irreversible). A replayed or
refreshed step must see the state it should have seen, so before a replayed call the
executor asks `prepare`: every effect on the state that call touches, by an action the
repair removes (invalidated or replayed), is undone first, whether that action came
before or after the step in the failed run:

- `resettable` -> the tool's reset, `compensable` -> its compensation, newest first;
- `idempotent` -> left as it is (no undo is declared; re-issuing it is safe): the replayed
  call overwrites it; if the call is not re-issued, nothing can, and it needs a human;
- `irreversible` (or undeclared) -> cannot be undone: the effect happened in the failed
  run and needs a human.

Replayed calls then run in trajectory order on that clean state, and no undo ever runs
after a replayed call on the same state, so a replayed write is never rolled back by the
compensation of the faulty call it replaces. `finish` undoes the removed effects on state
no replayed call touched. Which state a call touches comes from the tool registry
(`ToolSpec.state`; unknown means all of it); the order comes from the trajectory and the
declared effects only, never from what the case's text says.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..case._case import Case, ToolAction, ToolEffect
from ..tools import ToolError, ToolRegistry, ToolResult, World

__all__ = ["NEEDS_HUMAN", "Effect", "ToolWorld"]

NEEDS_HUMAN = "happened in the failed run and cannot be undone: needs a human"
"""What the report says, per step, of an effect no rollback can undo."""

Disposition = Literal["kept", "pending", "undone", "stands", "overwritten", "needs_human"]


@dataclass
class Effect:
    """One state-changing call of the failed run and what the repair did with it."""

    step: str
    """The tool_action step."""
    seq: int
    """Its position in the failed run."""
    tool: str
    """Tool called."""
    args: dict[str, Any]
    """Arguments of the failed run's call."""
    declared: ToolEffect
    """The effect the case declares for the tool (irreversible when not declared)."""
    removed: bool
    """The repair removes the action (invalidated or replayed)."""
    state: frozenset[str] | None
    """The parts of the world the call touched; None when unknown (all of it)."""
    disposition: Disposition = "kept"
    """kept (its action stands), pending (to be undone), undone, stands (idempotent, left
    as it is until its call is re-issued), overwritten (by that re-issued call) or
    needs_human (cannot be undone)."""
    detail: str = ""
    """How it was undone, or why it was not."""
    undone_before: str | None = None
    """The replayed step it was undone for (None: undone at the end of the replay)."""


def _overlap(a: frozenset[str] | None, b: frozenset[str] | None) -> bool:
    return a is None or b is None or bool(a & b)


@dataclass
class ToolWorld:
    """The simulated world of one repair and the ledger of the failed run's effects."""

    tools: ToolRegistry
    declared: Mapping[str, ToolEffect]
    """Tool name -> effect, as the case declares it."""
    state: World = field(init=False)
    ledger: list[Effect] = field(init=False, default_factory=list)
    """One entry per successful non-pure call of the failed run, in trajectory order."""
    undone: list[Effect] = field(init=False, default_factory=list)
    """The entries undone, in the order the resets and compensations were issued."""
    _removed: list[Effect] = field(init=False, default_factory=list)
    """The entries of removed actions, in ledger order: the only ones a replayed call
    undoes or sees standing (a large case's ledger is mostly kept actions)."""
    _by_step: dict[str, Effect] = field(init=False, default_factory=dict)

    @classmethod
    def after_failed_run(cls, case: Case, tools: ToolRegistry, removed: Iterable[str]
                         ) -> ToolWorld:
        """The world the failed run of `case` left, with `removed` actions' effects
        pending undo."""
        world = cls(tools, {t.name: t.effect for t in case.tools})
        gone = set(removed)
        for step in case.steps_in_order():
            if isinstance(step, ToolAction) and step.status == "ok":
                world._record(step, step.id in gone)
        return world

    def __post_init__(self) -> None:
        self.state = self.tools.new_world()

    def effect_of(self, tool: str) -> ToolEffect:
        return self.declared.get(tool, "irreversible")

    def _touches(self, tool: str) -> frozenset[str] | None:
        spec = self.tools.get(tool)
        return None if spec is None or spec.state is None else frozenset(spec.state)

    def _record(self, step: ToolAction, removed: bool) -> None:
        spec = self.tools.get(step.tool)
        if spec is not None and spec.effect != "pure":  # the simulator's state changes
            with contextlib.suppress(ToolError):
                self.tools.call(self.state, step.tool, step.args)
        declared = self.effect_of(step.tool)
        if declared == "pure":
            return
        entry = Effect(step=step.id, seq=step.seq, tool=step.tool, args=dict(step.args),
                       declared=declared, removed=removed, state=self._touches(step.tool))
        if not removed:
            entry.detail = "its action stands: the effect is kept"
        elif declared in ("resettable", "compensable"):
            entry.disposition = "pending"
        elif declared == "idempotent":
            entry.disposition = "stands"
            entry.detail = "idempotent: no undo is declared, the effect is left as it is"
        else:
            entry.disposition = "needs_human"
            entry.detail = f"{step.tool} is irreversible (or not declared): {NEEDS_HUMAN}"
        self.ledger.append(entry)
        self._by_step.setdefault(entry.step, entry)
        if removed:
            self._removed.append(entry)

    def prepare(self, step: str, tool: str) -> list[Effect]:
        """Before replayed `step` calls `tool`: undo every pending effect on the state the
        call touches, newest first. Returns the entries handled now."""
        touched = self._touches(tool)
        due = [e for e in reversed(self._removed)
               if e.disposition == "pending" and _overlap(e.state, touched)]
        for e in due:
            self._undo(e, before=step)
        return due

    def standing(self, tool: str) -> list[Effect]:
        """Effects of removed actions on the state `tool` touches that no undo removed
        (idempotent ones left as they are, irreversible ones): a call sees them."""
        touched = self._touches(tool)
        return [e for e in self._removed if e.disposition in ("stands", "needs_human")
                and _overlap(e.state, touched)]

    def reissued(self, step: str) -> None:
        """Replayed `step` ran: an idempotent effect of its earlier call is overwritten."""
        e = self.entry(step)
        if e is not None and e.disposition == "stands":
            e.disposition = "overwritten"
            e.detail = "idempotent: overwritten by the re-issued call"

    def finish(self) -> list[Effect]:
        """Undo the removed effects on state no replayed call touched; an idempotent
        effect whose call was not re-issued stays, and needs a human."""
        due = [e for e in reversed(self.ledger) if e.disposition == "pending"]
        for e in due:
            self._undo(e, before=None)
        for e in self.ledger:
            if e.disposition == "stands":
                e.disposition = "needs_human"
                e.detail = ("idempotent: no undo is declared and the call was not re-issued "
                            f"to overwrite it: {NEEDS_HUMAN}")
        return due

    def _undo(self, e: Effect, before: str | None) -> None:
        try:
            how = self.tools.undo(self.state, e.tool, e.args)
        except ToolError as exc:
            e.disposition = "needs_human"
            e.detail = f"{e.declared}, but the undo could not run ({exc}): {NEEDS_HUMAN}"
            return
        e.disposition, e.detail, e.undone_before = "undone", how, before
        self.undone.append(e)

    def call(self, tool: str, args: Mapping[str, Any]) -> ToolResult:
        """Re-issue a call on the current state."""
        return self.tools.call(self.state, tool, args)

    def entry(self, step: str) -> Effect | None:
        """The ledger entry of a failed-run call, if it changed state."""
        return self._by_step.get(step)

    def needing_a_human(self) -> list[Effect]:
        return [e for e in self.ledger if e.disposition == "needs_human"]
