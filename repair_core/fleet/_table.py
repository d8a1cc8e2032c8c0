"""Rows as Arrow tables and Parquet files (pyarrow comes with the `fleet` extra)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._errors import DgrrError
from .._io import _DEFAULT_MODE
from ._case_row import ROW_FIELDS
from ._spec import WorkItem

__all__ = ["require_pyarrow", "row_schema", "rows_table", "work_table", "items_of_table",
           "write_parquet_atomic", "INSTALL_HINT"]

INSTALL_HINT = "install with pip install 'dgrr[fleet]'"


def require_pyarrow() -> Any:
    """The pyarrow module (with `parquet` loaded), or a clear error saying how to get it."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise DgrrError(f"fleet runs need pyarrow: {INSTALL_HINT}") from None
    return pyarrow


def row_schema() -> Any:
    """The Arrow schema of `cases.parquet`, in `ROW_FIELDS` order."""
    pa = require_pyarrow()
    types = {"int64": pa.int64(), "string": pa.string(), "bool": pa.bool_(),
             "list<string>": pa.list_(pa.string())}
    return pa.schema([pa.field(name, types[t]) for name, t in ROW_FIELDS.items()])


def rows_table(rows: Sequence[dict[str, Any]]) -> Any:
    """The rows as an Arrow table of the `cases.parquet` schema."""
    return require_pyarrow().Table.from_pylist(list(rows), schema=row_schema())


def work_table(items: Sequence[WorkItem]) -> Any:
    """Work items as an Arrow table (what the Ray engine reads)."""
    pa = require_pyarrow()
    schema = pa.schema([("index", pa.int64()), ("source", pa.string()),
                        ("path", pa.string()), ("text", pa.string())])
    return pa.Table.from_pylist([i.model_dump() for i in items], schema=schema)


def items_of_table(table: Any) -> list[WorkItem]:
    """Work items back from an Arrow table or batch of `work_table`'s schema."""
    return [WorkItem(**r) for r in table.to_pylist()]


def write_parquet_atomic(table: Any, path: Path) -> Path:
    """Write `table` to `path` so that a reader sees the whole file or none of it."""
    pq = require_pyarrow().parquet
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table.replace_schema_metadata(None), tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, _DEFAULT_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
