"""Atomic, exclusive write-back: a write-ahead intent journal and a per-store lock.

An apply is planned in full before anything is written: every store *slot* it touches
(a LangGraph item, a Mem0 vector point) with its exact state before and the state it
must have after (``None``: absent), plus side effects that only append (Mem0 history
rows). The plan is written to the journal (``dgrr.apply-intent/v1``, atomically, fsynced)
before the first write; then each step sets one slot to its after-state. Setting a slot
to a state is idempotent, so:

- ``resume``: write every step again, in order (a step done before a crash is done
  again to the same state; an appended history row already present is not appended
  twice), then record the apply;
- ``rollback``: set every touched slot back to its before-state (the last step first).

The store then equals the planned after-state or the exact before-state, never a mix,
unless someone else wrote a touched slot meanwhile. Every write is compare-and-swap: a
slot is written only while it holds a state the journal expects (its state before the
apply or one the plan wrote). A slot that holds anything else (the agent wrote it after a
crash) is a *conflict*: it is left alone (the newer value is kept), and the conflicts are
returned for the caller to report; only an explicit override writes over them. The
compare is a read just before the write: a writer racing in the instant between the two is
not excluded (a `BaseStore` offers no conditional write).
A lock file (``fcntl.flock``) next to the journal makes applies to one store exclusive;
while an unfinished journal exists, a new apply to that store is refused until it is
resumed or rolled back. The kernel drops the lock when the process dies (kill -9).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import hmac
import json
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, ValidationError

from .._errors import DgrrError
from .._io import atomic_write_json, check_secret_file

__all__ = ["journal_secret", "JOURNAL_KEY", "INTENT_FORMAT", "Intent", "Step", "SlotBackend", "SlotConflict", "SlotsChanged",
           "ApplyLocked", "ApplyPending", "journal_dir", "store_key", "Journal",
           "run_forward", "run_rollback", "intent_state", "forward_conflicts",
           "rollback_conflicts", "before_digest", "with_digests", "write_if"]

INTENT_FORMAT: Literal["dgrr.apply-intent/v1"] = "dgrr.apply-intent/v1"


class ApplyLocked(DgrrError):
    """Another apply to the same store is running."""


class ApplyPending(DgrrError):
    """An interrupted apply to this store must be resumed or rolled back first."""


class SlotConflict(BaseModel):
    """A touched slot that holds neither its state before the apply nor one the plan
    wrote: someone else wrote it since."""

    ref: Any
    """The slot."""
    found: Any = None
    """What it holds now (None: absent)."""
    planned: Any = None
    """What the write would have set it to."""
    overwritten: bool = False
    """It was written over anyway (an explicit override)."""

    def describe(self) -> str:
        """One line for a person."""
        shown = json.dumps(self.found, ensure_ascii=True, sort_keys=True, default=str)
        shown = shown if len(shown) <= 160 else shown[:159] + "…"
        verb = "overwritten (override)" if self.overwritten else "kept"
        where = json.dumps(self.ref, ensure_ascii=True, default=str)
        return f"{where}: changed since the apply planned it, now {shown}; {verb}"


class SlotsChanged(DgrrError):
    """A slot changed between the plan and its write."""

    def __init__(self, conflicts: list[SlotConflict]) -> None:
        self.conflicts = conflicts
        super().__init__("the store changed while the apply was writing:\n"
                         + "\n".join(f"  - {c.describe()}" for c in conflicts))


class Step(BaseModel):
    """One write of an apply: a slot set to a state, or one appended side effect."""

    kind: Literal["slot", "effect"]
    """slot: set `ref` to `after` (before: its state when planned); effect: append
    `effect` (e.g. a Mem0 history row), skipped when already there."""
    ref: Any = None
    """The slot (LangGraph: [namespace, key]; Mem0: the point id)."""
    before: Any = None
    """The slot's exact state before the apply (None: absent)."""
    after: Any = None
    """The slot's state after the step (None: absent)."""
    effect: dict[str, Any] | None = None
    """The side effect of an `effect` step."""
    op: int = -1
    """Index of the operation (in `Intent.operations`) the step belongs to."""
    before_sha256: str | None = None
    """A slot step: sha256 of `before` (canonical JSON), what the slot must still hold
    for the step to write it (see :func:`before_digest`)."""


