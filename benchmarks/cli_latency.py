"""Time the first answer of the CLI: `dgrr plan` and `dgrr repair` on the Figure-1 case,
each in a fresh process, as a user runs them.

Usage: python benchmarks/cli_latency.py [--runs 15] [--dgrr PATH]

Runs each command `--runs` times (after one warm-up run) and prints one JSON object with
the wall-clock and CPU seconds (user + system, from the child's rusage) of each: minimum,
median and maximum. CPU time is what the command costs; wall time is what a user waits,
and on a shared machine it also holds the time spent waiting for a core (the load average
is printed beside it). `--dgrr` runs a console script (e.g. a fresh venv's `bin/dgrr`)
instead of `python -m repair_core`. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = str(ROOT / "sample_traces" / "figure1-travel.json")
COMMANDS = {"plan": ["plan", CASE], "repair": ["repair", CASE]}


def _one(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _summary(values: list[float]) -> dict[str, float]:
    return {"min": round(min(values), 3), "median": round(statistics.median(values), 3),
            "max": round(max(values), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--dgrr", default=None, help="console script to run instead of "
                                                 "`python -m repair_core`")
    args = ap.parse_args()
    prefix = [args.dgrr] if args.dgrr else [sys.executable, "-m", "repair_core"]
    out: dict[str, object] = {
        "python": platform.python_version(), "cpus": os.cpu_count(),
        "runner": " ".join(prefix), "runs": args.runs,
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }
    for name, cmd in COMMANDS.items():
        _one(prefix + cmd)  # warm-up: page cache, bytecode
        walls, cpus = [], []
        for _ in range(args.runs):
            wall, cpu = _one(prefix + cmd)
            walls.append(wall)
            cpus.append(cpu)
        out[name] = {"wall_s": _summary(walls), "cpu_s": _summary(cpus)}
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
