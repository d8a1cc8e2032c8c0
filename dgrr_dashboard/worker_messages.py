"""What the dashboard server and its upload worker say to each other (docs/dashboard.md,
"Uploads in a worker process"): one request line of JSON on the worker's standard input,
followed by the request's files as raw bytes; one answer of JSON on its standard output.
No Streamlit here (the worker imports it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .judge_settings import JudgeSettings

__all__ = ["MAX_REQUEST_LINE", "MEMORY_EXIT", "WorkerRequest", "Planned", "Refused", "Verified", "WorkerAnswer", "parse_answer"]

MEMORY_EXIT = 3
"""The exit status of a worker that ran out of its memory limit."""
MAX_REQUEST_LINE = 1 << 20
"""The request line's bound in bytes (file names, faults and un-marked suspects)."""


class WorkerRequest(BaseModel):
    """One job for the worker."""

    model_config = ConfigDict(extra="forbid")

    job: Literal["case", "pair", "import", "plan", "verify"]
    """`case`: parse one uploaded case and plan it; `pair`: a trajectory file and a memory
    file; `import`: OTLP trace files and optionally a Mem0 history database
    (`import_trace`); `plan`: plan a case the server holds already (sent as its JSON);
    `verify`: the content check of a replay's result (the case's JSON, then the result's)."""
    source: str
    """How the upload is named in messages (file names as uploaded; never a path)."""
    names: list[str] = Field(default_factory=list)
    """The uploaded name of each file that follows, in order."""
    sizes: list[int] = Field(default_factory=list)
    """The size in bytes of each file that follows the request line, in order."""
    with_store: bool = False
    """`import`: the last file is a Mem0 history database (the others are traces)."""
    faults: list[str] = Field(default_factory=list)
    """`import`: the diagnosed faults typed on the Load page."""
    objective: Literal["answer", "store", "both"] = "both"
    """What the plan repairs; a case without an answer step is planned for the store."""
    not_suspect: list[str] = Field(default_factory=list)
    """The suspects the reviewer un-marked."""
    clean_source: dict[str, str] = Field(default_factory=dict)
    """The suspected sources the reviewer cleaned like a fault -> the reviewer's reason."""
    sources: list[str] = Field(default_factory=list)
    """`verify`: the suspected sources checked for besides the case's faults."""
    judge: JudgeSettings | None = None
    """`verify`: the operator's model judge, asked (from the worker, within its limits)
    what the lexical judge leaves unsure; None: the lexical judge reads alone."""
    recompute: bool = False
    """`verify`: also make the result again after the check (`replay.replay_again`,
    rule gate.replay-recomputed), as `dgrr verify` does: what the apply would write is
    refused when the result is not the repair made again."""
    made_here: bool = False
    """`verify`: the result is one the server's own replay made (the session's replay
    object, never a file a visitor handed it), so the worker reads it as the server's
    process would, as a result made in process: what its refreshed observations gave is
    its replay's own (rule verify.refreshed-text-certain)."""


class Planned(BaseModel):
    """The job's case (when it parsed one) and its computed plan."""

    kind: Literal["planned"] = "planned"
    """The answer's tag."""
    case_json: str | None = None
    """The parsed case as its JSON (`Case.model_dump_json`); None for a `plan` job."""
    plan: dict[str, Any]
    """The plan as `plan_transfer.plan_data` gives it."""
    import_summary: str | None = None
    """`import`: what the importer found, as it describes it."""


class Verified(BaseModel):
    """The content check of a replay's result (`verify`)."""

    kind: Literal["verified"] = "verified"
    """The answer's tag."""
    verification: dict[str, Any]
    """The check as `Verification.model_dump` gives it."""


class Refused(BaseModel):
    """The upload is not a case the dashboard can work on (or cannot be planned)."""

    kind: Literal["refused"] = "refused"
    """The answer's tag."""
    problems: list[str]
    """Every problem, one line each (they quote the upload's values: plain text)."""
    source: str | None = None
    """What the problems are about (a file name as uploaded, `faults`, ...)."""


WorkerAnswer = Annotated[Planned | Verified | Refused, Field(discriminator="kind")]
"""The worker's answer."""


_ANSWER: TypeAdapter[Planned | Verified | Refused] = TypeAdapter(WorkerAnswer)


def parse_answer(text: str | bytes) -> Planned | Verified | Refused:
    """The answer the worker wrote (raises pydantic's `ValidationError` on anything else)."""
    return _ANSWER.validate_json(text)
