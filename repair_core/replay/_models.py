"""What a repair returns: the corrected answer, store, trajectory, report and cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    field_serializer,
)

from ..case._case import Case, MemoryRecord, ToolEffect
from ..case._shared import SharingModel
from ..verification import Verification

__all__ = [
    "Cost",
    "Decision",
    "StepOutcome",
    "SkippedWrite",
    "ToolNote",
    "WorldEffect",
    "Failure",
    "StoreChanges",
    "RepairReport",
    "RepairedStore",
    "RepairResult",
    "RemovedPremise",
]

Outcome = Literal["kept", "invalidated", "replayed", "refreshed", "skipped", "failed",
                  "needs_observation", "irreversible", "blocked"]


class Cost(BaseModel):
    """What the repair spent."""

    llm_calls: int = 0
    """Model calls made during the repair that got a reply (retries included)."""
    connection_failures: int = 0
    """Calls that got no reply at all (refused or dropped connection, timeout); not counted
    in `llm_calls`."""
    tokens: int = 0
    """Prompt plus completion tokens of those calls."""
    replay_ratio: float = 0.0
    """Replayed steps / trajectory steps."""


class Decision(SharingModel):
    """One plan decision and why it was made."""

    id: str
    """Record or step id."""
    kind: Literal["record", "step"]
    """What the id names."""
    action: str
    """keep, delete, quarantine, restore (records); keep, invalidate, replay, refresh (steps)."""
    reason: str
    """Why (the path from a fault, the support that kept it, or `unaffected`)."""


class StepOutcome(SharingModel):
    """What the executor did with one step."""

    id: str
    """Step id."""
    type: str
    """Step type."""
    outcome: Outcome
    """What happened to it."""
    detail: str = ""
    """One line: the new output, or why it was not produced."""
    llm_calls: int = 0
    """Model calls spent on this step."""
    tokens: int = 0
    """Tokens spent on this step."""


class SkippedWrite(BaseModel):
    """A record a replayed write did not apply."""

    step: str
    """The memory_write step."""
    text: str
    """The record it would have written."""
    reason: str
    """Why it was skipped (re-admits a diagnosed fault, no longer supported, ...)."""


class RemovedPremise(BaseModel):
    """A record the failed answer rested on (directly, through a read or through a claim)
    that the repair removed, with nothing re-derived in its place: what the corrected
    answer cannot have from memory."""

    id: str
    """The removed record."""
    key: str | None = None
    """The slot it held (the claim's key, else the record's), when known."""
    why: str
    """What the repair did to it: "deleted as a diagnosed fault", "quarantined by the
    repair", ..."""


class FaultEcho(BaseModel):
    """A replayed output that states a diagnosed fault's value (normalised as the
    benchmark oracle matches facts)."""

    step: str
    """The replayed claim, answer or memory_write step."""
    type: str
    """Its step type."""
    fault: str
    """The diagnosed fault whose value it states."""
    value: str
    """That value (or the fault's text when it has no value)."""
    text: str
    """What the model produced (clipped to 300 characters)."""
    action: Literal["flagged", "refused"]
    """flagged: kept and reported (claims, answers); refused: a write kept out of the
    active store."""


class ToolNote(BaseModel):
    """A tool call that needs attention: an irreversible effect, a missing tool, a reset."""

    step: str
    """The tool_action step."""
    tool: str
    """Tool name."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Arguments of the call concerned."""
    reason: str
    """What happened or what is needed."""


class WorldEffect(BaseModel):
    """One state-changing call of the failed run, and what the repair did with its effect
    (the world ledger, `method.md` stage 4 step 6a)."""

    step: str
    """The tool_action step of the failed run."""
    tool: str
    """Tool name."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Arguments of the failed run's call."""
    effect: ToolEffect
    """The effect the case declares for the tool (irreversible when not declared)."""
    removed: bool
    """The repair removes the action (invalidated or replayed): its effect must not stay."""
    disposition: Literal["kept", "undone", "overwritten", "needs_human"]
    """kept: the action stands, so does its effect; undone: reset or compensated;
    overwritten: idempotent, left as it is until the re-issued call overwrote it;
    needs_human: cannot be undone (irreversible, an undo that could not run, or an
    idempotent effect whose call was not re-issued)."""
    detail: str = ""
    """How it was undone, or why it was not."""
    undone_before: str | None = None
    """The replayed step it was undone for (None: at the end of the replay, or not undone)."""


class Failure(BaseModel):
    """A step the repair could not regenerate."""

    step: str
    """Step id."""
    stage: str
    """Prompt stage or executor phase that failed."""
    error: str
    """What went wrong."""


class StoreChanges(BaseModel):
    """Record ids by what the repair did to them."""

    deleted: list[str] = Field(default_factory=list)
    """Left the active store (diagnosed faults, or deleted by the store edits)."""
    quarantined: list[str] = Field(default_factory=list)
    """Moved to the audit partition."""
    restored: list[str] = Field(default_factory=list)
    """Back in the active store."""
    added: list[str] = Field(default_factory=list)
    """Written by replayed steps."""
    retired: list[str] = Field(default_factory=list)
    """Superseded or deleted by replayed steps."""


