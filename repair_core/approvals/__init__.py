"""Reviewer approvals: an append-only store (SQLAlchemy, SQLite by default) and what a
reviewer signs — hashes of inputs and outputs, exports and a Markdown report."""

from ._checkpoint import Checkpoint, make_checkpoint, read_checkpoint, write_checkpoint
from ._keys import Signer, TrustFile, generate_key, key_dir, load_signer, trust_path
from ._review import (
    ApprovalHasher,
    ApprovalSummary,
    DuplicateApprovalError,
    ResultMismatchError,
    approval_hashes,
    approval_summary,
    decisions_sha256,
    find_decision,
    markdown_report,
    record_decision,
    repaired_store,
    repaired_trajectory,
    result_data,
    result_problems,
    warning_groups,
)
from ._reviewer import reviewer_key, same_reviewer
from ._rules import ApprovalStanding, honoured_approval
from ._store import (
    DEFAULT_DB,
    AppendOnlyError,
    ApprovalRecord,
    ApprovalStore,
    Decision,
    database_exists,
    db_url,
    sha256_json,
)

__all__ = [
    "ApprovalStanding",
    "Checkpoint",
    "Signer",
    "TrustFile",
    "generate_key",
    "honoured_approval",
    "key_dir",
    "load_signer",
    "make_checkpoint",
    "read_checkpoint",
    "trust_path",
    "write_checkpoint",
    "DEFAULT_DB",
    "AppendOnlyError",
    "ApprovalHasher",
    "ApprovalSummary",
    "DuplicateApprovalError",
    "ResultMismatchError",
    "approval_summary",
    "warning_groups",
    "decisions_sha256",
    "find_decision",
    "result_problems",
    "ApprovalRecord",
    "ApprovalStore",
    "Decision",
    "approval_hashes",
    "database_exists",
    "db_url",
    "markdown_report",
    "record_decision",
    "repaired_store",
    "repaired_trajectory",
    "result_data",
    "reviewer_key",
    "same_reviewer",
    "sha256_json",
]
