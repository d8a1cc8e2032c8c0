"""The append-only approvals store (SQLAlchemy; SQLite by default).

Rows are only ever inserted. The API has no update or delete; the ORM session refuses
to flush a changed or deleted row and refuses bulk UPDATE/DELETE statements, and on
SQLite triggers refuse them in the database too (so raw SQL cannot rewrite history).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from .._errors import DgrrError

__all__ = [
    "DEFAULT_DB",
    "Decision",
    "AppendOnlyError",
    "ApprovalRecord",
    "ApprovalStore",
    "db_url",
    "sha256_json",
]

DEFAULT_DB = "~/.dgrr/approvals.db"
Decision = Literal["approve", "reject"]


class AppendOnlyError(DgrrError):
    """An attempt to change or delete a stored approval."""


class ApprovalRecord(BaseModel):
    """One reviewer decision on one repair, as stored (never changed afterwards)."""

    id: int
    """Row number, increasing in insertion order."""
    case_id: str
    """The case the decision is about."""
    reviewer: str
    """Who decided."""
    decision: Decision
    """approve or reject."""
    comment: str = ""
    """The reviewer's comment."""
    plan_edits: list[dict[str, Any]] = Field(default_factory=list)
    """Reviewer edits to the computed plan (node, action, before, comment)."""
    forced: bool = False
    """Some edit overrode an invariant (with a comment)."""
    inputs_sha256: str
    """sha256 of the case and the plan edits (canonical JSON)."""
    outputs_sha256: str
    """sha256 of the plan report and the repair result, when there was one."""
    model: str | None = None
    """Model the replay ran with, when there was a replay."""
    created_at: datetime
    """When it was recorded (UTC)."""


class _Base(DeclarativeBase):
    pass


class _ApprovalRow(_Base):
    __tablename__ = "dgrr_approvals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    case_id: Mapped[str] = mapped_column(String(200), index=True)
    reviewer: Mapped[str] = mapped_column(String(200))
    decision: Mapped[str] = mapped_column(String(16))
    comment: Mapped[str] = mapped_column(Text, default="")
    plan_edits: Mapped[Any] = mapped_column(JSON, default=list)
    forced: Mapped[bool] = mapped_column(Boolean, default=False)
    inputs_sha256: Mapped[str] = mapped_column(String(64))
    outputs_sha256: Mapped[str] = mapped_column(String(64))
    model: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_SQLITE_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS dgrr_approvals_no_update BEFORE UPDATE ON dgrr_approvals "
    "BEGIN SELECT RAISE(ABORT, 'dgrr approvals are append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS dgrr_approvals_no_delete BEFORE DELETE ON dgrr_approvals "
    "BEGIN SELECT RAISE(ABORT, 'dgrr approvals are append-only'); END",
)


@event.listens_for(Session, "before_flush")
def _refuse_changes(session: Session, flush_context: Any, instances: Any) -> None:
    for obj in (*session.dirty, *session.deleted):
        if isinstance(obj, _ApprovalRow) and (obj in session.deleted or session.is_modified(obj)):
            raise AppendOnlyError("approvals are append-only: a stored approval cannot be "
                                  "changed or deleted")


@event.listens_for(Session, "do_orm_execute")
def _refuse_bulk(state: Any) -> None:
    if (state.is_update or state.is_delete) and any(
            m.class_ is _ApprovalRow for m in state.all_mappers):
        raise AppendOnlyError("approvals are append-only: UPDATE and DELETE are refused")


def db_url(value: str | None = None) -> str:
    """The database URL: `value`, else `$DGRR_DB`, else SQLite at `~/.dgrr/approvals.db`.

    A value without `://` is a file path and becomes a SQLite URL.

    >>> db_url("sqlite://")
    'sqlite://'
    >>> db_url("/tmp/a.db")
    'sqlite:////tmp/a.db'
    """
    raw = value or os.environ.get("DGRR_DB") or DEFAULT_DB
    if "://" in raw:
        return raw
    return "sqlite:///" + str(Path(raw).expanduser().resolve())


