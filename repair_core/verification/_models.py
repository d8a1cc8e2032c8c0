"""What a content check of a repair found: the `verification` section of a result."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field, computed_field

from ..judge import JudgeEstimate

__all__ = ["BlockedWrite", "Carrier", "Checked", "FaultCheck", "JudgeUse", "Outcome",
           "Uncertain", "Verification"]

CarrierKind = Literal["answer", "output", "record"]
Outcome = Literal["clean", "carriers", "not_certified"]
"""clean: nothing carries a fault and every judgement was sure; carriers: something does;
not_certified: no carrier was found, but something was left uncertain."""


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
    """The summed weights of that evidence (`repair_core.content.match`; 0 when only a
    model judge found it)."""
    text: str
    """What it says, clipped to 300 characters (untrusted: show it as plain text)."""
    judge: str = "lexical"
    """The judge that said it carries the fault: `lexical` or `model:<model>`."""
    status: Literal["carrier"] = "carrier"
    """What it is (tells it from an `Uncertain` item where either may stand)."""


class Uncertain(BaseModel):
    """Something the agent reads next that no judge could clear of a fault: it is not a
    carrier, but the result is not certified clean while it stands; an approval must
    acknowledge it like a carrier."""

    id: str
    """`WHERE:FAULT`, as a carrier's id (`dgrr approve --acknowledge ID`)."""
    kind: CarrierKind
    """answer, output or record, as for a carrier."""
    where: str
    """The record or step id."""
    fault: str
    """The diagnosed fault or suspected source it may carry."""
    reason: Literal["judge-unsure", "unknown-lineage", "judge-budget-spent", "same-origin",
                    "unexplained-token", "suspect-lineage", "unexplained-record-token",
                    "unexplained-quantity", "unread-script", "same-subject", "same-source",
                    "unexplained-words"]
    """judge-unsure: the last judge to read it was unsure; unknown-lineage: a record
    written after the fault with no recorded lineage that only the lexical judge read;
    judge-budget-spent: it was for the model judge to read, but its budget of calls
    (`--judge-budget`) was spent first; same-origin: a record written after the fault
    from an output of the same tool on the same folder as the fault's, that only the
    lexical judge read; unexplained-token: a record written after the fault holding one
    of its distinctive tokens, or stating one of its amounts, that nothing in the record's
    recorded lineage holds, that only the lexical judge read; suspect-lineage: a record
    written after the fault whose recorded lineage reaches a suspected source, the input
    the fault was written from or the fault itself, that only the lexical judge read;
    unexplained-record-token: a record written after the fault holding a strong token of
    its own (in any encoding) that neither its recorded lineage nor an earlier user turn
    holds, that only the lexical judge read; unexplained-quantity: a record written after
    the fault stating a quantity of mass or volume of the fault's (in any unit) which
    nothing in its recorded lineage states of the same thing, that only the lexical judge
    read; unread-script: a record written after the fault mostly in a script the lexical
    judge has no words for, that only it read; same-subject: a record written after the
    fault naming what the fault is about (a person or entity it names, a word of its
    slot key) in which the lexical judge found nothing else of it, that only it read;
    same-source: a record written after the fault whose recorded lineage reaches the
    untrusted input the fault was written from, fetched again after it (the same call,
    document or message, or a text holding the fault's content), that only it read;
    unexplained-words: a record written after the fault, its lineage free of the faults,
    many of whose own words nothing its recorded lineage reaches and no earlier user turn
    says, that only the lexical judge read."""
    why: str
    """One line: what the judge said, or where the record came from."""
    judge: str
    """The last judge that read it (`lexical` or `model:<model>`)."""
    text: str
    """What it says, clipped to 300 characters (untrusted: show it as plain text)."""
    status: Literal["not_certified"] = "not_certified"
    """What it is (tells it from a `Carrier` where either may stand)."""

    @property
    def evidence(self) -> str:
        """Why it is not certified, as one line (as a carrier's evidence reads)."""
        return f"not certified ({self.reason}, {self.judge}): {self.why}"


