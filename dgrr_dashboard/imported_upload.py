"""An import of uploaded OTLP traces and a Mem0 history database, made as `dgrr import`
makes it: in the upload worker (team mode) or in the server (docs/dashboard.md).

A Mem0 history uploaded alone is streamed as the command streams it
(`importers._mem0_case`): its records go from the database into a case file one memory
at a time, and the case is read back from that file, instead of every record being held
as a dict, then as a model, then as the model's JSON again. No Streamlit here (the worker
imports it)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from repair_core import Case, CaseError, parse_case
from repair_core.importers import import_trace
from repair_core.importers._mem0_case import import_mem0_history_file

__all__ = ["ImportedUpload", "import_uploads"]


@dataclass(frozen=True)
class ImportedUpload:
    """The case an import made, and what the importer found."""

    case: Case
    """The imported case."""
    summary: str
    """What the importer found, as it describes it (files named as uploaded)."""
    case_json: str | None
    """The case file's text when the history was streamed into one (what the worker
    sends back instead of dumping the case again); None otherwise."""
    streamed: bool
    """Whether the records were streamed into a case file (a Mem0 history alone)."""


def import_uploads(traces: Sequence[tuple[str, bytes]], store: tuple[str, bytes] | None, *,
                   faults: Sequence[str] = (),
                   cancelled: Callable[[], bool] | None = None) -> ImportedUpload:
    """Import `traces` (uploaded name, bytes) and the Mem0 history `store` (or None).
    A problem raises `CaseError`, its messages naming each file as it was uploaded."""
    # uploaded bytes go to fixed file names in a private folder: an uploaded name never
    # becomes a path; messages then name each file as it was uploaded
    with tempfile.TemporaryDirectory(prefix="dgrr-import-") as tmp:
        given: dict[Path, str] = {}
        paths = []
        for i, (name, data) in enumerate(traces):
            paths.append(Path(tmp) / f"trace-{i}.json")
            paths[-1].write_bytes(data)
            given[paths[-1]] = name
        store_path = None
        if store is not None:
            store_path = Path(tmp) / "store.db"
            store_path.write_bytes(store[1])
            given[store_path] = store[0]

        def as_given(text: str) -> str:
            for path, name in given.items():
                text = text.replace(str(path), name).replace(path.name, name)
            return text

        try:
            if store_path is not None and not paths:
                out = Path(tmp) / "case.json"
                summary = import_mem0_history_file(store_path, out, faults=list(faults),
                                                   cancelled=cancelled)
                text = out.read_text(encoding="utf-8")
                case = parse_case(text, source=store[0] if store else "import")
                return ImportedUpload(case, as_given(summary.describe()), text, True)
            imported = import_trace(paths, store=store_path, faults=list(faults),
                                    cancelled=cancelled)
        except CaseError as exc:
            problems, source = [as_given(str(x)) for x in exc.problems], exc.source
            del exc  # bound while raising, this frame -> exc -> traceback -> frame is a cycle
            raise CaseError(problems, source=as_given(source or "import")) from None
        return ImportedUpload(imported.case, as_given(imported.summary.describe()), None,
                              False)
