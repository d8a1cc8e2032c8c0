"""Uploaded and imported cases kept on the server under their content's sha256, so that a
reload of the page (a new session) can load them again from the address (address.py), with
the reviewer's plan edits, the sources they cleaned or cleared and the last replay kept the
same way. The folder is the user's data folder
(`$DGRR_CASES_DIR`, else `~/.dgrr/cases`); a file is kept for a week after its last use, a case over `MAX_CASE`
bytes is not kept, and the oldest files go when the folder passes `MAX_TOTAL`. A name
from the address is used only when it is a digest, and a file only when its content still
has that digest. No Streamlit here."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from repair_core import Case, CaseError, parse_case

from .kept_replays import KeptReplay, ReplayOfPlan

__all__ = ["folder", "keep_case", "load_case_kept", "keep_edits", "load_edits",
           "keep_suspect_choices", "load_suspect_choices", "keep_replay", "load_replay", "hold_live_replay", "MAX_CASE", "MAX_TOTAL", "EXPIRE_SECONDS", "KEPT_PREFIXES"]

MAX_CASE = 256 * 2**20
MAX_TOTAL = 1024 * 2**20
EXPIRE_SECONDS = 7 * 24 * 3600
_DIGEST = re.compile(r"[0-9a-f]{64}")
KEPT_PREFIXES = ("edits-", "suspects-", "replay-")
"""How the names of kept files that are not cases begin (a case is `<digest>.json`)."""

# What this process kept or read back under a digest, while a session still holds it:
# after a reload the old session is still alive for a while (Streamlit keeps a
# disconnected session two minutes), so the new one gets the same objects instead of
# validating tens of MB again (seconds at 100k steps). The file is still read and its
# digest checked first: a file changed or gone is refused as before.
_LIVE_CASES: weakref.WeakValueDictionary[str, Case] = weakref.WeakValueDictionary()
_LIVE_REPLAYS: dict[str, tuple[weakref.ref[KeptReplay], str]] = {}  # digest -> (replay, plan key)


def folder() -> Path:
    """Where kept cases live: `$DGRR_CASES_DIR`, else the user's data folder."""
    return Path(os.environ.get("DGRR_CASES_DIR") or Path.home() / ".dgrr" / "cases")


