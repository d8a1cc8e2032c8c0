"""The plan a repair result says it was replayed from: its objective, what it did with
suspects and the sources a reviewer cleaned, as its report says, and its decisions."""

from __future__ import annotations

from typing import Any

from .._errors import DgrrError, PlanEditError
from ..case._case import Case
from ._edit import apply_edits
from ._plan import RepairPlan, plan_case

__all__ = ["plan_named_by", "plan_of_result", "result_clean_source", "result_objective",
           "result_suspects"]


def _report(result: object) -> dict:
    """A repair result's report; empty when it has none, or one of another shape."""
    report = result.get("report") if isinstance(result, dict) else None
    return report if isinstance(report, dict) else {}


def result_objective(result: object) -> str:
    """The objective a repair result was made for (its report says so unless answer)."""
    objective = _report(result).get("objective")
    return objective if objective in ("answer", "store", "both") else "answer"


def result_suspects(result: object) -> tuple[str, list[str]]:
    """What the plan a repair result was made from did with suspects: (`suspects`,
    `not_suspect`), as its report says (quarantine and none unless it says otherwise). A
    value of another shape reads as the default: the approval of such a result's plan
    then does not match it."""
    report = _report(result)
    mode = report.get("suspects")
    ids = report.get("not_suspect")
    return (mode if mode in ("quarantine", "flag", "off") else "quarantine",
            [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else [])


def result_clean_source(result: object) -> dict[str, str]:
    """The suspected sources a reviewer cleaned in the plan a repair result was made from
    -> the reviewer's reasons, as its report says (none unless it says so). Entries of
    another shape are left out: the approval of such a result's plan then does not match
    it."""
    cleaned = _report(result).get("clean_source")
    if not isinstance(cleaned, dict):
        return {}
    return {k: v for k, v in cleaned.items() if isinstance(k, str) and isinstance(v, str)}


def plan_named_by(case: Case, result: Any) -> RepairPlan:
    """The plan of `case` the result's report names (`result_objective`,
    `result_suspects`, `result_clean_source`), before its decisions; PlanEditError when no
    plan of the case cleans the sources it names."""
    suspects, not_suspect = result_suspects(result)
    return plan_case(case, objective=result_objective(result),  # type: ignore[arg-type]
                     suspects=suspects, not_suspect=not_suspect,  # type: ignore[arg-type]
                     clean_source=result_clean_source(result))


def plan_of_result(case: Case, result: Any) -> RepairPlan:
    """The plan of `case` the result's report names (`result_objective`,
    `result_suspects`, `result_clean_source`) with the result's decisions
    (`report.decisions`) made its edits, forced: what the replay of that result ran from,
    whether or not a reviewer may approve it. A decision no plan of the case can take is
    a DgrrError naming it."""
    try:
        plan = plan_named_by(case, result)
    except PlanEditError as exc:
        raise DgrrError("RESULT: report.clean_source: no plan of the case cleans these: "
                        + "; ".join(exc.problems)) from None
    decisions = _report(result).get("decisions")
    said = {d["id"]: d["action"] for d in decisions if isinstance(d, dict)
            and isinstance(d.get("id"), str) and isinstance(d.get("action"), str)
            } if isinstance(decisions, list) else {}
    ours = {**plan.memory, **plan.steps}
    edits = {n: a for n, a in said.items() if ours.get(n) != a}
    if not edits:
        return plan
    try:
        return apply_edits(plan, edits, force=True, comment=_OWN)
    except PlanEditError as exc:
        refused: DgrrError = exc
        follow = set(exc.nodes)
    # rule plan.of-result-follows: a decision the others bring about is no edit of its
    # own (a source the replay of an edited step makes suspect, refreshed to clean it,
    # is refused as an edit: it is cleaned like a fault); the others made edits, every
    # decision must then be the plan's
    taken = {n: a for n, a in edits.items() if n not in follow}
    if follow and taken:
        try:
            made = apply_edits(plan, taken, force=True, comment=_OWN)
        except DgrrError:
            pass
        else:
            now = {**made.memory, **made.steps}
            if all(now.get(n) == a for n, a in said.items()):
                return made
    raise DgrrError(f"RESULT: report.decisions: no plan of the case takes them ({refused})"
                    ) from None


_OWN = "the result's own decisions"
