"""Where the content check that ends a replay runs: in the upload worker when uploads go
there (team mode, by default; docs/dashboard.md, "Uploads in a worker process"), so that
scanning a hostile case's texts holds no other session up; else, or with a model judge
set, in the server's interpreter as part of `repair`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from repair_core import CaseError, RepairPlan
from repair_core.approvals import check_sources

from .upload_client import LimitExceeded, use_worker, verify_in_worker

__all__ = ["LIMIT_REACHED", "check_result_in_worker", "checked_here"]

LIMIT_REACHED = "the check ran out of its CPU/memory limit"
"""Why a check past the worker's limits is not certified."""


def checked_here(judge: Any) -> bool:
    """Whether `repair` runs the check in this interpreter: with a model judge (its client
    is the server's), or when the worker is not used (or its setting is not usable: the
    Load page names it)."""
    if judge is not None:
        return True
    try:
        return not use_worker()
    except CaseError:
        return True


def check_result_in_worker(plan: RepairPlan, result: Any, *,
                           ended: Callable[[], bool] | None = None
                           ) -> tuple[str | None, list[str]]:
    """Run the content check of `result` (replayed with `check=False`) in the worker and
    set its `verification`; (None, []) when it did, else why it is not certified and the
    refusal's problems (its `verification` stays None: not certified, never clean)."""
    try:
        result.verification = verify_in_worker(plan.case, result.model_dump_json(),
                                               check_sources(plan), ended=ended)
    except LimitExceeded as exc:
        return LIMIT_REACHED, [str(x) for x in exc.problems]
    except CaseError as exc:
        return "the check did not finish", [str(x) for x in exc.problems]
    return None, []
