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

The store then equals the planned after-state or the exact before-state, never a mix.
A lock file (``fcntl.flock``) next to the journal makes applies to one store exclusive;
while an unfinished journal exists, a new apply to that store is refused until it is
resumed or rolled back. The kernel drops the lock when the process dies (kill -9).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, ValidationError

from .._errors import DgrrError
from .._io import atomic_write_json

__all__ = ["INTENT_FORMAT", "Intent", "Step", "SlotBackend", "ApplyLocked", "ApplyPending",
           "journal_dir", "store_key", "Journal", "run_forward", "run_rollback",
           "intent_state"]

INTENT_FORMAT: Literal["dgrr.apply-intent/v1"] = "dgrr.apply-intent/v1"


class ApplyLocked(DgrrError):
    """Another apply to the same store is running."""


class ApplyPending(DgrrError):
    """An interrupted apply to this store must be resumed or rolled back first."""


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


def store_key(kind: str, target: str) -> str:
    """The journal name of a store: a digest of its kind and `--store` spec."""
    return hashlib.sha256(f"{kind}\0{target}".encode()).hexdigest()[:24]


class Journal:
    """The journal and lock of one store: `<dir>/<key>.json` (the unfinished apply, if
    any), `<dir>/<key>.lock`, and `<dir>/<key>.<apply_id>.json` for finished ones."""

    def __init__(self, folder: str | Path, key: str) -> None:
        self.folder = Path(folder)
        self.key = key
        self.path = self.folder / f"{key}.json"
        self.lock_path = self.folder / f"{key}.lock"
        self._lock_fd: int | None = None

    @contextlib.contextmanager
    def locked(self) -> Iterator[Journal]:
        """Hold the store's lock for the block; refused at once if another apply holds it."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise DgrrError(f"--journal: cannot use '{self.folder}': {exc.strerror}") from None
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

    def pending(self) -> Intent | None:
        """The unfinished apply of this store, if any."""
        if not self.path.exists():
            return None
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            intent = Intent.model_validate(raw)
        except (OSError, ValueError, ValidationError) as exc:
            raise DgrrError(f"journal '{self.path}' cannot be read ({str(exc)[:200]}); "
                            "nothing written") from None
        return intent if intent.state == "intent" else None

    def write(self, intent: Intent) -> None:
        """Write `intent` atomically (fsynced before it replaces the old one)."""
        atomic_write_json(self.path, intent.model_dump(mode="json"), flag="--journal")

    def finish(self, intent: Intent, state: Literal["applied", "rolled-back"]) -> Path:
        """Mark `intent` finished and move it aside; returns where it is kept."""
        done = intent.model_copy(update={"state": state, "finished_at": _now()})
        kept = self.folder / f"{self.key}.{intent.apply_id}.json"
        atomic_write_json(kept, done.model_dump(mode="json"), flag="--journal")
        self.path.unlink(missing_ok=True)
        return kept


def run_forward(backend: SlotBackend, steps: Sequence[Step],
                progress: Callable[[int], None] | None = None) -> None:
    """Bring every slot to its after-state, in order (idempotent)."""
    for i, step in enumerate(steps):
        if step.kind == "slot":
            backend.write(step.ref, step.after)
        elif step.effect is not None:
            backend.effect(step.effect)
        if progress is not None:
            progress(i)


def run_rollback(backend: SlotBackend, steps: Sequence[Step]) -> None:
    """Set every touched slot back to its before-state (the last step first)."""
    seen: set[str] = set()
    for step in reversed(steps):
        if step.kind != "slot":
            continue
        ident = json.dumps(step.ref, sort_keys=True)
        if ident in seen:
            continue
        seen.add(ident)
        first = next(s for s in steps if s.kind == "slot"
                     and json.dumps(s.ref, sort_keys=True) == ident)
        current = backend.read(step.ref)
        if not backend.same(current, first.before):
            backend.write(step.ref, first.before)
            backend.undo_effect(step.ref, current, first.before)


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
