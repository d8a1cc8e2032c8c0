"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

__all__ = ["atomic_open", "atomic_write_text", "atomic_write_json", "to_json"]


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# mkstemp makes files readable by their owner only; a written file gets the permissions
# an ordinary open() would give it (or keeps those of the file it replaces).
_DEFAULT_MODE = 0o666 & ~_read_umask()


@contextmanager
def atomic_open(path: str | Path) -> Iterator[IO[str]]:
    """A text file to write that appears at `path` only when the block ends without error
    (through a temporary file in the same folder, fsync and a rename)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, target.stat().st_mode & 0o7777 if target.exists() else _DEFAULT_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write `text` to `path` atomically (see :func:`atomic_open`)."""
    with atomic_open(path) as fh:
        fh.write(text)
    return Path(path)


def to_json(data: Any, indent: int | None = 1) -> str:
    """JSON text as dgrr writes it (UTF-8, stable key order as given, trailing newline)."""
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def atomic_write_json(path: str | Path, data: Any, indent: int | None = 1) -> Path:
    """Write `data` as JSON atomically."""
    return atomic_write_text(path, to_json(data, indent))
