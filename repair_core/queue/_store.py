"""The repair-request queue: tables in the approvals database (SQLAlchemy; SQLite for one
user, PostgreSQL for a team) and the transitions a request goes through.

    pending ──claim──▶ claimed ──decide──▶ approved ──worker──▶ applied
       ▲                  │                   │
       └────release───────┘                   └───────────────▶ failed
                          └──decide──▶ rejected

Every transition is one conditional write (`UPDATE … WHERE status = <expected>`), so two
reviewers racing for one request, or two workers for one approved repair, can never both
win: the loser's update changes no row and is told who holds it. Taking the next pending
request uses `SELECT … FOR UPDATE SKIP LOCKED` on PostgreSQL (racing reviewers are handed
different requests instead of queueing on one) and an immediate transaction on SQLite.
Each transition is also appended to `dgrr_repair_events` (who, when, from, to, note); a
decision links to its row in the hash-chained approvals log (`decision_id`), and an
applied repair to its `applied` event there (`applied_id`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .._errors import DgrrError
from ..approvals._keys import TrustFile
from ..approvals._reviewer import reviewer_key, same_reviewer
from ..approvals._rules import ReviewRule, review_rule
from ..approvals._store import ApprovalStore, _has_control

__all__ = [
    "Objective",
    "ReviewRule",
    "reviewer_label",
    "RepairQueue",
    "RepairRequest",
    "RequestEvent",
    "RequestStatus",
    "QueueError",
    "STATUSES",
    "TERMINAL",
]

RequestStatus = Literal["pending", "claimed", "approved", "rejected", "applied", "failed"]
Objective = Literal["answer", "store", "both"]
STATUSES: tuple[RequestStatus, ...] = ("pending", "claimed", "approved", "rejected",
                                       "applied", "failed")
TERMINAL: frozenset[str] = frozenset({"rejected", "applied", "failed"})
"""Statuses a request never leaves."""
MAX_NAME = 200
_MAX_IDENTITY = 120  # issuer#subject recorded whole up to this length, else its digest
_CLAIM_WINDOW = 50
"""Pending requests looked at per claim of "the next one" (those the reviewer already
approved are passed over)."""


class QueueError(DgrrError):
    """A transition the request's current status does not allow (or a lost race)."""


class RepairRequest(BaseModel):
    """One suspected fault handed to the review queue, as stored."""

    id: int
    """Request number, increasing in submission order."""
    status: RequestStatus
    """Where the request is: pending, claimed, approved, rejected, applied or failed."""
    case_id: str
    """The case's id (`dgrr.case/v1`)."""
    agent: str = ""
    """The agent (or service) the trace came from."""
    user_id: str = ""
    """The user whose memory is concerned (the case's `user_id`)."""
    faults: list[str] = Field(default_factory=list)
    """Ids of the diagnosed faults (records, observations, documents, turns)."""
    fault_kinds: list[str] = Field(default_factory=list)
    """What each fault is (memory_record, tool_observation, …), in `faults` order."""
    diagnosed_by: str
    """Who or what diagnosed the faults (a detector's name, an operator)."""
    objective: Objective = "both"
    """What the repair must serve: the answer, the store a later session reads, or both."""
    store_target: dict[str, str] | None = None
    """Where an approved repair is written back: {"to": "langgraph"|"mem0", "store": SPEC},
    as `dgrr apply --to/--store` take them; None: nothing to write back."""
    source: str = ""
    """Where the case came from (a trace file, an export id), for the reviewer."""
    created_at: datetime
    """When it was submitted (UTC)."""
    updated_at: datetime
    """When its status last changed (UTC)."""
    claimed_by: str | None = None
    """The reviewer holding (or who last held) the request."""
    claimed_at: datetime | None = None
    """When it was claimed."""
    decided_by: str | None = None
    """The reviewer who approved or rejected it."""
    decision_id: int | None = None
    """The decision's row in the approvals log (the last one, when several were needed)."""
    approved_by: list[dict[str, Any]] = Field(default_factory=list)
    """Approvals so far: {"reviewer", "decision_id"} each, in order (a request that needs
    two reviewers goes back to pending after the first)."""
    needed: int = 1
    """How many different reviewers must approve (see :class:`ReviewRule`)."""
    worker: str | None = None
    """The worker applying (or that applied) the approved repair."""
    applied_id: int | None = None
    """The `applied` event's row in the approvals log."""
    error: str | None = None
    """Why applying failed (the store's refusal), for a failed request."""

    @property
    def terminal(self) -> bool:
        """True once the request can no longer change (rejected, applied, failed)."""
        return self.status in TERMINAL