class Intent(BaseModel):
    """The journal of one apply: written before its first write."""

    format: Literal["dgrr.apply-intent/v1"] = INTENT_FORMAT
    """Format tag."""
    apply_id: str
    """Unique id of this apply (also names its quarantine namespace/copies)."""
    store: Literal["langgraph", "mem0"]
    """Kind of store."""
    target: str
    """The store as given (`--to`/`--store`)."""
    case_id: str
    """The case whose repair is applied."""
    approval_id: int | None = None
    """The approval that allowed it."""
    reviewer: str | None = None
    """Who applies."""
    created_at: str
    """When the intent was written (UTC, ISO 8601)."""
    state: Literal["intent", "applied", "rolled-back"] = "intent"
    """intent: written, not finished; applied / rolled-back: finished."""
    operations: list[dict[str, Any]] = Field(default_factory=list)
    """What each repair operation does, one per StoreOp (op, record, item/mem0_id)."""
    steps: list[Step] = Field(default_factory=list)
    """The writes, in order."""
    finished_at: str | None = None
    """When it was applied or rolled back."""
    store_identity: str | None = None
    """The store the apply writes, as resolved from the opened store (a SQLite file's
    device and inode, a PostgreSQL server and database, a Mem0 collection and history
    database), not the spec text: a journal is used only for that store."""
    vault: str | None = None
    """LangGraph: the `--vault` file quarantined items went to (its real path; None: the
    store's own vault); a resume or rollback uses it again."""
    approval_row_hash: str | None = None
    """`row_hash` of the approval row (`approval_id`) in the approvals log."""
    inputs_sha256: str | None = None
    """The approval's inputs digest (the case and plan edits)."""
    outputs_sha256: str | None = None
    """The approval's outputs digest (the plan report and the repair result)."""
    result_sha256: str | None = None
    """sha256 of the repair result applied (canonical JSON)."""
    needed: int = 1
    """How many distinct reviewers' approvals the apply rested on."""
    auth: str | None = None
    """HMAC-SHA256 of every other field under the journal key (a secret kept outside the
    journal folder, see :func:`journal_secret`): a journal without it, or one edited or
    planted by someone without the key, is refused."""
    conflicts: list[SlotConflict] = Field(default_factory=list)
    """Slots a resume or rollback found changed by someone else (kept unless
    overwritten)."""
    # left out when None, so a journal written before the field still authenticates
    intent_row: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """The id of the `intent` row the approvals log recorded for this apply before its
    first write (None: applied without a log); a resume or rollback needs the log to hold
    it (rule `apply.journal-used-once`)."""


class SlotBackend(Protocol):
    """What the engine needs from a store."""

    def read(self, ref: Any) -> Any:
        """The slot's current state (None: absent)."""

    def write(self, ref: Any, state: Any) -> None:
        """Set the slot to `state` (None: remove it)."""

    def same(self, a: Any, b: Any) -> bool:
        """Whether two states are the same for this store."""

    def effect(self, effect: dict[str, Any]) -> None:
        """Append a side effect unless it is already there."""

    def undo_effect(self, ref: Any, current: Any, before: Any) -> None:
        """Record, as a side effect, that a rollback set `ref` from `current` to `before`."""


def _now() -> str:
    return datetime.now(UTC).isoformat()


def new_apply_id(case_id: str, target: str) -> str:
    """A unique apply id (hex, no dots: usable in a LangGraph namespace)."""
    seed = f"{case_id}\0{target}\0{_now()}\0{os.getpid()}\0{os.urandom(8).hex()}"
    return hashlib.sha256(seed.encode()).hexdigest()[:16]


