"""The Ray engine: the same per-case function on Ray Data, reading and writing Parquet.

Pending cases are written as Parquet work files (one per chunk), read with
`ray.data.read_parquet`, split into one block per chunk (so the chunks run as parallel
tasks), mapped in batches through :func:`case_row`, and written with `Dataset.write_parquet` into a hidden
folder that is renamed into `parts/` when the write has finished. Cases go through Ray in
waves, so a killed run keeps every wave that finished.

`ray.init(num_cpus=workers, include_dashboard=False)` starts a local Ray on this machine;
with `address` the run joins an existing cluster instead (case texts then travel inside
the work files, so the cluster's nodes need not see this machine's folders).
"""

from __future__ import annotations

import logging
import shutil
import uuid
from pathlib import Path
from typing import Any

from .._errors import DgrrError
from ._case_row import case_row
from ._spec import FleetSpec, WorkItem
from ._table import INSTALL_HINT, items_of_table, rows_table, work_table, write_parquet_atomic

__all__ = ["run_on_ray", "require_ray", "process_batch", "work_dataset"]


def require_ray() -> Any:
    """The `ray` module with Ray Data, or a clear error saying how to get it."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise DgrrError(f"--engine ray needs Ray Data: {INSTALL_HINT}") from None
    return ray


def process_batch(batch: Any, spec: dict[str, Any]) -> Any:
    """A batch of work items (an Arrow table) -> their rows (an Arrow table)."""
    fleet_spec = FleetSpec(**spec)
    return rows_table([case_row(item, fleet_spec) for item in items_of_table(batch)])


def run_on_ray(pending: list[WorkItem], spec: FleetSpec, parts: Path, *, workers: int,
               address: str | None, chunk_size: int, progress: bool,
               wave_chunks: int | None = None) -> None:
    """Rows of every pending case, written under `parts/` by Ray in waves of
    `wave_chunks` chunks (default: four per CPU of the cluster, at least 16)."""
    ray = require_ray()
    started = _start(ray, workers, address)
    try:
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = progress
        if not progress:
            logging.getLogger("ray.data").setLevel(logging.WARNING)
        if address:
            pending = [_with_text(i) for i in pending]
        if wave_chunks is None:
            cpus = int(ray.cluster_resources().get("CPU", workers))
            wave_chunks = max(16, 4 * cpus)
        wave = chunk_size * wave_chunks
        for start in range(0, len(pending), wave):
            _run_wave(ray, pending[start:start + wave], spec, parts, chunk_size)
    finally:
        if started:
            ray.shutdown()


def _start(ray: Any, workers: int, address: str | None) -> bool:
    if ray.is_initialized():
        return False
    try:
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING)
    except Exception as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise DgrrError(f"--engine ray: could not start {where}: {exc}") from None
    return True


def _run_wave(ray: Any, items: list[WorkItem], spec: FleetSpec, parts: Path,
              chunk_size: int) -> None:
    run_id = uuid.uuid4().hex[:12]
    work = parts / f".work-{run_id}"
    written = parts / f".ray-{run_id}"
    work_dataset(ray, items, work, spec, chunk_size).write_parquet(str(written.resolve()))
    written.rename(parts / f"ray-{run_id}")
    shutil.rmtree(work, ignore_errors=True)


def work_dataset(ray: Any, items: list[WorkItem], work: Path, spec: FleetSpec,
                 chunk_size: int) -> Any:
    """`items` written to `work` as Parquet work files of `chunk_size` rows, and the Ray
    dataset mapping them through :func:`process_batch`: one block, hence one task, per
    work file."""
    chunks = range(0, len(items), chunk_size)
    for n, start in enumerate(chunks):
        write_parquet_atomic(work_table(items[start:start + chunk_size]),
                             work / f"work-{n:06d}.parquet")
    # The work files are small (paths, not cases) and Ray Data sizes read blocks by bytes:
    # left to itself it reads a whole wave as one block, so one task would plan every case
    # of the wave while the other CPUs sit idle.
    ds = ray.data.read_parquet(str(work.resolve())).repartition(len(chunks))
    return ds.map_batches(process_batch, fn_kwargs={"spec": spec.model_dump()},
                          batch_size=chunk_size, batch_format="pyarrow")


def _with_text(item: WorkItem) -> WorkItem:
    if item.text is not None or item.path is None:
        return item
    try:
        text = Path(item.path).read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return item  # the worker reports the error in the case's row
    return item.model_copy(update={"text": text, "path": None})