def sha256_json(data: Any) -> str:
    """sha256 of canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ApprovalStore:
    """Append-only approvals at a database URL (see :func:`db_url`).

    >>> store = ApprovalStore("sqlite://")
    >>> r = store.add(case_id="c1", reviewer="ana", decision="approve",
    ...               inputs_sha256="0" * 64, outputs_sha256="1" * 64)
    >>> [a.reviewer for a in store.history()]
    ['ana']
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = db_url(url)
        try:
            if self.url.startswith("sqlite:///"):
                Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True,
                                                                       exist_ok=True)
            self.engine: Engine = create_engine(self.url)
            _Base.metadata.create_all(self.engine)
            if self.engine.dialect.name == "sqlite":
                with self.engine.begin() as conn:
                    for ddl in _SQLITE_TRIGGERS:
                        conn.execute(text(ddl))
        except (ArgumentError, SQLAlchemyError, OSError) as exc:
            raise DgrrError(f"--db: cannot open approvals database '{self.url}': "
                            f"{exc.__class__.__name__}: {str(exc).splitlines()[0]}") from None

    def add(self, *, case_id: str, reviewer: str, decision: str, inputs_sha256: str,
            outputs_sha256: str, comment: str = "",
            plan_edits: Iterable[Mapping[str, Any]] = (), forced: bool = False,
            model: str | None = None) -> ApprovalRecord:
        """Append one decision; returns it as stored."""
        problems = []
        if not reviewer or not reviewer.strip():
            problems.append("reviewer: a reviewer name is required")
        if decision not in ("approve", "reject"):
            problems.append(f"decision: expected 'approve' or 'reject', got {decision!r}")
        if not case_id:
            problems.append("case_id: required")
        for name, value in (("inputs_sha256", inputs_sha256), ("outputs_sha256", outputs_sha256)):
            if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
                problems.append(f"{name}: expected 64 hex digits, got {value!r}")
        if forced and not comment.strip():
            problems.append("comment: an approval of a plan with overridden invariants needs "
                            "a comment")
        if problems:
            raise DgrrError("approval refused:\n" + "\n".join(f"  - {p}" for p in problems))
        row = _ApprovalRow(case_id=case_id, reviewer=reviewer.strip(), decision=decision,
                           comment=comment, plan_edits=[dict(e) for e in plan_edits],
                           forced=forced, inputs_sha256=inputs_sha256,
                           outputs_sha256=outputs_sha256, model=model,
                           created_at=datetime.now(UTC))
        with Session(self.engine, expire_on_commit=False) as session:
            session.add(row)
            session.commit()
            return _record(row)

    def history(self, case_id: str | None = None, limit: int | None = None
                ) -> list[ApprovalRecord]:
        """Stored decisions, newest first (optionally for one case)."""
        query = select(_ApprovalRow).order_by(_ApprovalRow.id.desc())
        if case_id is not None:
            query = query.where(_ApprovalRow.case_id == case_id)
        if limit is not None:
            query = query.limit(limit)
        with Session(self.engine) as session:
            return [_record(r) for r in session.scalars(query)]

    def close(self) -> None:
        self.engine.dispose()


def _record(row: _ApprovalRow) -> ApprovalRecord:
    created = row.created_at
    if created.tzinfo is None:  # SQLite drops the zone; it was stored as UTC
        created = created.replace(tzinfo=UTC)
    return ApprovalRecord(id=row.id, case_id=row.case_id, reviewer=row.reviewer,
                          decision=row.decision,  # type: ignore[arg-type]
                          comment=row.comment or "", plan_edits=list(row.plan_edits or []),
                          forced=bool(row.forced), inputs_sha256=row.inputs_sha256,
                          outputs_sha256=row.outputs_sha256, model=row.model,
                          created_at=created)
