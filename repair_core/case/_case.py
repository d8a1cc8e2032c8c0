"""The `dgrr.case/v1` bundle as pydantic models.

A case is what the instrumented runtime recorded of one failed execution plus the
diagnosed faults. The models only check shape; cross-references (unknown ids,
duplicate seq, ...) are checked by :func:`repair_core.load_case`, which reports every
problem at once.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from ._shared import SharingModel

__all__ = [
    "CASE_FORMAT",
    "LABELS",
    "PROPAGATING_LABELS",
    "SUFFICIENT_LABELS",
    "STEP_TYPES",
    "FAULTABLE_STEP_TYPES",
    "WRITE_OPS",
    "TOOL_EFFECTS",
    "Dep",
    "Turn",
    "MemoryRecord",
    "StepBase",
    "MemoryRead",
    "Claim",
    "Plan",
    "ToolAction",
    "ToolObservation",
    "Answer",
    "MemoryWrite",
    "Step",
    "Tool",
    "EvalLabels",
    "Case",
]

CASE_FORMAT = "dgrr.case/v1"

DepLabel = Literal[
    "initiate", "cite", "support", "produce", "delete", "update", "consolidate",
    "supersede", "derive",
]
LABELS: tuple[str, ...] = DepLabel.__args__  # type: ignore[attr-defined]
# `chain` is derived from seq order and is the only label that does not propagate.
PROPAGATING_LABELS: frozenset[str] = frozenset(LABELS)
# Labels whose premise alone justifies the dependent (cite only when marked sufficient).
SUFFICIENT_LABELS: frozenset[str] = frozenset({"support", "derive", "supersede"})

WriteOp = Literal["add", "update", "delete", "consolidate", "supersede"]
WRITE_OPS: tuple[str, ...] = WriteOp.__args__  # type: ignore[attr-defined]

ToolEffect = Literal["pure", "idempotent", "resettable", "compensable", "irreversible"]
TOOL_EFFECTS: tuple[str, ...] = ToolEffect.__args__  # type: ignore[attr-defined]

StepType = Literal[
    "memory_read", "claim", "plan", "tool_action", "tool_observation", "answer",
    "memory_write",
]
STEP_TYPES: tuple[str, ...] = StepType.__args__  # type: ignore[attr-defined]
# Untrusted inputs that can be diagnosed besides memory records and user turns: a tool
# result or a retrieved (external) document is a tool observation.
FAULTABLE_STEP_TYPES: frozenset[str] = frozenset({"tool_observation"})


class _Model(SharingModel):
    # Unknown fields are kept, not dropped: a case round-trips without losing data.
    model_config = ConfigDict(extra="allow")


class Dep(_Model):
    """One premise of a step or record: an edge `id -> this node`."""

    id: str
    """Id of the premise (a turn, step or record)."""
    label: DepLabel
    """Edge label; see `method.md` for what each label means."""
    sufficient: bool = False
    """For `cite` edges: this premise alone justifies the dependent."""
    # Written only when true, so cases without inferred edges serialise as before.
    inferred: bool = Field(default=False, exclude_if=lambda v: not v)
    """The edge was guessed by an importer, not recorded by the runtime: it carries harm
    (counts for `A0`) but never vouches for support (see method.md, "Inferred edges")."""
    inferred_by: Literal["context-window", "call-id", "same-tool", "code-call", "latest-plan",
                         "text-overlap", "latest-model-call", "turn-start"] | None = Field(
        default=None, exclude_if=lambda v: v is None)
    """For an inferred edge: the evidence it was inferred from (docs/import.md)."""


class Turn(_Model):
    """A user turn of the session `U`."""

    id: str
    """Unique id across turns, steps and records."""
    seq: int
    """Position in the execution; unique over turns and steps together."""
    text: str
    """What the user said."""


class MemoryRecord(_Model):
    """A record the execution knew, with its lifecycle status."""

    id: str
    """Unique id across turns, steps and records."""
    user_id: str
    """The user the record is attributed to."""
    text: str
    """The record's content."""
    key: str | None = None
    """Structured form of the fact: its key."""
    value: Any = None
    """Structured form of the fact: its value."""
    status: Literal["active", "superseded", "deleted"]
    """Only `active` records form the active store `M`."""
    created_seq: int | None = None
    """Seq of the step that created it in this execution; None when it predates it."""
    trust: float | None = None
    """Recorded for analysis only; never changes a decision."""
    deps: list[Dep] = Field(default_factory=list)
    """Premises of the record (its producer, the writes that retired it, sources)."""

    @property
    def other_fields(self) -> dict[str, Any]:
        """The record's fields beyond the format's (attachments, tags, metadata): the
        store holds them with its text, so a carrier check reads them too."""
        return self.model_extra or {}