def journal_dir(explicit: str | None = None) -> Path:
    """Where journals live: `explicit`, else $DGRR_APPLY_DIR, else ~/.dgrr/apply."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("DGRR_APPLY_DIR")
    return Path(env) if env else Path.home() / ".dgrr" / "apply"


def store_key(kind: str, identity: str) -> str:
    """The journal name of a store: a digest of its kind and its resolved identity
    (:mod:`~repair_core.integrations._identity`)."""
    return hashlib.sha256(f"{kind}\0{identity}".encode()).hexdigest()[:24]


JOURNAL_KEY = "~/.dgrr/journal.key"


def journal_secret(folder: Path | None = None) -> bytes:
    """The secret that authenticates journals: the file `$DGRR_JOURNAL_KEY`, else
    `~/.dgrr/journal.key`, made (32 random bytes, mode 0600) on first use. Refused when
    it lies inside the journal `folder` (whoever can plant a journal could read it), is
    not a regular file, or others can read it."""
    path = Path(os.environ.get("DGRR_JOURNAL_KEY") or JOURNAL_KEY).expanduser()
    if folder is not None:
        inside = Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
        if inside:
            raise DgrrError(f"$DGRR_JOURNAL_KEY {path}: inside the journal folder "
                            f"'{folder}'; keep the journal key elsewhere")
    if not path.exists() and not path.is_symlink():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as fh:
                fh.write(os.urandom(32).hex() + "\n")
                fh.flush()
                os.fsync(fh.fileno())
    check_secret_file(path, "journal key")
    raw = path.read_text(encoding="ascii", errors="replace").strip()
    try:
        secret = bytes.fromhex(raw)
    except ValueError:
        secret = b""
    if len(secret) < 16:
        raise DgrrError(f"journal key {path}: not a journal key (hex, at least 16 bytes)")
    return secret


def before_digest(state: Any) -> str:
    """sha256 of a slot state's canonical JSON (None: an absent slot)."""
    data = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      default=str)
    return hashlib.sha256(data.encode("ascii")).hexdigest()


def with_digests(steps: Sequence[Step]) -> list[Step]:
    """`steps` with every slot step's `before_sha256` filled in."""
    return [s.model_copy(update={"before_sha256": before_digest(s.before)})
            if s.kind == "slot" else s for s in steps]


def _mac(intent: Intent, secret: bytes) -> str:
    body = intent.model_dump(mode="json", exclude={"auth"})
    data = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      default=str).encode("ascii")
    return hmac.new(secret, b"dgrr.apply-intent/v1\n" + data, hashlib.sha256).hexdigest()


