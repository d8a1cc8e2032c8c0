"""Peak memory of checking a case file: `dgrr validate` (item by item, `_stream`) against
building the whole case (`load_case`, what plan and repair need), each in a fresh process.

    python benchmarks/validate_memory.py                    # 10k and 100k steps
    python benchmarks/validate_memory.py --sizes 100000 650000

Each size is a case written by `dgrr synth` (records = steps/5, 3 faults, seed 2). The
number reported is the growth of the peak RSS (`resource.getrusage`, high-water mark)
over the process's RSS after imports, divided by the file size; the raw file and its
decoded text are included. Results: docs/performance.md ("Validating in bounded memory").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from repair_core import load_case
from repair_core.case._stream import validate_file
def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
base = rss_mb()
start = time.process_time()
{call}({path!r})
cpu = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"base_mb": base, "peak_mb": peak, "cpu_s": cpu}}))
"""


def measure(path: Path, call: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(path),
                                                            call=call)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    print("| steps | file MB | how | peak growth MB | × file size | CPU s |")
    print("|---:|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for steps in args.sizes:
            case = Path(tmp) / f"s{steps}.json"
            subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(steps),
                            "--memories", str(max(1, steps // 5)), "--faults", "3", "--seed",
                            "2", "--out", str(case)], check=True, capture_output=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
            size = case.stat().st_size / 1e6 * (1e6 / 2**20)
            for label, call in (("dgrr validate (item by item)", "validate_file"),
                                ("load_case (whole case)", "load_case")):
                r = measure(case, call)
                growth = r["peak_mb"] - r["base_mb"]
                print(f"| {steps:,} | {size:.1f} | {label} | {growth:,.0f} | "
                      f"{growth / size:.1f} | {r['cpu_s']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
