"""How long the dashboard's pages take on a large case, measured through Streamlit's
AppTest (the page scripts run exactly as under `streamlit run`; the browser's rendering
and the websocket transfer are not included).

    python benchmarks/dashboard_scale.py                  # dgrr synth --steps 100000
    python benchmarks/dashboard_scale.py --steps 10000 --replay

The case is loaded into the session once (as the Load page does), then every page is
opened twice: the first open computes what the page needs (plan, graph view, tree,
hashes) and keeps it in the session, keyed by the plan's digest; the second open is what
a reviewer sees when coming back to a page. Then one approval is recorded on the
Approve page (the warning for an unreplayed plan ticked first) and timed. Peak memory is
the process's RSS high-water mark. Times are wall-clock seconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["1_Load", "2_Faults", "3_Graph", "3_Trace", "4_Plan", "6_Compare", "7_Approve"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100_000, help="dgrr synth --steps")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--replay", action="store_true",
                    help="also time Run replay and the pages after it")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DGRR_DB", str(Path(tempfile.mkdtemp()) / "approvals.db"))
    cache = Path(tempfile.gettempdir()) / "dgrr-bench-cases"
    cache.mkdir(exist_ok=True)
    path = cache / f"synth-{args.steps}-s{args.seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps",
                        str(args.steps), "--seed", str(args.seed), "--out", str(path)],
                       check=True)

    from streamlit.testing.v1 import AppTest

    from repair_core import load_case

    t = time.perf_counter()
    case = load_case(path)
    load_s = time.perf_counter() - t
    nodes = len(case.session) + len(case.trajectory) + len(case.memory)
    print(f"case: {path.name}: {nodes} nodes ({len(case.trajectory)} steps, "
          f"{len(case.memory)} records, {len(case.session)} turns); parse {load_s:.2f} s")
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores")

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_source"] = path.name
    at.session_state["dgrr_loaded_faults"] = list(case.faults)

    def open_page(name: str) -> float:
        t0 = time.perf_counter()
        at.switch_page(f"pages/{name}.py").run()
        took = time.perf_counter() - t0
        if at.exception:
            raise SystemExit(f"{name}: {[e.value for e in at.exception]}")
        return took

    rows = []
    for name in PAGES:
        first = open_page(name)
        again = open_page(name)
        rows.append((name, first, again))
        print(f"{name:<10} first {first:6.2f} s   again {again:6.2f} s", flush=True)

    # Record an approval (the page is open; the unreplayed-plan warning is ticked).
    for box in at.checkbox:
        if box.key and box.key.startswith("dgrr_w_ack_"):
            box.check()
    at.run()
    at.text_input(key="dgrr_w_reviewer").set_value("bench")
    at.text_area(key="dgrr_w_comment").set_value("timed")
    t0 = time.perf_counter()
    [b for b in at.button if b.label == "Record decision"][0].click().run()
    record = time.perf_counter() - t0
    ok = any("Recorded #" in s.value for s in at.success)
    print(f"record approval {record:6.2f} s ({'recorded' if ok else 'NOT recorded'})")
    if not ok:
        print("  ", [e.value for e in at.error])
    if args.replay:
        open_page("5_Replay")
        t0 = time.perf_counter()
        at.button(key="dgrr_w_run_replay").click().run()
        print(f"run replay      {time.perf_counter() - t0:6.2f} s")
        for name in ("5_Replay", "6_Compare", "7_Approve", "3_Trace"):
            first = open_page(name)
            again = open_page(name)
            print(f"{name:<10} first {first:6.2f} s   again {again:6.2f} s (after replay)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
