"""Reading a fleet result back, and the triage order: the worst cases first."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._errors import DgrrError
from ._case_row import ROW_FIELDS

__all__ = ["FleetResult", "read_fleet_result", "by_severity", "SEVERITY"]

SEVERITY = ("answer_changed", "answer_affected", "irreversible", "replay_size")
"""Sort keys of triage, most severe first: the answer changed (after a repair), the answer
itself unsupported (from the plan), irreversible tool calls the faults drove, replay size."""


@dataclass(frozen=True)
class FleetResult:
    """A fleet run's output folder, read."""

    folder: Path
    rows: Any
    """`cases.parquet` as a pandas DataFrame."""
    summary: dict[str, Any]
    """`summary.json`."""
    run: dict[str, Any]
    """`fleet-run.json`: what was asked (spec, sources, the folder it ran in)."""

    @property
    def base(self) -> Path | None:
        """The folder relative sources are relative to."""
        cwd = self.run.get("cwd")
        return Path(cwd) if isinstance(cwd, str) else None


def read_fleet_result(folder: str | Path) -> FleetResult:
    """Read `cases.parquet`, `summary.json` and `fleet-run.json` of a fleet run."""
    import pandas as pd

    folder = Path(folder)
    cases = folder / "cases.parquet"
    if not cases.is_file():
        raise DgrrError(f"{folder}: no cases.parquet (not a finished `dgrr fleet` output)")
    try:
        rows = pd.read_parquet(cases)
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        run_file = folder / "fleet-run.json"
        run = json.loads(run_file.read_text(encoding="utf-8")) if run_file.is_file() else {}
    except (OSError, ValueError) as exc:
        raise DgrrError(f"{folder}: cannot read the fleet result: {exc}") from None
    missing = [c for c in ROW_FIELDS if c not in rows.columns]
    if missing:
        raise DgrrError(f"{cases}: not a dgrr fleet table (missing columns {missing})")
    return FleetResult(folder=folder, rows=rows, summary=summary, run=run)


def by_severity(rows: Any) -> Any:
    """`rows` (a DataFrame) sorted most severe first; ties keep fleet order.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"index": [0, 1, 2], "answer_changed": [None, True, None],
    ...                    "answer_affected": [True, False, False], "irreversible": [0, 0, 2],
    ...                    "replay_size": [3, 1, 9]})
    >>> list(by_severity(df)["index"])
    [1, 0, 2]
    """
    keys = rows[list(SEVERITY)].copy()
    keys["answer_changed"] = keys["answer_changed"].fillna(False).astype(bool)
    keys["answer_affected"] = keys["answer_affected"].fillna(False).astype(bool)
    keys["index"] = rows["index"]
    order = keys.sort_values([*SEVERITY, "index"],
                             ascending=[False] * len(SEVERITY) + [True], kind="stable").index
    return rows.loc[order]
