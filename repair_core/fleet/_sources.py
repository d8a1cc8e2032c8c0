"""The cases of a fleet: folders of case files, case files, JSON-lines and Parquet datasets.

A folder is searched recursively, in sorted path order, for `*.json` case files (except
`manifest.json` and `*.plan.json`, which sit next to cases but are not cases), `*.jsonl`
datasets (one case object per line) and `*.parquet` datasets (one case per row, as JSON
text in a `case` column). The order is stable, so a rerun sees the same fleet in the same
order and can skip what is done.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from .._errors import CaseError, DgrrError
from ..case._case import Case
from ..case._load import load_case, parse_case
from ._spec import WorkItem

__all__ = ["fleet_items", "case_at", "NOT_CASES", "DATASET_COLUMN"]

NOT_CASES = ("manifest.json",)
"""File names in a case folder that are never cases (besides `*.plan.json`)."""
DATASET_COLUMN = "case"
"""The column of a Parquet dataset that holds each case as JSON text."""


def fleet_items(sources: Sequence[str], exclude: Path | None = None) -> list[WorkItem]:
    """Every case the sources name, numbered in order; `exclude` is a folder to skip
    (the run's own output when it sits inside a source folder)."""
    if not sources:
        raise DgrrError("no sources given: name case files, folders or datasets")
    items: list[WorkItem] = []
    skip = exclude.resolve() if exclude is not None else None
    for source in sources:
        p = Path(source)
        if p.is_dir():
            files = [f for f in sorted(p.rglob("*")) if _is_case_file(f, skip)]
        elif p.is_file():
            files = [p]
        else:
            raise DgrrError(f"source '{source}': no such file or folder")
        for f in files:
            for item in _items_of(f):
                items.append(item.model_copy(update={"index": len(items)}))
    return items


def _is_case_file(f: Path, skip: Path | None) -> bool:
    if not f.is_file() or f.name.startswith("."):
        return False
    if skip is not None and skip in f.resolve().parents:
        return False
    if f.suffix == ".json":
        return f.name not in NOT_CASES and not f.name.endswith(".plan.json")
    return f.suffix in (".jsonl", ".parquet")


def _items_of(f: Path) -> Iterator[WorkItem]:
    if f.suffix == ".jsonl":
        try:
            with f.open(encoding="utf-8") as fh:
                for n, line in enumerate(fh, start=1):
                    if line.strip():
                        yield WorkItem(index=0, source=f"{f}:{n}", text=line)
        except (OSError, UnicodeDecodeError) as exc:
            raise DgrrError(f"source '{f}': cannot read it as JSON lines: {exc}") from None
    elif f.suffix == ".parquet":
        yield from _parquet_items(f)
    else:
        yield WorkItem(index=0, source=str(f), path=str(f))


def _parquet_items(f: Path) -> Iterator[WorkItem]:
    from ._table import require_pyarrow

    pq = require_pyarrow().parquet
    try:
        table = pq.read_table(f)
    except Exception as exc:
        raise DgrrError(f"source '{f}': not a readable Parquet file: {exc}") from None
    if DATASET_COLUMN not in table.column_names:
        raise DgrrError(f"source '{f}': a Parquet dataset of cases needs a '{DATASET_COLUMN}' "
                        f"column of case JSON text; it has {table.column_names}")
    for n, text in enumerate(table.column(DATASET_COLUMN).to_pylist()):
        yield WorkItem(index=0, source=f"{f}#{n}", text=text if isinstance(text, str) else
                       ("" if text is None else str(text)))


def case_at(source: str, base: Path | None = None) -> Case:
    """The case a row's `source` names (a file, `FILE.jsonl:LINE` or `FILE.parquet#ROW`),
    with relative paths taken from `base` (the folder the fleet ran in)."""
    def where(name: str) -> Path:
        p = Path(name)
        return p if p.is_absolute() or base is None else base / p

    name, sep, line = source.rpartition(":")
    if sep and name.endswith(".jsonl") and line.isdigit():
        try:
            with where(name).open(encoding="utf-8") as fh:
                for n, text in enumerate(fh, start=1):
                    if n == int(line):
                        return parse_case(text, source=source)
        except OSError as exc:
            raise CaseError([f"cannot read '{name}': {exc.strerror}"], source=source) from None
        raise CaseError([f"'{name}' has no line {line}"], source=source)
    name, sep, row = source.rpartition("#")
    if sep and name.endswith(".parquet") and row.isdigit():
        case_text = _parquet_row(where(name), int(row))
        if case_text is None:
            raise CaseError([f"'{name}' has no row {row}"], source=source)
        return parse_case(case_text, source=source)
    return load_case(where(source))


def _parquet_row(f: Path, row: int) -> str | None:
    """The case text in row `row` of a Parquet dataset (None past its end), reading only
    the row group that holds it."""
    from ._table import require_pyarrow

    pq = require_pyarrow().parquet
    try:
        pf = pq.ParquetFile(f)
        if DATASET_COLUMN not in pf.schema_arrow.names:
            raise DgrrError(f"source '{f}': a Parquet dataset of cases needs a "
                            f"'{DATASET_COLUMN}' column of case JSON text")
        for group in range(pf.num_row_groups):
            rows = pf.metadata.row_group(group).num_rows
            if row < rows:
                text = pf.read_row_group(group, columns=[DATASET_COLUMN]).column(0)[row]
                value = text.as_py()
                return value if isinstance(value, str) else ("" if value is None else str(value))
            row -= rows
    except DgrrError:
        raise
    except Exception as exc:
        raise DgrrError(f"source '{f}': not a readable Parquet file: {exc}") from None
    return None
