"""The paper's evaluation metrics (method.md, "Evaluation"), per case and aggregated.

Per case, a :class:`CaseResult` records the raw counts a metric needs; the aggregate
functions turn a list of them into the numbers of Table 2. Micro-averaging is over the
counts (faulty removal, benign preservation, claim-invalidation F1, replay ratio);
Recovery, LLM count and tokens are per-case means; Recurrence is a rate over the
recovered cases only (None when no case was recovered, the paper's "–").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from ._normalise import fact_stated as _fact_stated
from ._normalise import normalise

__all__ = [
    "CaseResult",
    "MetricSummary",
    "contains_required_facts",
    "fact_stated",
    "forbidden_stated",
    "is_recovered",
    "missing_facts",
    "normalise_fact",
    "claim_counts",
    "recovery",
    "recovery_paper",
    "recovery_state",
    "recurrence",
    "faulty_removal",
    "benign_preservation",
    "claim_f1",
    "replay_ratio",
    "mean_llm_calls",
    "mean_tokens",
    "summarise",
    "summarise_by",
    "GROUPINGS",
]


class CaseResult(BaseModel):
    """What one repair method did to one case, with everything the metrics need."""

    case_id: str
    """The case repaired."""
    method: str
    """Registry name of the repair method."""
    domain: str = ""
    """The case's domain (shopping, travel, customer_service, chat, ...)."""
    fault_type: str = ""
    """Primary fault type (that of the first diagnosed fault), from the case's `eval`."""
    n_faults: int = 0
    """Number of diagnosed faulty records."""
    n_benign: int = 0
    """Number of benign active records (evaluation label)."""
    answer: str = ""
    """The corrected final answer the method produced."""
    recovered: bool = False
    """Strict rule: the corrected answer states every required fact and no forbidden
    fact (the recovery every table has always reported)."""
    recovered_paper: bool = False
    """Paper rule: the corrected answer states every required fact (forbidden facts not
    checked)."""
    state_ok: bool | None = None
    """State rule: the final tool state holds every `eval.required_state` entry and no
    entry states a forbidden fact; None when the case's world is not judged."""
    state_missing: list[str] = Field(default_factory=list)
    """Required state entries the final tool state lacks."""
    state_forbidden: list[str] = Field(default_factory=list)
    """Forbidden facts some entry of the final tool state states."""
    final_state: list[str] = Field(default_factory=list)
    """The final tool state, one entry per object (`_state.state_entries`)."""
    needs_human: list[str] = Field(default_factory=list)
    """Effects of the failed run no rollback could undo (tool and step): never counted as
    recovered by the state rule."""
    missing_facts: list[str] = Field(default_factory=list)
    """Required facts the corrected answer does not state."""
    forbidden_stated: list[str] = Field(default_factory=list)
    """Forbidden facts the corrected answer states."""
    recurred: bool | None = None
    """Recurrence probe on the repaired store failed; None when not recovered (not probed)."""
    probe_answer: str | None = None
    """The answer the recurrence probe produced, when probed."""
    faults_total: int = 0
    """Diagnosed faulty records."""
    faults_removed: int = 0
    """Of those, how many are no longer in the repaired active store."""
    benign_total: int = 0
    """Benign records (evaluation label)."""
    benign_kept: int = 0
    """Of those, how many are still in the repaired active store."""
    gold_claims: list[str] = Field(default_factory=list)
    """Claim ids that must be invalidated or re-derived (evaluation label)."""
    predicted_claims: list[str] = Field(default_factory=list)
    """Claim ids the method invalidated or replayed."""
    replayed_steps: int = 0
    """Trajectory steps replayed (refreshed observations included)."""
    replayed_step_ids: list[str] = Field(default_factory=list)
    """Ids of those steps, in trajectory order."""
    trajectory_steps: int = 0
    """Steps in the failed trajectory."""
    llm_calls: int = 0
    """Model calls made during repair (decision and replay; not the original run, the
    oracle or the recurrence probe)."""
    tokens: int = 0
    """Tokens (prompt + completion) of those calls."""
    seconds: float = 0.0
    """Wall-clock time of the repair and its evaluation."""
    notes: list[str] = Field(default_factory=list)
    """What the method or executor reported (skipped writes, irreversible tools, ...)."""
    error: str | None = None
    """Set when the repair crashed; the case then counts as not recovered and a re-run
    tries it again."""


def normalise_fact(text: str) -> str:
    """The normalisation every fact comparison uses (:func:`._normalise.normalise`):
    case-folded, every character that is not a letter, digit, `-` or `'` turned into a
    space, and street-type words mapped to one form (Road/Rd, Street/St, ...). So
    "7 Elm Rd., Austin" and "7 elm road austin" are the same fact.

    >>> normalise_fact("7 Elm Rd.,  Austin")
    '7 elm road austin'
    """
    return normalise(text)