class StepBase(_Model):
    """Fields every trajectory step has."""

    id: str
    """Unique id across turns, steps and records."""
    seq: int
    """Position in the execution; unique over turns and steps together."""
    turn: str
    """Id of the user turn the step belongs to."""
    text: str
    """Human-readable content of the step (its output)."""
    status: Literal["ok", "failed"] = "ok"
    """`failed` marks a step that did not take effect (e.g. a failed memory update)."""
    deps: list[Dep] = Field(default_factory=list)
    """Premises of the step."""


class MemoryRead(StepBase):
    """A retrieval from the memory store."""

    type: Literal["memory_read"]
    query: str = ""
    """The retrieval query."""
    returned: list[str] = Field(default_factory=list)
    """Record ids returned, in rank order."""


class Claim(StepBase):
    """A statement the agent made from evidence."""

    type: Literal["claim"]
    verified: bool = False
    """The runtime verified the claim (admissible support when unaffected)."""
    key: str | None = None
    """Structured form of the claim: its key."""
    value: Any = None
    """Structured form of the claim: its value."""


class Plan(StepBase):
    """A decision to call a tool."""

    type: Literal["plan"]
    tool: str = ""
    """Tool the plan calls."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Arguments the plan chose."""


class ToolAction(StepBase):
    """A tool call issued."""

    type: Literal["tool_action"]
    tool: str = ""
    """Tool called."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Arguments sent."""


class ToolObservation(StepBase):
    """What a tool call returned."""

    type: Literal["tool_observation"]
    output: Any = None
    """The tool's output."""


class Answer(StepBase):
    """An answer to the user; the final answer is the one with the highest seq."""

    type: Literal["answer"]


class MemoryWrite(StepBase):
    """A change to the memory store."""

    type: Literal["memory_write"]
    op: WriteOp
    """add, update, delete, consolidate or supersede."""
    target: list[str] = Field(default_factory=list)
    """Record ids the write created, changed or retired."""


Step = Annotated[
    MemoryRead | Claim | Plan | ToolAction | ToolObservation | Answer | MemoryWrite,
    Field(discriminator="type"),
]


class Tool(_Model):
    """A tool available to the agent and what its calls do to the world."""

    name: str
    """Tool name as used in plan and action steps."""
    effect: ToolEffect = "irreversible"
    """How a replay may re-issue it; irreversible (the safe default) is never replayed."""
    description: str | None = None
    """What the tool does."""


class EvalLabels(_Model):
    """Evaluation labels. Repair code never reads these."""

    required_facts: list[str] = Field(default_factory=list)
    """Strings the corrected answer must contain."""
    forbidden_facts: list[str] = Field(default_factory=list)
    """Strings the corrected answer must not state: values only a fault put into the run
    (each fault's value and the values its lineage introduced). A forbidden fact that is
    also required does not count."""
    clean_answer: str | None = None
    """The answer of the clean (uncorrupted) run."""
    benign: list[str] = Field(default_factory=list)
    """Record ids that must stay active."""
    gold_claims: list[str] = Field(default_factory=list)
    """Claim ids that must be invalidated or re-derived."""
    fault_types: dict[str, str] = Field(default_factory=dict)
    """Record id -> poisoned | stale | wrong-user | summary-drift."""
    required_state: list[str] | None = None
    """Tool-state entries the final world must hold (`hold F S`, `cart I size S`,
    `address O A`), from the world's truth; None when the case's world is not judged."""


class Case(_Model):
    """A `dgrr.case/v1` bundle: a failed execution plus its diagnosed faults."""

    format: Literal["dgrr.case/v1"]
    """Format version."""
    case_id: str
    """Case identifier."""
    domain: str | None = None
    """E.g. shopping, travel, customer_service."""
    user_id: str
    """The user the session belongs to."""
    session: list[Turn]
    """User turns `U`."""
    memory: list[MemoryRecord]
    """Every record the execution knew, with its status."""
    trajectory: list[Step]
    """The failed execution `T` (ordered by seq, any order in the file)."""
    faults: list[str]
    """Diagnosed faults `F`: memory record ids, and untrusted inputs that are not records
    (a tool observation, a retrieved document, a user turn) by their step or turn id."""
    tools: list[Tool] = Field(default_factory=list)
    """Tools available; a tool not listed is treated as irreversible."""
    eval: EvalLabels | None = None
    """Evaluation labels; never read by repair."""

    def steps_in_order(self) -> list[Step]:
        """Trajectory steps sorted by seq."""
        return sorted(self.trajectory, key=lambda s: s.seq)

    def final_answer(self) -> Answer:
        """The answer step with the highest seq. A loaded case has one unless it has no
        steps at all (a store's records and lineage, `case.store-only`): then ValueError."""
        answers = [s for s in self.trajectory if isinstance(s, Answer)]
        if not answers:
            raise ValueError(f"case {self.case_id!r} has no answer step")
        return max(answers, key=lambda s: s.seq)

    def has_answer(self) -> bool:
        """True when the trajectory has an answer step (every loaded case with steps)."""
        return any(isinstance(s, Answer) for s in self.trajectory)

    def without_eval(self) -> Case:
        """The same case with its evaluation labels removed."""
        return self.model_copy(update={"eval": None})
