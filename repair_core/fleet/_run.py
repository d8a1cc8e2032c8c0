"""`run_fleet`: every case of a fleet through the per-case function, on one of two engines,
into `cases.parquet` and `summary.json`.

Rows are kept in part files under `DIR/parts/` as they finish (each written atomically),
so a killed run loses only the chunks in flight and a rerun skips every case already in a
part. When all cases have a row, the parts are combined, in fleet order, into
`DIR/cases.parquet`; `DIR/summary.json` is written last. `DIR/fleet-run.json` records what
the run was asked, and a rerun asking something else into the same DIR is refused.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Literal

from .._errors import DgrrError
from .._io import atomic_write_json
from ._case_row import case_row
from ._sources import fleet_items
from ._spec import FleetSpec, WorkItem
from ._table import require_pyarrow, rows_table, write_parquet_atomic

__all__ = ["run_fleet", "Engine", "RUN_FORMAT", "read_parts", "chunks", "peak_rss_mb"]

Engine = Literal["local", "ray"]
RUN_FORMAT = "dgrr.fleet/v1"
PARTS = "parts"


def run_fleet(sources: Sequence[str], spec: FleetSpec, out: str | Path, *,
              engine: Engine = "local", workers: int = 1, address: str | None = None,
              chunk_size: int | None = None, progress: bool | None = None) -> dict[str, Any]:
    """Process every case of `sources` not already done in `out`; write `cases.parquet`
    and `summary.json`; return the summary."""
    start = time.perf_counter()
    require_pyarrow()
    if engine not in ("local", "ray"):
        raise DgrrError(f"--engine {engine!r}: expected local or ray")
    if engine == "ray":
        from ._ray import require_ray

        require_ray()
    if workers < 1:
        raise DgrrError(f"--workers must be at least 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        raise DgrrError(f"--chunk-size must be at least 1, got {chunk_size}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DgrrError(f"--out {out}: exists and is not a folder")
    items = fleet_items(sources, exclude=out)
    parts = out / PARTS
    _check_run(out, sources, spec, items)
    done = read_parts(parts)
    pending = [i for i in items if i.index not in done]
    size = chunk_size or _chunk_size(len(pending), workers)
    show = sys.stderr.isatty() and os.environ.get("DGRR_NO_PROGRESS") != "1" \
        if progress is None else progress
    peak = 0.0
    if pending:
        if engine == "ray":
            from ._ray import run_on_ray

            run_on_ray(pending, spec, parts, workers=workers, address=address,
                       chunk_size=size, progress=show)
        else:
            peak = _run_local(pending, spec, parts, workers=workers, chunk_size=size,
                              total=len(items), progress=show)
    table = _combine(parts, len(items))
    write_parquet_atomic(table, out / "cases.parquet")
    summary = _summary(table, spec, engine=engine, workers=workers,
                       processed=len(pending), wall=time.perf_counter() - start)
    if peak:
        summary["peak_worker_rss_mb"] = round(peak, 1)
    atomic_write_json(out / "summary.json", summary)
    return summary


def chunks(items: Sequence[WorkItem], size: int) -> Iterator[list[WorkItem]]:
    """`items` in consecutive runs of at most `size`."""
    for i in range(0, len(items), size):
        yield list(items[i:i + size])


def _chunk_size(pending: int, workers: int) -> int:
    # Enough chunks to keep every worker busy to the end, few enough that per-chunk
    # overhead (a part file each) stays small.
    return max(1, min(500, math.ceil(pending / (workers * 8))))


def _process_chunk(items: list[WorkItem], spec: FleetSpec) -> tuple[list[dict[str, Any]], float]:
    rows = [case_row(item, spec) for item in items]
    return rows, peak_rss_mb()


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _part_name(chunk: list[WorkItem]) -> str:
    return f"part-{chunk[0].index:09d}-{chunk[-1].index:09d}.parquet"


def _run_local(pending: list[WorkItem], spec: FleetSpec, parts: Path, *, workers: int,
               chunk_size: int, total: int, progress: bool) -> float:
    bar = _progress_bar(total, total - len(pending), progress)
    todo = chunks(pending, chunk_size)
    peak = 0.0
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        running: dict[Future[Any], list[WorkItem]] = {}
        while True:
            while len(running) < workers * 2:
                chunk = next(todo, None)
                if chunk is None:
                    break
                running[pool.submit(_process_chunk, chunk, spec)] = chunk
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in finished:
                chunk = running.pop(fut)
                rows, rss = fut.result()
                peak = max(peak, rss)
                write_parquet_atomic(rows_table(rows), parts / _part_name(chunk))
                bar(len(rows))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return peak


def _progress_bar(total: int, initial: int, enabled: bool) -> Callable[[int], None]:
    if not enabled:
        return lambda n: None
    from tqdm import tqdm

    bar = tqdm(total=total, initial=initial, unit="case", desc="dgrr fleet",
               dynamic_ncols=True, file=sys.stderr)

    def update(n: int) -> None:
        bar.update(n)
        if bar.n >= total:
            bar.close()

    return update


def part_files(parts: Path) -> list[Path]:
    """Finished part files (a folder being written by Ray starts with a dot)."""
    if not parts.is_dir():
        return []
    return sorted(f for f in parts.rglob("*.parquet")
                  if not any(p.startswith(".") for p in f.relative_to(parts).parts))


def read_parts(parts: Path) -> set[int]:
    """Indices of the cases that already have a row; removes what a killed run left
    half-written (hidden temporary files and folders)."""
    if parts.is_dir():
        for leftover in parts.glob(".*"):
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
    pq = require_pyarrow().parquet
    done: set[int] = set()
    for f in part_files(parts):
        try:
            done.update(pq.read_table(f, columns=["index"]).column("index").to_pylist())
        except Exception as exc:
            raise DgrrError(f"{f}: an unreadable part of an earlier run ({exc}); remove it "
                            "and rerun to redo its cases") from None
    return done


def _combine(parts: Path, n: int) -> Any:
    pa = require_pyarrow()
    pq = pa.parquet
    tables = [pq.read_table(f) for f in part_files(parts)]
    from ._table import row_schema

    schema = row_schema()
    table = (pa.concat_tables([t.select(schema.names).cast(schema) for t in tables])
             if tables else schema.empty_table())
    table = table.sort_by("index")
    import numpy as np

    index = table.column("index").to_numpy()
    if len(index) > 1:
        first = np.ones(len(index), dtype=bool)  # a case redone by a resumed run: keep one
        first[1:] = index[1:] != index[:-1]
        if not first.all():
            table = table.filter(pa.array(first))
            index = index[first]
    if len(index) != n or (n and (index[0] != 0 or index[-1] != n - 1)):
        raise DgrrError(f"{parts}: the parts do not cover the fleet's {n} cases; remove the "
                        "folder and rerun")
    return table.combine_chunks()


def _summary(table: Any, spec: FleetSpec, *, engine: str, workers: int, processed: int,
             wall: float) -> dict[str, Any]:
    """The counts and totals of `summary.json`, computed column-wise (no row objects, so
    memory stays small for millions of rows)."""
    pc = require_pyarrow().compute

    def total(col: str) -> int:
        return int(pc.sum(table.column(col)).as_py() or 0)

    def count(mask: Any) -> int:
        return int(pc.sum(pc.cast(pc.fill_null(mask, False), "int64")).as_py() or 0)

    return {
        "cases": table.num_rows,
        "matched_cases": count(table.column("matched")),
        "affected_cases": count(pc.greater(table.column("affected"), 0)),
        "answer_relevant_cases": count(pc.greater(table.column("answer_relevant"), 0)),
        "answers_affected": count(table.column("answer_affected")),
        "answers_changed": count(table.column("answer_changed")) if spec.replay else None,
        "error_cases": count(pc.is_valid(table.column("error"))),
        "totals": {c: total(c) for c in ("affected", "unsupported", "answer_relevant",
                                         "replay_size", "store_operations", "irreversible",
                                         "failures", "llm_calls", "tokens")},
        "match": spec.describe(),
        "replay": spec.replay,
        "model": spec.model if spec.replay else None,
        "engine": engine,
        "workers": workers,
        "processed_cases": processed,
        "resumed_cases": table.num_rows - processed,
        "wall_seconds": round(wall, 3),
    }


def _check_run(out: Path, sources: Sequence[str], spec: FleetSpec,
               items: Sequence[WorkItem]) -> None:
    digest = hashlib.sha256("\n".join(i.source for i in items).encode()).hexdigest()
    asked = {"format": RUN_FORMAT, "spec": spec.model_dump(mode="json"),
             "sources": list(sources), "cases": len(items), "fleet_sha256": digest}
    run_file = out / "fleet-run.json"
    if run_file.exists():
        try:
            before = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            before = None
        if isinstance(before, dict):
            before.pop("cwd", None)
        if before != asked:
            diff = sorted(k for k in asked if not isinstance(before, dict)
                          or before.get(k) != asked[k])
            raise DgrrError(f"--out {out}: holds a fleet run that asked something else "
                            f"(differs in: {', '.join(diff)}); use another folder or remove it")
        return
    if (out / PARTS).exists():
        raise DgrrError(f"--out {out}: has parts but no fleet-run.json; remove the folder")
    atomic_write_json(run_file, {**asked, "cwd": os.getcwd()})
