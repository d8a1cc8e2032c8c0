"""The Ray engine gives the same `cases.parquet` as the local engine (Ray local, 2 CPUs,
no dashboard), including the issue's done-when check run through the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
import pyarrow.parquet as pq  # noqa: E402

from repair_core.fleet import FleetSpec, run_fleet  # noqa: E402
from repair_core.fleet._spec import WorkItem  # noqa: E402
from repair_core.fleet._synth_fleet import write_synth_fleet  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CONTROLLED = ROOT / "sample_traces" / "controlled"
QUAY = "5 Quay Ln, Dublin"


def _dgrr(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DGRR_NO_PROGRESS": "1",
           "RAY_USAGE_STATS_ENABLED": "0"}
    return subprocess.run([sys.executable, "-m", "repair_core", *args], env=env,
                          capture_output=True, text=True, timeout=600)


def test_done_when_ray_and_local_report_exactly_the_cases_holding_the_text(tmp_path):
    expected = {}
    for f in sorted(CONTROLLED.glob("*.json")):
        data = json.loads(f.read_text())
        ids = [m["id"] for m in data.get("memory", []) if QUAY in m["text"]]
        if ids:
            expected[data["case_id"]] = ids
    assert expected
    for engine in ("ray", "local"):
        done = _dgrr("fleet", str(CONTROLLED), "--match-text", QUAY, "--engine", engine,
                     "--workers", "2", "--out", str(tmp_path / engine))
        assert done.returncode == 0, done.stderr[-3000:]
        assert f"matched (a record matches):          {len(expected)}" in done.stdout
        rows = pq.read_table(tmp_path / engine / "cases.parquet").to_pylist()
        assert {r["case_id"]: r["faults"] for r in rows if r["matched"]} == expected
        assert all(r["affected"] > 0 for r in rows if r["matched"])
        summary = json.loads((tmp_path / engine / "summary.json").read_text())
        assert summary["engine"] == engine and summary["matched_cases"] == len(expected)
    assert (tmp_path / "ray" / "cases.parquet").read_bytes() == \
        (tmp_path / "local" / "cases.parquet").read_bytes()


def test_both_engines_identical_on_a_synthetic_fleet_with_errors_and_resumption(tmp_path):
    src = tmp_path / "src"
    manifest = write_synth_fleet(src, 50, 5, 2, seed=3)
    (src / "zz-broken.json").write_text("{ not a case")
    target = next(s for s in manifest["shared_records"] if s["poisoned"])
    spec = FleetSpec(mode="text", value=target["text"])
    local = run_fleet([str(src)], spec, tmp_path / "local", workers=2, progress=False)
    assert local["error_cases"] == 1 and local["cases"] == 51 and local["matched_cases"] > 0

    # a run cut short (every other part file lost), resumed on Ray
    resumed = tmp_path / "resumed"
    run_fleet([str(src)], spec, resumed, workers=1, chunk_size=5, progress=False)
    parts = sorted((resumed / "parts").glob("part-*.parquet"))
    assert len(parts) == 11
    for f in parts[::2]:
        f.unlink()
    lost = 5 * 5 + 1  # parts 0, 2, 4, 6, 8 hold 5 cases each, part 10 holds the last one
    (resumed / "cases.parquet").unlink()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_fleet([str(src)], spec, resumed, engine="ray", workers=2,
                           chunk_size=4, progress=False)
        fresh = run_fleet([str(src)], spec, tmp_path / "ray", engine="ray", workers=2,
                          progress=False)
        blocks = _blocks_of_a_wave(src, spec, tmp_path / "work")
    finally:
        ray.shutdown()
    assert blocks == 4  # one task per chunk, so both CPUs work (Ray alone made it 1 block)
    assert on_ray["processed_cases"] == lost and on_ray["resumed_cases"] == 51 - lost
    assert fresh["processed_cases"] == 51
    local_bytes = (tmp_path / "local" / "cases.parquet").read_bytes()
    assert (resumed / "cases.parquet").read_bytes() == local_bytes
    assert (tmp_path / "ray" / "cases.parquet").read_bytes() == local_bytes
    for key in ("cases", "matched_cases", "affected_cases", "error_cases", "totals"):
        assert fresh[key] == local[key], key


def _blocks_of_a_wave(src: Path, spec: FleetSpec, work: Path) -> int:
    """Blocks of the dataset of one wave of 40 cases in chunks of 10 (as _run_wave makes it)."""
    from repair_core.fleet._ray import work_dataset

    items = [WorkItem(index=i, source=str(f), path=str(f))
             for i, f in enumerate(sorted(src.glob("*.json"))[:40])]
    return work_dataset(ray, items, work, spec, 10).materialize().num_blocks()
