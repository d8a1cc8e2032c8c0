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

__all__ = [
    "CaseResult",
    "MetricSummary",
    "contains_required_facts",
    "claim_counts",
    "recovery",
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
    """The corrected answer contains every required fact."""
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


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().casefold()


def contains_required_facts(answer: str, required_facts: Iterable[str]) -> bool:
    """The deterministic oracle: every required fact occurs in the answer as whole words
    (case and whitespace insensitive, so a size "M" is not found inside "Mike"). An
    empty requirement list is never a recovery: such a case cannot be judged.

    >>> contains_required_facts("Booked JL1, aisle seat 31C", ["jl1", "AISLE"])
    True
    >>> contains_required_facts("Booked JL1, window seat", ["JL1", "aisle"])
    False
    >>> contains_required_facts("Mike wears size M.", ["m"]), contains_required_facts("Mike", ["m"])
    (True, False)
    """
    facts = [_normalise(f) for f in required_facts]
    if not facts or not all(facts):
        return False
    text = _normalise(answer)
    return all(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text) for f in facts)


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
    """Share of cases whose corrected answer contains every required fact."""
    return _ratio(sum(r.recovered for r in results), len(results))


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
    """Share of cases recovered."""
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


GROUPINGS: dict[str, Callable[[CaseResult], Any]] = {
    "domain": lambda r: r.domain or "-",
    "fault_type": lambda r: r.fault_type or "-",
    "n_faults": lambda r: r.n_faults,
    "n_benign": _benign_bucket,
}
"""How results are broken down: per domain, per primary fault type, per number of
faults, and per benign-store size in buckets of three (6-8, 9-11, 12-14) as in the
paper's Table 19."""


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
