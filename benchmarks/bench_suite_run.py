"""Time `dgrr bench run` on a whole suite x all ten methods from a cold start.

Usage: python benchmarks/bench_suite_run.py [--suite controlled] [--workers 2]

Runs the CLI in a fresh process (litellm import and process-pool start-up included) into
a temporary results folder, then re-runs it to time a resume that has nothing left to do.
Prints one JSON object (wall and CPU seconds: on a shared machine the CPU time divided by
the workers is the better estimate of an unloaded run); results are recorded in
docs/results.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers)."""
    env = {**os.environ, "DGRR_NO_PROGRESS": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "repair_core", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--suite", default="controlled")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        argv = ["bench", "run", "--suite", a.suite, "--methods", "all", "--workers",
                str(a.workers), "--out", str(out), "--no-progress"]
        cold, cold_cpu = _run(argv)
        resume, _ = _run(argv)
        summary = json.loads((out / "summary.json").read_text())
    print(json.dumps({
        "suite": a.suite, "workers": a.workers, "methods": len(summary),
        "cases": summary["ours"]["cases"], "seconds_full_run": round(cold, 1),
        "cpu_seconds_full_run": round(cold_cpu, 1),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "seconds_resume_nothing_left": round(resume, 1), "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }, indent=1))


if __name__ == "__main__":
    main()