class RequestEvent(BaseModel):
    """One status change of a request (append-only)."""

    id: int
    """Event number."""
    request_id: int
    """The request."""
    at: datetime
    """When (UTC)."""
    actor: str
    """Who made the change (submitter, reviewer or worker)."""
    from_status: str | None
    """Status before (None for the submission)."""
    to_status: str
    """Status after."""
    note: str = ""
    """Why, or what came of it."""


def reviewer_label(*, issuer: str, subject: str, email: str) -> str:
    """How a reviewer signed in through OpenID Connect is recorded: the provider's e-mail
    (lower-cased, so one person's label does not change with how the provider spells it),
    then the issuer and subject whole, which is what makes two reviewers different. When
    the label would be longer than a name may be, the e-mail is shortened; issuer and
    subject longer than 120 characters are recorded as their SHA-256, never cut.

    >>> reviewer_label(issuer="https://id.example", subject="42", email="Ana@Example.org")
    'ana@example.org <oidc:https://id.example#42>'
    """
    if not subject:
        raise DgrrError("sign-in: the identity provider gave no subject ('sub') claim")
    who = f"{issuer}#{subject}"
    identity = (f"oidc:{who}" if len(who) <= _MAX_IDENTITY else
                f"oidc-sha256:{hashlib.sha256(who.encode()).hexdigest()}")
    shown = email.lower() or "(no e-mail)"
    room = MAX_NAME - len(identity) - 3
    if len(shown) > room:
        shown = shown[:room - 1] + "…"
    return f"{shown} <{identity}>"


class _Base(DeclarativeBase):
    pass


class _SettingRow(_Base):
    __tablename__ = "dgrr_queue_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_by: Mapped[str] = mapped_column(String(MAX_NAME))


class _RequestRow(_Base):
    __tablename__ = "dgrr_repair_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    case_id: Mapped[str] = mapped_column(String(MAX_NAME))
    agent: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    user_id: Mapped[str] = mapped_column(String(MAX_NAME), default="")
    faults: Mapped[list[str]] = mapped_column(JSON)
    fault_kinds: Mapped[list[str]] = mapped_column(JSON)
    diagnosed_by: Mapped[str] = mapped_column(String(MAX_NAME))
    objective: Mapped[str] = mapped_column(String(16))
    store_target: Mapped[dict[str, str] | None] = mapped_column(JSON(none_as_null=True),
                                                              nullable=True)
    source: Mapped[str] = mapped_column(Text, default="")
    case_json: Mapped[str] = mapped_column(Text)
    result_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_by: Mapped[str | None] = mapped_column(String(MAX_NAME), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(MAX_NAME), nullable=True)
    decision_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    approved_by: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    needed: Mapped[int] = mapped_column(Integer, default=1)
    worker: Mapped[str | None] = mapped_column(String(MAX_NAME), nullable=True)
    worker_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    applied_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class _EventRow(_Base):
    __tablename__ = "dgrr_repair_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    request_id: Mapped[int] = mapped_column(Integer, index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(MAX_NAME))
    from_status: Mapped[str | None] = mapped_column(String(16), nullable=True)
    to_status: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(Text, default="")


