"""What a repair leaves allocated once its case and result are gone, as a long-lived
process (the dashboard's server) sees it.

    python benchmarks/repair_retention.py                  # 10k and 30k steps
    python benchmarks/repair_retention.py --sizes 20000

Each size gets the synthetic case `benchmarks/replay_scale.py` uses (`dgrr synth --steps N
--memories N/5 --faults 3 --seed 7`, cached), and a fresh process per size: after one
repair of the spec example (one-time tables and imports), tracemalloc starts, the case is
loaded and repaired with the reference model, both are dropped and collected, and the
bytes still traced are printed. A process-wide cache of the case's texts shows up here.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = """
import gc, sys, tracemalloc
from repair_core import load_case, load_example
from repair_core.replay import repair
repair(load_example())
gc.collect()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
case = load_case(sys.argv[1])
result = repair(case)
del case, result
gc.collect()
print((tracemalloc.get_traced_memory()[0] - base) / 2**20)
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 30_000])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "dgrr-replay-scale"))
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from replay_scale import case_path

    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    print(f"{'steps':>8} {'retained MB':>12}")
    for steps in args.sizes:
        path = case_path(cache, steps, args.seed)
        out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], check=True,
                             capture_output=True, text=True).stdout
        print(f"{steps:>8} {float(out.split()[-1]):>12.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
