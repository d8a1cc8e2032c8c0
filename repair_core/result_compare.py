"""Two repair results of the same case set side by side: whether their corrected answers
agree, which records end in a different place or with different text, and which steps had
a different outcome or a different new output (e.g. the reference model's replay against a
real model's). One pass over each result's store and steps: linear in their sizes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .replay import RepairResult

__all__ = ["RecordDifference", "StepDifference", "ResultComparison", "compare_results"]

Placement = Literal["active", "quarantine", "gone"]


class RecordDifference(BaseModel):
    """One record that the two results leave differently."""

    id: str
    """The record id."""
    placement_a: Placement
    """Where result A leaves it: in the active store, in quarantine, or in neither."""
    placement_b: Placement
    """Where result B leaves it."""
    text_a: str
    """Its text in result A ("" when A has no such record)."""
    text_b: str
    """Its text in result B ("" when B has no such record)."""


class StepDifference(BaseModel):
    """One step whose outcome or new output differs between the two results."""

    id: str
    """The step id."""
    type: str
    """The step type (as result A reports it, else B)."""
    outcome_a: str
    """What result A's replay did with it ("" when A does not report the step)."""
    outcome_b: str
    """What result B's replay did with it."""
    output_a: str
    """Its text in A's repaired trajectory ("" when absent)."""
    output_b: str
    """Its text in B's repaired trajectory."""


class ResultComparison(BaseModel):
    """What differs between result A and result B."""

    case_a: str
    """The case id result A repaired."""
    case_b: str
    """The case id result B repaired (a comparison of two cases says so; it is not refused)."""
    model_a: str
    """The model that replayed A."""
    model_b: str
    """The model that replayed B."""
    answer_a: str | None
    """A's corrected answer (None when regenerating it failed)."""
    answer_b: str | None
    """B's corrected answer."""
    answers_agree: bool
    """The two answers are the same text once runs of white space are one space."""
    records: list[RecordDifference] = Field(default_factory=list)
    """The records left differently, A's store order first, then those only B has."""
    steps: list[StepDifference] = Field(default_factory=list)
    """The steps that differ, in A's trajectory order, then those only B reports."""
    records_compared: int = 0
    """How many distinct record ids the two stores hold between them."""
    steps_compared: int = 0
    """How many distinct step ids the two reports hold between them."""

    @property
    def same(self) -> bool:
        """Nothing differs: the same answer, store and step outcomes."""
        return self.answers_agree and not self.records and not self.steps


def _placed(res: RepairResult) -> dict[str, tuple[Placement, str]]:
    out: dict[str, tuple[Placement, str]] = {}
    for m in res.store.quarantine:
        out[m.id] = ("quarantine", m.text)
    for m in res.store.active:
        out[m.id] = ("active", m.text)
    return out


def _steps(res: RepairResult) -> dict[str, tuple[str, str, str]]:
    """Step id -> (type, outcome, new text) in trajectory order."""
    text = {s.id: s.text for s in res.trajectory.trajectory}
    return {o.id: (o.type, o.outcome, text.get(o.id, "")) for o in res.report.steps}


def _flat(text: str | None) -> str | None:
    return None if text is None else " ".join(text.split())


def compare_results(a: RepairResult, b: RepairResult) -> ResultComparison:
    """What differs between two repair results (typically two replays of one plan).

    A step counts as different when its outcome differs, or when both replayed or
    refreshed it and the new texts differ; a kept step's text is the failed run's in both.
    """
    place_a, place_b = _placed(a), _placed(b)
    records: list[RecordDifference] = []
    for rid in [*place_a, *(r for r in place_b if r not in place_a)]:
        pa, ta = place_a.get(rid, ("gone", ""))
        pb, tb = place_b.get(rid, ("gone", ""))
        if pa != pb or ta != tb:
            records.append(RecordDifference(id=rid, placement_a=pa, placement_b=pb,
                                            text_a=ta, text_b=tb))
    steps_a, steps_b = _steps(a), _steps(b)
    steps: list[StepDifference] = []
    for sid in [*steps_a, *(s for s in steps_b if s not in steps_a)]:
        kind_a, out_a, text_a = steps_a.get(sid, ("", "", ""))
        kind_b, out_b, text_b = steps_b.get(sid, ("", "", ""))
        if out_a != out_b or text_a != text_b:
            steps.append(StepDifference(id=sid, type=kind_a or kind_b, outcome_a=out_a,
                                        outcome_b=out_b, output_a=text_a, output_b=text_b))
    return ResultComparison(
        case_a=a.report.case_id, case_b=b.report.case_id,
        model_a=a.report.model, model_b=b.report.model,
        answer_a=a.answer, answer_b=b.answer,
        answers_agree=_flat(a.answer) == _flat(b.answer),
        records=records, steps=steps,
        records_compared=len(place_a.keys() | place_b.keys()),
        steps_compared=len(steps_a.keys() | steps_b.keys()))