class Journal:
    """The journal and lock of one store: `<dir>/<key>.json` (the unfinished apply, if
    any), `<dir>/<key>.lock`, and `<dir>/<key>.<apply_id>.json` for finished ones.

    `identity` is the store's resolved identity: a pending journal that names another
    store is refused. `binding` (approval row hash, digests, vault, ...) is written into
    every intent. Every journal is authenticated with :func:`journal_secret`; one that
    does not verify is refused."""

    def __init__(self, folder: str | Path, key: str, *, identity: str | None = None,
                 binding: dict[str, Any] | None = None) -> None:
        self.folder = Path(folder)
        self.key = key
        self.identity = identity
        self.binding = dict(binding or {})
        self.path = self.folder / f"{key}.json"
        self.lock_path = self.folder / f"{key}.lock"
        self._lock_fd: int | None = None

    @classmethod
    def for_store(cls, folder: str | Path, kind: str, identity: str, *,
                  binding: dict[str, Any] | None = None) -> Journal:
        """The journal of the store whose resolved identity is `identity`."""
        return cls(folder, store_key(kind, identity), identity=identity, binding=binding)

    @contextlib.contextmanager
    def locked(self) -> Iterator[Journal]:
        """Hold the store's lock for the block; refused at once if another apply holds it."""
        fd = self._open_lock()
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise ApplyLocked(f"another apply to this store is running (lock "
                                  f"'{self.lock_path}'); nothing written") from None
            self._lock_fd = fd
            yield self
        finally:
            self._lock_fd = None
            os.close(fd)  # closing drops the flock

    def _open_lock(self) -> int:
        """The lock file, opened (made 0600 when missing): never through a symbolic link
        (a planted `<key>.lock` link would make dgrr create or truncate its target) and
        only when it is a regular file (rule `apply.lock-file-regular`)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW
                         | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise DgrrError(f"--journal: lock file '{self.lock_path}' is a symbolic "
                                "link; refused (a lock is never followed elsewhere): look at "
                                "it, then remove it; nothing written") from None
            raise DgrrError(f"--journal: cannot use '{self.folder}': {exc.strerror}") from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise DgrrError(f"--journal: lock file '{self.lock_path}' is not a regular file "
                            f"(mode {stat.filemode(mode)}); refused: look at it, then remove "
                            "it; nothing written")
        return fd

    def pending(self) -> Intent | None:
        """The unfinished apply of this store, if any; refused when the journal is not
        authenticated by the journal key or names another store."""
        if not self.path.exists():
            return None
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            intent = Intent.model_validate(raw)
        except (OSError, ValueError, ValidationError) as exc:
            raise DgrrError(f"journal '{self.path}' cannot be read ({str(exc)[:200]}); "
                            "nothing written") from None
        if intent.state != "intent":
            return None
        secret = journal_secret(self.folder)
        if not intent.auth or not hmac.compare_digest(intent.auth, _mac(intent, secret)):
            raise DgrrError(f"journal '{self.path}' is not authenticated by the journal key "
                            "(written by another dgrr without it, edited, or planted); "
                            "nothing written. Look at it, then move it aside")
        if any(st.kind == "slot" and st.before_sha256 is not None
               and st.before_sha256 != before_digest(st.before) for st in intent.steps):
            raise DgrrError(f"journal '{self.path}': a step's before-image does not match "
                            "its digest; nothing written")
        if self.identity is not None and intent.store_identity != self.identity:
            raise DgrrError(f"journal '{self.path}' is of another store "
                            f"({str(intent.store_identity)[:200]}), not this one "
                            f"({self.identity[:200]}); nothing written")
        return intent

    def write(self, intent: Intent) -> None:
        """Write `intent` atomically (fsynced before it replaces the old one),
        authenticated with the journal key."""
        sealed = intent.model_copy(update={"auth": None})
        sealed = sealed.model_copy(update={"auth": _mac(sealed,
                                                        journal_secret(self.folder))})
        atomic_write_json(self.path, sealed.model_dump(mode="json"), flag="--journal")

    def finish(self, intent: Intent, state: Literal["applied", "rolled-back"]) -> Path:
        """Mark `intent` finished and move it aside; returns where it is kept."""
        done = intent.model_copy(update={"state": state, "finished_at": _now(),
                                         "auth": None})
        done = done.model_copy(update={"auth": _mac(done, journal_secret(self.folder))})
        kept = self.folder / f"{self.key}.{intent.apply_id}.json"
        atomic_write_json(kept, done.model_dump(mode="json"), flag="--journal")
        self.path.unlink(missing_ok=True)
        return kept


def _ident(ref: Any) -> str:
    return json.dumps(ref, sort_keys=True)


def _sequences(steps: Sequence[Step]) -> dict[str, list[Any]]:
    """Each touched slot's planned states in order: its state before, then the after of
    each step that writes it."""
    seqs: dict[str, list[Any]] = {}
    for s in steps:
        if s.kind == "slot":
            seqs.setdefault(_ident(s.ref), [s.before]).append(s.after)
    return seqs


def write_if(backend: SlotBackend, ref: Any, expected: Any, state: Any) -> tuple[bool, Any]:
    """Set slot `ref` to `state` only while it holds `expected` (compared with the
    backend's `same`); returns (written, what the slot held). A backend with its own
    `write_if` compares and writes in one transaction of the store, so no other writer
    gets in between (see docs/writeback.md, which stores offer one); for the others the
    slot is read again right before the write, which narrows the window but cannot
    close it."""
    atomic = getattr(backend, "write_if", None)
    if atomic is not None:
        written, found = atomic(ref, expected, state)
        return bool(written), found
    current = backend.read(ref)
    if not backend.same(current, expected):
        return False, current
    backend.write(ref, state)
    return True, current


def _position(backend: SlotBackend, current: Any, seq: list[Any]) -> int | None:
    """Which planned state of a slot `current` is (the latest one that matches)."""
    for j in range(len(seq) - 1, -1, -1):
        if backend.same(current, seq[j]):
            return j
    return None


def run_forward(backend: SlotBackend, steps: Sequence[Step],
                progress: Callable[[int], None] | None = None, *, fresh: bool = False,
                overwrite: bool = False) -> list[SlotConflict]:
    """Bring every slot to its after-state, in order (idempotent), writing a slot only
    while it holds a state the plan expects. `fresh` (the apply's first run): any slot
    not in its before-state raises :class:`SlotsChanged` before it is written. Otherwise
    a slot holding anything else is a conflict, left alone (with its side effects) unless
    `overwrite`; the conflicts are returned."""
    seqs = _sequences(steps)
    pos: dict[str, int] = {}
    count: dict[str, int] = {}
    conflicts: list[SlotConflict] = []
    skipped: set[str] = set()
    skipped_ops: set[int] = set()
    forced: set[str] = set()
    for i, step in enumerate(steps):
        if step.kind == "slot":
            ident = _ident(step.ref)
            k = count.get(ident, 0)
            count[ident] = k + 1
            if ident in skipped:
                continue
            if ident not in pos:
                current = backend.read(step.ref)
                if fresh:
                    found = 0 if backend.same(current, seqs[ident][0]) else None
                else:
                    found = _position(backend, current, seqs[ident])
                if found is None:
                    conflict = SlotConflict(ref=step.ref, found=current,
                                            planned=seqs[ident][-1], overwritten=overwrite)
                    conflicts.append(conflict)
                    if fresh:
                        raise SlotsChanged(conflicts)
                    if not overwrite:
                        skipped.add(ident)
                        skipped_ops.add(step.op)
                        continue
                    forced.add(ident)  # written over, whatever it holds
                    found = k
                pos[ident] = found
            if pos[ident] > k:
                continue  # done before (a resumed apply)
            if ident in forced:
                backend.write(step.ref, step.after)
            else:
                # compare and set: a write that got in since the slot was read is seen
                written, current = write_if(backend, step.ref, seqs[ident][k], step.after)
                if not written:
                    conflict = SlotConflict(ref=step.ref, found=current,
                                            planned=seqs[ident][-1])
                    conflicts.append(conflict)
                    if fresh:
                        raise SlotsChanged(conflicts)
                    skipped.add(ident)
                    skipped_ops.add(step.op)
                    continue
            pos[ident] = k + 1
        elif step.effect is not None and step.op not in skipped_ops:
            backend.effect(step.effect)
        if progress is not None:
            progress(i)
    return conflicts


def run_rollback(backend: SlotBackend, steps: Sequence[Step], *,
                 overwrite: bool = False) -> list[SlotConflict]:
    """Set every touched slot back to its before-state (the last step first), each only
    while it holds a state the plan expects; the others are conflicts, left alone unless
    `overwrite`, and returned."""
    seqs = _sequences(steps)
    seen: set[str] = set()
    conflicts: list[SlotConflict] = []
    for step in reversed(steps):
        if step.kind != "slot":
            continue
        ident = _ident(step.ref)
        if ident in seen:
            continue
        seen.add(ident)
        before = seqs[ident][0]
        current = backend.read(step.ref)
        found = _position(backend, current, seqs[ident])
        if found == 0:
            continue
        if found is None:
            conflicts.append(SlotConflict(ref=step.ref, found=current, planned=before,
                                          overwritten=overwrite))
            if not overwrite:
                continue
            backend.write(step.ref, before)
        else:
            # compare and set: a write that got in since the slot was read is kept
            written, now = write_if(backend, step.ref, current, before)
            if not written:
                conflicts.append(SlotConflict(ref=step.ref, found=now, planned=before))
                continue
        backend.undo_effect(step.ref, current, before)
    return conflicts


def _conflicts(backend: SlotBackend, steps: Sequence[Step], planned: int
               ) -> list[SlotConflict]:
    """Every touched slot holding no state of its planned sequence (nothing written),
    each with the sequence's state at index `planned` as what was planned."""
    refs: dict[str, Any] = {}
    for s in steps:
        if s.kind == "slot":
            refs.setdefault(_ident(s.ref), s.ref)
    out = []
    for ident, seq in _sequences(steps).items():
        current = backend.read(refs[ident])
        if _position(backend, current, seq) is None:
            out.append(SlotConflict(ref=refs[ident], found=current, planned=seq[planned]))
    return out


def forward_conflicts(backend: SlotBackend, steps: Sequence[Step]) -> list[SlotConflict]:
    """The conflicts a resume would find (nothing written)."""
    return _conflicts(backend, steps, -1)


def rollback_conflicts(backend: SlotBackend, steps: Sequence[Step]) -> list[SlotConflict]:
    """The conflicts a rollback would find (nothing written)."""
    return _conflicts(backend, steps, 0)


def intent_state(backend: SlotBackend, steps: Sequence[Step]) -> Literal["before", "after",
                                                                         "mixed"]:
    """Whether the touched slots are all in their before-state, all in their after-state,
    or neither."""
    first: dict[str, Any] = {}
    last: dict[str, Any] = {}
    refs: dict[str, Any] = {}
    for s in steps:
        if s.kind == "slot":
            ident = json.dumps(s.ref, sort_keys=True)
            first.setdefault(ident, s.before)
            last[ident] = s.after
            refs[ident] = s.ref
    now = {i: backend.read(r) for i, r in refs.items()}
    if all(backend.same(now[i], last[i]) for i in refs):
        return "after"
    if all(backend.same(now[i], first[i]) for i in refs):
        return "before"
    return "mixed"
