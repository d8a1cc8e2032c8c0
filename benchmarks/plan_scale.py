"""How planning cost grows with case size: parse, validate, build, analyse, plan.

    python benchmarks/plan_scale.py                    # 1k, 10k, 100k, 1M steps
    python benchmarks/plan_scale.py --sizes 1000 10000 --repeat 3
    python benchmarks/plan_scale.py --cli                       # whole `dgrr` processes
    python benchmarks/plan_scale.py --targets                   # the targets, pass or fail

With `--cli` it times whole processes instead, as a user runs them: `dgrr plan --json CASE`,
`dgrr plan CASE` (the readable plan; output to /dev/null) and `dgrr validate CASE`
(`--commands` to choose), each with `--planner columnar` and
`--planner networkx` (`--planners` to choose), wall-clock seconds from start to exit and
its CPU seconds (user + system, the second reading process's included) and memory, best
of `--repeat`. Memory is the process's peak RSS and, because a large case is read by two
processes (the second forked, sharing the first's pages), the peak of the two processes'
proportional set size summed (PSS, polled every 20 ms: shared pages counted once), taken
in one more run whose time is not counted (the polling slows the process). With
`--one-cpu` the command may use one CPU only (so it reads in one process). The load
average before and after is printed: on a shared machine the CPU column is the steadier
one. So are the time of a fixed pure-Python loop before and after (how fast the machine
runs the interpreter then: compare it across runs) and the CPU time the hypervisor stole
meanwhile (/proc/stat): a "quiet machine" is one where both hold still.

With `--targets`, `dgrr plan --json` is timed that way at 100k and 1M steps (seed 11),
with the default objective and suspects and with `--objective answer --suspects off`,
and each target of docs/performance.md is printed with what was measured and pass or
FAIL: 1M steps within 6 CPU s and 1 GB peak RSS, 100k within 0.8 CPU s, CPU growing at
most 10x from 100k to 1M, the default at most 10% over `answer`'s CPU.

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
import os
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


CLI_COMMANDS = {"plan --json": ["plan", "--json"], "plan": ["plan"], "validate": ["validate"],
                "plan --json --objective answer --suspects off": [
                    "plan", "--json", "--objective", "answer", "--suspects", "off"]}
ANSWER_ONLY = "plan --json --objective answer --suspects off"

TARGET_CPU_S = {1_000_000: 6.0, 100_000: 0.8}
"""CPU seconds (user + system) `dgrr plan --json` may take at each size (`--targets`)."""
TARGET_PEAK_MB = 1024
"""Peak RSS of the 1M-step `dgrr plan --json`, MB."""
TARGET_GROWTH = 10.0
"""CPU of the 1M-step plan over the 100k-step one."""
TARGET_DEFAULT_OVER_ANSWER = 1.10
"""CPU of the default plan (objective both, suspects on) over `--objective answer
--suspects off`'s."""


def target_lines(cpus: dict[tuple[str, str, int], float],
                 peaks: dict[tuple[str, str, int], float], planner: str) -> list[str]:
    """One line per target the measurements bear on: the target, what was measured,
    pass or FAIL."""
    lines = []

    def verdict(ok: bool) -> str:
        return "pass" if ok else "FAIL"

    cpu = {n: cpus[("plan --json", planner, n)] for n in TARGET_CPU_S
           if ("plan --json", planner, n) in cpus}
    for n, limit in sorted(TARGET_CPU_S.items()):
        if n in cpu:
            lines.append(f"{n:,} steps `plan --json` <= {limit} CPU s: {cpu[n]:.2f} "
                         f"{verdict(cpu[n] <= limit)}")
    peak = peaks.get(("plan --json", planner, 1_000_000))
    if peak is not None:
        lines.append(f"1,000,000 steps `plan --json` <= {TARGET_PEAK_MB} MB peak RSS: "
                     f"{peak:.0f} {verdict(peak <= TARGET_PEAK_MB)}")
    if len(cpu) == 2:
        growth = cpu[1_000_000] / cpu[100_000]
        lines.append(f"growth 100,000 -> 1,000,000 steps <= {TARGET_GROWTH:.0f}x CPU: "
                     f"{growth:.1f}x {verdict(growth <= TARGET_GROWTH)}")
    for n in sorted(cpu):
        answer = cpus.get((ANSWER_ONLY, planner, n))
        if answer:
            over = cpu[n] / answer
            lines.append(f"{n:,} steps: the default objective and suspects <= "
                         f"{TARGET_DEFAULT_OVER_ANSWER:.2f}x `--objective answer --suspects "
                         f"off`'s CPU: {over:.2f}x {verdict(over <= TARGET_DEFAULT_OVER_ANSWER)}")
    return lines


