"""The benchmark: suites, repair methods (ours, six baselines, three ablations), the
paper's metrics, a resumable runner and Table-2-style result tables."""

from ._longmemeval import (
    LongMemEvalItem,
    LongMemEvalTurn,
    load_longmemeval,
    longmemeval_fixture_path,
    parse_longmemeval,
)
from ._metrics import (
    GROUPINGS,
    CaseResult,
    MetricSummary,
    benign_preservation,
    claim_counts,
    claim_f1,
    contains_required_facts,
    faulty_removal,
    mean_llm_calls,
    mean_tokens,
    recovery,
    recurrence,
    replay_ratio,
    summarise,
    summarise_by,
)

__all__ = [
    "GROUPINGS",
    "CaseResult",
    "LongMemEvalItem",
    "LongMemEvalTurn",
    "MetricSummary",
    "benign_preservation",
    "claim_counts",
    "claim_f1",
    "contains_required_facts",
    "faulty_removal",
    "load_longmemeval",
    "longmemeval_fixture_path",
    "mean_llm_calls",
    "mean_tokens",
    "parse_longmemeval",
    "recovery",
    "recurrence",
    "replay_ratio",
    "summarise",
    "summarise_by",
]