def _write(name: str, data: bytes) -> str | None:
    """`data` under `name` (atomic); None when it is over the cap or cannot be written."""
    if len(data) > MAX_CASE:
        return None
    where = folder()
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        target = where / name
        if target.is_file():
            # kept already (the address keeps the edits on every rerun): only its use is
            # noted; the folder is pruned when something new is added
            os.utime(target)
        else:
            fd, tmp = tempfile.mkstemp(dir=where, prefix=".kept-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
            _prune(where, keep=target)
    except OSError:
        return None
    return name


def _prune(where: Path, keep: Path) -> None:
    """Files unused for a week go, then the oldest until the folder fits `MAX_TOTAL`."""
    now = time.time()
    files = []
    for f in where.iterdir():
        if not f.is_file() or f == keep:
            continue
        st = f.stat()
        if now - st.st_mtime > EXPIRE_SECONDS or f.name.startswith(".kept-") \
                and now - st.st_mtime > 3600:
            f.unlink(missing_ok=True)
        else:
            files.append((st.st_mtime, st.st_size, f))
    total = keep.stat().st_size + sum(size for _, size, _ in files)
    for _, size, f in sorted(files, key=lambda x: x[0]):
        if total <= MAX_TOTAL:
            break
        f.unlink(missing_ok=True)
        total -= size


def _read_verified(prefix: str, digest: str) -> bytes | None:
    """The bytes kept as `<prefix><digest>.json`, only when `digest` (from the address) is
    a digest and the file's content still has it."""
    if not _DIGEST.fullmatch(digest):
        return None
    data = _read(f"{prefix}{digest}.json")
    return data if data is not None and hashlib.sha256(data).hexdigest() == digest else None


def _read(name: str) -> bytes | None:
    path = folder() / name
    try:
        data = path.read_bytes()
        os.utime(path)
    except OSError:
        return None
    return data


def keep_case(case: Case) -> str | None:
    """Keep `case`; its digest (the name the address gives), or None when not kept."""
    data = case.model_dump_json().encode()
    digest = hashlib.sha256(data).hexdigest()
    if _write(f"{digest}.json", data) is None:
        return None
    _LIVE_CASES[digest] = case
    return digest


def load_case_kept(digest: str) -> Case | None:
    """The case kept under `digest`, or None (not a digest, gone, changed, invalid)."""
    data = _read_verified("", digest)
    if data is None:
        return None
    live = _LIVE_CASES.get(digest)
    if live is not None:
        return live
    try:
        case = parse_case(data, source="kept case")
    except CaseError:
        return None
    _LIVE_CASES[digest] = case
    return case


def keep_edits(edits: list[dict[str, Any]], forced: bool) -> str | None:
    """Keep a plan's edits (`PlanEdit` dumps, in order) and whether they were forced."""
    data = json.dumps({"edits": edits, "forced": forced}, sort_keys=True).encode()
    digest = hashlib.sha256(data).hexdigest()
    return digest if _write(f"edits-{digest}.json", data) is not None else None


def load_edits(digest: str) -> tuple[list[dict[str, Any]], bool] | None:
    """The edits kept under `digest` and whether they were forced, or None."""
    data = _read_verified("edits-", digest)
    if data is None:
        return None
    try:
        loaded = json.loads(data)
        edits, forced = loaded["edits"], bool(loaded["forced"])
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(edits, list) or not all(isinstance(e, dict) for e in edits):
        return None
    return edits, forced


def keep_suspect_choices(clean_source: dict[str, str], not_suspect: list[str]) -> str | None:
    """Keep the reviewer's word on the suspects: the sources cleaned (id -> reason) and
    the suspects un-marked; its digest, or None."""
    data = json.dumps({"clean_source": clean_source, "not_suspect": sorted(not_suspect)},
                      sort_keys=True).encode()
    digest = hashlib.sha256(data).hexdigest()
    return digest if _write(f"suspects-{digest}.json", data) is not None else None


def load_suspect_choices(digest: str) -> tuple[dict[str, str], list[str]] | None:
    """The sources cleaned (id -> reason) and the suspects un-marked kept under `digest`,
    or None (not a digest, gone, changed, not of that shape)."""
    data = _read_verified("suspects-", digest)
    if data is None:
        return None
    try:
        loaded = json.loads(data)
        cleaned, unmarked = loaded["clean_source"], loaded["not_suspect"]
    except (ValueError, KeyError, TypeError):
        return None
    if (not isinstance(cleaned, dict) or not isinstance(unmarked, list)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in cleaned.items())
            or not all(isinstance(x, str) for x in unmarked)):
        return None
    return cleaned, unmarked


def keep_replay(kept: ReplayOfPlan) -> str | None:
    """Keep a plan's last replay; its digest (the name the address gives), or None."""
    data = kept.model_dump_json().encode()
    digest = hashlib.sha256(data).hexdigest()
    if _write(f"replay-{digest}.json", data) is None:
        return None
    hold_live_replay(digest, kept)
    return digest


def hold_live_replay(digest: str, kept: ReplayOfPlan) -> None:
    """Note that `kept` (the replay object a session holds) is what `digest` names, for as
    long as that session holds it (read back after a reload, it is a copy marked so)."""
    for gone in [d for d, (ref, _) in _LIVE_REPLAYS.items() if ref() is None]:
        del _LIVE_REPLAYS[gone]
    _LIVE_REPLAYS[digest] = (weakref.ref(kept.replay), kept.plan_key)


def load_replay(digest: str) -> ReplayOfPlan | None:
    """The replay kept under `digest`, or None (not a digest, gone, changed, invalid)."""
    data = _read_verified("replay-", digest)
    if data is None:
        return None
    ref, plan_key = _LIVE_REPLAYS.get(digest, (None, ""))
    live = ref() if ref is not None else None
    if live is not None:
        return ReplayOfPlan(plan_key=plan_key, replay=live)
    try:
        kept = ReplayOfPlan.model_validate_json(data)
    except ValidationError:
        return None
    hold_live_replay(digest, kept)
    return kept
