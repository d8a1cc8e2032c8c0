"""Which planner runs: the networkx planner (the reference) or the columnar fast path.

For `dgrr plan` (readable, `--json` or `--ops`) and `dgrr validate`, `auto` (the default)
takes the columnar path for case files of at least :data:`COLUMNAR_MIN_BYTES`; `columnar`
takes it for any size; `networkx` never does. The columnar planner implements the same
rules (the later ones included: carried fault text, earlier turns as support, the
restore rules, faults on observations and user turns) for every objective (`answer`,
`store`, `both`). Whenever the columnar path declines (an invalid case, inferred edges, an
option it does not implement: `--memory`), the networkx planner runs instead, so the
output does not depend on the choice, only the time does. The one exception: a key
repeated inside one JSON object, which the exact loader refuses and the columnar reader
takes the last value of (docs/performance.md).
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO, TypeVar

from .._progress import Progress

if TYPE_CHECKING:
    from ..case._columns import CaseColumns
    from ._summary import PlanSummary

__all__ = ["PLANNERS", "COLUMNAR_MIN_BYTES", "columnar_plan_json", "columnar_plan_ops_of",
           "columnar_plan_report_of", "columnar_plan_summary_of", "columnar_summary",
           "wants_columnar"]

Planner = Literal["auto", "columnar", "networkx"]
PLANNERS: tuple[str, ...] = ("auto", "columnar", "networkx")
COLUMNAR_MIN_BYTES = 2_000_000
"""From this file size up (about 6,000 steps) `auto` uses the columnar path; below it the
networkx planner takes well under a second and keeps every check of the exact loader."""


def wants_columnar(planner: str, size: int) -> bool:
    """Whether `planner` asks for the columnar path for a file of `size` bytes."""
    return planner == "columnar" or (planner == "auto" and size >= COLUMNAR_MIN_BYTES)


def columnar_plan_json(path: str | Path, out: TextIO,
                       progress: Progress | None = None, objective: str = "answer",
                       ops: bool = False, faults: list[str] | None = None,
                       suspects: str = "quarantine",
                       check_not_suspect: NotSuspect | None = None,
                       check_clean_source: CleanSource | None = None) -> bool:
    """Write the plan report of the case file at `path` to `out` as `dgrr plan --json`
    does; False (nothing written) when the columnar path declines and the caller should
    run the networkx planner."""
    from ._columnar_plan import columnar_plan_json_bytes

    bar = progress or Progress()

    def write(cols: CaseColumns) -> bool:
        # the parts hold the planner, and so the columns, until the last is written;
        # what only deciding reads is let go before the report is made
        parts = columnar_plan_json_bytes(cols, objective, ops=ops, suspects=suspects,
                                         not_suspect=_unmarked(cols, check_not_suspect),
                                         clean_source=_cleaned(cols, check_clean_source),
                                         let_go=True)
        bar.stage("write")
        binary = _utf8_buffer(out)
        if binary is not None:
            out.flush()
        for part in parts:
            if binary is not None:
                binary.write(part)
            else:
                out.write(part.decode())
        if binary is not None:
            binary.flush()
        return True

    return _planned(path, bar, faults, write) is not None


def columnar_plan_summary_of(path: str | Path, progress: Progress | None = None,
                             objective: str = "answer", faults: list[str] | None = None,
                             suspects: str = "quarantine",
                             check_not_suspect: NotSuspect | None = None,
                             check_clean_source: CleanSource | None = None
                             ) -> PlanSummary | None:
    """The readable plan of the case file at `path` (what `dgrr plan` prints), or None
    when the columnar path declines and the caller should run the networkx planner."""
    from ._columnar_summary import columnar_plan_summary

    return _planned(path, progress, faults, lambda c: columnar_plan_summary(
        c, objective, suspects=suspects, not_suspect=_unmarked(c, check_not_suspect),
        clean_source=_cleaned(c, check_clean_source)),
        keep_text=True)


def columnar_plan_ops_of(path: str | Path, progress: Progress | None = None,
                         objective: str = "answer", faults: list[str] | None = None,
                         suspects: str = "quarantine",
                         check_not_suspect: NotSuspect | None = None,
                         check_clean_source: CleanSource | None = None
                         ) -> list[dict] | None:
    """The plan's operations of the case file at `path` as JSON data (what `dgrr plan
    --ops` prints), or None when the columnar path declines."""
    report = columnar_plan_report_of(path, progress, objective, faults, suspects,
                                     check_not_suspect, check_clean_source)
    return None if report is None else report["ops"]


def columnar_plan_report_of(path: str | Path | bytes, progress: Progress | None = None,
                            objective: str = "answer", faults: list[str] | None = None,
                            suspects: str = "quarantine",
                            check_not_suspect: NotSuspect | None = None,
                            check_clean_source: CleanSource | None = None
                            ) -> dict[str, Any] | None:
    """The plan report of the case file at `path` (or of its bytes) with its operations,
    as JSON data
    (what `dgrr plan --json --ops` prints, and what `repair` runs from), or None when
    the columnar path declines."""
    from ._columnar_plan import columnar_plan_report

    return _planned(path, progress, faults, lambda c: columnar_plan_report(
        c, objective, ops=True, suspects=suspects,
        not_suspect=_unmarked(c, check_not_suspect),
        clean_source=_cleaned(c, check_clean_source)))


NotSuspect = Callable[[list[str]], list[str]]
"""Checks the un-marked suspects against the case's ids and returns them."""


def _unmarked(cols: CaseColumns, check: NotSuspect | None) -> list[str]:
    return check(cols.ids) if check is not None else []


CleanSource = Callable[[list[str]], dict[str, str]]
"""Checks the sources a reviewer cleans against the case's ids and returns them, each
with the reviewer's reason."""


def _cleaned(cols: CaseColumns, check: CleanSource | None) -> dict[str, str]:
    return check(cols.ids) if check is not None else {}


_T = TypeVar("_T")


def _planned(path: str | Path | bytes, progress: Progress | None, faults: list[str] | None,
             plan: Callable[[CaseColumns], _T], keep_text: bool = False) -> _T | None:
    """`plan` of the columns of the case file at `path` (or of its bytes, read already;
    None when the reader declines), read and planned with the collector paused, each long
    text made canonical once (`long_texts_read_once`) across both: the reader's carried-text
    search folds a fault's text, and so does its signature when planning."""
    from .._canonical import long_texts_read_once
    from .._io import map_input
    from .._perf import gc_paused
    from ..case._columns import read_columns

    bar = progress or Progress()
    with gc_paused(), long_texts_read_once():
        bar.stage("read")
        # the file's bytes (or its mapping, whose pages count as this process's memory
        # while it is mapped) are dropped once decoded: planning does not hold them
        cols = read_columns(path if isinstance(path, bytes) else map_input(path),
                            keep_text=keep_text, faults_override=faults, parallel=True)
        if cols is None:
            return None
        bar.stage("plan")
        return plan(cols)


def _utf8_buffer(out: TextIO) -> BinaryIO | None:
    """The byte stream under `out` when the report's UTF-8 bytes can go there as they are
    (a UTF-8 text stream that does not translate newlines, e.g. stdout on Linux): this
    spares encoding a report of hundreds of megabytes again."""
    binary = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    try:
        utf8 = encoding is not None and codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    return binary if utf8 and os.linesep == "\n" and binary is not None else None


def columnar_summary(path: str | Path) -> dict[str, object] | None:
    """format, case_id and counts of the valid case file at `path` (what `dgrr validate`
    prints), or None when the columnar reader declines."""
    from .._io import map_input
    from .._perf import gc_paused
    from ..case._columns import read_columns

    with gc_paused():
        cols = read_columns(map_input(path), fault_content=False, parallel=True)
    if cols is None:
        return None
    return {"format": "dgrr.case/v1", "case_id": cols.case_id, "turns": cols.n_turns,
            "steps": cols.n_steps, "records": cols.n_nodes - cols.n_turns - cols.n_steps,
            "faults": len(cols.faults)}


def file_size(path: str | Path) -> int:
    """Size of the file at `path` in bytes (0 when it cannot be read: the exact loader
    then words the problem)."""
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0