class JudgeUse(BaseModel):
    """What the model judge spent on this check (all 0 without one)."""

    calls: int = 0
    """Model calls made."""
    cached: int = 0
    """Questions answered from its cache, with no call."""
    tokens: int = 0
    """Prompt plus completion tokens."""
    cost: float = 0.0
    """USD as litellm prices the calls (0 for a model it does not know)."""
    unasked: int = 0
    """Questions its budget (`--judge-budget`) left unasked: they stay uncertain."""


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
    uncertain: list[Uncertain] = Field(default_factory=list)
    """What no judge could clear: while there is one (and no carrier), `dgrr verify` exits
    3 and an approval must acknowledge each."""
    judges: list[str] = Field(default_factory=list)
    """The judges that decided something in this check (`lexical`, `model:<model>`)."""
    judge_use: JudgeUse = Field(default_factory=JudgeUse)
    """Calls, tokens and cost of the model judge."""
    # written only with a model judge, so a check by the lexical judge serialises as before
    judge_estimate: JudgeEstimate | None = Field(default=None,
                                                 exclude_if=lambda v: v is None)
    """What the model judge expected to spend, worked out before its first call (None
    without a model judge, or when it had nothing to read)."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> Outcome:
        """carriers while one remains, else not_certified while something is uncertain,
        else clean."""
        return "carriers" if self.carriers else "not_certified" if self.uncertain else "clean"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def clean(self) -> bool:
        """Certified clean: no carrier remains and nothing was left uncertain."""
        return self.outcome == "clean"

    def acknowledgeable(self) -> list[Carrier | Uncertain]:
        """What an approval must acknowledge: every carrier, then every uncertain item."""
        return [*self.carriers, *self.uncertain]

    def summary(self) -> str:
        """The outcome as one line of plain text, naming the judges.

        >>> Verification(judges=["lexical"]).summary()
        'clean by lineage and the lexical judge'
        """
        if self.carriers:
            n = len(self.carriers)
            return f"NOT CLEAN: {n} carrier{'' if n == 1 else 's'} remain"
        by = judged_by(self.judges)
        if not self.uncertain:
            return f"clean by lineage and {by}"
        spent = [u for u in self.uncertain if u.reason == "judge-budget-spent"]
        lexical = [u for u in self.uncertain
                   if u.judge == "lexical" and u.reason != "judge-budget-spent"]
        model = [u for u in self.uncertain if u.judge != "lexical"]
        parts = []
        if spent:
            parts.append(f"{_kinds(spent)} the model judge's budget left unread")
        if lexical:
            parts.append(f"{_kinds(lexical)} only the lexical judge read")
        if model:
            parts.append(f"{_kinds(model)} a model judge left unsure")
        return "not certified: " + "; ".join(parts)


def judged_by(judges: list[str]) -> str:
    """The judges of a content check in words, the lexical judge when none is named.

    >>> judged_by(["lexical", "model:gpt-4o"])
    'the lexical judge and the judge model:gpt-4o'
    """
    return " and ".join(("the lexical judge" if j == "lexical" else f"the judge {j}")
                        for j in (judges or ["lexical"]))


def places_by_kind(items: Iterable[Carrier | Uncertain]) -> dict[str, int]:
    """How many distinct places of each kind `items` are on, by kind in its order (the
    answer, outputs, records): one record read against two faults is one place."""
    where: dict[str, set[str]] = {}
    for u in items:
        where.setdefault(u.kind, set()).add(u.where)
    return {k: len(w) for k, w in sorted(where.items())}


def _kinds(items: list[Uncertain]) -> str:
    """How many distinct places of each kind `items` name: "1 output, 2 records"."""
    return ", ".join(f"{n} {k}{'' if n == 1 else 's'}" for k, n in places_by_kind(items).items())
