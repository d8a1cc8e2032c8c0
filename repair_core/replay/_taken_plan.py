"""What a repair takes of a plan report, so the report can go before the case is read.

A plan report as JSON data (the columnar planner's, `dgrr plan --json --ops`) holds every
step's decision and reason, its lists and its operations: hundreds of megabytes at 300k
steps. The replay needs the operations as `OpsInputs` and one decision per record and
step; `take_plan` keeps only those, with the few settings the result's report repeats, and
checks nothing that needs the case (`repair` checks the ids once it has the case).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._errors import DgrrError
from .._perf import gc_paused
from ..plan._plan_ops import UncheckedOps, read_ops
from ._decision_rows import DecisionRows

__all__ = ["TakenPlan", "take_plan", "plan_decisions"]


@dataclass(frozen=True)
class TakenPlan:
    """The part of a plan report a repair runs from (`take_plan`)."""

    case_id: str | None
    """The case the plan is for (as the report gives it)."""
    ops: UncheckedOps
    """Its operations, read; their ids are checked against the case by `repair`."""
    decisions: DecisionRows
    """One decision per record, then per step, with its reason."""
    unsupported: list[str]
    """The affected steps and records without independent support."""
    objective: str
    """What the plan repairs: answer, store or both."""
    suspects: str
    """What the plan did with suspected sources (quarantine, clean, flag or off)."""
    not_suspect: list[str]
    """The suspects a reviewer un-marked, sorted."""
    clean_source: dict[str, str]
    """Source a reviewer cleans -> the reviewer's reason, by id."""


def take_plan(report: Mapping[str, Any]) -> TakenPlan:
    """What `repair` needs of the plan report `report` (JSON data carrying its
    operations)."""
    if report.get("ops") is None:
        raise DgrrError("plan report: no ops (write it with its operations: "
                        "dgrr plan --json --ops)")
    with gc_paused():
        ops = read_ops(report["ops"])
        decisions = plan_decisions(report["memory"], report["steps"], report["reasons"])
    return TakenPlan(
        case_id=report.get("case_id"), ops=ops, decisions=decisions, unsupported=list(report["unsupported"]),
        objective=report.get("objective", "answer"),
        suspects=str(report.get("suspects", "quarantine")),
        not_suspect=sorted(map(str, report.get("not_suspect") or ())),
        clean_source={str(k): str(v) for k, v in sorted((report.get("clean_source")
                                                          or {}).items())})


def plan_decisions(memory: Mapping[str, str], steps: Mapping[str, str],
                   reasons: Mapping[str, str]) -> DecisionRows:
    """One decision per record of `memory`, then per step of `steps`, each with its
    reason (or "unaffected: kept"), kept as rows until read."""
    return DecisionRows(memory, steps, reasons)
