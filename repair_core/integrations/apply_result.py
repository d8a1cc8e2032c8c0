"""An approved repair result written back to the store it names, with every check `dgrr
apply` makes, each said as a line: the one implementation behind `dgrr apply` and the
dashboard's Approve page.

The checks, in order: the approval (the log verifies, the approval stands for this case,
plan and result, no later rejection, as many reviewers as the review rule asks), the
carriers of a fault it acknowledged, the records of another owner it acknowledged, who
applies; then, writing, the write-ahead journal and the intent row before the first
write, and every touched item still as the trace saw it. A dry run says the same checks
and writes nothing; a refusal is a `DgrrError` raised before anything is written.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from .._errors import DgrrError
from .._text import plural, printable
from ..approvals import ApprovalRecord
from ..case._case import Case
from ._writeback import StoreOp

if TYPE_CHECKING:
    from ..verification import Verification

__all__ = ["ApplyGate", "ApplyTarget", "apply_result", "gate_apply", "log_checks", "open_vault",
           "vault_path"]


class ApplyTarget(BaseModel):
    """Where an apply writes, as `dgrr apply` names it."""

    to: Literal["mem0", "langgraph"]
    """The kind of store (`--to`)."""
    store: str
    """The store: a Mem0 config JSON or MODULE:FUNCTION, a LangGraph MODULE:FUNCTION
    (`--store`)."""
    vault: str | None = None
    """LangGraph: a SQLite file keeping quarantined items outside the store (`--vault`;
    None: the store's own vault)."""
    journal: str | None = None
    """Folder of the write-ahead journals and locks (`--journal`; None: $DGRR_APPLY_DIR,
    else ~/.dgrr/apply)."""

    @property
    def label(self) -> str:
        """The target as the approvals log records it."""
        return f"{self.to}:{self.store}"


def log_checks(trust: str | None, checkpoint: str | None) -> tuple[Any, Any]:
    """The trust file (`--trust`, else its default place when it exists; required with
    DGRR_REQUIRE_SIGNED=1) and the `--checkpoint`, read and verified."""
    from ..approvals import load_trust, read_checkpoint

    trust_file = load_trust(trust)
    if checkpoint is None:
        return trust_file, None
    if trust_file is None:
        raise DgrrError("--checkpoint: a trust file is needed to check its signature "
                        "(--trust FILE)")
    return trust_file, read_checkpoint(checkpoint, trust_file)


def vault_path(vault: str | None) -> str | None:
    """The `--vault` file's real path (None: the store's own vault)."""
    return None if vault is None else str(Path(vault).resolve())


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


class ApplyGate(BaseModel):
    """What `dgrr apply` and the queue's worker find about one result before a write: the
    one set of checks both run (`gate_apply`), so a worker refuses what `dgrr apply`
    refuses, with the same rule and words."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    ops: list[StoreOp]
    """The store operations, from the store the apply would leave (rules `gate.*`: a
    result that does not say what applying it writes is refused before this is made)."""
    approval: ApprovalRecord | None
    """The approval the log honours for this case, plan and result (None: none)."""
    not_honoured: list[str]
    """Why no approval is honoured (or what to know about the one that is), as said."""
    needed: int
    """How many distinct reviewers the review rule in force asks for this repair."""
    signed: bool
    """The approvals' signatures were checked against a trust file."""
    unchecked: str | None = None
    """Why the content check of the result run elsewhere did not finish (None: it did,
    or it ran here): the result is then not certified as a whole, and refused."""
    carriers: list[Any]
    """Carriers of a fault or not-certified items the approval did not acknowledge
    (rule `apply.carriers-acknowledged`), found by content now."""
    others: list[str]
    """Operations in another owner's scope the approval did not acknowledge (rule
    `apply.other-owner-acknowledged`), one line each."""
    binding: dict[str, Any]
    """What the write-ahead journal's intent is bound to: the result's digest, the vault
    and the reviewers needed."""

    def honoured(self) -> ApprovalRecord:
        """The approval to write under, once nothing refuses; else the first refusal
        (DgrrError, nothing written)."""
        if self.approval is None:
            why = " ".join(" ".join(self.not_honoured).split())
            raise DgrrError("refused: this result has no approval in the approvals log; "
                            "nothing written" + (f" ({printable(why[:600])})" if why else ""))
        if self.unchecked is not None:
            raise DgrrError(f"refused: the content check of the result is not certified "
                            f"({printable(self.unchecked)}); nothing written")
        if self.carriers:
            raise DgrrError(
                f"refused: the result still has {plural(len(self.carriers), 'carrier')} of a "
                f"fault or not-certified item(s) that approval #{self.approval.id} did not "
                "acknowledge (" + ", ".join(printable(c.id) for c in self.carriers)
                + "); see `dgrr verify RESULT --case CASE`; approve again with "
                "--acknowledge for each; nothing written")
        if self.others:
            raise DgrrError(
                f"refused: the repair writes in the scope of someone other than the case's "
                f"user ({plural(len(self.others), 'record')}: "
                + "; ".join(printable(o) for o in self.others[:10])
                + f") that approval #{self.approval.id} did not acknowledge; approve again "
                "with --acknowledge-owner RECORD for each; nothing written")
        return self.approval


def gate_apply(log: Any, case: Case, result: dict[str, Any], *, trust: Any,
               against: Any = None, judge: Any = None, vault: str | None = None,
               warn: Callable[[str], None] | None = None,
               verification: Verification | None = None, unchecked: str | None = None,
               recompute: Callable[[Case, Any], None] | None) -> ApplyGate:
    """Every check before `result` (untrusted `dgrr repair --json` data) of `case` is
    written, as `dgrr apply` and the queue's worker make them: the store the apply leaves
    (rules `gate.*`, a refusal raised here), the approval the approvals `log` honours
    (verified against `trust`, a trust file, its path or None for its default place, and
    the checkpoint `against`), the reviewers the review rule needs, the carriers and the
    records of another owner the approval did not acknowledge. Each reason an approval
    is not honoured also goes to `warn`. `verification` and `unchecked`: the content
    check run elsewhere and why it did not finish, as `apply_result` takes them.
    `recompute`: run last, on the case and the result, to refuse what the gate's own
    recomputation finds (`replay.replay_again`, rule gate.replay-recomputed: a layer
    above this one); no default, so that no caller leaves it out by omission (rule
    gate.recompute-named)."""
    from ..approvals import (
        TrustFile,
        approval_hashes,
        load_trust,
        review_rule,
        sha256_json,
        unacknowledged_carriers,
    )
    from . import store_ops
    from ._scopes import owner_problems
    from ._target import approval_of_result, reviewers_needed

    # one trust file for the rule and the approval: the worker used to read the rule
    # through another one than the approval, and count other reviewers than dgrr apply
    trust_file = trust if isinstance(trust, TrustFile) else load_trust(trust)
    ops = store_ops(case, result)
    reasons: list[str] = []

    def note(line: str) -> None:
        reasons.append(line)
        if warn is not None:
            warn(line)

    needed = reviewers_needed(review_rule(log, trust_file), case, result, ops=len(ops))
    approval = approval_of_result(log, case, result, approval_hashes, trust=trust_file,
                                  against=against, note=note, needed=needed)
    # rule apply.carriers-acknowledged: checked by content now, not read from the result
    carriers = [] if unchecked is not None else unacknowledged_carriers(
        case, result, approval, judge=judge, verification=verification)
    # rule apply.other-owner-acknowledged: by the case here, by the store again
    # just before the writes (apply_mem0, apply_langgraph)
    others = owner_problems(ops, user=case.user_id, acknowledged=getattr(
        approval, "acknowledged", None) or ())
    if recompute is not None:
        recompute(case, result)
    return ApplyGate(ops=ops, approval=approval, not_honoured=reasons, needed=needed,
                     signed=trust_file is not None, unchecked=unchecked,
                     carriers=carriers, others=others,
                     binding={"result_sha256": sha256_json(result),
                              "vault": vault_path(vault), "needed": needed})


def apply_result(log: Any, case: Case, result: dict[str, Any], target: ApplyTarget, *,
                 write: bool, reviewer: str | None, trust: Any, against: Any = None,
                 judge: Any = None, say: Callable[[str], None] = print,
                 warn: Callable[[str], None] = _stderr,
                 verification: Verification | None = None, unchecked: str | None = None,
                 recompute: Callable[[Case, Any], None] | None,
                 to_write: str = "add --apply to write") -> list[dict[str, Any]]:
    """Check `result` (a `dgrr repair --json` object) of `case` against the approvals
    `log` (an open `ApprovalStore`, verified against `trust` and the checkpoint `against`)
    and, with `write`, apply its store operations to `target` as `reviewer`. Each line
    goes to `say` (what `dgrr apply` prints) or `warn` (its stderr: why an approval is
    not honoured). Returns what was applied (empty for a dry run); raises DgrrError,
    nothing written, on a refusal. `verification`: the content check of `result` run
    already elsewhere (the dashboard's worker process, on no suspected source but those
    the result names), used instead of running it here; `unchecked`: why such a check did
    not finish — the result is then not certified as a whole, no approval can have
    acknowledged what was never listed, and the write is refused. `recompute`: as
    `gate_apply` takes it. `to_write`: how the caller writes after a dry run, in its
    own words (the CLI's flag, the dashboard's button)."""
    from ..approvals import ApplyEvents
    from . import Journal, journal_dir
    from ._identity import langgraph_identity, mem0_identity
    from ._target import open_mem0, with_langgraph

    if target.vault is not None and target.to != "langgraph":
        raise DgrrError("--vault: only for --to langgraph (Mem0 keeps its quarantine in the "
                        "store, out of every scope)")
    folder = journal_dir(target.journal)
    gate = gate_apply(log, case, result, trust=trust, against=against, judge=judge,
                      vault=target.vault, warn=warn, verification=verification,
                      unchecked=unchecked, recompute=recompute)
    ops, approval, carriers, others = gate.ops, gate.approval, gate.carriers, gate.others
    kind = "Mem0" if target.to == "mem0" else "LangGraph"
    say(f"{plural(len(ops), 'operation')} on the {kind} store "
        f"for case '{printable(case.case_id)}':")
    for op in ops:
        say("  " + printable(op.describe()))
    if approval is None:
        say("approval: none for this result (dgrr approve CASE --result RESULT)")
    else:
        say(f"approval: #{approval.id} by {printable(approval.reviewer)}")
    signatures = ("signatures checked against the trust file" if gate.signed else
                  "chain only: no trust file, signatures not checked")
    say("check approval and review rule: " + (
        f"passed: #{approval.id} stands for this case, plan and result; "
        f"{plural(gate.needed, 'distinct reviewer')} needed; {signatures}"
        if approval is not None
        else "failed: no approval in the log stands for this result"))
    if carriers:
        say("carriers of a fault or items not certified clean the approval did not "
            "acknowledge: " + ", ".join(printable(c.id) for c in carriers))
    say("check carriers of a fault: " + (
        f"failed: not certified: {printable(unchecked)}" if unchecked is not None else
        f"failed: {plural(len(carriers), 'carrier')} not acknowledged" if carriers else
        "passed: none the approval did not acknowledge"))
    for line in others:
        say("other owner: " + printable(line))
    say("check scopes (records of another owner): " + (
        f"failed: {plural(len(others), 'record')} not acknowledged" if others else
        "passed: nothing written in another owner's scope unacknowledged"))
    if not write:
        say(f"dry run: nothing written ({to_write})")
        return []
    approval = gate.honoured()
    if not reviewer or not reviewer.strip():
        raise DgrrError("--reviewer: who applies the repair is required with --apply")
    record = recorder(log, approval.id, reviewer=reviewer, target=target.label, say=say)
    # rule apply.journal-used-once: the intent is in the log before the first write
    events = ApplyEvents(log, reviewer=reviewer, target=target.label)
    binding = gate.binding
    say(f"check journal: the apply is planned in a write-ahead journal in "
        f"'{printable(str(folder))}' and its intent recorded in the approvals log before "
        "the first write; every touched item is compared with the trace first")
    if target.to == "langgraph":
        from .langgraph import apply_langgraph

        # apply_* check every touched record against the trace before writing
        vault = open_vault(target.vault)

        def act(lg: Any) -> Any:
            journal = Journal.for_store(folder, "langgraph",
                                        langgraph_identity(lg, target.store),
                                        binding=binding)
            return apply_langgraph(
                lg, ops, case_id=case.case_id, approval=approval, journal=journal,
                target=target.label, reviewer=reviewer, record=record, vault=vault,
                log=events, user=case.user_id)

        done = with_langgraph(target.store, act)
        item = "item"
    else:
        from .mem0 import apply_mem0, close_mem0

        memory = open_mem0(target.store)
        try:
            journal = Journal.for_store(folder, "mem0", mem0_identity(memory, target.store),
                                        binding=binding)
            done = apply_mem0(memory, ops, user=case.user_id, case_id=case.case_id,
                              approval=approval, journal=journal, target=target.label,
                              reviewer=reviewer, record=record, log=events)
        finally:
            close_mem0(memory)
        item = "mem0_id"
    say("check store unchanged since the trace: passed (every touched item was as the "
        "trace saw it)")
    for d in done:
        say(f"  applied {d['op']:<10} {printable(d['record'])} -> {target.to} "
            f"{printable(d[item])}")
    return list(done)


def open_vault(vault: str | None) -> Any:
    """The `--vault` file, opened (None: the store's own vault)."""
    if vault is None:
        return None
    from .langgraph_vault import SqliteVault

    return SqliteVault(vault)


def recorder(log: Any, approval_id: int, *, reviewer: str, target: str,
             say: Callable[[str], None] = print, signed: bool = False) -> Any:
    """What records a finished apply in the approvals log, next to its approval
    (`signed`: only with a trusted key when there is a trust file, as for a resume);
    it returns the `applied` event it recorded."""
    from ..approvals import sha256_json

    def record(intent: Any) -> Any:
        event = log.record_applied(
            approval_id, reviewer=reviewer, target=target,
            outputs_sha256=sha256_json(intent.operations),
            comment=json.dumps({"apply": intent.apply_id, "operations": intent.operations,
                                **({"conflicts": [c.model_dump(mode="json")
                                                  for c in intent.conflicts]}
                                   if intent.conflicts else {})},
                               ensure_ascii=False, default=str), signed=signed)
        say(f"recorded as #{event.id} next to approval #{approval_id} "
            f"(apply {intent.apply_id})")
        return event
    return record