def fact_stated(answer: str, fact: str) -> bool:
    """`fact` occurs in `answer` as whole words after :func:`normalise_fact`
    (:func:`._normalise.fact_stated`).

    >>> fact_stated("Ship to 7 Elm Road, Austin.", "7 Elm Rd, Austin")
    True
    >>> fact_stated("Mike wears size M.", "m"), fact_stated("Mike", "m")
    (True, False)
    """
    return _fact_stated(answer, fact)


def missing_facts(answer: str, required_facts: Iterable[str]) -> list[str]:
    """The required facts `answer` does not state."""
    return [f for f in required_facts if not fact_stated(answer, f)]


def forbidden_stated(answer: str, forbidden_facts: Iterable[str],
                     required_facts: Iterable[str] = ()) -> list[str]:
    """The forbidden facts `answer` states. A forbidden fact that is also required does
    not count, nor does one found only inside a required fact the answer states (a
    forbidden "economy" inside a required "premium economy").

    >>> forbidden_stated("Seat in premium economy.", ["economy"], ["premium economy"])
    []
    >>> forbidden_stated("Ship to 7 Elm Rd, Austin.", ["7 Elm Road, Austin"], ["O-4873"])
    ['7 Elm Road, Austin']
    """
    required = {normalise_fact(f) for f in required_facts}
    words = normalise_fact(answer).split()
    inside = [span for f in required if f for span in _spans(f.split(), words)]
    return [f for f, n in ((f, normalise_fact(f)) for f in forbidden_facts)
            if n and n not in required
            and any(not any(a <= lo and hi <= b for a, b in inside)
                    for lo, hi in _spans(n.split(), words))]


def _spans(fact: list[str], words: list[str]) -> list[tuple[int, int]]:
    n = len(fact)
    return [(i, i + n) for i in range(len(words) - n + 1) if words[i:i + n] == fact]


def is_recovered(answer: str, required_facts: Sequence[str],
                 forbidden_facts: Sequence[str] = ()) -> bool:
    """The deterministic oracle (method.md, "Recovery"): every required fact stated and no
    forbidden fact stated. An empty requirement list is never a recovery: such a case
    cannot be judged.

    >>> is_recovered("Order O-4873 to 16 Rue Verte, Lyon.", ["O-4873"], ["7 Elm Rd, Austin"])
    True
    >>> is_recovered("Order O-4873 to 7 Elm Road, Austin.", ["O-4873"], ["7 Elm Rd, Austin"])
    False
    """
    facts = list(required_facts)
    if not facts:
        return False  # an empty fact is never stated, so it is always missing
    return not missing_facts(answer, facts) and not forbidden_stated(answer, forbidden_facts,
                                                                     facts)


def contains_required_facts(answer: str, required_facts: Iterable[str]) -> bool:
    """Every required fact occurs in the answer as whole words (after
    :func:`normalise_fact`, so a size "M" is not found inside "Mike"). An empty
    requirement list is never a recovery. This is the first half of the oracle; recovery
    is :func:`is_recovered`, which also checks forbidden facts.

    >>> contains_required_facts("Booked JL1, aisle seat 31C", ["jl1", "AISLE"])
    True
    >>> contains_required_facts("Booked JL1, window seat", ["JL1", "aisle"])
    False
    """
    return is_recovered(answer, list(required_facts))


