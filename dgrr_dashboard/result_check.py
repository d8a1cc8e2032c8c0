"""Where the content checks of a replay's result run — the one that ends a replay, the
Approve page's fresh one and the Apply panel's before it writes: in the upload worker
when uploads go there (team mode, by default; docs/dashboard.md, "Uploads in a worker
process"), with the operator's model judge too, so that neither scanning a hostile
case's texts nor waiting on the judge's calls holds another session up; else in the
server's interpreter."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from repair_core import Case, CaseError, RepairPlan
from repair_core.approvals import check_sources
from repair_core.verification import Verification

from .judge_settings import JudgeSettings
from .upload_client import LimitExceeded, use_worker, verify_in_worker

__all__ = ["LIMIT_REACHED", "SETTING_UNUSABLE", "UNFINISHED", "check_in_worker", "check_result_in_worker",
           "checked_here", "replay_and_check", "where_checked"]

LIMIT_REACHED = "the check ran out of its CPU/memory limit"
"""Why a check past the worker's limits is not certified."""
UNFINISHED = "the check did not finish"
"""Why a check the worker did not finish for another reason is not certified."""


SETTING_UNUSABLE = "the upload_worker setting is not usable, so no check ran"
"""Why a check is not certified when the setting that says where it runs is unreadable."""


def checked_here() -> bool:
    """Whether the content checks run in this interpreter: when the worker is not used.
    An unusable `upload_worker` setting raises `CaseError` naming it: a check that should
    have run in the worker never falls back to the server's process (the Load page and
    the planner refuse the same way), so it is not certified until the setting is fixed."""
    return not use_worker()


def where_checked() -> tuple[bool, list[str]]:
    """(whether the content checks run in this interpreter, []); (False, the setting's
    problems) when the `upload_worker` setting is unusable: then no check runs anywhere,
    and what asked for one is not certified (`SETTING_UNUSABLE`) until it is fixed."""
    try:
        return checked_here(), []
    except CaseError as exc:
        return False, [str(x) for x in exc.problems]


def check_in_worker(case: Case, result_json: str, sources: Sequence[str], *,
                    judge: JudgeSettings | None = None,
                    ended: Callable[[], bool] | None = None, recompute: bool = False,
                    made_here: bool = False
                    ) -> tuple[Verification | None, str | None, list[str]]:
    """The content check of `result_json` (a replay's result of repairing `case`) against
    the case's faults and `sources`, run in the worker with `judge` (None: the lexical
    judge alone): (the check, None, []) when it finished, else (None, why it is not
    certified, the refusal's problems) — not certified, never clean. With `recompute`
    the worker makes the result again too (rule gate.replay-recomputed): one that
    differs is refused, and its words are the problems. `made_here`: `result_json` is
    the server's own replay's (`upload_client.verify_in_worker`)."""
    try:
        return verify_in_worker(case, result_json, sources, judge=judge, ended=ended,
                                recompute=recompute, made_here=made_here), None, []
    except LimitExceeded as exc:
        return None, LIMIT_REACHED, [str(x) for x in exc.problems]
    except CaseError as exc:
        return None, UNFINISHED, [str(x) for x in exc.problems]


def check_result_in_worker(plan: RepairPlan, result: Any, *,
                           judge: JudgeSettings | None = None,
                           ended: Callable[[], bool] | None = None
                           ) -> tuple[str | None, list[str]]:
    """Run the content check of `result` (replayed with `check=False`) in the worker and
    set its `verification`; (None, []) when it did, else why it is not certified and the
    refusal's problems (its `verification` stays None: not certified, never clean)."""
    verification, why, problems = check_in_worker(
        plan.case, result.model_dump_json(), check_sources(plan), judge=judge, ended=ended,
        made_here=True)
    if verification is not None:
        result.verification = verification
    return why, problems


Replayed = TypeVar("Replayed")


def replay_and_check(plan: RepairPlan, replay: Callable[[bool], Replayed], *,
                     judge: JudgeSettings | None = None,
                     ended: Callable[[], bool] | None = None,
                     checking: Callable[[], None] | None = None
                     ) -> tuple[Replayed, str | None, list[str]]:
    """Run `replay(check_here)` — the replay of `plan`, with its content check made in this
    interpreter when `check_here` — then, when checks run in the worker, the check of its
    result there (`checking()` is called first, to say so): (the result, None, []) when it
    was checked, else (the result, why it is not certified, the problems). An unusable
    `upload_worker` setting does not lose the replay: it is kept, unchecked, and not
    certified (`SETTING_UNUSABLE`), as the Approve page and the Apply panel say."""
    here, unusable = where_checked()
    result = replay(here)
    if unusable:
        return result, SETTING_UNUSABLE, unusable
    if here:
        return result, None, []
    if checking is not None:
        checking()
    why, problems = check_result_in_worker(plan, result, judge=judge, ended=ended)
    return result, why, problems
