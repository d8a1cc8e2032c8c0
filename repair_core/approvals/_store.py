"""The append-only, tamper-evident approvals log (SQLAlchemy; SQLite by default).

Rows are only ever inserted. The API has no update or delete; the ORM session refuses
to flush a changed or deleted row and refuses bulk UPDATE/DELETE statements, and on
SQLite triggers refuse them in the database too, as well as any insert that names an id
(`INSERT OR REPLACE` of an existing row would otherwise delete it without firing the
delete trigger) or that does not chain to the last row.

Each row carries `row_hash`, the sha256 of its content and of the previous row's hash
(`prev_hash`; 64 zeros for the first row). :meth:`ApprovalStore.verify` recomputes the
chain and names the first row that does not match, so a row changed, replaced or deleted
behind the store's back (after dropping the triggers) is detected. The chain has no
secret: someone who can write the database file and recomputes every later hash can
still forge it, and removing the newest rows leaves a shorter valid chain (compare the
`head` hash with one quoted earlier); what it guarantees is that no edit of a row goes
unnoticed when made by a tool that does not know the chain, and dropped triggers are
reported too.

Writers serialise on the database's write lock (SQLite: `BEGIN IMMEDIATE`) so that two
writers never chain to the same row; a locked database is waited for (busy timeout) and
the insert retried. Every database failure becomes a one-line :class:`DgrrError` that
names the database (password hidden) and never shows SQL or its parameters.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

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
    insert,
    inspect,
    literal_column,
    make_url,
    select,
    text,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from .._errors import DgrrError
from ._canonical import canonical_chunks
from ._keys import TrustFile

__all__ = [
    "DEFAULT_DB",
    "Decision",
    "AppendOnlyError",
    "ApprovalRecord",
    "ChainCheck",
    "EventKind",
    "GENESIS_HASH",
    "RULE_CASE",
    "ApprovalStore",
    "db_url",
    "row_signer",
    "sha256_json",
]

DEFAULT_DB = "~/.dgrr/approvals.db"
Decision = Literal["approve", "reject"]
EventKind = Literal["decision", "applied", "rule", "override", "intent", "rolled-back"]
EVENT_KINDS: tuple[str, ...] = EventKind.__args__  # type: ignore[attr-defined]
UNSIGNED_KINDS = ("applied", "intent")
"""Rows recorded unsigned when the applier has no trusted key (they authorise nothing;
the store is being written by an approval that is signed)."""
RULE_CASE = "dgrr:review-rule"
"""The `case_id` of a `rule` row (a change of the review rule, not a case's decision)."""
GENESIS_HASH = "0" * 64
MAX_NAME = 200
"""Longest reviewer name, case id or model name stored (the columns' size)."""


_ROW_WHAT = {"decision": "approval", "rule": "rule change", "override": "override",
             "intent": "intent event", "rolled-back": "rollback event"}
"""How a refusal names a row of each kind."""


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
    kind: EventKind = "decision"
    """`decision`: a reviewer's approve/reject; `applied`: an approved repair was applied
    to a real store (see :meth:`ApprovalStore.record_applied`); `rule`: an administrator
    changed the review rule (`comment` holds it as JSON, see
    :meth:`ApprovalStore.record_rule`); `override`: someone wrote over a store slot that
    had changed since the apply planned it (`comment` lists the slots); `intent`: an apply
    is about to write its first slot (`comment` names its apply id and store, see
    `_apply_events`); `rolled-back`: an apply's writes were undone."""
    refers_to: int | None = None
    """For an `applied` event: the id of the approval it applied."""
    target: str | None = None
    """For an `applied` event: where the repair was applied (e.g. a store URL)."""
    prev_hash: str = GENESIS_HASH
    """`row_hash` of the previous row (64 zeros for the first)."""
    row_hash: str | None = None
    """sha256 of this row's content and `prev_hash` (None: recorded before the chain)."""
    key_id: str | None = None
    """The reviewer's Ed25519 key that signed `row_hash` (None: unsigned)."""
    signature: str | None = None
    """base64 Ed25519 signature of `row_hash` (see :func:`row_message`)."""
    acknowledged: list[str] = Field(default_factory=list, exclude_if=lambda v: not v)
    """Carriers of a fault (`where:fault` ids, see `repair_core.verification`) the reviewer
    acknowledged one by one when approving a result that still has them; hashed and
    signed with the row (left out of the hash when empty, so older rows verify)."""


class ChainCheck(BaseModel):
    """What :meth:`ApprovalStore.verify` found."""

    ok: bool
    """Every row matches its hash and chains to the previous one, and the append-only
    triggers are in place."""
    rows: int
    """Rows checked."""
    first_broken: int | None = None
    """Id of the first row that does not verify (None when the rows verify)."""
    reason: str | None = None
    """Why the log does not verify."""
    head: str | None = None
    """`row_hash` of the last row (quote it to pin the log's current state)."""
    last_id: int | None = None
    """Id of the last row."""
    signed: bool = False
    """Every row's signature was checked against a trust file."""
    checkpoint: bool = False
    """The log was compared with a signed checkpoint (and contains it)."""
    unsigned_applied: int = 0
    """`applied` events recorded without a signature (the applier had no key). They
    authorise nothing, so they do not fail verification. They are counted here, and
    they stay protected by the chain and the checkpoints."""


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
    kind: Mapped[str] = mapped_column(String(16), default="decision",
                                      server_default="decision")
    refers_to: Mapped[int | None] = mapped_column(Integer, nullable=True)
    target: Mapped[str | None] = mapped_column(Text, nullable=True)
    prev_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    row_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    key_id: Mapped[str | None] = mapped_column(String(80), nullable=True)
    signature: Mapped[str | None] = mapped_column(Text, nullable=True)
    acknowledged: Mapped[Any] = mapped_column(JSON, nullable=True)


# Columns added after the first release: an older database gets them on open.
_ADDED_COLUMNS = {"kind": "VARCHAR(16) DEFAULT 'decision'", "refers_to": "INTEGER",
                  "target": "TEXT", "prev_hash": "VARCHAR(64)", "row_hash": "VARCHAR(64)",
                  "key_id": "VARCHAR(80)", "signature": "TEXT", "acknowledged": "JSON"}


_SQLITE_TRIGGERS = {
    "dgrr_approvals_no_update":
        "CREATE TRIGGER IF NOT EXISTS dgrr_approvals_no_update BEFORE UPDATE ON dgrr_approvals "
        "BEGIN SELECT RAISE(ABORT, 'dgrr approvals are append-only'); END",
    "dgrr_approvals_no_delete":
        "CREATE TRIGGER IF NOT EXISTS dgrr_approvals_no_delete BEFORE DELETE ON dgrr_approvals "
        "BEGIN SELECT RAISE(ABORT, 'dgrr approvals are append-only'); END",
    # An insert that names an id (SQLite gives NEW.id = -1 when it assigns the id) would
    # let INSERT OR REPLACE delete a row without firing the delete trigger.
    "dgrr_approvals_no_named_id":
        "CREATE TRIGGER IF NOT EXISTS dgrr_approvals_no_named_id BEFORE INSERT ON "
        "dgrr_approvals WHEN NEW.id IS NOT NULL AND NEW.id <> -1 BEGIN SELECT RAISE(ABORT, "
        "'dgrr approvals are append-only: an insert may not name an id'); END",
    "dgrr_approvals_chained":
        "CREATE TRIGGER IF NOT EXISTS dgrr_approvals_chained BEFORE INSERT ON dgrr_approvals "
        "WHEN NEW.prev_hash IS NOT COALESCE((SELECT row_hash FROM dgrr_approvals ORDER BY id "
        f"DESC LIMIT 1), '{GENESIS_HASH}') OR NEW.row_hash IS NULL BEGIN SELECT RAISE(ABORT, "
        "'dgrr approvals are append-only: a new row must chain to the last row (prev_hash)'); "
        "END",
}


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


def database_exists(url: str) -> bool:
    """Whether opening the database at `url` (:func:`db_url`'s form) finds it there:
    False only for a SQLite file that does not exist yet, which opening would create;
    True for every other database (a server's, SQLite in memory or by URI) and for a URL
    that is not one (opening it words the problem).

    >>> database_exists("sqlite:////nonexistent/dir/a.db"), database_exists("sqlite://")
    (False, True)
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        return True
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:" \
            or name.startswith("file:") or parsed.query.get("uri"):
        return True
    return Path(name).exists()


def sha256_json(data: Any) -> str:
    """sha256 of canonical JSON (sorted keys, no spaces, UTF-8)."""
    digest = hashlib.sha256()
    for piece in canonical_chunks(data):  # large data in pieces: the GIL is let go between
        digest.update(piece)
    return digest.hexdigest()


def _utc_text(value: datetime) -> str:
    if value.tzinfo is None:  # SQLite drops the zone; it was stored as UTC
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def row_hash(fields: Mapping[str, Any], prev_hash: str) -> str:
    """The chained hash of one row: sha256 of its content (everything but `id` and the
    hashes) and the previous row's hash."""
    content = {k: fields.get(k) for k in _HASHED}
    content["created_at"] = _utc_text(fields["created_at"])
    content["forced"] = bool(content["forced"])
    content["plan_edits"] = list(content["plan_edits"] or [])
    content["comment"] = content["comment"] or ""
    content["kind"] = content["kind"] or "decision"
    if fields.get("acknowledged"):
        content["acknowledged"] = list(fields["acknowledged"])
    return sha256_json({"prev_hash": prev_hash, "row": content})


_HASHED = ("kind", "case_id", "reviewer", "decision", "comment", "plan_edits", "forced",
           "inputs_sha256", "outputs_sha256", "model", "created_at", "refers_to", "target")

_T = TypeVar("_T")


def _has_control(value: str) -> bool:
    return any(unicodedata.category(c) in ("Cc", "Cf") for c in value)


class ApprovalStore:
    """Append-only, hash-chained approvals at a database URL (see :func:`db_url`).

    `busy_timeout` is how long (seconds) an insert waits for another writer's lock
    before it is retried (`retries` times, with a short random back-off).

    >>> store = ApprovalStore("sqlite://")
    >>> r = store.add(case_id="c1", reviewer="ana", decision="approve",
    ...               inputs_sha256="0" * 64, outputs_sha256="1" * 64)
    >>> [a.reviewer for a in store.history()]
    ['ana']
    >>> store.verify().ok
    True
    """

    def __init__(self, url: str | None = None, *, busy_timeout: float = 10.0,
                 retries: int = 5, keys: str | Path | None = None,
                 trust: str | Path | None = None, signed_only: bool = False) -> None:
        self.url = db_url(url)
        self.key_dir = keys
        """Folder of reviewers' private keys (default: $DGRR_KEYS, else ~/.dgrr/keys):
        a row is signed with its reviewer's key when there is one."""
        self.trust = trust
        """Trust file (default: $DGRR_TRUST, else ~/.dgrr/trusted_keys.json): when it
        exists, a decision is refused unless its reviewer can sign it."""
        self.signed_only = signed_only
        """Every row this store appends is signed with a key the trust file trusts for
        its reviewer, or refused before anything is written (a team dashboard's log)."""
        self.busy_timeout = busy_timeout
        self.retries = retries
        self.missing_triggers: list[str] = []
        """Append-only triggers an earlier open created that were found dropped."""
        self._checked: dict[int, tuple[bytes, bytes | None]] = {}
        """Row id -> (sha256 of the row's stored values when :meth:`verify` found its hash
        right, the fingerprint of the trust file its signature was found good under)."""
        try:
            shown = make_url(self.url).render_as_string(hide_password=True)
        except ArgumentError:
            shown = self.url
        self.shown_url = shown
        try:
            if self.url.startswith("sqlite:///") and not self.url.startswith("sqlite:///file:"):
                Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True,
                                                                       exist_ok=True)
            self.engine: Engine = create_engine(self.url)
        except ArgumentError as exc:
            raise DgrrError(f"--db: not a database URL '{shown}': {_first_line(exc)}") from None
        except ImportError as exc:
            raise DgrrError(f"--db: no database driver for '{shown}' ({exc.name or exc}); "
                            "install it or use a SQLite file") from None
        except OSError as exc:
            raise DgrrError(f"--db: cannot open approvals database '{shown}': "
                            f"{exc.strerror}") from None
        if self.engine.dialect.name == "sqlite":
            self._sqlite_setup()
        self._guard(self._create_schema)

    # -- setup ---------------------------------------------------------------------

    def _sqlite_setup(self) -> None:
        timeout_ms = int(self.busy_timeout * 1000)

        @event.listens_for(self.engine, "connect")
        def _connect(dbapi_conn: Any, record: Any) -> None:
            dbapi_conn.isolation_level = None  # transactions are begun below, not by pysqlite
            cur = dbapi_conn.cursor()
            cur.execute(f"PRAGMA busy_timeout = {timeout_ms}")
            cur.close()

        @event.listens_for(self.engine, "begin")
        def _begin(conn: Connection) -> None:
            # A writer takes the write lock before it reads the chain's last hash.
            write = conn.get_execution_options().get("dgrr_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    def _create_schema(self) -> None:
        had_table = inspect(self.engine).has_table(_ApprovalRow.__tablename__)
        if had_table:
            columns = {c["name"] for c in inspect(self.engine).get_columns(
                _ApprovalRow.__tablename__)}
            missing = [c for c in _ADDED_COLUMNS if c not in columns]
            if missing:
                with self.engine.begin() as conn:
                    for col in missing:
                        conn.execute(text(f"ALTER TABLE dgrr_approvals ADD COLUMN {col} "
                                          f"{_ADDED_COLUMNS[col]}"))
        else:
            _Base.metadata.create_all(self.engine)
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as conn:
                present = {r[0] for r in conn.execute(text(
                    "SELECT name FROM sqlite_master WHERE type = 'trigger'"))}
            if had_table:
                # Triggers of the first release (no-update, no-delete) are expected on any
                # existing table; the newer ones are added on open like the columns.
                old = ("dgrr_approvals_no_update", "dgrr_approvals_no_delete")
                self.missing_triggers = [t for t in old if t not in present]
            todo = [ddl for name, ddl in _SQLITE_TRIGGERS.items() if name not in present]
            if todo and not self.missing_triggers:
                with self.engine.begin() as conn:
                    for ddl in todo:
                        conn.execute(text(ddl))

    # -- errors and retries ----------------------------------------------------------

    def _guard(self, fn: Callable[[], _T], *, write: bool = False) -> _T:
        """Run `fn`; a locked database is retried; any database error becomes one line."""
        attempt = 0
        while True:
            try:
                return fn()
            except OperationalError as exc:
                if _is_locked(exc) and write and attempt < self.retries:
                    attempt += 1
                    time.sleep(random.uniform(0.02, 0.1) * attempt)
                    continue
                raise self._error(exc) from None
            except SQLAlchemyError as exc:
                raise self._error(exc) from None
            except ImportError as exc:
                raise DgrrError(f"--db: no database driver for '{self.shown_url}' "
                                f"({exc.name or exc}); install it or use a SQLite file"
                                ) from None

    def _error(self, exc: SQLAlchemyError) -> DgrrError:
        orig = getattr(exc, "orig", None)
        message = _first_line(orig if orig is not None else exc)
        if "append-only" in message or "chain" in message:
            return AppendOnlyError(message)
        low = message.lower()
        if "readonly" in low or "read-only" in low:
            message = "the database is read-only"
        elif _is_locked(exc):
            message = (f"the database is locked by another writer (waited "
                       f"{self.busy_timeout:g} s, retried {self.retries} times)")
        return DgrrError(f"approvals database '{self.shown_url}': {message}")

    # -- writing ---------------------------------------------------------------------

    def add(self, *, case_id: str, reviewer: str, decision: str, inputs_sha256: str,
            outputs_sha256: str, comment: str = "",
            plan_edits: Iterable[Mapping[str, Any]] = (), forced: bool = False,
            model: str | None = None, acknowledged: Iterable[str] = (),
            check: Callable[[list[ApprovalRecord]], None] | None = None) -> ApprovalRecord:
        """Append one decision; returns it as stored. `acknowledged`: the carrier ids the
        reviewer acknowledged (stored sorted, once each). `check` is called with the case's
        stored rows (newest first) under the write lock, just before the row is added, and
        refuses it by raising: two writers (a double click's two runs) can then never both
        pass a check of what is already recorded."""
        acknowledged = sorted(set(acknowledged))
        problems = _name_problems(reviewer=reviewer, case_id=case_id, model=model)
        if decision not in ("approve", "reject"):
            problems.append(f"decision: expected 'approve' or 'reject', got {decision!r}")
        for name, value in (("inputs_sha256", inputs_sha256), ("outputs_sha256", outputs_sha256)):
            if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
                problems.append(f"{name}: expected 64 hex digits, got {value!r}")
        # carrier ids are made of the case's ids, so they may hold any character a case
        # id may; they are escaped wherever they are shown
        bad = next((a for a in acknowledged if not isinstance(a, str) or not a.strip()
                    or len(a) > 4 * MAX_NAME), None)
        if bad is not None:
            problems.append(f"acknowledged: expected carrier ids (non-empty text of at most "
                            f"{4 * MAX_NAME} characters), got {str(bad)[:60]!r}")
        if forced and not comment.strip():
            problems.append("comment: an approval of a plan with overridden invariants needs "
                            "a comment")
        if problems:
            raise DgrrError("approval refused:\n" + "\n".join(f"  - {p}" for p in problems))
        return self._append(dict(kind="decision", case_id=case_id, reviewer=reviewer.strip(),
                                 decision=decision, comment=comment,
                                 plan_edits=[dict(e) for e in plan_edits], forced=forced,
                                 inputs_sha256=inputs_sha256, outputs_sha256=outputs_sha256,
                                 model=model, refers_to=None, target=None,
                                 **({"acknowledged": acknowledged} if acknowledged else {})),
                            check=check)

    def record_applied(self, approval_id: int, *, reviewer: str, target: str,
                       outputs_sha256: str | None = None, comment: str = "",
                       kind: Literal["applied", "intent", "rolled-back"] = "applied",
                       signed: bool = False) -> ApprovalRecord:
        """Append an `applied` event: the approved repair #`approval_id` was applied to
        `target` (e.g. a memory store URL) by `reviewer`. The event copies the approval's
        case id, model and input hash; `outputs_sha256` is the digest of what was applied
        (default: the approval's). Refused unless `approval_id` is an `approve` decision.
        `kind` records the apply's `intent` (before its first write) or its
        `rolled-back` end instead. `signed`: refused unless `reviewer` has a key the trust
        file trusts (when there is one), as a decision is; a `rolled-back` row always is.
        """
        problems = _name_problems(reviewer=reviewer)
        if not target or not target.strip():
            problems.append("target: where the repair was applied is required")
        elif _has_control(target):
            problems.append("target: control characters are not allowed")
        if outputs_sha256 is not None and (len(outputs_sha256) != 64 or any(
                c not in "0123456789abcdef" for c in outputs_sha256)):
            problems.append(f"outputs_sha256: expected 64 hex digits, got {outputs_sha256!r}")
        if problems:
            raise DgrrError("applied event refused:\n" + "\n".join(f"  - {p}" for p in problems))
        found = self.find(id=approval_id, kind=None)
        if not found:
            raise DgrrError(f"applied event refused: no approval #{approval_id}")
        approval = found[0]
        if approval.kind != "decision" or approval.decision != "approve":
            raise DgrrError(f"applied event refused: #{approval_id} is not an approval "
                            f"({approval.kind} {approval.decision})")
        return self._append(dict(kind=kind, case_id=approval.case_id,
                                 reviewer=reviewer.strip(), decision="approve",
                                 comment=comment, plan_edits=[], forced=approval.forced,
                                 inputs_sha256=approval.inputs_sha256,
                                 outputs_sha256=outputs_sha256 or approval.outputs_sha256,
                                 model=approval.model, refers_to=approval_id,
                                 target=target.strip()),
                            signed=signed or kind == "rolled-back")

    def record_rule(self, rule: Mapping[str, Any], *, reviewer: str) -> ApprovalRecord:
        """Append a change of the review rule (`rule`, JSON data), signed by `reviewer`,
        whom the trust file must name as an administrator (refused otherwise, before
        anything is written)."""
        problems = _name_problems(reviewer=reviewer)
        if problems:
            raise DgrrError("rule change refused:\n" + "\n".join(f"  - {p}" for p in problems))
        digest = sha256_json(dict(rule))
        return self._append(dict(kind="rule", case_id=RULE_CASE, reviewer=reviewer.strip(),
                                 decision="approve",
                                 comment=json.dumps(dict(rule), sort_keys=True),
                                 plan_edits=[], forced=False, inputs_sha256=digest,
                                 outputs_sha256=digest, model=None, refers_to=None,
                                 target=None))

    def record_override(self, case_id: str, *, reviewer: str, target: str, comment: str,
                        refers_to: int | None = None) -> ApprovalRecord:
        """Append an `override` row: `reviewer` wrote over store slots that had changed
        since the apply planned them (`comment` lists them)."""
        problems = _name_problems(reviewer=reviewer, case_id=case_id)
        if problems:
            raise DgrrError("override refused:\n" + "\n".join(f"  - {p}" for p in problems))
        digest = sha256_json(comment)
        return self._append(dict(kind="override", case_id=case_id, reviewer=reviewer.strip(),
                                 decision="approve", comment=comment, plan_edits=[],
                                 forced=False, inputs_sha256=digest, outputs_sha256=digest,
                                 model=None, refers_to=refers_to, target=target.strip()))

    def _signer(self, reviewer: str, kind: str, signed: bool = False) -> Any:
        if self.signed_only:
            from ._keys import TrustFile, key_dir, trust_path

            # rule approval.team-rows-signed: no unsigned row, and none a trust file
            # could not check
            trust_file = TrustFile.load(self.trust, missing_ok=True)
            if trust_file is None:
                raise DgrrError(
                    f"{_ROW_WHAT.get(kind, 'applied event')} refused: this log records "
                    f"only signed rows and there is no trust file at "
                    f"{trust_path(self.trust)} to check them against; nothing recorded")
            signer = row_signer(reviewer, kind, keys=self.key_dir, trust=self.trust,
                                signed=True)
            if signer is None:
                raise DgrrError(
                    f"{_ROW_WHAT.get(kind, 'applied event')} refused: this log records "
                    f"only signed rows and reviewer {reviewer[:200]!r} has no key in "
                    f"{key_dir(self.key_dir)} that {trust_file.path} trusts; nothing "
                    "recorded")
            return signer
        return row_signer(reviewer, kind, keys=self.key_dir, trust=self.trust, signed=signed)

    def _append(self, fields: dict[str, Any],
                check: Callable[[list[ApprovalRecord]], None] | None = None,
                signed: bool = False) -> ApprovalRecord:
        signer = self._signer(fields["reviewer"], fields["kind"], signed)

        def attempt() -> ApprovalRecord:
            with self.engine.connect() as conn:
                conn = conn.execution_options(dgrr_write=True)
                with conn.begin():
                    if self.engine.dialect.name == "postgresql":
                        conn.execute(text("LOCK TABLE dgrr_approvals IN EXCLUSIVE MODE"))
                    if check is not None:
                        check([self._record(dict(r)) for r in conn.execute(
                            _raw_select().where(_ApprovalRow.case_id == fields["case_id"])
                            .order_by(_ApprovalRow.id.desc())).mappings()])
                    last = conn.execute(select(_ApprovalRow.row_hash)
                                        .order_by(_ApprovalRow.id.desc()).limit(1)).first()
                    prev = (last[0] if last is not None else None) or GENESIS_HASH
                    row = {**fields, "created_at": datetime.now(UTC), "prev_hash": prev}
                    row["row_hash"] = row_hash(row, prev)
                    if signer is not None:
                        row["key_id"] = signer.key_id
                        row["signature"] = signer.sign(row_message(row["row_hash"]))
                    key = conn.execute(insert(_ApprovalRow).values(**row)).inserted_primary_key
                    new_id = int(key[0]) if key is not None else 0
            return ApprovalRecord(id=new_id, **{**row, "created_at": _as_utc(row["created_at"])})

        return self._guard(attempt, write=True)

    # -- reading ---------------------------------------------------------------------

    def history(self, case_id: str | None = None, limit: int | None = None
                ) -> list[ApprovalRecord]:
        """Stored rows (decisions and applied events), newest first (optionally for one
        case)."""
        query = _raw_select().order_by(_ApprovalRow.id.desc())
        if case_id is not None:
            query = query.where(_ApprovalRow.case_id == case_id)
        if limit is not None:
            query = query.limit(limit)
        return self._guard(lambda: self._rows(query))

    def find(self, *, case_id: str | None = None, reviewer: str | None = None,
             decision: str | None = None, inputs_sha256: str | None = None,
             outputs_sha256: str | None = None, kind: str | None = "decision",
             refers_to: int | None = None, id: int | None = None  # noqa: A002
             ) -> list[ApprovalRecord]:
        """Rows matching every given field, newest first; `kind` defaults to decisions
        (pass `kind=None` for every kind). E.g. whether this reviewer already approved
        this case with these input and output digests::

            store.find(case_id=cid, reviewer=who, decision="approve",
                       inputs_sha256=inputs, outputs_sha256=outputs) != []
        """
        query = _raw_select().order_by(_ApprovalRow.id.desc())
        for column, value in ((_ApprovalRow.case_id, case_id),
                              (_ApprovalRow.reviewer, reviewer.strip() if reviewer else reviewer),
                              (_ApprovalRow.decision, decision),
                              (_ApprovalRow.inputs_sha256, inputs_sha256),
                              (_ApprovalRow.outputs_sha256, outputs_sha256),
                              (_ApprovalRow.kind, kind), (_ApprovalRow.refers_to, refers_to),
                              (_ApprovalRow.id, id)):
            if value is not None:
                query = query.where(column == value)
        return self._guard(lambda: self._rows(query))

    def _rows(self, query: Any) -> list[ApprovalRecord]:
        with self.engine.connect() as conn:
            return [self._record(dict(r)) for r in conn.execute(query).mappings()]

    def _record(self, raw: dict[str, Any]) -> ApprovalRecord:
        try:
            return _record(raw)
        except _Malformed as exc:
            raise DgrrError(f"approvals database '{self.shown_url}': row #{raw.get('id')} is "
                            f"malformed ({exc}); the file was changed outside dgrr "
                            "(`dgrr history --verify`)") from None

    def verify(self, trust: Any = None, against: Any = None) -> ChainCheck:
        """Recompute the hash chain in id order; the first row that does not match its
        hash or does not chain to the previous row, or dropped append-only triggers.

        With `trust` (a :class:`~._keys.TrustFile`) every row must also carry a signature
        of its hash by a key the trust file trusts for the row's reviewer, so a row forged
        or re-chained by someone without the reviewers' keys fails. With `against` (a
        :class:`~._checkpoint.Checkpoint`, already verified) the log must still hold the
        checkpoint's row with the checkpoint's hash: deleted newest rows, an emptied log
        and an older copy of the file put in its place are detected.

        Every row is read again on every call. A row whose stored values, every column
        of it, are those of a row this store object has already checked (the sha256 of
        what was read, see :func:`_stored_digest`) keeps that check's verdict: its hash
        and, under a trust file with the same keys, its signature are not computed again
        (rule `approval.verify-memo`). Whether it chains to the row before it, the
        checkpoint and the triggers are checked on every call.
        """
        def check() -> ChainCheck:
            prev = GENESIS_HASH
            n = 0
            last_id = None
            unsigned_applied = 0
            at_checkpoint: str | None = None
            trust_keys = trust.fingerprint() if isinstance(trust, TrustFile) else None
            checked = self._checked
            with self.engine.connect() as conn:
                result = conn.execute(_raw_select().order_by(_ApprovalRow.id))
                names = tuple(result.keys())
                for values in result:
                    n += 1
                    data = dict(zip(names, values, strict=True))
                    rid: int = data["id"]  # an integer primary key (SQLite: the rowid)
                    last_id = rid
                    stored = _stored_digest(values)
                    known = checked.get(rid)
                    if known is not None and known[0] == stored:
                        problem = None if data["prev_hash"] == prev else _UNCHAINED
                    else:
                        known = None
                        problem = _chain_problem(data, prev)
                    if problem is not None:
                        return ChainCheck(ok=False, rows=n, first_broken=rid, reason=problem)
                    if known is None:
                        known = checked[rid] = (stored, None)
                    kind = data.get("kind")
                    unsigned_event = (kind in UNSIGNED_KINDS and not data.get("key_id")
                                      and not data.get("signature"))
                    if trust is not None and unsigned_event:
                        unsigned_applied += 1
                    elif trust is not None and (trust_keys is None or known[1] != trust_keys):
                        reviewer = str(data["reviewer"])
                        problem = trust.check(reviewer, data.get("key_id"),
                                              row_message(data["row_hash"]),
                                              data.get("signature"))
                        if problem is None and kind == "rule" and not \
                                trust.is_admin(reviewer, data.get("key_id")):
                            problem = ("a change of the review rule signed with a key the "
                                       "trust file does not name as an administrator's")
                        if problem is not None:
                            return ChainCheck(ok=False, rows=n, first_broken=rid,
                                              reason=problem)
                        if trust_keys is not None:
                            checked[rid] = (stored, trust_keys)
                    prev = data["row_hash"]
                    if against is not None and n == against.rows:
                        at_checkpoint = prev
                missing = self.missing_triggers or self._dropped_triggers(conn)
            if missing:
                return ChainCheck(ok=False, rows=n, head=prev, reason=(
                    "append-only triggers were dropped: " + ", ".join(missing)))
            if against is not None:
                if n < against.rows:
                    return ChainCheck(ok=False, rows=n, head=prev if n else None, reason=(
                        f"the log has {n} rows but the checkpoint of {against.created_at} "
                        f"recorded {against.rows} (head {against.head}): rows were deleted "
                        "or the file was replaced by an older copy"))
                if at_checkpoint != against.head:
                    return ChainCheck(ok=False, rows=n, head=prev, reason=(
                        f"row {against.rows} of the log has hash {at_checkpoint} but the "
                        f"checkpoint of {against.created_at} recorded {against.head}: the "
                        "log was rewritten or replaced since the checkpoint"))
            return ChainCheck(ok=True, rows=n, head=prev if n else None, last_id=last_id,
                              signed=trust is not None, checkpoint=against is not None,
                              unsigned_applied=unsigned_applied)

        return self._guard(check)

    def _dropped_triggers(self, conn: Connection) -> list[str]:
        """The append-only triggers missing now (SQLite; none elsewhere): dropped since
        this store opened the database."""
        if self.engine.dialect.name != "sqlite":
            return []
        present = {r[0] for r in conn.execute(text(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'"))}
        return [name for name in _SQLITE_TRIGGERS if name not in present]

    def close(self) -> None:
        self.engine.dispose()


def row_signer(reviewer: str, kind: str, *, keys: str | Path | None = None,
               trust: str | Path | None = None, signed: bool = False) -> Any:
    """The key that signs a `kind` row by `reviewer` (None: the row is unsigned), or a
    refusal (DgrrError) of the row before anything is written: the one rule for who may
    sign what. When a trust file exists every row but an `applied` event must be signed
    by a key it trusts for its reviewer; a `rule` row needs an administrator's key, and
    an `override` row (writing over a store slot someone changed since the apply
    planned it: their write is lost) needs a trust file and a trusted key even when
    nothing else does. An `applied` or `intent` row may go unsigned unless `signed` (a
    resume's `applied` row is signed like a decision)."""
    from ._keys import TrustFile, key_dir, load_signer, trust_path

    signer = load_signer(reviewer, keys)
    trust_file = TrustFile.load(trust, missing_ok=True)
    what = _ROW_WHAT.get(kind, "applied event")
    optional = kind in UNSIGNED_KINDS and not signed
    if kind == "rule" and (trust_file is None or signer is None
                           or not trust_file.is_admin(signer.reviewer, signer.key_id)):
        where = trust_file.path if trust_file is not None else trust_path(trust)
        raise DgrrError(
            f"{what} refused: {reviewer[:60]!r} is not an administrator: the review rule "
            f"is changed only with a key that the trust file ({where}) lists with "
            "\"admin\": true (dgrr keys generate --reviewer NAME --admin); nothing "
            "recorded")
    if kind == "override" and trust_file is None:
        raise DgrrError(
            f"{what} refused: writing over a slot someone changed since the apply planned "
            "it discards their write, so it needs a signed approval, and there is no trust "
            f"file at {trust_path(trust)} to check a signature against; create a key for "
            f"reviewer {reviewer[:60]!r} and trust it with `dgrr keys generate --reviewer "
            "NAME` (or name a trust file with --trust / $DGRR_TRUST; docs/approvals.md); "
            "nothing written")
    if trust_file is None:
        return signer
    if signer is None and not optional:
        raise DgrrError(
            f"{what} refused: reviewer {reviewer[:60]!r} has no signing key in "
            f"{key_dir(keys)} and a trust file is in use, so an unsigned {what} "
            "would never be honoured; create one with `dgrr keys generate --reviewer "
            "NAME` (docs/approvals.md); nothing written")
    if signer is not None and not trust_file.trusts(signer.reviewer, signer.key_id):
        if optional:
            return None  # it authorises nothing: recorded, unsigned, as such
        raise DgrrError(
            f"{what} refused: the key of reviewer {reviewer[:60]!r} ({signer.key_id}) is "
            f"not in the trust file {trust_file.path}, so the row would fail verification "
            "and stop every approval in the log from being honoured; nothing recorded "
            "(dgrr keys trust --reviewer NAME --public-key …)")
    return signer


def _name_problems(**names: str | None) -> list[str]:
    problems = []
    for field, value in names.items():
        if value is None and field == "model":
            continue
        if not value or not value.strip():
            problems.append(f"{field}: required" if field != "reviewer"
                            else "reviewer: a reviewer name is required")
        elif len(value) > MAX_NAME:
            problems.append(f"{field}: at most {MAX_NAME} characters, got {len(value)}")
        elif field == "reviewer" and _has_control(value):
            problems.append("reviewer: control characters are not allowed in a name")
    return problems


def _is_locked(exc: BaseException) -> bool:
    low = str(getattr(exc, "orig", exc)).lower()
    return "locked" in low or "busy" in low


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else exc.__class__.__name__


def _as_utc(created: datetime) -> datetime:
    return created.replace(tzinfo=UTC) if created.tzinfo is None else created


class _Malformed(ValueError):
    """A stored row whose values dgrr never writes (the file was edited)."""


def _raw_select() -> Any:
    """Every column, without SQLAlchemy's result processing: a malformed value (a time
    that is not one, JSON that is not JSON) reaches :func:`_row_fields` as stored."""
    return select(*[literal_column(c.name) for c in _ApprovalRow.__table__.columns]
                  ).select_from(_ApprovalRow.__table__)


_UNCHAINED = "does not chain to the previous row (a row before it was deleted or replaced)"


def _chain_problem(data: Mapping[str, Any], prev: str) -> str | None:
    """Why the stored row `data` does not verify as the row after the one whose hash is
    `prev` (its signature aside); None when it does."""
    try:
        fields = _row_fields(data)
    except _Malformed as exc:
        return f"the row is malformed ({exc})"
    if data["row_hash"] is None:
        return "recorded before the hash chain existed; it cannot be verified"
    if data["prev_hash"] != prev:
        return _UNCHAINED
    if row_hash(fields, prev) != data["row_hash"]:
        return "its content does not match its hash (the row was changed)"
    return None


def _stored_digest(values: Iterable[Any]) -> bytes:
    """sha256 of a row's stored values as read (every column, in the select's order):
    equal only for rows whose every value is the same (`repr` tells text from numbers
    and None, and quotes text unambiguously)."""
    return hashlib.sha256(repr(tuple(values)).encode("utf-8", "backslashreplace")).digest()


def row_message(hash_hex: str) -> bytes:
    """What a reviewer's key signs for one row: a domain tag and the row's chained hash."""
    return f"dgrr.approval-row/v1\n{hash_hex}".encode("ascii")


def _text(data: Mapping[str, Any], name: str, *, optional: bool = False) -> str | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _Malformed(f"{name}: expected text, got {type(value).__name__}")
    return value


def _row_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The stored row's fields as Python values; :class:`_Malformed` naming the field."""
    out: dict[str, Any] = {}
    for name in ("case_id", "reviewer", "inputs_sha256", "outputs_sha256"):
        out[name] = _text(data, name)
    for name in ("model", "target", "comment", "kind"):
        out[name] = _text(data, name, optional=True)
    for name in ("row_hash", "prev_hash", "key_id", "signature"):
        _text(data, name, optional=True)
    decision = data.get("decision")
    if decision not in ("approve", "reject"):
        raise _Malformed(f"decision: expected 'approve' or 'reject', got {str(decision)[:40]!r}")
    out["decision"] = decision
    if (out["kind"] or "decision") not in EVENT_KINDS:
        raise _Malformed(f"kind: expected one of {', '.join(EVENT_KINDS)}, got "
                         f"{out['kind'][:40]!r}")
    created: Any = data.get("created_at")
    if isinstance(created, str):
        try:
            created = datetime.fromisoformat(created)
        except ValueError:
            raise _Malformed(f"created_at: not a time: {data['created_at'][:40]!r}") from None
    if not isinstance(created, datetime):
        raise _Malformed(f"created_at: not a time ({type(created).__name__})")
    out["created_at"] = created
    edits = data.get("plan_edits")
    if isinstance(edits, str | bytes):
        try:
            edits = json.loads(edits)
        except ValueError:
            raise _Malformed("plan_edits: not JSON") from None
    if edits is None:
        edits = []
    if not isinstance(edits, list) or not all(isinstance(e, dict) for e in edits):
        raise _Malformed("plan_edits: expected a list of objects")
    out["plan_edits"] = edits
    forced = data.get("forced")
    if forced not in (None, 0, 1, True, False):
        raise _Malformed(f"forced: expected a boolean, got {str(forced)[:20]!r}")
    out["forced"] = bool(forced)
    refers = data.get("refers_to")
    if refers is not None and (not isinstance(refers, int) or isinstance(refers, bool)):
        raise _Malformed("refers_to: expected a row id")
    out["refers_to"] = refers
    acknowledged = data.get("acknowledged")
    if isinstance(acknowledged, str | bytes):
        try:
            acknowledged = json.loads(acknowledged)
        except ValueError:
            raise _Malformed("acknowledged: not JSON") from None
    if acknowledged is None:
        acknowledged = []
    if not isinstance(acknowledged, list) or not all(isinstance(a, str) for a in acknowledged):
        raise _Malformed("acknowledged: expected a list of carrier ids")
    out["acknowledged"] = acknowledged
    return out


def _record(raw: Mapping[str, Any]) -> ApprovalRecord:
    f = _row_fields(raw)
    rid = raw.get("id")
    if not isinstance(rid, int):
        raise _Malformed("id: expected a whole number")
    return ApprovalRecord(id=rid, case_id=f["case_id"], reviewer=f["reviewer"],
                          decision=f["decision"], comment=f["comment"] or "",
                          plan_edits=f["plan_edits"], forced=f["forced"],
                          inputs_sha256=f["inputs_sha256"], outputs_sha256=f["outputs_sha256"],
                          model=f["model"], created_at=_as_utc(f["created_at"]),
                          kind=f["kind"] or "decision", refers_to=f["refers_to"],
                          target=f["target"], prev_hash=raw.get("prev_hash") or GENESIS_HASH,
                          row_hash=raw.get("row_hash"), key_id=raw.get("key_id"),
                          signature=raw.get("signature"), acknowledged=f["acknowledged"])