def claim_counts(gold: Iterable[str], predicted: Iterable[str]) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of predicted vs gold claims.

    >>> claim_counts(["s3", "s5"], ["s3", "s9"])
    (1, 1, 1)
    """
    g, p = set(gold), set(predicted)
    return len(g & p), len(p - g), len(g - p)


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def recovery(results: Sequence[CaseResult]) -> float:
    """Share of cases recovered: every required fact stated and no forbidden fact."""
    return _ratio(sum(r.recovered for r in results), len(results))


def recovery_paper(results: Sequence[CaseResult]) -> float:
    """Share of cases whose answer states every required fact (the paper's rule)."""
    return _ratio(sum(r.recovered_paper for r in results), len(results))


def recovery_state(results: Sequence[CaseResult]) -> float | None:
    """Share of the cases with a judged world whose final tool state passes the state
    rule; None when no case has one."""
    judged = [r for r in results if r.state_ok is not None]
    return _ratio(sum(bool(r.state_ok) for r in judged), len(judged)) if judged else None


def recurrence(results: Sequence[CaseResult]) -> float | None:
    """Share of recovered cases whose recurrence probe failed; None if none recovered."""
    probed = [r for r in results if r.recovered and r.recurred is not None]
    if not probed:
        return None
    return sum(bool(r.recurred) for r in probed) / len(probed)


def faulty_removal(results: Sequence[CaseResult]) -> float:
    """Micro-averaged share of diagnosed faulty records no longer active."""
    return _ratio(sum(r.faults_removed for r in results), sum(r.faults_total for r in results))


def benign_preservation(results: Sequence[CaseResult]) -> float:
    """Micro-averaged share of benign records still active."""
    return _ratio(sum(r.benign_kept for r in results), sum(r.benign_total for r in results))


def claim_f1(results: Sequence[CaseResult]) -> float:
    """Micro-averaged claim-invalidation F1 = 2TP / (2TP + FP + FN); 0 when a method
    predicted nothing and there was nothing to find (no evidence of skill)."""
    tp = fp = fn = 0
    for r in results:
        a, b, c = claim_counts(r.gold_claims, r.predicted_claims)
        tp, fp, fn = tp + a, fp + b, fn + c
    return _ratio(2 * tp, 2 * tp + fp + fn)


def replay_ratio(results: Sequence[CaseResult]) -> float:
    """Micro-averaged replayed steps / trajectory steps."""
    return _ratio(sum(r.replayed_steps for r in results),
                  sum(r.trajectory_steps for r in results))


def mean_llm_calls(results: Sequence[CaseResult]) -> float:
    """Model calls per case during repair."""
    return _ratio(sum(r.llm_calls for r in results), len(results))


def mean_tokens(results: Sequence[CaseResult]) -> float:
    """Tokens per case during repair."""
    return _ratio(sum(r.tokens for r in results), len(results))


class MetricSummary(BaseModel):
    """The metrics of one method over a set of cases (one row of Table 2)."""

    recovery: float
    """Share of cases recovered under the strict rule (required facts, no forbidden
    fact): the recovery of every table."""
    recovery_paper: float = 0.0
    """Share of cases recovered under the paper's rule (required facts only)."""
    recovery_state: float | None = None
    """Share of cases whose final tool state passes the state rule; None when no case
    has a judged world."""
    recurrence: float | None
    """Share of recovered cases that recur; None when none was recovered."""
    faulty_removal: float
    """Micro-averaged faulty-record removal."""
    benign_preservation: float
    """Micro-averaged benign-record preservation."""
    claim_f1: float
    """Micro-averaged claim-invalidation F1."""
    replay_ratio: float
    """Micro-averaged replayed / trajectory steps."""
    llm_calls: float
    """Model calls per case during repair."""
    tokens: float
    """Tokens per case during repair."""
    cases: int
    """Number of cases summarised."""


def summarise(results: Sequence[CaseResult]) -> MetricSummary:
    """All metrics over `results` (one method)."""
    return MetricSummary(
        recovery=recovery(results),
        recovery_paper=recovery_paper(results),
        recovery_state=recovery_state(results),
        recurrence=recurrence(results),
        faulty_removal=faulty_removal(results),
        benign_preservation=benign_preservation(results),
        claim_f1=claim_f1(results),
        replay_ratio=replay_ratio(results),
        llm_calls=mean_llm_calls(results),
        tokens=mean_tokens(results),
        cases=len(results),
    )


def _benign_bucket(r: CaseResult) -> str:
    if r.n_benign < 6:
        return "0-5"
    lo = (r.n_benign - 6) // 3 * 3 + 6
    return f"{lo}-{lo + 2}"


STEP_BUCKETS = (8, 16, 25, 35, 50, 65, 81)
"""Edges of the trajectory-length buckets (the suite-shape histogram's, docs/benchmark.md)."""


def _steps_bucket(r: CaseResult) -> str:
    n = r.trajectory_steps
    for lo, hi in zip(STEP_BUCKETS, STEP_BUCKETS[1:], strict=False):
        if lo <= n < hi:
            return f"{lo}-{hi - 1}"
    return f"<{STEP_BUCKETS[0]}" if n < STEP_BUCKETS[0] else f">{STEP_BUCKETS[-1] - 1}"


GROUPINGS: dict[str, Callable[[CaseResult], Any]] = {
    "domain": lambda r: r.domain or "-",
    "fault_type": lambda r: r.fault_type or "-",
    "n_faults": lambda r: r.n_faults,
    "n_benign": _benign_bucket,
    "trajectory_steps": _steps_bucket,
}
"""How results are broken down: per domain, per primary fault type, per number of
faults, per benign-store size in buckets of three (6-8, 9-11, 12-14) as in the
paper's Table 19, and per trajectory length (the buckets of the suite-shape
histogram), which shows whether long sessions are repaired as well as short ones."""


def summarise_by(results: Sequence[CaseResult], grouping: str) -> dict[str, MetricSummary]:
    """Metrics per group of `grouping` (a key of :data:`GROUPINGS`), groups sorted."""
    key = GROUPINGS[grouping]
    groups: dict[Any, list[CaseResult]] = {}
    for r in results:
        groups.setdefault(key(r), []).append(r)
    return {str(k): summarise(groups[k]) for k in sorted(groups, key=_natural)}


def _natural(key: Any) -> tuple[Any, ...]:
    text = str(key)
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))
