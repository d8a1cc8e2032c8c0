"""Reviewer approvals: an append-only store (SQLAlchemy, SQLite by default) and what a
reviewer signs — hashes of inputs and outputs, exports and a Markdown report."""

from ._review import (
    approval_hashes,
    markdown_report,
    record_decision,
    repaired_store,
    repaired_trajectory,
    result_data,
)
from ._store import (
    DEFAULT_DB,
    AppendOnlyError,
    ApprovalRecord,
    ApprovalStore,
    Decision,
    db_url,
    sha256_json,
)

__all__ = [
    "DEFAULT_DB",
    "AppendOnlyError",
    "ApprovalRecord",
    "ApprovalStore",
    "Decision",
    "approval_hashes",
    "db_url",
    "markdown_report",
    "record_decision",
    "repaired_store",
    "repaired_trajectory",
    "result_data",
    "sha256_json",
]