class RepairReport(BaseModel):
    """Every decision with its reason, and everything the replay did or could not do."""

    case_id: str
    """The case repaired."""
    model: str
    """The model string used."""
    decisions: Sequence[Decision] = Field(default_factory=list)
    """One per record and step (a repair's are kept as rows, `DecisionRows`, and made
    into models as they are read or written)."""
    steps: Sequence[StepOutcome] = Field(default_factory=list)
    """One per step, in trajectory order (a repair keeps the plain ones as rows,
    `StepOutcomeRows`, made into models as they are read or written)."""
    store_changes: StoreChanges = Field(default_factory=StoreChanges)
    """What changed in the store."""
    skipped_writes: list[SkippedWrite] = Field(default_factory=list)
    """Writes not applied, with the reason."""
    needs_observation: list[ToolNote] = Field(default_factory=list)
    """Actions whose tool is not registered: supply the observation by hand."""
    irreversible_effects: list[ToolNote] = Field(default_factory=list)
    """Effects of removed actions that happened in the failed run and that rollback cannot
    undo (irreversible or undeclared tools, or an undo that could not run): each needs a
    human."""
    resets: list[ToolNote] = Field(default_factory=list)
    """Resets and compensations of removed actions' effects, in the order issued; the
    reason names the replayed step they were issued for."""
    world: list[WorldEffect] = Field(default_factory=list)
    """The failed run's state-changing calls, in trajectory order, and what became of
    each effect."""
    failures: list[Failure] = Field(default_factory=list)
    """Steps that could not be regenerated."""
    fault_echoes: list[FaultEcho] = Field(default_factory=list)
    """Replayed outputs that state a diagnosed fault's value: flagged, and refused for
    writes (`dgrr repair --strict` exits 1 when there is any)."""
    notes: list[str] = Field(default_factory=list)
    """Other decisions the executor made, one line each (e.g. a restored record that a
    replayed write consolidated or replaced again)."""
    # Written only when not answer, so reports of answer plans read as before.
    objective: str = Field(default="answer", exclude_if=lambda v: v == "answer")
    """What the executed plan repaired: answer, store or both."""
    # Written only when not the default, so reports of such plans read as before; with
    # the objective they say which plan an approval of this result approved.
    suspects: str = Field(default="quarantine", exclude_if=lambda v: v == "quarantine")
    """What the executed plan did with suspects (`plan_case`'s `suspects`): quarantine,
    flag or off."""
    not_suspect: list[str] = Field(default_factory=list, exclude_if=lambda v: not v)
    """The ids a reviewer un-marked as suspects (`plan_case`'s `not_suspect`), sorted."""
    clean_source: dict[str, str] = Field(default_factory=dict, exclude_if=lambda v: not v)
    """The suspected sources a reviewer cleaned like a fault (`plan_case`'s
    `clean_source`) -> the reviewer's reason, by id."""
    # Written only when non-empty, so reports of plans that drop nothing read as before.
    no_longer_sees: dict[str, list[str]] = Field(default_factory=dict,
                                                 exclude_if=lambda v: not v)
    """Each replayed step -> the recorded inputs it no longer sees (its replay op's
    `drop`: faults and affected inputs neither kept nor replayed)."""
    answer_lost: list[RemovedPremise] = Field(default_factory=list, exclude_if=lambda v: not v)
    """What the failed answer rested on that the repair removed, with nothing re-derived in
    its place (the answer prompt's `removed`): what could not be determined from memory."""

    @field_serializer("decisions", "steps", mode="wrap")
    def _rows_as_list(self, value: Sequence[Any], handler: SerializerFunctionWrapHandler
                      ) -> Any:
        """Decisions and outcomes kept as rows are written as the list of models they
        stand for."""
        return handler(value if isinstance(value, list) else list(value))


class RepairedStore(BaseModel):
    """The repaired store, partitioned."""

    active: list[MemoryRecord]
    """Records the agent may retrieve after the repair."""
    quarantine: list[MemoryRecord]
    """Records kept for audit only; never retrieved."""


class RepairResult(BaseModel):
    """The outputs of stage 5 (`dgrr repair --json` prints this object)."""

    answer: str | None
    """The corrected final answer (None only if regenerating it failed)."""
    original_answer: str
    """The failed run's final answer ("" for a case without steps, `case.store-only`)."""
    store: RepairedStore
    """Active store and quarantine partition."""
    trajectory: Case
    """The repaired trajectory, a valid `dgrr.case/v1` case."""
    report: RepairReport
    """Decisions, outcomes and problems."""
    cost: Cost
    """LLM calls, tokens, replay ratio."""
    # Written only by `repair` (not by `execute` alone, e.g. a baseline's replay).
    verification: Verification | None = Field(default=None, exclude_if=lambda v: v is None)
    """The content check after the replay: carriers of a fault in the corrected answer,
    the replayed outputs or the active store, and the writes blocked for carrying one."""
    final_world: Any = Field(default=None, exclude=True, repr=False)
    """The simulated tool world as the repair left it (`repair_core.tools.World`; not
    serialised): what the benchmark's state oracle judges."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def needs_human(self) -> list[ToolNote]:
        """Effects that happened in the failed run and cannot be undone (the same notes as
        `report.irreversible_effects`): the repaired world may still carry them, so a
        person must deal with each. `dgrr repair --strict` exits 1 when there is any."""
        return list(self.report.irreversible_effects)
