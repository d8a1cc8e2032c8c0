"""A Mem0 history imported alone (`dgrr import --store HISTORY --out CASE`), written
straight to its case file in bounded memory.

`import_trace` builds the whole case (every record as a dict, then as a model, then the
model's JSON again to write it): 2.6 GB resident for a 1M-row history. Here the records
come from the database one memory at a time (`iter_mem0_history`), each is validated with
the case's own record model and written at once, and the finished file is checked by the
bounded validator (`case._stream.validate_file`: the loader's checks, without building
the case) before it replaces `--out`; a problem leaves nothing behind. The file is the
one `import_trace` and `model_dump` would write, byte for byte."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .._errors import CaseError
from .._io import atomic_open, check_output_file, indented_json, to_json
from ..case._case import MemoryRecord
from ..case._load import case_from_data
from ..case._owner import UNKNOWN_USER
from ..case._stream import validate_file
from ._mem0 import iter_mem0_history

__all__ = ["import_mem0_history_file", "history_case_id"]

_RECORD = TypeAdapter(MemoryRecord)
_CHUNK = 1 << 20


def history_case_id(store: str | Path) -> str:
    """`mem0-` and the first 12 hex digits of the database's SHA-256 (read in chunks):
    the same history imports to the same case."""
    digest = hashlib.sha256()
    with Path(store).open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return f"mem0-{digest.hexdigest()[:12]}"


def _record_json(record: dict[str, Any], source: str) -> str:
    """One record as the case file holds it (indented as `to_json` indents an item of
    the case's `memory` list)."""
    try:
        model = _RECORD.validate_python(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CaseError([f"memory record {record.get('id')!r}: {where}: {first['msg']}"],
                        source=source) from None
    text = indented_json(model.model_dump(mode="json", exclude_none=True), 1)
    return "  " + text.replace("\n", "\n  ")


def import_mem0_history_file(store: str | Path, out: str | Path, *,
                             faults: Sequence[str] = (), user: str | None = None,
                             case_id: str | None = None,
                             cancelled: Callable[[], bool] | None = None) -> Any:
    """Write the case of the Mem0 history `store` alone (no turns, no steps, see
    `importers._store_only`) to `out`, atomically, only when valid; its
    :class:`~repair_core.importers.ImportSummary`."""
    from . import ImportSummary

    source = str(store)
    user_id = user or UNKNOWN_USER
    case_id = case_id if case_id is not None else history_case_id(store)
    # the case without its records: validated and laid out as import_trace writes it
    head = case_from_data({"format": "dgrr.case/v1", "case_id": case_id, "user_id": user_id,
                           "session": [], "memory": [], "trajectory": [], "faults": []},
                          source="import")
    top = head.model_dump(mode="json", exclude_none=True)
    top["faults"] = list(faults)
    text = to_json(top, 1)
    marker = '\n "memory": [],'
    if marker not in text:  # the layout to_json gives a top-level empty list
        raise AssertionError("unexpected case layout")
    before, after = text.split(marker, 1)
    target = check_output_file(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    # written and checked beside `out` first, then copied into it atomically: a history
    # with a problem leaves neither file
    fd, draft = tempfile.mkstemp(dir=target.parent, prefix=".dgrr-import-", suffix=".tmp")
    records = deps = 0
    try:
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(before + '\n "memory": [')
            for record in iter_mem0_history(store, user=user_id, cancelled=cancelled):
                fh.write(("," if records else "") + "\n" + _record_json(record, source))
                records += 1
                deps += len(record["deps"])
            fh.write(("\n ]," if records else "],") + after)
        try:
            validate_file(draft)  # the loader's checks, without building the case
        except CaseError as exc:
            raise CaseError(exc.problems, source="import") from None
        with open(draft, encoding="utf-8") as src, atomic_open(out) as dst:
            shutil.copyfileobj(src, dst, _CHUNK)
    finally:
        Path(draft).unlink(missing_ok=True)
    return ImportSummary(
        sources=[f"{Path(store).name} (Mem0 history)"], trace_id="", spans_read=0,
        spans_used=0, turns=0, steps=0, records=records, deps_given=deps, deps_inferred=0)

