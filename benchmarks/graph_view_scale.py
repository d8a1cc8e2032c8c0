"""How the Graph page's view of a large case grows with its size: `graph_view` with the
filters a reviewer toggles (every type, `record` switched off, records only, the
affected subgraph without records), on synthetic cases of growing size.

    python benchmarks/graph_view_scale.py                      # 10k, 30k, 100k steps
    python benchmarks/graph_view_scale.py --sizes 10000 100000 --repeat 3
    python benchmarks/graph_view_scale.py --case-dir /work/bench/cases

Each size gets a `dgrr synth --steps N --seed 2` case (cached in the temporary folder, or
read from `--case-dir` as `synth-N-seed2.json`), planned once; then every filter is timed
`--repeat` times and the fastest is printed: wall-clock seconds and the CPU seconds of
this process (steadier on a shared machine; the load average is printed at the start and
the end), the nodes and edges drawn (at most the drawing limit of 2,000 nodes), and the
CPU microseconds per node of the graph (flat when the cost is linear in the graph's
size).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _case_path(steps: int, seed: int, case_dir: Path | None) -> Path:
    if case_dir is not None:
        for name in (f"synth-{steps}-seed{seed}.json", f"synth-{steps}-s{seed}.json"):
            if (case_dir / name).exists():
                return case_dir / name
    cache = Path(tempfile.gettempdir()) / "dgrr-bench-cases"
    cache.mkdir(exist_ok=True)
    path = cache / f"synth-{steps}-s{seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(steps),
                        "--seed", str(seed), "--out", str(path)], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 30_000, 100_000],
                    help="dgrr synth --steps for each case")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--case-dir", type=Path, default=None,
                    help="a folder holding synth-N-seedS.json cases already made")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from repair_core import load_case, plan_case
    from repair_core.case._case import STEP_TYPES
    from repair_core.viz import graph_view

    every = ["turn", "record", *STEP_TYPES]
    no_record = [t for t in every if t != "record"]
    filters = {
        "every type": {},
        "record off": {"node_types": no_record},
        "records only": {"node_types": ["record"]},
        "affected, record off": {"affected_only": True, "node_types": no_record},
    }
    print(f"load average at start: {os.getloadavg()[0]:.2f}; python "
          f"{platform.python_version()}, {os.cpu_count()} cores")
    print(f"{'steps':>8} {'nodes':>8} {'filter':<22} {'wall s':>7} {'CPU s':>6} "
          f"{'drawn':>6} {'edges':>6} {'CPU µs/node':>11}")
    for steps in args.sizes:
        plan = plan_case(load_case(_case_path(steps, args.seed, args.case_dir)),
                         objective="both")
        nodes = plan.analysis.graph.number_of_nodes()
        for name, options in filters.items():
            best = (float("inf"), float("inf"))
            for _ in range(args.repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                view = graph_view(plan, **options)  # type: ignore[arg-type]
                best = min(best, (time.process_time() - c0, time.perf_counter() - t0))
            cpu, wall = best
            print(f"{steps:>8} {nodes:>8} {name:<22} {wall:7.2f} {cpu:6.2f} "
                  f"{len(view.nodes):>6} {len(view.edges):>6} {cpu / nodes * 1e6:11.2f}",
                  flush=True)
        del plan
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
