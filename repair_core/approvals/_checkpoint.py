"""Signed checkpoints of the approvals log's head, kept away from the database, so that
deleting the newest rows, emptying the log or putting an older copy of the file in its
place is detected (`dgrr history --checkpoint FILE`, `--verify --against FILE`).

A checkpoint file (JSON)::

    {"format": "dgrr.checkpoint/v1", "database": "sqlite:////…/approvals.db",
     "rows": 12, "last_id": 12, "head": "<row_hash of row 12>",
     "created_at": "2026-12-01T04:30:00Z", "reviewer": "ana",
     "key_id": "ed25519:…", "signature": "<base64>"}

The signature is the reviewer's Ed25519 signature of :func:`checkpoint_message` (every
field but `signature`, canonical JSON, after a domain tag), checked against the trust file.
"""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from .._errors import DgrrError
from .._io import atomic_write_text
from ._keys import Signer, TrustFile
from ._store import ApprovalStore

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint", "checkpoint_message", "make_checkpoint", "write_checkpoint",
           "read_checkpoint"]

CHECKPOINT_FORMAT: Literal["dgrr.checkpoint/v1"] = "dgrr.checkpoint/v1"
MAX_CHECKPOINT = 64 * 1024


class Checkpoint(BaseModel):
    """The approvals log's head at one moment, signed by a reviewer."""

    format: Literal["dgrr.checkpoint/v1"] = CHECKPOINT_FORMAT
    """Always `dgrr.checkpoint/v1`."""
    database: str
    """The database the checkpoint was made of (password hidden); informational."""
    rows: int = Field(ge=0)
    """How many rows the log had."""
    last_id: int | None = None
    """Id of its last row (None for an empty log)."""
    head: str | None = Field(default=None, pattern="^[0-9a-f]{64}$")
    """`row_hash` of its last row (None for an empty log)."""
    created_at: str
    """When the checkpoint was made (UTC, ISO 8601)."""
    reviewer: str
    """Who signed it."""
    key_id: str
    """The key that signed it."""
    signature: str = ""
    """base64 Ed25519 signature of :func:`checkpoint_message`."""


def checkpoint_message(cp: Checkpoint) -> bytes:
    """The bytes a checkpoint's signature covers."""
    body = cp.model_dump(mode="json", exclude={"signature"})
    return ("dgrr.checkpoint/v1\n" + json.dumps(body, sort_keys=True, separators=(",", ":"),
                                                 ensure_ascii=True)).encode("ascii")


def make_checkpoint(store: ApprovalStore, signer: Signer, trust: TrustFile | None
                    ) -> Checkpoint:
    """A checkpoint of `store`'s current head, signed by `signer`; refused when the log
    does not verify (a checkpoint pins a good state, never a broken one)."""
    check = store.verify(trust)
    if not check.ok:
        raise DgrrError(f"no checkpoint made: the approvals log does not verify (row "
                        f"#{check.first_broken}: {check.reason})")
    cp = Checkpoint(database=store.shown_url, rows=check.rows, last_id=check.last_id,
                    head=check.head, reviewer=signer.reviewer, key_id=signer.key_id,
                    created_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    return cp.model_copy(update={"signature": signer.sign(checkpoint_message(cp))})


def write_checkpoint(cp: Checkpoint, path: str | Path) -> Path:
    """Write `cp` atomically (an existing checkpoint file is replaced)."""
    return atomic_write_text(path, json.dumps(cp.model_dump(mode="json"), indent=1) + "\n",
                             "--checkpoint")


def read_checkpoint(path: str | Path, trust: TrustFile) -> Checkpoint:
    """The checkpoint in `path`, its signature checked against `trust`."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise DgrrError(f"--against {p}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise DgrrError(f"--against {p}: not a regular file")
        raw = fh.read(MAX_CHECKPOINT + 1)
    if len(raw) > MAX_CHECKPOINT:
        raise DgrrError(f"--against {p}: larger than {MAX_CHECKPOINT} bytes; not a checkpoint")
    try:
        data: Any = json.loads(raw.decode("utf-8"))
        cp = Checkpoint.model_validate(data)
    except (UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, ValidationError):
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"]) or "(top)"
            raise DgrrError(f"--against {p}: not a {CHECKPOINT_FORMAT} file: field "
                            f"{where}: {err['msg']}") from None
        raise DgrrError(f"--against {p}: not JSON") from None
    problem = trust.check(cp.reviewer, cp.key_id, checkpoint_message(cp), cp.signature)
    if problem is not None:
        raise DgrrError(f"--against {p}: the checkpoint does not verify: {problem}")
    return cp
