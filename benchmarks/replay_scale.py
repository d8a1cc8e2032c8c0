"""How the cost of `dgrr repair` grows with case size: plan, replay and write the result.

    python benchmarks/replay_scale.py                          # 10k, 30k, 100k, 300k steps
    python benchmarks/replay_scale.py --sizes 10000 30000 --repeat 2
    python benchmarks/replay_scale.py --phases                 # where the time goes
    python benchmarks/replay_scale.py --sizes 300000 1000000 --seed 11   # the targets

Each size gets a synthetic case (`dgrr synth --steps N --memories N/5 --faults 3 --seed 7`,
written once to a cache folder), then `dgrr repair CASE --out DIR` runs in a fresh process
with the built-in reference model, as a user runs it. Reported per size: CPU seconds
(user + system of the child, from its own resource usage), wall seconds, peak RSS, model
calls and replayed steps, best of `--repeat` by CPU time; then the growth factor of CPU
time from one size to the next, called linear when it is within `LINEAR_SLACK` of the
steps' growth and SUPERLINEAR otherwise. On a shared machine the CPU column is the steadier one;
the load average and a calibration loop's time (how fast this machine runs the
interpreter now) before and after are printed.

The targets (docs/performance.md, "Repair in bounded memory"), checked for each size that
has one and printed as pass or FAIL: 300k steps within 25 CPU s and 1.5 GB peak RSS, 1M
steps within 90 CPU s and 4 GB; at every size the system time under 15 % of the CPU time.

With `--phases` each size is also run once in-process with the phases timed apart as
`dgrr repair --out` runs them (the columnar plan of the file, reading the case, replay
with its check, writing the five files and the readable summary), each with the RSS
after it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plan_scale import calibration_s  # noqa: E402  (the same loop, so runs compare)

DEFAULT_SIZES = (10_000, 30_000, 100_000, 300_000)
TARGETS = {300_000: (25.0, 1536.0), 1_000_000: (90.0, 4096.0)}
"""Steps -> (CPU seconds, peak RSS in MB) a `dgrr repair --out` of that size may take."""
SYSTEM_SHARE = 0.15
"""The most of a repair's CPU time that may be system time."""
LINEAR_SLACK = 1.25
"""How much faster than the steps a repair's CPU time may grow and still be called
linear (a fixed start-up cost makes small sizes look cheap; a per-record walk of a long
lineage made 100k -> 300k grow 5.4x)."""


