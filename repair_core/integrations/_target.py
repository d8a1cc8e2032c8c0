"""Where an approved repair goes, shared by `dgrr apply`, `dgrr worker` and the library:
the approval that stands for a result, and the stores that `--store` specs name."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._errors import DgrrError, PlanEditError
from ..case._case import Case, ToolAction
from ..graph._descent import own_actions
from ..plan._edit import apply_edits
from ..plan._of_result import (
    plan_named_by,
    result_clean_source,
    result_objective,
    result_suspects,
)

__all__ = ["approval_of_result", "irreversible_effects", "open_factory", "open_mem0",
           "result_clean_source", "result_objective", "result_suspects", "reviewers_needed",
           "with_langgraph"]

_REMOVES = ("replay", "refresh", "invalidate")


def irreversible_effects(case: Case, result: object) -> list[str]:
    """The steps of the failed run whose effect this repair cannot take back (rule
    `apply.irreversible-recomputed`), read from the case and the result's decisions (which
    `dgrr approve` ties to the approved plan), not from the result's own `needs_human`: a
    state-changing call that succeeded, that the decisions take back (invalidated,
    replayed or refreshed, or the action of such an observation), that descends from a
    diagnosed fault (a call no fault led to keeps its effect, `replay.world.own-action`)
    and whose tool the case declares irreversible or does not declare. The steps the
    result names (`needs_human`, `report.irreversible_effects`: an undo that could not
    run, an idempotent call not issued again) are added: a result can name more, never
    fewer."""
    report = result.get("report") if isinstance(result, dict) else None
    report = report if isinstance(report, dict) else {}
    decisions = report.get("decisions")
    steps = {s.id: s for s in case.trajectory}
    removed = {d["id"] for d in (decisions if isinstance(decisions, list) else [])
               if isinstance(d, dict) and d.get("action") in _REMOVES
               and isinstance(d.get("id"), str) and d["id"] in steps}
    removed |= {d.id for sid in list(removed) if steps[sid].type == "tool_observation"
                for d in steps[sid].deps if d.label == "produce" and d.id in steps}
    declared = {t.name: t.effect for t in case.tools}
    own = own_actions(case, case.faults, removed)
    found = [s.id for s in case.steps_in_order()
             if s.id in removed and s.id not in own and isinstance(s, ToolAction)
             and s.status == "ok" and declared.get(s.tool, "irreversible") == "irreversible"]
    # untrusted data: a list of step objects counts, anything else names nothing
    named = [n for part in (report.get("irreversible_effects"),
                            result.get("needs_human") if isinstance(result, dict) else None)
             if isinstance(part, list) for n in part]
    found += [n["step"] for n in named if isinstance(n, dict) and isinstance(n.get("step"), str)]
    return list(dict.fromkeys(found))


def reviewers_needed(rule: Any, case: Case, result: object, *, ops: int) -> int:
    """How many distinct reviewers the review rule `rule` (`approvals.ReviewRule`) asks
    for `result` of `case`, a repair that makes `ops` operations on the store: its
    irreversible effects counted as :func:`irreversible_effects` counts them. The one
    count the apply gate, the approval lookup and the queue's decisions share."""
    return int(rule.needed(ops=ops, irreversible=bool(irreversible_effects(case, result))))


def with_langgraph(spec: str, act: Any) -> Any:
    """`act(store)` on the LangGraph store a factory gives: a store, a context manager
    (PostgresStore.from_conn_string), or for an async store a coroutine or async context
    manager (then `act` runs in a worker thread while the store's loop serves it)."""
    import asyncio
    import inspect

    made = open_factory(spec, "a LangGraph BaseStore")
    if inspect.isawaitable(made) or hasattr(made, "__aenter__"):
        async def main() -> Any:
            if hasattr(made, "__aenter__"):
                async with made as store:
                    return await asyncio.to_thread(act, store)
            store = await made
            return await asyncio.to_thread(act, store)
        return asyncio.run(main())
    if hasattr(made, "__enter__") and not hasattr(made, "batch"):
        with made as store:
            return act(store)
    return act(made)


def open_factory(spec: str, what: str) -> Any:
    """What a MODULE:FUNCTION factory returns."""
    module_name, _, func = spec.partition(":")
    if not module_name or not func:
        raise DgrrError(f"--store: expected MODULE:FUNCTION returning {what}, got {spec!r}")
    try:
        factory = getattr(importlib.import_module(module_name), func)
    except (ImportError, AttributeError) as exc:
        raise DgrrError(f"--store: cannot load {spec!r}: {exc}") from None
    return factory()


