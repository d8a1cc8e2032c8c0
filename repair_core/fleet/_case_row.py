"""The one per-case function of a fleet run: load, match, mark, plan, maybe repair, one row.

Both engines (the local process pool and Ray Data) call :func:`case_row` on every case,
so they give the same rows. A case that cannot be loaded, matched, planned or repaired
becomes a row carrying its error; the function never raises for a bad case.
"""

from __future__ import annotations

from typing import Any

from .._errors import DgrrError
from ..case._case import Case, ToolAction
from ..case._load import load_case, parse_case, with_faults
from ..plan._plan import RepairPlan, plan_case
from ._spec import FleetSpec, WorkItem

__all__ = ["case_row", "ROW_FIELDS", "empty_row", "ERROR_LIMIT"]

ERROR_LIMIT = 2000
"""Error messages longer than this are cut (a case with thousands of problems)."""

# Column name -> Arrow type name, in the order of `cases.parquet`.
ROW_FIELDS: dict[str, str] = {
    "index": "int64",            # position of the case in the fleet
    "case_id": "string",         # null when the case could not be loaded
    "source": "string",          # file, FILE:LINE or FILE#ROW
    "domain": "string",
    "steps": "int64",            # trajectory length
    "matched": "bool",           # some record matched: the case has faults to repair
    "faults": "list<string>",    # the matching record ids, in store order
    "affected": "int64",         # |A0| without the faults themselves
    "unsupported": "int64",      # affected nodes with no independent support (faults excluded)
    "answer_relevant": "int64",  # unsupported steps that still reach the final answer
    "answer_affected": "bool",   # the final answer itself is unsupported
    "replay_size": "int64",      # steps the plan replays (the final answer included)
    "deleted": "int64",          # store operations of the plan (with --replay: of the repair)
    "quarantined": "int64",
    "restored": "int64",
    "added": "int64",            # records written by replayed steps (--replay only)
    "retired": "int64",          # records retired by replayed steps (--replay only)
    "store_operations": "int64", # the five above summed
    "irreversible": "int64",     # irreversible tool calls the faults drove (rollback can't undo)
    "replayed": "bool",          # the case was repaired (--replay and matched)
    "answer_changed": "bool",    # corrected answer differs from the original (null: not replayed)
    "failures": "int64",         # steps the repair could not regenerate
    "llm_calls": "int64",
    "tokens": "int64",
    "error": "string",           # why the case could not be processed (null when it was)
}


def empty_row(item: WorkItem) -> dict[str, Any]:
    """The row of a case nothing is known about yet (every count zero)."""
    start = {"index": item.index, "source": item.source, "matched": False, "faults": [],
             "answer_affected": False, "replayed": False}
    return {k: start.get(k, 0 if t == "int64" else None) for k, t in ROW_FIELDS.items()}


def case_row(item: WorkItem, spec: FleetSpec) -> dict[str, Any]:
    """Process one case of the fleet and describe it in one row (see `ROW_FIELDS`).

    >>> from repair_core import fixture_path
    >>> spec = FleetSpec(mode="faults", value="m3")
    >>> item = WorkItem(index=0, source="ex", path=str(fixture_path("figure1-travel.json")))
    >>> row = case_row(item, spec)
    >>> row["faults"], row["affected"], row["answer_relevant"], row["error"]
    (['m3'], 10, 6, None)
    """
    row = empty_row(item)
    try:
        case = _load(item)
        row.update(case_id=case.case_id, domain=case.domain, steps=len(case.trajectory))
        faults = spec.matching_records(case)
        row["faults"] = faults
        if not faults:
            return row
        row["matched"] = True
        plan = plan_case(with_faults(case, faults), objective=spec.objective)
        row.update(_plan_columns(plan))
        if spec.replay:
            row.update(_repair_columns(plan, spec))
    except DgrrError as exc:
        row["error"] = _clip(str(exc))
    except Exception as exc:  # a bad case must never stop the fleet
        row["error"] = _clip(f"{type(exc).__name__}: {exc}")
    return row


def _load(item: WorkItem) -> Case:
    if item.text is not None:
        return parse_case(item.text, source=item.source)
    if item.path is None:
        raise DgrrError(f"{item.source}: neither a file nor the case text")
    return load_case(item.path)


def _plan_columns(plan: RepairPlan) -> dict[str, Any]:
    a = plan.analysis
    case = plan.case
    tools = {t.name: t.effect for t in case.tools}
    unsupported = a.unsupported - a.faults
    irreversible = sum(1 for s in case.trajectory
                       if isinstance(s, ToolAction) and s.id in unsupported
                       and tools.get(s.tool, "irreversible") == "irreversible")
    dispositions = list(plan.memory.values())
    ops = {k: dispositions.count(k) for k in ("delete", "quarantine", "restore")}
    return {
        "affected": len(a.affected - a.faults),
        "unsupported": len(unsupported),
        "answer_relevant": len(plan.answer_relevant),
        "answer_affected": a.final_answer in unsupported,
        "replay_size": len(plan.replay_set),
        "deleted": ops["delete"],
        "quarantined": ops["quarantine"],
        "restored": ops["restore"],
        "store_operations": sum(ops.values()),
        "irreversible": irreversible,
    }


def _repair_columns(plan: RepairPlan, spec: FleetSpec) -> dict[str, Any]:
    from ..replay import repair

    result = repair(plan.case, plan, model=spec.model, api_base=spec.api_base)
    ch = result.report.store_changes
    counts = {"deleted": len(ch.deleted), "quarantined": len(ch.quarantined),
              "restored": len(ch.restored), "added": len(ch.added), "retired": len(ch.retired)}
    # A fault that never reached the answer changes nothing there: the answer step is
    # regenerated all the same, but a different wording of it is not a changed answer.
    reached = plan.analysis.final_answer in plan.analysis.affected
    changed = None if result.answer is None else reached and (
        " ".join(result.answer.split()) != " ".join(result.original_answer.split()))
    return {**counts, "store_operations": sum(counts.values()), "replayed": True,
            "answer_changed": changed, "failures": len(result.report.failures),
            "irreversible": len(result.report.irreversible_effects),
            "llm_calls": result.cost.llm_calls, "tokens": result.cost.tokens}


def _clip(text: str) -> str:
    return text if len(text) <= ERROR_LIMIT else text[: ERROR_LIMIT - 1] + "…"