def case_path(cache: Path, steps: int, seed: int) -> Path:
    path = cache / f"synth-{steps}-{seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(steps),
                        "--memories", str(max(1, steps // 5)), "--faults", "3",
                        "--seed", str(seed), "--out", str(path)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def run_cli(path: Path) -> dict[str, float]:
    """One `dgrr repair --out` in a child process: its CPU (user and system), wall time
    and peak RSS, from that child's own resource usage (`os.wait4`)."""
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "repair_core", "repair", str(path),
                                  "--out", f"{out}/result"], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t
        if child.returncode != 0:
            raise SystemExit(f"dgrr repair {path} exited {child.returncode}")
        report = json.loads(Path(out, "result", "report.json").read_text())
    replayed = sum(1 for s in report["steps"] if s["outcome"] in ("replayed", "refreshed"))
    return {"cpu": usage.ru_utime + usage.ru_stime, "sys": usage.ru_stime,
            "wall": wall, "rss_mb": usage.ru_maxrss / 1024, "calls": report["cost"]["llm_calls"],
            "replayed": replayed, "steps": len(report["steps"])}


def verdicts(steps: int, run: dict[str, float]) -> list[str]:
    """Each target this size has, as `pass` or `FAIL` with the measured value."""
    out = []
    if steps in TARGETS:
        cpu, mb = TARGETS[steps]
        out.append(f"CPU {run['cpu']:.1f} <= {cpu:g} s: {'pass' if run['cpu'] <= cpu else 'FAIL'}")
        out.append(f"peak {run['rss_mb']:.0f} <= {mb:g} MB: "
                   f"{'pass' if run['rss_mb'] <= mb else 'FAIL'}")
    share = run["sys"] / run["cpu"] if run["cpu"] else 0.0
    out.append(f"system {100 * share:.1f} % < {100 * SYSTEM_SHARE:g} %: "
               f"{'pass' if share < SYSTEM_SHARE else 'FAIL'}")
    return out


def _rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory now (`VmHWM`: its high-water mark so far), in MB
    (MiB), or 0 where /proc is absent."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def phases(path: Path) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """The phases of one repair as `dgrr repair --out` runs them, in this process: CPU
    seconds of each (the columnar reader's second process is not counted), the RSS after
    it and the high-water mark so far, in MB (the plan's report let go once its
    operations are taken, before the case is read a chunk of items at a time; the case
    let go before the write)."""
    from repair_core import plan_case
    from repair_core._io import read_input
    from repair_core._perf import gc_paused
    from repair_core.case._chunked import parse_case_in_chunks
    from repair_core.commands.repair import write_outputs, write_summary
    from repair_core.model import ModelClient
    from repair_core.plan._planner import columnar_plan_report_of
    from repair_core.replay import repair, take_plan

    out: dict[str, float] = {}
    rss: dict[str, float] = {}
    hwm: dict[str, float] = {}
    t = time.process_time()
    raw = read_input(path)
    report = columnar_plan_report_of(raw, objective="both")
    taken = take_plan(report) if report is not None else None
    del report
    out["plan"], t = time.process_time() - t, time.process_time()
    rss["plan"] = _rss_mb()
    hwm["plan"] = _rss_mb("VmHWM")
    # as the command reads it: the bytes the columnar reader accepted need no reference pass
    case = parse_case_in_chunks(raw, references_checked=taken is not None)
    del raw
    out["read"], t = time.process_time() - t, time.process_time()
    rss["read"] = _rss_mb()
    hwm["read"] = _rss_mb("VmHWM")
    result = repair(case, taken if taken is not None else plan_case(case, objective="both"),
                    client=ModelClient(keep_log=False))  # the command's: no call log
    del case, taken
    out["replay"], t = time.process_time() - t, time.process_time()
    rss["replay"] = _rss_mb()
    hwm["replay"] = _rss_mb("VmHWM")
    with tempfile.TemporaryDirectory() as folder, gc_paused():  # as the command writes
        write_outputs(Path(folder) / "result", result)
        write_summary(result, io.StringIO(), out_dir=folder)
    out["write"] = time.process_time() - t
    rss["write"] = _rss_mb()
    hwm["write"] = _rss_mb("VmHWM")
    return out, rss, hwm


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
          f"load average before {os.getloadavg()[0]:.2f}, calibration loop "
          f"{calibration_s():.3f} s")
    print(f"{'steps':>8} {'CPU s':>8} {'sys s':>7} {'wall s':>8} {'peak MB':>8} {'calls':>7} "
          f"{'replayed':>9}")
    rows = []
    for steps in args.sizes:
        path = case_path(cache, steps, args.seed)
        best = min((run_cli(path) for _ in range(args.repeat)), key=lambda r: r["cpu"])
        rows.append((steps, best))
        print(f"{steps:>8} {best['cpu']:>8.2f} {best['sys']:>7.2f} {best['wall']:>8.2f} "
              f"{best['rss_mb']:>8.0f} {best['calls']:>7.0f} {best['replayed']:>9.0f}", flush=True)
        print("         targets: " + "; ".join(verdicts(steps, best)), flush=True)
        if args.phases:
            times, rss, hwm = phases(path)
            print("         phases (CPU s): " + ", ".join(f"{k} {v:.2f}" for k, v in times.items()),
                  flush=True)
            print("         RSS after (MB): " + ", ".join(f"{k} {v:.0f}" for k, v in rss.items()),
                  flush=True)
            print("         high-water mark after (MB): "
                  + ", ".join(f"{k} {v:.0f}" for k, v in hwm.items()), flush=True)
    for (a, ra), (b, rb) in zip(rows, rows[1:], strict=False):
        grew = rb["cpu"] / ra["cpu"]
        shape = "linear" if grew <= LINEAR_SLACK * b / a else "SUPERLINEAR"
        print(f"growth {a} -> {b} steps ({b / a:.1f}x): CPU {grew:.2f}x, {shape}")
    print(f"# load average after {os.getloadavg()[0]:.2f}, calibration loop "
          f"{calibration_s():.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
