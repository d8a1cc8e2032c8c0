"""How planning cost grows with case size: parse, validate, build, analyse, plan.

    python benchmarks/plan_scale.py                    # 1k, 10k, 100k, 1M steps
    python benchmarks/plan_scale.py --sizes 1000 10000 --repeat 3

Each size gets a synthetic case (`dgrr synth`, records = steps/5, 3 faults, seed 2 by
default; the `affected` column is |A0|, which analysis and planning follow) written to a
cache folder, then is planned in a fresh Python process so that the peak memory (RSS
high-water mark from `resource.getrusage`) belongs to that size alone. The phases are the
ones `dgrr plan` runs: validate (`parse_case`: `json.loads`, then `case_from_data`, i.e.
pydantic and the reference checks), `build_graph`, `analyse`, `plan_case`. With `--repeat R` each size is
planned in R fresh processes and the fastest total is reported. Times are wall-clock
seconds; `CPU s` is the process CPU time of the four phases together, which is less
disturbed when other work shares the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_SIZES = (1_000, 10_000, 100_000, 1_000_000)
PHASES = ("validate", "build", "analyse", "plan")


def measure(path: str) -> dict[str, float | int]:
    """Plan the case at `path` once, timing each phase (runs in the child process)."""
    from repair_core import analyse, build_graph, parse_case, plan_case

    times: dict[str, float] = {}
    raw = Path(path).read_bytes()
    cpu = time.process_time()
    t = time.perf_counter()
    case = parse_case(raw, source=path)  # json.loads, then case_from_data
    times["validate"] = time.perf_counter() - t
    t = time.perf_counter()
    G = build_graph(case)
    times["build"] = time.perf_counter() - t
    t = time.perf_counter()
    analysis = analyse(case, G)
    times["analyse"] = time.perf_counter() - t
    t = time.perf_counter()
    plan = plan_case(case, analysis)
    times["plan"] = time.perf_counter() - t
    cpu = time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {**times, "total": sum(times.values()), "cpu": cpu, "peak_mb": peak_mb,
            "steps": len(case.trajectory), "records": len(case.memory),
            "edges": G.number_of_edges(), "affected": len(analysis.affected),
            "replayed": len(plan.replay_set),
            "file_mb": len(raw) / 2**20}


def run_child(path: Path) -> dict[str, float | int]:
    out = subprocess.run([sys.executable, __file__, "--child", str(path)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def case_file(cache: Path, steps: int, seed: int, faults: int) -> Path:
    from repair_core._synth import write_synth_case

    path = cache / f"synth-{steps}-seed{seed}.json"
    if not path.exists():
        t = time.perf_counter()
        write_synth_case(path, steps, max(1, steps // 5), faults, seed)
        print(f"  generated {path.name} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return path


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def table(rows: list[dict[str, float | int]]) -> str:
    head = ("| steps | records | edges | affected | " + " | ".join(f"{p} s" for p in PHASES)
            + " | total s | CPU s | peak MB |")
    lines = [head, "|" + "---:|" * (head.count("|") - 1)]
    for r in rows:
        lines.append(f"| {r['steps']:,} | {r['records']:,} | {r['edges']:,} | {r['affected']:,} | "
                     + " | ".join(f"{r[p]:.3f}" for p in PHASES)
                     + f" | {r['total']:.3f} | {r['cpu']:.3f} | {r['peak_mb']:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--seed", type=int, default=2,
                        help="synth seed (default 2: its faults reach about half of the "
                             "graph at 10k, 100k and 1M steps, the heavy case)")
    parser.add_argument("--faults", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1, help="fresh processes per size")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dgrr-bench",
                        help="where generated cases are kept between runs")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return

    print(machine())
    rows = []
    for steps in args.sizes:
        path = case_file(args.cache, steps, args.seed, args.faults)
        runs = [run_child(path) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["total"])
        best["peak_mb"] = max(r["peak_mb"] for r in runs)
        rows.append(best)
        print(f"  {steps:,} steps: {best['total']:.3f} s, {best['peak_mb']:.0f} MB",
              file=sys.stderr)
    print(table(rows))
    by_steps = {int(r["steps"]): float(r["total"]) for r in rows}
    for small, big in ((1_000, 10_000), (10_000, 100_000), (100_000, 1_000_000)):
        if small in by_steps and big in by_steps:
            print(f"\n{big:,}/{small:,} total-time ratio: {by_steps[big] / by_steps[small]:.1f}")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