_PUBLIC = [c for c in RepairRequest.model_fields]
_PUBLIC_COLUMNS = [getattr(_RequestRow, c) for c in _PUBLIC]


def _utc(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:  # SQLite drops the zone; stored as UTC
        return value.replace(tzinfo=UTC)
    return value


def _request(row: Any) -> RepairRequest:
    data = {name: getattr(row, name) for name in _PUBLIC}
    for name in ("created_at", "updated_at", "claimed_at"):
        data[name] = _utc(data[name])
    return RepairRequest.model_validate(data)


def _name(field: str, value: str | None, *, required: bool = True) -> str:
    text = (value or "").strip()
    if required and not text:
        raise DgrrError(f"{field}: required (who or what it is)")
    if len(text) > MAX_NAME:
        raise DgrrError(f"{field}: at most {MAX_NAME} characters, got {len(text)}")
    if _has_control(text):
        raise DgrrError(f"{field}: control characters are not allowed")
    return text


class RepairQueue:
    """Repair requests in the approvals database at `url` (see
    :func:`repair_core.approvals.db_url`; default `$DGRR_DB`, else `~/.dgrr/approvals.db`).

    >>> q = RepairQueue("sqlite://")
    >>> from repair_core import load_example
    >>> r = q.submit(load_example(), ["m3"], diagnosed_by="detector", agent="travel-bot")
    >>> (r.status, r.faults, r.fault_kinds)
    ('pending', ['m3'], ['memory_record'])
    >>> q.claim(reviewer="ana").id == r.id
    True
    >>> q.claim(reviewer="bo") is None  # nothing else is pending
    True
    """

    def __init__(self, url: str | None = None, *, approvals: ApprovalStore | None = None
                 ) -> None:
        self.approvals = approvals if approvals is not None else ApprovalStore(url)
        self.engine = self.approvals.engine
        self.url = self.approvals.url
        self.shown_url = self.approvals.shown_url
        self.approvals._guard(lambda: _Base.metadata.create_all(self.engine), write=True)

    def close(self) -> None:
        self.approvals.close()

    # -- writing ---------------------------------------------------------------------

    def _write(self, fn: Any) -> Any:
        """Run `fn(conn)` in one write transaction (SQLite: BEGIN IMMEDIATE), retried while
        the database is locked by another writer."""
        def attempt() -> Any:
            with self.engine.connect() as conn:
                conn = conn.execution_options(dgrr_write=True)
                with conn.begin():
                    return fn(conn)

        return self.approvals._guard(attempt, write=True)

    @staticmethod
    def _event(conn: Connection, request_id: int, actor: str, before: str | None,
               after: str, note: str = "", at: datetime | None = None) -> None:
        conn.execute(insert(_EventRow).values(
            request_id=request_id, at=at or datetime.now(UTC), actor=actor,
            from_status=before, to_status=after, note=note))

    def submit(self, case: Any, faults: Iterable[str], *, diagnosed_by: str,
               objective: Objective = "both", agent: str = "",
               store_target: Mapping[str, str] | None = None, source: str = ""
               ) -> RepairRequest:
        """Queue `case` (a :class:`~repair_core.Case`) with the diagnosed `faults` for
        review. The faults are checked against the case now: an unknown id is refused."""
        from ..case._load import with_faults

        fault_ids = [str(f) for f in faults]
        if not fault_ids:
            raise DgrrError("faults: at least one diagnosed fault is required")
        case = with_faults(case, fault_ids)
        kinds = [_fault_kind(case, f) for f in fault_ids]
        who = _name("diagnosed_by", diagnosed_by)
        agent_name = _name("agent", agent, required=False)
        if objective not in ("answer", "store", "both"):
            raise DgrrError(f"objective: expected answer, store or both, got {objective!r}")
        target = dict(store_target) if store_target else None
        if target is not None:
            if target.get("to") not in ("langgraph", "mem0") or not str(
                    target.get("store", "")).strip():
                raise DgrrError("store_target: expected {'to': 'langgraph'|'mem0', "
                                f"'store': SPEC}}, got {target!r}")
            target = {"to": str(target["to"]), "store": str(target["store"])}
        case_json = case.model_dump_json(exclude_none=True)
        now = datetime.now(UTC)

        def do(conn: Connection) -> int:
            key = conn.execute(insert(_RequestRow).values(
                status="pending", case_id=case.case_id, agent=agent_name,
                user_id=case.user_id or "", faults=fault_ids, fault_kinds=kinds,
                diagnosed_by=who, objective=objective, store_target=target,
                source=source, case_json=case_json, created_at=now, updated_at=now,
            )).inserted_primary_key
            rid = int(key[0]) if key is not None else 0
            self._event(conn, rid, who, None, "pending", f"faults: {', '.join(fault_ids)}", now)
            return rid

        return self.get(self._write(do))

    def _move(self, request_id: int, *, actor: str, allowed: Iterable[str], to: str,
              note: str = "", values: Mapping[str, Any] | None = None,
              holder: str | None = None) -> RepairRequest:
        """One conditional transition: `request_id` moves to `to` only while its status is
        in `allowed` (and, with `holder`, while `holder` holds the claim)."""
        allowed = tuple(allowed)
        now = datetime.now(UTC)

        def do(conn: Connection) -> tuple[bool, str | None]:
            before = conn.execute(select(_RequestRow.status).where(
                _RequestRow.id == request_id)).scalar_one_or_none()
            cond = [_RequestRow.id == request_id, _RequestRow.status.in_(allowed)]
            if holder is not None:
                cond.append(_RequestRow.claimed_by == holder)
            changed = conn.execute(update(_RequestRow).where(*cond).values(
                status=to, updated_at=now, **dict(values or {}))).rowcount
            if changed == 1:
                self._event(conn, request_id, actor, before, to, note, now)
            return changed == 1, before

        ok, before = self._write(do)
        if not ok:
            current = self.find(request_id)
            if current is None:
                raise QueueError(f"request #{request_id}: no such request")
            if holder is not None and current.status in allowed:
                raise QueueError(f"request #{request_id}: claimed by {current.claimed_by}, "
                                 f"not {holder}")
            raise QueueError(f"request #{request_id}: is {current.status}"
                             + (f" (by {current.claimed_by})" if current.status == "claimed"
                                else "")
                             + f"; expected {' or '.join(allowed)}")
        return self.get(request_id)

    def claim(self, request_id: int | None = None, *, reviewer: str) -> RepairRequest | None:
        """Claim request `request_id` (or the oldest pending one) for `reviewer`. Only one
        reviewer ever holds a request: a claim of a request someone else holds raises
        :class:`QueueError`; with no id, None when nothing is pending."""
        who = _name("reviewer", reviewer)
        now = datetime.now(UTC)
        if request_id is not None:
            current = self.get(request_id)
            if any(same_reviewer(a["reviewer"], who) for a in current.approved_by):
                raise QueueError(f"request #{request_id}: {who} already approved it; it needs "
                                 "a different reviewer")
            return self._move(request_id, actor=who, allowed=("pending",), to="claimed",
                              values={"claimed_by": who, "claimed_at": now})

        def take(conn: Connection) -> int | None:
            query = (select(_RequestRow.id, _RequestRow.approved_by)
                     .where(_RequestRow.status == "pending").order_by(_RequestRow.id)
                     .limit(_CLAIM_WINDOW))
            if self.engine.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            rid = next((r.id for r in conn.execute(query)
                        if not any(same_reviewer(a["reviewer"], who)
                                   for a in (r.approved_by or []))), None)
            if rid is None:
                return None
            changed = conn.execute(update(_RequestRow).where(
                _RequestRow.id == rid, _RequestRow.status == "pending").values(
                status="claimed", claimed_by=who, claimed_at=now, updated_at=now)).rowcount
            if changed != 1:
                return -1  # taken between the select and the update: look again
            self._event(conn, rid, who, "pending", "claimed", "", now)
            return int(rid)

        while True:
            got = self._write(take)
            if got != -1:
                return None if got is None else self.get(got)

    def release(self, request_id: int, *, reviewer: str, note: str = "") -> RepairRequest:
        """Give a claimed request back to the queue (only its holder can)."""
        who = _name("reviewer", reviewer)
        return self._move(request_id, actor=who, allowed=("claimed",), to="pending",
                          holder=who, note=note, values={"claimed_by": None,
                                                         "claimed_at": None})

    def decide(self, request_id: int, *, reviewer: str, decision: Literal["approve", "reject"],
               decision_id: int, result: Mapping[str, Any] | None = None, note: str = "",
               needed: int = 1) -> RepairRequest:
        """Record the holder's decision: `decision_id` is the decision's row in the
        approvals log (see :func:`repair_core.queue.review`), `result` the approved repair
        result the worker writes back. An approval counts towards `needed` different
        reviewers: until there are that many the request goes back to pending (and its
        earlier approvers cannot claim it again); a rejection ends it at once."""
        who = _name("reviewer", reviewer)
        if decision not in ("approve", "reject"):
            raise DgrrError(f"decision: expected 'approve' or 'reject', got {decision!r}")
        now = datetime.now(UTC)

        def do(conn: Connection) -> str | None:
            query = select(_RequestRow).where(_RequestRow.id == request_id,
                                              _RequestRow.status == "claimed",
                                              _RequestRow.claimed_by == who)
            if self.engine.dialect.name == "postgresql":
                query = query.with_for_update()
            row = conn.execute(query).first()
            if row is None:
                return None
            values: dict[str, Any] = {"decided_by": who, "decision_id": int(decision_id),
                                      "updated_at": now}
            if decision == "reject":
                to, why = "rejected", note
            else:
                approvers = [*(row.approved_by or []),
                             {"reviewer": who, "decision_id": int(decision_id)}]
                need = max(int(row.needed or 1), needed)
                distinct = len({reviewer_key(a["reviewer"]) for a in approvers})
                values.update(approved_by=approvers, needed=need)
                if distinct >= need:
                    to, why = "approved", note
                    if result is not None:
                        values["result_json"] = json.dumps(result, ensure_ascii=False)
                else:
                    to = "pending"
                    why = (f"approval {distinct} of {need}: needs another reviewer"
                           + (f"; {note}" if note else ""))
                    values.update(claimed_by=None, claimed_at=None)
            conn.execute(update(_RequestRow).where(_RequestRow.id == request_id)
                         .values(status=to, **values))
            self._event(conn, request_id, who, "claimed", to, why, now)
            return to

        if self._write(do) is None:
            current = self.get(request_id)
            holder = f" by {current.claimed_by}" if current.status == "claimed" else ""
            raise QueueError(f"request #{request_id}: is {current.status}{holder}; only the "
                             "reviewer holding the claim decides")
        return self.get(request_id)

    def take_approved(self, *, worker: str, lease: float = 600.0) -> RepairRequest | None:
        """The oldest approved request with a store target that no worker holds (or whose
        worker has not finished within `lease` seconds), now held by `worker`."""
        who = _name("worker", worker)
        now = datetime.now(UTC)
        stale = now - timedelta(seconds=lease)

        def take(conn: Connection) -> int | None:
            free = (_RequestRow.worker.is_(None)) | (_RequestRow.worker_at < stale)
            query = (select(_RequestRow.id).where(_RequestRow.status == "approved", free,
                                                  _RequestRow.store_target.is_not(None))
                     .order_by(_RequestRow.id).limit(1))
            if self.engine.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            rid = conn.execute(query).scalar_one_or_none()
            if rid is None:
                return None
            changed = conn.execute(update(_RequestRow).where(
                _RequestRow.id == rid, _RequestRow.status == "approved", free).values(
                worker=who, worker_at=now)).rowcount
            return int(rid) if changed == 1 else -1

        while True:
            got = self._write(take)
            if got != -1:
                return None if got is None else self.get(got)

    def heartbeat(self, request_id: int, *, worker: str) -> bool:
        """Renew `worker`'s lease on approved request `request_id` (the time its hold was
        last seen alive); False when it no longer holds it."""
        who = _name("worker", worker)

        def do(conn: Connection) -> bool:
            return bool(conn.execute(update(_RequestRow).where(
                _RequestRow.id == request_id, _RequestRow.status == "approved",
                _RequestRow.worker == who).values(worker_at=datetime.now(UTC))).rowcount)

        return bool(self._write(do))

    def applied_event(self, request: RepairRequest) -> int | None:
        """The approvals log's `applied` event of the request's approval, if a worker
        already wrote it back."""
        if request.decision_id is None:
            return None
        found = self.approvals.find(kind="applied", refers_to=request.decision_id)
        return found[-1].id if found else None

    def finish(self, request_id: int, *, worker: str, applied_id: int | None = None,
               error: str | None = None) -> RepairRequest:
        """The worker's outcome: applied (with the log's `applied` event id) or failed
        (with the store's refusal). Only the worker holding the request can finish it,
        except that a request whose approval the log shows applied (an `applied` event
        referring to it) is finished as applied by anyone, and never failed: an apply
        that succeeded is not marked failed by a worker that took it over."""
        who = _name("worker", worker)
        current = self.get(request_id)
        done = self.applied_event(current)
        if error is not None and done is not None:
            applied_id, error = done, None
        holder = applied_id is not None and done is not None and (
            applied_id == done or applied_id in [
                e.id for e in self.approvals.find(kind="applied",
                                                  refers_to=current.decision_id)])
        values: dict[str, Any] = ({"applied_id": applied_id, "error": None} if error is None
                                  else {"error": error})
        to = "applied" if error is None else "failed"
        allowed = ("approved", "failed") if holder else ("approved",)

        def do(conn: Connection) -> bool:
            where = [_RequestRow.id == request_id, _RequestRow.status.in_(allowed)]
            if not holder:
                where.append(_RequestRow.worker == who)
            row = conn.execute(select(_RequestRow.status).where(*where)).first()
            if row is None:
                return False
            conn.execute(update(_RequestRow).where(*where).values(
                status=to, updated_at=datetime.now(UTC), **values))
            self._event(conn, request_id, who, row.status, to, error or "")
            return True

        if not self._write(do):
            current = self.get(request_id)
            raise QueueError(f"request #{request_id}: is {current.status}, held by worker "
                             f"{current.worker}; {who} cannot finish it")
        return self.get(request_id)

    def set_rule(self, rule: ReviewRule, *, actor: str) -> ReviewRule:
        """Record the review rule for every server on this database: a `rule` row of the
        approvals log signed by `actor`, whom the trust file must name as an
        administrator (refused otherwise, nothing written)."""
        who = _name("actor", actor)
        self.approvals.record_rule(rule.model_dump(), reviewer=who)
        return self.rule()

    # -- reading ---------------------------------------------------------------------

    def rule(self) -> ReviewRule:
        """The review rule in force: the newest administrator-signed `rule` row of the
        approvals log (default, and without a trust file: one reviewer suffices)."""
        return review_rule(self.approvals,
                           TrustFile.load(self.approvals.trust, missing_ok=True))

    def find(self, request_id: int) -> RepairRequest | None:
        """Request `request_id`, or None."""
        def read() -> Any:
            with self.engine.connect() as conn:
                return conn.execute(select(_RequestRow).where(
                    _RequestRow.id == request_id)).first()

        row = self.approvals._guard(read)
        return None if row is None else _request(row)

    def get(self, request_id: int) -> RepairRequest:
        """Request `request_id`; :class:`QueueError` when there is none."""
        found = self.find(request_id)
        if found is None:
            raise QueueError(f"request #{request_id}: no such request")
        return found

    status = get

    def case(self, request_id: int) -> Any:
        """The request's case (a :class:`~repair_core.Case`, faults applied)."""
        from ..case._load import case_from_data

        def read() -> Any:
            with self.engine.connect() as conn:
                return conn.execute(select(_RequestRow.case_json).where(
                    _RequestRow.id == request_id)).scalar_one_or_none()

        raw = self.approvals._guard(read)
        if raw is None:
            raise QueueError(f"request #{request_id}: no such request")
        return case_from_data(json.loads(raw))

    def result(self, request_id: int) -> dict[str, Any] | None:
        """The approved repair result stored with the decision, if any."""
        def read() -> Any:
            with self.engine.connect() as conn:
                return conn.execute(select(_RequestRow.result_json).where(
                    _RequestRow.id == request_id)).scalar_one_or_none()

        raw = self.approvals._guard(read)
        return None if raw is None else json.loads(raw)

    def requests(self, *, status: Iterable[str] | None = None, agent: str | None = None,
                 user_id: str | None = None, fault_kind: str | None = None,
                 older_than: float | None = None, claimed_by: str | None = None,
                 limit: int | None = None) -> list[RepairRequest]:
        """Requests, oldest first, filtered by status, agent, user, a fault kind among
        theirs, age (`older_than` seconds since submission) and the reviewer holding them
        (`claimed_by`, compared as `same_reviewer` compares names). Their cases and results
        are not read (`case`, `result`)."""
        query = select(*_PUBLIC_COLUMNS).order_by(_RequestRow.id)
        if status is not None:
            query = query.where(_RequestRow.status.in_(list(status)))
        if agent:
            query = query.where(_RequestRow.agent == agent)
        if user_id:
            query = query.where(_RequestRow.user_id == user_id)
        if older_than is not None:
            query = query.where(_RequestRow.created_at
                                <= datetime.now(UTC) - timedelta(seconds=older_than))
        if claimed_by is not None:
            query = query.where(_RequestRow.claimed_by.is_not(None))
        elif limit is not None and not fault_kind:  # every filter left is in the query
            query = query.limit(limit)

        def read() -> Any:
            with self.engine.connect() as conn:
                return conn.execute(query).all()

        rows = [_request(r) for r in self.approvals._guard(read)]
        if fault_kind:
            rows = [r for r in rows if fault_kind in r.fault_kinds]
        if claimed_by is not None:
            rows = [r for r in rows if same_reviewer(r.claimed_by, claimed_by)]
        return rows[:limit] if limit is not None else rows

    def events(self, request_id: int) -> list[RequestEvent]:
        """The request's status changes, oldest first."""
        def read() -> Any:
            with self.engine.connect() as conn:
                return conn.execute(select(_EventRow).where(
                    _EventRow.request_id == request_id).order_by(_EventRow.id)).all()

        return [RequestEvent.model_validate({
            "id": r.id, "request_id": r.request_id, "at": _utc(r.at), "actor": r.actor,
            "from_status": r.from_status, "to_status": r.to_status, "note": r.note or ""})
            for r in self.approvals._guard(read)]

    def wait(self, request_id: int, timeout: float, *, poll: float = 0.5) -> RepairRequest:
        """Request `request_id` once it is terminal (rejected, applied or failed); raises
        TimeoutError when it is not within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            current = self.get(request_id)
            if current.terminal:
                return current
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"request #{request_id} is still {current.status} after "
                                   f"{timeout:g} s")
            time.sleep(min(poll, left))


def _fault_kind(case: Any, node_id: str) -> str:
    """What the diagnosed node is: a memory record, or the step type of a step."""
    if any(r.id == node_id for r in case.memory):
        return "memory_record"
    step = next((s for s in case.trajectory if s.id == node_id), None)
    return step.type if step is not None else "unknown"
