"""How the content check after a repair grows with case size.

    python benchmarks/verify_scale.py                 # 1k, 10k, 40k steps
    python benchmarks/verify_scale.py --sizes 1000 10000

Each size gets a synthetic case (`dgrr synth`, records = steps/5, 3 faults, seed 0),
planned for `both` and repaired with the offline reference model; then the check
`repair` ends with (`repair_core.verification.verify_result`) is timed again on the
result model and on its JSON (what `dgrr verify` reads), and the whole `repair` beside it.
Times are wall-clock seconds, best of `--repeat`; the counts are what was checked.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from repair_core import load_case  # noqa: E402
from repair_core.plan._plan import plan_case  # noqa: E402
from repair_core.replay import repair  # noqa: E402
from repair_core.verification import verify_result  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 40000])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dgrr-verify-scale-"))
    print(f"{'steps':>7} {'records':>8} {'outputs':>8} {'carriers':>9} {'repair s':>9} "
          f"{'verify s':>9} {'json s':>7} {'share':>6}")
    for n in args.sizes:
        path = folder / f"synth-{n}.json"
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(n),
                        "--out", str(path)], check=True, capture_output=True)
        case = load_case(path)
        plan = plan_case(case, objective="both")
        best = [float("inf")] * 3
        for _ in range(args.repeat):
            t = time.perf_counter()
            result = repair(case, plan)
            best[0] = min(best[0], time.perf_counter() - t)
            t = time.perf_counter()
            v = verify_result(case, result)
            best[1] = min(best[1], time.perf_counter() - t)
            data = json.loads(result.model_dump_json())
            t = time.perf_counter()
            verify_result(case, data)
            best[2] = min(best[2], time.perf_counter() - t)
        c = v.checked
        print(f"{n:>7} {c.records:>8} {c.outputs:>8} {len(v.carriers):>9} {best[0]:>9.2f} "
              f"{best[1]:>9.2f} {best[2]:>7.2f} {best[1] / best[0]:>6.0%}")


if __name__ == "__main__":
    main()
