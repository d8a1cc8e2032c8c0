"""How the cost of `dgrr repair` grows with case size: plan, replay and write the result.

    python benchmarks/replay_scale.py                          # 10k, 30k, 100k, 300k steps
    python benchmarks/replay_scale.py --sizes 10000 30000 --repeat 2
    python benchmarks/replay_scale.py --phases                 # where the time goes

Each size gets a synthetic case (`dgrr synth --steps N --memories N/5 --faults 3 --seed 7`,
written once to a cache folder), then `dgrr repair CASE --out DIR` runs in a fresh process
with the built-in reference model, as a user runs it. Reported per size: CPU seconds
(user + system of the child, from `resource.getrusage`), wall seconds, peak RSS, model
calls and replayed steps, best of `--repeat` by CPU time; then the growth factor of CPU
time from one size to the next. On a shared machine the CPU column is the steadier one;
the load average before and after is printed.

With `--phases` each size is also run once in-process with the phases timed apart as
`dgrr repair` runs them (the columnar plan of the file, reading the case, replay, the
result to JSON).
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

DEFAULT_SIZES = (10_000, 30_000, 100_000, 300_000)


def case_path(cache: Path, steps: int, seed: int) -> Path:
    path = cache / f"synth-{steps}-{seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(steps),
                        "--memories", str(max(1, steps // 5)), "--faults", "3",
                        "--seed", str(seed), "--out", str(path)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def run_cli(path: Path) -> dict[str, float]:
    """One `dgrr repair --out` in a child process: its CPU, wall time and peak RSS."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "repair_core", "repair", str(path),
                        "--out", f"{out}/result"], check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        report = json.loads(Path(out, "result", "report.json").read_text())
    replayed = sum(1 for s in report["steps"] if s["outcome"] in ("replayed", "refreshed"))
    return {"cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "wall": wall, "rss_mb": after.ru_maxrss / 1024, "calls": report["cost"]["llm_calls"],
            "replayed": replayed, "steps": len(report["steps"])}


def phases(path: Path) -> dict[str, float]:
    """The phases of one repair as `dgrr repair` runs them, timed in this process (CPU
    seconds; the columnar reader's second process is not counted)."""
    from repair_core import plan_case
    from repair_core._io import read_input, to_json
    from repair_core._perf import gc_paused
    from repair_core.case._load import parse_case
    from repair_core.plan._planner import columnar_plan_report_of
    from repair_core.replay import repair

    out: dict[str, float] = {}
    t = time.process_time()
    raw = read_input(path)
    report = columnar_plan_report_of(raw, objective="both")
    out["plan"], t = time.process_time() - t, time.process_time()
    case = parse_case(raw)
    out["read"], t = time.process_time() - t, time.process_time()
    result = repair(case, report if report is not None else plan_case(case, objective="both"))
    out["replay"], t = time.process_time() - t, time.process_time()
    with gc_paused():
        to_json(result.model_dump(mode="json"))
    out["to_json"] = time.process_time() - t
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--phases", action="store_true")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "dgrr-replay-scale"))
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    print(f"# {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"load average before {os.getloadavg()[0]:.2f}")
    print(f"{'steps':>8} {'CPU s':>8} {'wall s':>8} {'peak MB':>8} {'calls':>7} {'replayed':>9}")
    rows = []
    for steps in args.sizes:
        path = case_path(cache, steps, args.seed)
        best = min((run_cli(path) for _ in range(args.repeat)), key=lambda r: r["cpu"])
        rows.append((steps, best))
        print(f"{steps:>8} {best['cpu']:>8.2f} {best['wall']:>8.2f} {best['rss_mb']:>8.0f} "
              f"{best['calls']:>7.0f} {best['replayed']:>9.0f}", flush=True)
        if args.phases:
            times = phases(path)
            print("         phases (CPU s): " + ", ".join(f"{k} {v:.2f}" for k, v in times.items()),
                  flush=True)
    for (a, ra), (b, rb) in zip(rows, rows[1:], strict=False):
        print(f"growth {a} -> {b} steps ({b / a:.1f}x): CPU {rb['cpu'] / ra['cpu']:.2f}x")
    print(f"# load average after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