def measure_cli(argv: list[str], one_cpu: bool = False, pss: bool = False
                ) -> dict[str, float]:
    """Run one dgrr process (in the child that measures it): wall seconds, CPU seconds,
    peak RSS MB and, with `pss`, the peak PSS of its process tree in MB (polled every
    20 ms; the polling itself costs time: reading smaps_rollup walks the process's page
    tables, which slowed a 1M-step plan from 10.3-11.1 s to 12.5-13.0 s wall on the
    2-core VM of docs/performance.md, so timed runs do not poll)."""
    if one_cpu:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    t = time.perf_counter()
    peak_pss = 0
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink)
        if pss:
            while proc.poll() is None:
                peak_pss = max(peak_pss, tree_pss_kb(proc.pid))
                time.sleep(0.02)
        proc.wait()
    wall = time.perf_counter() - t
    if proc.returncode:
        raise SystemExit(f"{argv} exited with {proc.returncode}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "peak_pss_mb": peak_pss / 1024}


def tree_pss_kb(pid: int) -> int:
    """PSS of `pid` and its children (kB), 0 for what has already exited."""
    total = 0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    for p in (pid, *map(int, children)):
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except (OSError, ValueError):
            continue
    return total


def run_cli(path: Path, command: str, planner: str, repeat: int,
            one_cpu: bool = False) -> dict[str, float]:
    dgrr = [sys.executable, "-m", "repair_core", *CLI_COMMANDS[command], "--planner", planner,
            str(path)]
    runs = []
    # `repeat` timed runs, then one more that polls the memory (whose time is not used)
    for k in range(repeat + 1):
        out = subprocess.run([sys.executable, __file__, "--cli-child", json.dumps(dgrr),
                              *(["--one-cpu"] if one_cpu else []),
                              *(["--pss"] if k == repeat else [])],
                             check=True, capture_output=True, text=True)
        runs.append(json.loads(out.stdout))
    timed = runs[:repeat]
    return {"wall": min(r["wall"] for r in timed), "cpu": min(r["cpu"] for r in timed),
            "peak_mb": max(r["peak_mb"] for r in runs),
            "peak_pss_mb": runs[-1]["peak_pss_mb"]}


def cpu_ticks() -> tuple[int, int]:
    """(all, stolen) CPU ticks of the machine so far (/proc/stat: steal is the time a
    hypervisor ran something else while this machine's CPUs wanted to run)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields[:8]), fields[7]


def calibration_s() -> float:
    """Best of 3 of a fixed pure-Python loop: how fast this machine runs the interpreter
    now (compare across runs and sessions; the plans' times move with it)."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        total = 0
        for i in range(3_000_000):
            total += i * i
        best = min(best, time.perf_counter() - t)
    return best


def cli_main(args: argparse.Namespace) -> None:
    import compileall

    import repair_core

    # timed as an installed package runs: byte-compiled (with PYTHONDONTWRITEBYTECODE set,
    # as on some machines, every run would compile the modules it imports again: 15 ms
    # of compile() in a 100k-step plan under cProfile)
    compileall.compile_dir(Path(repair_core.__file__).parent, quiet=1)
    print(machine())
    print(f"load average before: {os.getloadavg()[0]:.2f}; calibration loop "
          f"{calibration_s():.3f} s")
    ticks_before = cpu_ticks()
    head = "| steps | file MB | command | planner | wall s | CPU s | peak RSS MB | peak PSS MB |"
    lines = [head, "|---:|---:|---|---|---:|---:|---:|---:|"]
    walls: dict[tuple[str, str, int], float] = {}
    cpus: dict[tuple[str, str, int], float] = {}
    peaks: dict[tuple[str, str, int], float] = {}
    for steps in args.sizes:
        path = case_file(args.cache, steps, args.seed, args.faults)
        mb = path.stat().st_size / 2**20
        for command in args.commands:
            for planner in args.planners:
                r = run_cli(path, command, planner, args.repeat, args.one_cpu)
                walls[(command, planner, steps)] = r["wall"]
                cpus[(command, planner, steps)] = r["cpu"]
                peaks[(command, planner, steps)] = r["peak_mb"]
                line = (f"| {steps:,} | {mb:.0f} | `dgrr {command}` | {planner} | "
                        f"{r['wall']:.2f} | {r['cpu']:.2f} | {r['peak_mb']:.0f} | "
                        f"{r['peak_pss_mb']:.0f} |")
                print(line, file=sys.stderr)
                lines.append(line)
    print("\n".join(lines))
    ticks_after = cpu_ticks()
    all_ticks, stolen = (a - b for a, b in zip(ticks_after, ticks_before, strict=True))
    print(f"load average after: {os.getloadavg()[0]:.2f}; calibration loop "
          f"{calibration_s():.3f} s; CPU time stolen by the hypervisor meanwhile "
          f"{stolen / os.sysconf('SC_CLK_TCK'):.1f} s ({100 * stolen / max(all_ticks, 1):.1f} %)")
    for (command, planner, steps), wall in sorted(walls.items()):
        big = walls.get((command, planner, steps * 10))
        if big:
            print(f"{command} {planner}: {steps * 10:,}/{steps:,} wall ratio {big / wall:.1f}, "
                  f"CPU ratio {cpus[(command, planner, steps * 10)] / cpus[(command, planner, steps)]:.1f}")
    if args.targets:
        print("\nTargets (CPU s of the whole process tree; on a shared machine compare the "
              "calibration loop's time too):")
        for planner in args.planners:
            for line in target_lines(cpus, peaks, planner):
                print(f"  {planner}: {line}")


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
    parser.add_argument("--seed", type=int, default=None,
                        help="synth seed (default 2: its faults reach about half of the "
                             "graph at 10k, 100k and 1M steps, the heavy case; 11 with "
                             "--targets)")
    parser.add_argument("--faults", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=1, help="fresh processes per size")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dgrr-bench",
                        help="where generated cases are kept between runs")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--cli", action="store_true",
                        help="time whole `dgrr plan --json` and `dgrr validate` processes")
    parser.add_argument("--planners", nargs="+", default=["columnar", "networkx"],
                        choices=["columnar", "networkx", "auto"])
    parser.add_argument("--commands", nargs="+", default=list(CLI_COMMANDS),
                        choices=list(CLI_COMMANDS), help="with --cli: the commands timed")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--one-cpu", action="store_true",
                        help="with --cli: let each dgrr process use one CPU only")
    parser.add_argument("--cli-child", help=argparse.SUPPRESS)
    parser.add_argument("--pss", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--targets", action="store_true",
                        help="time `dgrr plan --json` (auto planner) with the default "
                             "objective and with `--objective answer --suspects off` at 100k "
                             "and 1M steps (seed 11) and say which targets pass")
    args = parser.parse_args()
    if args.targets:
        args.cli = True
        if args.sizes == list(DEFAULT_SIZES):
            args.sizes = [100_000, 1_000_000]
        args.commands, args.planners = ["plan --json", ANSWER_ONLY], ["auto"]
    if args.seed is None:
        args.seed = 11 if args.targets else 2
    if args.child:
        print(json.dumps(measure(args.child)))
        return
    if args.cli_child:
        print(json.dumps(measure_cli(json.loads(args.cli_child), args.one_cpu, args.pss)))
        return
    if args.cli:
        cli_main(args)
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
