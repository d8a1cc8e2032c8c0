"""How long the dashboard's pages take on a large case, measured through Streamlit's
AppTest (the page scripts run exactly as under `streamlit run`; the browser's rendering
and the websocket transfer are not included).

    python benchmarks/dashboard_scale.py                  # dgrr synth --steps 100000
    python benchmarks/dashboard_scale.py --steps 10000 --replay

The case is loaded into the session once (as the Load page does), then every page is
opened twice: the first open computes what the page needs (plan, graph view, tree,
hashes) and keeps it in the session, keyed by the plan's digest; the second open is what
a reviewer sees when coming back to a page. Then one approval is recorded on the
Approve page (the warning for an unreplayed plan ticked first) and timed, and on the
Graph page the node type `record` is switched off and on again (each a rerun that
filters the graph). Load (parsing the file and the Load page's first run with the case),
the Approve page's first open and one warning tick there are then set against the targets
(Load <= 10 s, Approve <= 3 s, a tick <= 0.5 s, wall clock) and each is said to pass or
fail (by wall clock; the CPU seconds are printed beside it); the exit status is 1 when
one fails. Peak memory is the process's RSS high-water mark. Times are
wall-clock seconds and, in brackets, the CPU seconds of this process (steadier than wall
time on a shared machine); the load average is printed at the start and the end.
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# wall-clock seconds a reviewer should wait at most on a 100k-step case
TARGETS = {"Load": 10.0, "Approve open": 3.0, "warning tick": 0.5}
PAGES = ["1_Load", "2_Faults", "3_Graph", "3_Trace", "4_Plan", "6_Compare", "7_Approve"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100_000, help="dgrr synth --steps")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--case", type=Path, default=None,
                    help="an existing case file instead of dgrr synth's")
    ap.add_argument("--replay", action="store_true",
                    help="also time Run replay and the pages after it")
    ap.add_argument("--objective", choices=["both", "answer", "store"], default="both",
                    help="the plan's objective (the dashboard's default is both)")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DGRR_DB", str(Path(tempfile.mkdtemp()) / "approvals.db"))
    cache = Path(tempfile.gettempdir()) / "dgrr-bench-cases"
    cache.mkdir(exist_ok=True)
    path = args.case or cache / f"synth-{args.steps}-s{args.seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps",
                        str(args.steps), "--seed", str(args.seed), "--out", str(path)],
                       check=True)

    from streamlit.testing.v1 import AppTest

    from repair_core import load_case

    t, c = time.perf_counter(), time.process_time()
    case = load_case(path)
    load_s, load_cpu = time.perf_counter() - t, time.process_time() - c
    measured: dict[str, float] = {}  # target name -> wall seconds
    measured_cpu: dict[str, float] = {}  # target name -> CPU seconds of this process
    nodes = len(case.session) + len(case.trajectory) + len(case.memory)
    print(f"case: {path.name}: {nodes} nodes ({len(case.trajectory)} steps, "
          f"{len(case.memory)} records, {len(case.session)} turns); parse {load_s:.2f} s "
          f"({load_cpu:.2f} CPU s)")
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores")

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.session_state["dgrr_objective"] = args.objective
    at.run()
    at.session_state["dgrr_case"] = case
    at.session_state["dgrr_source"] = path.name
    at.session_state["dgrr_loaded_faults"] = list(case.faults)

    def timed(run: Any, what: str, target: str | None = None) -> str:
        t0, c0 = time.perf_counter(), time.process_time()
        run()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if at.exception:
            raise SystemExit(f"{what}: {[e.value for e in at.exception]}")
        if target is not None:
            measured[target], measured_cpu[target] = wall, cpu
        return f"{wall:6.2f} s ({cpu:5.2f} CPU s)"

    def open_page(name: str, target: str | None = None) -> str:
        return timed(lambda: at.switch_page(f"pages/{name}.py").run(), name, target)

    def visit_twice(name: str, note: str = "") -> None:
        first = open_page(name, {"1_Load": "Load", "7_Approve": "Approve open"}.get(name))
        if name == "1_Load":
            measured["Load"] += load_s  # the file is parsed before the page shows it
            measured_cpu["Load"] += load_cpu
        again = open_page(name)
        print(f"{name:<10} first {first}   again {again}{note}", flush=True)

    for name in PAGES:
        visit_twice(name)

    # The Graph page's node-type filter: `record` off, then on again.
    open_page("3_Graph")
    types = at.multiselect(key="dgrr_w_g_types")
    every = list(types.value)
    took = timed(lambda: types.set_value([t for t in every if t != "record"]).run(), "Graph")
    shown = next((c.value for c in at.caption if c.value.startswith("Showing")), "?")
    print(f"Graph, record off  {took}: {shown}")
    took = timed(lambda: at.multiselect(key="dgrr_w_g_types").set_value(every).run(), "Graph")
    print(f"Graph, record on   {took}")
    open_page("7_Approve")

    # Record an approval (the page is open; the unreplayed-plan warning is ticked: the
    # first tick is timed on its own, the rest in one rerun).
    boxes = [b for b in at.checkbox if b.key and b.key.startswith("dgrr_w_ack_")]
    if boxes:
        took = timed(lambda: boxes[0].check().run(), "tick", "warning tick")
        print(f"tick a warning  {took}")
    for box in at.checkbox:
        if box.key and box.key.startswith("dgrr_w_ack_") and not box.value:
            box.check()
    at.run()
    at.text_input(key="dgrr_w_reviewer").set_value("bench")
    at.text_area(key="dgrr_w_comment").set_value("timed")
    took = timed(lambda: [b for b in at.button if b.label == "Record decision"][0].click().run(),
                 "record")
    ok = any("Recorded #" in s.value for s in at.success)
    print(f"record approval {took} ({'recorded' if ok else 'NOT recorded'})")
    if not ok:
        print("  ", [e.value for e in at.error])
    if args.replay:
        open_page("5_Replay")
        took = timed(lambda: at.button(key="dgrr_w_run_replay").click().run(), "replay")
        print(f"run replay      {took}")
        for name in ("5_Replay", "6_Compare", "7_Approve", "3_Trace"):
            visit_twice(name, " (after replay)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB; load average at the end: {os.getloadavg()[0]:.2f}")
    failed = 0
    for name, limit in TARGETS.items():
        if name not in measured:
            print(f"target {name:<13} not measured (no such element on this case)")
            failed += 1
            continue
        ok = measured[name] <= limit
        failed += not ok
        print(f"target {name:<13} {measured[name]:6.2f} s  {'pass' if ok else 'FAIL'} "
              f"(<= {limit:g} s; {measured_cpu[name]:.2f} CPU s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
