"""Writing an approved repair back to the store an agent really uses.

- `_writeback`: the store operations a repair result asks for (delete, quarantine,
  restore, add), computed from the result and the imported case;
- `_journal`, `_apply`: all-or-nothing, exclusive write-back (a write-ahead intent
  journal, a per-store lock, resume and rollback);
- `mem0`: checking that a Mem0 store has not changed since the trace, and applying the
  operations to it;
- `langgraph`: a LangGraph store wrapper that records memory spans and keeps history, and
  the same check and apply for a LangGraph `BaseStore`.
"""

from typing import Any

from ._apply import ApplyLog, NotApproved, require_approval, resume_apply, rollback_apply
from ._journal import (
    INTENT_FORMAT,
    ApplyLocked,
    ApplyPending,
    Intent,
    Journal,
    Step,
    intent_state,
    journal_dir,
    store_key,
)
from ._writeback import StoreChanged, StoreOp, store_ops

__all__ = ["ApplyLog", "StoreOp", "StoreChanged", "store_ops", "find_approval", "NotApproved",
           "require_approval", "resume_apply", "rollback_apply", "INTENT_FORMAT",
           "ApplyLocked", "ApplyPending", "Intent", "Journal", "Step", "intent_state",
           "journal_dir", "store_key"]


def find_approval(case: Any, result: Any, db: str | None = None) -> Any:
    """The approval of `result` (a `dgrr repair --json` object) for `case` in the
    approvals log `db` (default: $DGRR_DB, else ~/.dgrr/approvals.db), or None: what
    `apply_langgraph` / `apply_mem0` require, as `dgrr apply` finds it."""
    from ..approvals import ApprovalStore, approval_hashes
    from ._target import approval_of_result

    store = ApprovalStore(db)
    try:
        return approval_of_result(store, case, result, approval_hashes)
    finally:
        store.close()