def approval_of_result(store: Any, case: Case, result: dict, approval_hashes: Any, *,
                       trust: Any = None, against: Any = None,
                       note: Callable[[str], None] | None = None,
                       needed: int | None = None) -> Any:
    """The newest approval whose inputs and outputs digests match this case, its
    recorded plan edits and this result, when the log honours it: it verifies (against
    the trust file `trust` and the checkpoint `against`), no later decision rejects it,
    the approved plan asks for every store change and step of the result, and as many
    distinct reviewers as the review rule asks for approved that same plan and result
    (the digests computed once per distinct set of edits: on a large case each costs
    seconds). `needed`: the reviewers the caller's gate counted (`gate_apply`), else
    counted here the same way. None, with the reason said to `note` (default: stderr),
    otherwise."""
    from ..approvals import honoured_approval
    from ._writeback import store_ops

    def say(line: str) -> None:
        if note is not None:
            note(line)
        else:
            print(line, file=sys.stderr)

    # The approved plan is the one the result was repaired from: its objective and what
    # it did with suspects are the result's (an approval of another plan cannot match).
    try:
        base = plan_named_by(case, result)
    except PlanEditError as exc:
        # a cleaning no plan of this case can make: no approval stands for this result
        say("approval: the result's plan cannot be made again from the case: "
            + "; ".join(exc.problems))
        return None
    hashes: dict[str, tuple[str, str] | None] = {}
    beyond: list[str] = []

    def matches(record: Any) -> bool:
        key = json.dumps([record.plan_edits, record.forced,
                          record.comment if record.plan_edits else ""], sort_keys=True)
        if key not in hashes:
            hashes[key] = _plan_hashes(base, record, result, approval_hashes, beyond)
        return hashes[key] == (record.inputs_sha256, record.outputs_sha256)

    def count(rule: Any) -> int:
        if needed is not None:
            return needed
        try:
            ops = len(store_ops(case, result))
        except DgrrError:  # not a result for a store write-back: what its plan changes
            ops = sum(1 for action in base.memory.values() if action != "keep")
        return reviewers_needed(rule, case, result, ops=ops)

    # the latest matching decision wins; a log that does not verify honours nothing
    standing = honoured_approval(store, case.case_id, matches, trust=trust, against=against,
                                 needed=count)
    if standing.record is not None and beyond:
        say("approval: the result does things its approved plan does not ask for; not "
            "honoured:\n" + "\n".join(f"  - {p}" for p in beyond[:10]))
        return None
    if standing.reason:
        say(f"approval: {standing.reason}")
    elif standing.record is not None and not standing.signed:
        say("approval: no trust file, so signatures were not checked (anyone who can "
            "write the database could have written this approval; set "
            "DGRR_REQUIRE_SIGNED=1 to refuse)")
    return standing.record


def _plan_hashes(base: Any, record: Any, result: dict, approval_hashes: Any,
                 beyond: list[str]) -> tuple[str, str] | None:
    """The (inputs, outputs) digests of `base` with `record`'s plan edits and `result`;
    None when those edits no longer apply. What the result does beyond that plan is
    added to `beyond`."""
    from ..approvals import obligation_problems

    plan = base
    if record.plan_edits:
        edits = {e["node"]: e["action"] for e in record.plan_edits}
        try:
            plan = apply_edits(base, edits, force=record.forced, comment=record.comment)
        except DgrrError:
            return None
    found = approval_hashes(plan, result)
    if found == (record.inputs_sha256, record.outputs_sha256):
        beyond.extend(obligation_problems(plan, result))
    return found


def open_mem0(spec: str) -> Any:
    """A mem0 `Memory` from a config JSON file or a MODULE:FUNCTION factory."""
    path = Path(spec)
    if path.suffix == ".json" or path.is_file():
        from .._io import read_json  # the strict JSON reader, errors naming --store

        config = read_json(spec, "--store")
        if not isinstance(config, dict):
            raise DgrrError("--store: a Mem0 config must be a JSON object")
        from mem0 import Memory

        return Memory.from_config(config)
    return open_factory(spec, "a mem0 Memory")
