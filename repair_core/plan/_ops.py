"""The operations a plan is executed as (docs/replay-api.md): one pydantic model per
operation, `Op` their tagged union, and the JSON Schema of a list of them, committed as
`repair_core/schemas/plan-ops.schema.json` (`ops_schema()` regenerates it). A low module:
the plan's types import these, and `_plan_ops` turns a plan into them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = ["Revoke", "Suspect", "Quarantine", "Restore", "Invalidate", "NeedsHuman", "Replay", "Op",
           "OPS_ADAPTER", "ops_schema", "SCHEMA_DIR"]


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


class Revoke(_Op):
    """Take a diagnosed fault out of every future input: a record leaves the active store;
    an observation or document is never evidence again; a user turn is dropped from the
    conversation a replayed step is shown."""

    op: Literal["revoke"] = "revoke"
    id: str
    """The fault's id."""
    kind: Literal["record", "step", "turn"]
    """What the fault is."""
    reason: str = ""
    """Why (one line)."""


class Suspect(_Op):
    """A node the lineage does not name that carries a diagnosed fault's content (a
    suspected source or carrier, method.md "Suspects"). Informational: what the plan does
    about it is in the other operations (a source cleaned like a fault is revoked, a
    quarantined carrier is quarantined); `flag` changes nothing."""

    op: Literal["suspect"] = "suspect"
    id: str
    """The suspected node."""
    kind: Literal["record", "step", "turn"]
    """What the node is."""
    role: Literal["source", "carrier"]
    """A source (an input of the fault's producer) or a carrier (outside the lineage)."""
    fault: str
    """The diagnosed fault whose content it carries."""
    action: Literal["clean", "quarantine", "flag"]
    """What the plan does with it."""
    evidence: str = ""
    """What matched (plain text)."""


class Quarantine(_Op):
    """Move a record to the audit partition: kept, never retrieved."""

    op: Literal["quarantine"] = "quarantine"
    record: str
    """The record id."""
    reason: str = ""
    """Why (one line)."""


class Restore(_Op):
    """Make a retired record active again with its content as recorded."""

    op: Literal["restore"] = "restore"
    record: str
    """The record id."""
    version: str
    """The version to restore: a record id names exactly one version, so this is the
    record id whose content becomes active again."""
    reason: str = ""
    """Why (one line)."""


class Invalidate(_Op):
    """A step's old output is no longer evidence; the step is not re-run."""

    op: Literal["invalidate"] = "invalidate"
    step: str
    """The step id."""
    reason: str = ""
    """Why (one line)."""


class NeedsHuman(_Op):
    """An effect of the failed run that no operation can undo (an irreversible or
    undeclared tool's call that the repair removes)."""

    op: Literal["needs_human"] = "needs_human"
    step: str
    """The tool action whose effect stands."""
    reason: str = ""
    """Why (one line)."""


class Replay(_Op):
    """Re-run a step, in this list's order (trajectory order), on cleaned inputs."""

    op: Literal["replay"] = "replay"
    step: str
    """The step id; the new output keeps it."""
    refresh: bool = False
    """True for a tool observation: re-produced by replaying its action, never by itself."""
    drop: list[str] = Field(default_factory=list)
    """Recorded inputs the step no longer sees (faults, and affected inputs that are
    neither kept nor replayed)."""
    replace: dict[str, str] = Field(default_factory=dict)
    """Recorded input -> the replayed step whose new output stands in for it (the input
    itself for a replayed step; its producing write for a re-derived record)."""
    reason: str = ""
    """Why (one line)."""


Op = Annotated[Revoke | Suspect | Quarantine | Restore | Invalidate | NeedsHuman | Replay,
               Field(discriminator="op")]
OPS_ADAPTER: TypeAdapter[list[Op]] = TypeAdapter(list[Op])


SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"
"""Where the committed schemas live (`plan-ops.schema.json`, `plan.schema.json`)."""


def ops_schema() -> dict[str, Any]:
    """The JSON Schema of an operation list, as dgrr writes it (every field present),
    committed as schemas/plan-ops.schema.json."""
    schema = OPS_ADAPTER.json_schema(mode="serialization")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://dgrr.invalid/schemas/plan-ops.schema.json",
            "title": "dgrr plan operations", **schema}
