"""What a content check of a repair found: the `verification` section of a result."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field

__all__ = ["BlockedWrite", "Carrier", "Checked", "FaultCheck", "Verification"]

CarrierKind = Literal["answer", "output", "record"]


class Carrier(BaseModel):
    """Something the agent reads next that carries a fault's content."""

    id: str
    """`WHERE:FAULT`: what a reviewer names to acknowledge it (`dgrr approve --acknowledge`)."""
    kind: CarrierKind
    """answer: the corrected answer; output: a replayed or refreshed step's output;
    record: an active record of the repaired store."""
    where: str
    """The record or step id (the final answer step's id for the answer)."""
    fault: str
    """The diagnosed fault or suspected source whose signature it matches."""
    evidence: str
    """What it shares with the signature, as one line (tokens, slot, markers, shingles)."""
    score: float
    """The summed weights of that evidence (`repair_core.content.match`)."""
    text: str
    """What it says, clipped to 300 characters (untrusted: show it as plain text)."""


class BlockedWrite(BaseModel):
    """A record a replayed memory write proposed and the repair did not apply because it
    carries a fault (step outcome `blocked`): it needs a human."""

    step: str
    """The memory_write step."""
    fault: str
    """The fault or suspected source whose signature the record matches."""
    evidence: str
    """What the record shares with that signature."""
    text: str
    """The record it would have written, clipped to 300 characters."""


class FaultCheck(BaseModel):
    """One signature the repair was checked against, and what matched it."""

    node: str
    """The fault or suspected source."""
    source: Literal["fault", "suspected_source"]
    """A diagnosed fault (`case.faults`) or a suspected source the plan named."""
    tokens: list[str] = Field(default_factory=list)
    """The signature's distinctive tokens."""
    markers: list[str] = Field(default_factory=list)
    """The signature's instruction markers."""
    carriers: list[str] = Field(default_factory=list)
    """Ids of the carriers found (see `Verification.carriers`)."""
    blocked: list[str] = Field(default_factory=list)
    """Steps whose write was blocked for carrying it."""


class Checked(BaseModel):
    """How much was checked, per kind."""

    answer: int = 0
    """1 when there is a corrected answer, else 0."""
    outputs: int = 0
    """Replayed or refreshed steps' outputs (the final answer counted under `answer`)."""
    records: int = 0
    """Active records of the repaired store."""
    blocked_writes: int = 0
    """Records replayed writes proposed that were blocked."""
    signatures: int = 0
    """Faults and suspected sources whose signatures everything was matched against."""


class Verification(BaseModel):
    """The content check of a repair: the corrected answer, every replayed output and the
    repaired store's active records against every fault's and suspected source's
    signature. Lineage is not consulted: a carrier is found by what it says."""

    checked: Checked = Field(default_factory=Checked)
    """What was checked."""
    faults: list[FaultCheck] = Field(default_factory=list)
    """Per fault or suspected source: its signature and what matched it."""
    carriers: list[Carrier] = Field(default_factory=list)
    """Everything the agent reads next that carries a fault: while there is one, `dgrr
    verify` exits 1 and an approval must acknowledge each."""
    blocked: list[BlockedWrite] = Field(default_factory=list)
    """Replayed writes not applied because they carry a fault; each needs a human."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def clean(self) -> bool:
        """No carrier remains in what the agent reads next."""
        return not self.carriers
