"""A reviewer's decision on a queued request, and a worker's write-back of approved ones.

`review` is what the CLI and the dashboard's Inbox both call: the request's case is planned
(with the reviewer's plan, if edited), replayed when approving without a result in hand,
the decision appended to the hash-chained approvals log, and the request moved — all by
the reviewer holding the claim. `apply_next` is one step of `dgrr worker`: the oldest
approved request with a store target is written back through the same adapters `dgrr
apply` uses, its outcome recorded in the log and on the request; a store's refusal makes
the request `failed` and is never retried.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from .._errors import DgrrError
from ..plan._suspects import SuspectMode
from ._store import QueueError, RepairQueue, RepairRequest

__all__ = ["review", "apply_next", "apply_request"]


def review(queue: RepairQueue, request_id: int, *, reviewer: str,
           decision: Literal["approve", "reject"], comment: str = "", plan: Any = None,
           result: Any = None, model: str | None = None,
           hashes: tuple[str, str] | None = None,
           acknowledged: Any = (), carrier_ids: Any = None,
           suspects: SuspectMode = "quarantine", not_suspect: Iterable[str] = (),
           clean_source: Mapping[str, str] | None = None) -> RepairRequest:
    """The holder `reviewer` approves or rejects request `request_id`.

    `plan` (a :class:`~repair_core.RepairPlan` of the request's case, possibly edited) and
    `result` (its replay) are what the reviewer saw; without them the case is planned for
    the request's objective, with the reviewer's `suspects`, `not_suspect` and
    `clean_source` edits as `dgrr plan` and `dgrr approve` take them (ignored with a
    `plan`: it holds its own), and, for an approval, replayed with `model` (default: the
    offline reference model), so that what is approved is exactly what the worker will
    write back. `acknowledged`: the
    ids of the result's carriers of a fault the reviewer accepts, and `carrier_ids` those
    the reviewer was shown (see `record_decision`).
    """
    from ..approvals import record_decision, result_data
    from ..plan._plan import plan_case
    from ..replay import replay_again

    current = queue.get(request_id)
    who = reviewer.strip()
    if current.status != "claimed" or current.claimed_by != who:
        holder = f" by {current.claimed_by}" if current.status == "claimed" else ""
        raise QueueError(f"request #{request_id}: is {current.status}{holder}; claim it "
                         "before deciding")
    case = queue.case(request_id)
    if plan is None:
        plan = plan_case(case, objective=current.objective, suspects=suspects,
                         not_suspect=not_suspect, clean_source=clean_source)
    elif plan.case.case_id != case.case_id:
        raise DgrrError(f"plan is for case {plan.case.case_id!r}, not the request's "
                        f"{case.case_id!r}")
    replayed = decision == "approve" and result is None
    if replayed:
        from ..model import REFERENCE_MODEL
        from ..replay import repair

        result = repair(case, plan, model=model or REFERENCE_MODEL)
    needed = 1
    if decision == "approve":
        from ..approvals import result_data
        from ..integrations._target import reviewers_needed

        needed = reviewers_needed(queue.rule(), case, result_data(result),
                                  ops=_store_operations(current, case, plan, result))
    record = record_decision(queue.approvals, plan, reviewer=who, decision=decision,
                             comment=comment, result=result,
                             hashes=None if replayed else hashes, acknowledged=acknowledged,
                             carrier_ids=None if replayed else carrier_ids,
                             recompute=replay_again)  # rule gate.replay-recomputed
    data = result_data(result) if result is not None else None
    return queue.decide(request_id, reviewer=who, decision=decision, decision_id=record.id,
                        result=data, note=comment, needed=needed)


def _store_operations(request: RepairRequest, case: Any, plan: Any, result: Any) -> int:
    """How many operations the repair asks of the store: those the write-back would
    perform when there is a store target, else every record the plan does not keep."""
    if request.store_target and result is not None:
        from ..approvals import result_data
        from ..integrations import store_ops

        try:
            return len(store_ops(case, result_data(result) or {}))
        except DgrrError:
            pass
    return sum(1 for action in plan.memory.values() if action != "keep")


def apply_request(queue: RepairQueue, request: RepairRequest, *, worker: str,
                  open_store: Callable[[dict[str, str]], Any] | None = None,
                  trust: Any = None, against: Any = None, lease: float = 600.0,
                  vault: str | None = None) -> RepairRequest:
    """Write approved `request` (held by `worker`) back to its store target as `dgrr apply
    --apply` does (the approval must still be honoured; an intent journal makes it
    resumable), record the `applied` event next to its approval, and finish it (failed
    with the store's refusal: a refused write-back is not retried). `vault`: for a
    LangGraph target, the SQLite file quarantined items are kept in, outside the store
    (`dgrr apply --vault`; None: the store's own vault); a Mem0 store keeps its own."""
    from ..integrations import ApplyLocked

    target = request.store_target or {}
    result = queue.result(request.id)
    done = queue.applied_event(request)
    if done is not None:  # a worker before this one wrote it back, then died or stalled
        return queue.finish(request.id, worker=worker, applied_id=done)
    beat = _Heartbeat(queue, request.id, worker, lease)
    try:
        with beat:
            if result is None or request.decision_id is None:
                raise DgrrError("the approval carries no repair result to apply")
            applied = _write_back(queue, queue.case(request.id), result, target, worker,
                                  open_store, trust=trust, against=against, vault=vault)
    except ApplyLocked:
        return queue.get(request.id)  # another worker is still writing it: left to it
    except DgrrError as exc:
        return queue.finish(request.id, worker=worker, error=str(exc))
    return queue.finish(request.id, worker=worker, applied_id=applied)


class _Heartbeat:
    """Renews a worker's lease every third of it while its apply runs, so a slow apply
    is never taken over by another worker."""

    def __init__(self, queue: RepairQueue, request_id: int, worker: str, lease: float) -> None:
        import threading

        self.queue, self.request_id, self.worker = queue, request_id, worker
        self.every = max(lease / 3, 0.01)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True,
                                       name=f"dgrr-lease-{request_id}")

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            try:
                if not self.queue.heartbeat(self.request_id, worker=self.worker):
                    return
            except DgrrError:
                continue  # the database is busy: try again at the next beat

    def __enter__(self) -> _Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def apply_next(queue: RepairQueue, *, worker: str,
               open_store: Callable[[dict[str, str]], Any] | None = None,
               lease: float = 600.0, trust: Any = None, against: Any = None,
               vault: str | None = None) -> RepairRequest | None:
    """Apply the oldest approved request no worker holds (or whose worker has not finished
    within `lease` seconds: it died, and its interrupted apply is resumed); None when there
    is none. The approval is honoured only as `dgrr apply` honours it: a log that
    verifies against the trust file `trust` and the checkpoint `against`, enough
    distinct reviewers of the same plan and result, no later rejection. `vault`: as
    :func:`apply_request` takes it."""
    request = queue.take_approved(worker=worker, lease=lease)
    if request is None:
        return None
    return apply_request(queue, request, worker=worker, open_store=open_store,
                         trust=trust, against=against, lease=lease, vault=vault)


def _write_back(queue: RepairQueue, case: Any, result: dict[str, Any],
                target: dict[str, str], worker: str,
                open_store: Callable[[dict[str, str]], Any] | None, *,
                trust: Any = None, against: Any = None, vault: str | None = None) -> int:
    """Perform the result's store operations on the target store (checked against the
    trace first, journalled, under the store's lock, as `dgrr apply` does, a LangGraph
    store's quarantine in `vault` when given); the id of the `applied` event recorded in
    the approvals log."""
    from ..integrations import Journal, journal_dir
    from ..integrations._target import open_mem0, with_langgraph
    from ..integrations.apply_result import gate_apply, open_vault, recorder

    kind, spec = target.get("to"), target.get("store", "")
    if kind not in ("langgraph", "mem0"):
        raise DgrrError(f"store_target: unknown store kind {kind!r}")
    # the very checks of `dgrr apply`, refused with its words: the store the apply leaves
    # (rules gate.*), the approval, the reviewers its rule needs, carriers and owners
    if kind != "langgraph":
        vault = None  # Mem0 keeps its quarantine in the store, out of every scope
    from ..replay import replay_again

    gate = gate_apply(queue.approvals, case, result, trust=trust, against=against,
                      vault=vault, recompute=replay_again)  # rule gate.replay-recomputed
    approval, ops, binding = gate.honoured(), gate.ops, gate.binding
    where = f"{kind}:{spec}"
    events: list[int] = []

    # the same `applied` row `dgrr apply` records, said to no one: the worker keeps its id
    recorded = recorder(queue.approvals, approval.id, reviewer=worker, target=where,
                        say=lambda _line: None)

    def record(intent: Any) -> None:
        events.append(recorded(intent).id)

    # rule apply.journal-used-once: intents in the log, a spent journal never resumed
    from ..approvals import ApplyEvents

    apply_log = ApplyEvents(queue.approvals, reviewer=worker, target=where)

    def resumable(journal: Any) -> bool:
        """A worker that died mid-apply left this repair's intent in the store's journal
        (authenticated, of this store): the next worker finishes it (every planned write
        is compare-and-swap) instead of starting anew, when it rests on this very
        approval row and result."""
        pending = journal.pending()
        return (pending is not None and pending.approval_id == approval.id
                and pending.approval_row_hash == approval.row_hash
                and pending.result_sha256 == binding["result_sha256"]
                and pending.case_id == case.case_id)

    if kind == "langgraph":
        from ..integrations import resume_apply
        from ..integrations._identity import langgraph_identity
        from ..integrations.langgraph import LangGraphSlots, apply_langgraph

        def act(store: Any) -> Any:
            journal = Journal.for_store(journal_dir(None), "langgraph",
                                        langgraph_identity(store, spec), binding=binding)
            if resumable(journal):
                # the quarantine the interrupted apply began is where its journal says
                begun = getattr(journal.pending(), "vault", None)
                return resume_apply(LangGraphSlots(store, open_vault(begun)),
                                    journal, record, log=apply_log)
            return apply_langgraph(store, ops, case_id=case.case_id, approval=approval,
                                   journal=journal, target=where, reviewer=worker,
                                   record=record, log=apply_log, user=case.user_id,
                                   vault=open_vault(vault))

        if open_store is not None:
            act(open_store(target))
        else:
            with_langgraph(spec, act)
    else:
        from ..integrations import resume_apply
        from ..integrations._identity import mem0_identity
        from ..integrations.mem0 import Mem0Slots, apply_mem0, close_mem0

        memory = open_store(target) if open_store else open_mem0(spec)
        try:
            journal = Journal.for_store(journal_dir(None), "mem0",
                                        mem0_identity(memory, spec), binding=binding)
            if resumable(journal):
                resume_apply(Mem0Slots(memory), journal, record, log=apply_log)
            else:
                apply_mem0(memory, ops, user=case.user_id, case_id=case.case_id,
                           approval=approval, journal=journal, target=where,
                           reviewer=worker, record=record, log=apply_log)
        finally:
            close_mem0(memory)
    if not events:
        raise DgrrError("the store took the writes but no applied event was recorded")
    return events[-1]
