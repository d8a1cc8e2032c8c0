"""The replay made again (rule gate.replay-recomputed): a result of the offline reference
model is what repairing its case from its own decisions gives, every time, so the gate
repairs the case again and refuses a result that differs.

Which write made a record, from which inputs, and what text it wrote: the gate can tie
each step and each record's writer to the case (`gate.steps-of-case`,
`gate.added-by-replayed-write`), but not which of two replayed writes wrote which text.
Made again, the repaired trajectory and store are the recomputation's, not the file's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._errors import DgrrError
from .._text import printable
from ..case._case import Case
from ..plan._of_result import plan_of_result
from ..verification import InconsistentResult, replay_recomputable
from ..verification._gate import SUPPLIED_BY_HAND
from ._executor import repair

__all__ = ["replay_again"]

RULE = "gate.replay-recomputed"


def replay_again(case: Case, result: Any) -> None:
    """Repair `case` again from `result`'s own plan and decisions (`plan_of_result`),
    with the observations the result says were supplied by hand, when the result is
    `replay_recomputable`; an InconsistentResult naming the first field where the result
    differs (the answer, the repaired trajectory's steps, the store, the store changes).
    Nothing when it is the same, or not recomputable.

    `result` is one the gate (`gated_store`) let through: each caller runs the gate
    first (verify in `verify_result`, approve in `record_decision`, apply in
    `gate_apply`'s `store_ops`), so that a result it refuses is refused for that and the
    shapes read here are checked; it is not run a second time here (on a 30k-step case,
    a second read of every text)."""
    if not replay_recomputable(result) or result["report"].get("case_id") != case.case_id:
        # a result of another case is refused by each caller's own check: verify and
        # approve name its case_id; dgrr apply finds no approval standing for it
        # (gate_apply, which the queue's worker shares)
        return
    plan = plan_of_result(case, result)
    # the result as `dgrr repair --json` writes it (`model_dump(mode="json")`), without
    # the round trip through JSON text
    again = repair(plan.case, plan, observations=_supplied(case, result),
                   check=False).model_dump(mode="json")
    _same(again, result)


def _supplied(case: Case, result: Mapping[str, Any]) -> dict[str, Any]:
    """action id -> the output of its observation in the result, for each action the
    result's outcomes say was given its observation by hand (the one input the replay
    does not make)."""
    outcomes = result["report"].get("steps")
    hand = {o.get("id") for o in outcomes if isinstance(o, Mapping)
            and o.get("detail") == SUPPLIED_BY_HAND} if isinstance(outcomes, list) else set()
    if not hand:
        return {}
    steps = result["trajectory"]["trajectory"]
    given = {s.get("id"): s for s in steps if isinstance(s, Mapping)} \
        if isinstance(steps, list) else {}
    out: dict[str, Any] = {}
    for s in case.trajectory:
        if s.type != "tool_observation" or s.id not in given:
            continue
        for d in s.deps:
            if d.label == "produce" and d.id in hand:
                out.setdefault(d.id, given[s.id].get("output"))
    return out


def _same(again: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    if again.get("answer") != result.get("answer"):
        raise InconsistentResult(RULE, "answer", str(result.get("answer"))[:60], _WHY,
                                 what="the corrected answer")
    theirs = result["trajectory"]["trajectory"]
    _items("trajectory.trajectory", again["trajectory"]["trajectory"], theirs, "step")
    for part in ("active", "quarantine"):
        _items(f"store.{part}", again["store"][part], result["store"].get(part), "record")
    ours, given = again["report"]["store_changes"], result["report"]["store_changes"]
    for kind in sorted(set(ours) | set(given)):
        a, b = ours.get(kind) or [], given.get(kind) or []
        if a != b:
            field = f"report.store_changes.{printable(kind[:40])}"
            # the gate reads the kinds the replay writes; one it does not may hold anything
            if not isinstance(b, list) or not all(isinstance(r, str) for r in b):
                raise DgrrError(f"RESULT: {field}: expected a list of record ids")
            # the first id of the result's, then of ours, that the other lacks (a set: a
            # list's `in` is a pass over the list per id); with the same ids, in another
            # order or one listed twice, the first that stands apart
            apart = set(a).symmetric_difference(b)
            first = next((r for r in [*b, *a] if r in apart), None)
            if first is None:
                k = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                         min(len(a), len(b)))
                first = b[k] if k < len(b) else a[k]
            raise InconsistentResult(RULE, field, first, _WHY)


_WHY = "differs from the repair made again from the result's own decisions"


def _items(field: str, ours: list[Any], theirs: Any, what: str) -> None:
    """The first item of `theirs` (a list of objects with ids) that is not `ours`'
    item at its place, key by key; a named DgrrError when it is no such list."""
    if not isinstance(theirs, list):
        raise DgrrError(f"RESULT: {field}: expected a list, got {type(theirs).__name__}")
    for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if not isinstance(b, Mapping):
            raise DgrrError(f"RESULT: {field}[{i}]: expected an object")
        if a == b:
            continue
        key = next(k for k in [*a, *b] if a.get(k) != b.get(k))
        raise InconsistentResult(RULE, f"{field}[{i}].{printable(str(key)[:40])}",
                                 str(b.get("id", a.get("id"))), _WHY, what=what)
    if len(ours) != len(theirs):
        i = min(len(ours), len(theirs))
        extra = theirs[i] if len(theirs) > i else ours[i]
        rid = extra.get("id") if isinstance(extra, Mapping) else None
        raise InconsistentResult(RULE, f"{field}[{i}]", str(rid),
                                 "is not in the repair made again from the result's own "
                                 "decisions" if len(theirs) > i else
                                 "is in the repair made again from the result's own "
                                 "decisions, not in the result", what=what)
