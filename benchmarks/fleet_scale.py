"""How `dgrr fleet` scales: plan-only over 10,000 cases on the local engine and on Ray at
1 and 2 workers, replay over 1,000 cases, and the Fleet page over the 10,000-case result.

    python benchmarks/fleet_scale.py                          # the issue's sizes
    python benchmarks/fleet_scale.py --cases 500 --replay-cases 50 --skip-page   # smoke

The fleet is `dgrr synth fleet --agents N --shared-records 12 --poison 4 --seed 1` (20-80
steps per case), generated once into a cache folder. Plan-only runs use `--faults m1,m2`,
ids every case has, so that every one of the N cases is loaded, matched, marked and
planned (a real `--match-text` run plans only the cases holding the text: less work).
Each run is a fresh `dgrr fleet ... --json` process into a fresh folder; the time is the
run's own `wall_seconds` (enumerating the sources, starting the pool or Ray, every case,
combining the parts, writing the outputs) and the process's wall time including Python
start-up. `cpu_s` is the CPU time (user + system) of every process of the run that was
reaped (the pool's workers; Ray's processes as far as they are waited for), which is
much less disturbed than wall time when other work shares the machine. Peak memory per worker is the largest `VmHWM` (peak resident set) of any worker
process, sampled from /proc every 0.2 s: the pool's children for the local engine,
`ray::` processes for Ray. `--flat` repeats the 2-worker local run on a tenth of the fleet
to show whether worker memory grows with the number of cases.

The page timings run the Fleet page under streamlit's AppTest (the same script a browser
gets, without the browser's rendering) and time each interaction.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def fleet(cache: Path, n: int) -> Path:
    """The first `n` cases of the cached fleet, as a folder (symlinks into the full one)."""
    full = cache / "fleet"
    if not (full / "manifest.json").exists():
        total = max(n, 10_000)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "fleet", "--agents",
                        str(total), "--shared-records", "12", "--poison", "4", "--seed", "1",
                        "--out", str(full)], check=True, env=_env())
        print(f"generated {total} cases in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    manifest = json.loads((full / "manifest.json").read_text())
    if n >= len(manifest["cases"]):
        return full
    sub = cache / f"fleet-{n}"
    if not sub.exists():
        sub.mkdir()
        for c in manifest["cases"][:n]:
            (sub / c["file"]).symlink_to(full / c["file"])
    return sub


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "DGRR_NO_PROGRESS": "1",
            "RAY_USAGE_STATS_ENABLED": "0", "LITELLM_OFFLINE_MODE": "true",
            "LITELLM_MODE": "PRODUCTION"}


class PeakSampler(threading.Thread):
    """Largest VmHWM of the worker processes of `pid` (pool children or `ray::` workers)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peaks: dict[int, float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    status = (entry / "status").read_text()
                    cmd = (entry / "cmdline").read_bytes().split(b"\0")[0].decode()
                except OSError:
                    continue
                fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
                ppid = int(fields.get("PPid", "0"))
                if (ppid == self.pid or cmd.startswith("ray::")) and "VmHWM" in fields:
                    mb = int(fields["VmHWM"].split()[0]) / 1024
                    self.peaks[int(entry.name)] = max(self.peaks.get(int(entry.name), 0), mb)

    def worker_peak(self) -> float:
        return max(self.peaks.values(), default=0.0)


def run_fleet(src: Path, out: Path, engine: str, workers: int, extra: list[str]
              ) -> dict[str, Any]:
    args = [sys.executable, "-m", "repair_core", "fleet", str(src), "--engine", engine,
            "--workers", str(workers), "--out", str(out), "--json", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.Popen(args, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    sampler = PeakSampler(proc.pid)
    sampler.start()
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - t
    sampler.stop.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise SystemExit(f"dgrr fleet failed ({proc.returncode}):\n{stderr[-3000:]}")
    summary = json.loads(stdout)
    return {"engine": engine, "workers": workers, "cases": summary["cases"],
            "planned": summary["matched_cases"], "replay": summary["replay"],
            "run_s": summary["wall_seconds"], "process_s": round(wall, 2),
            "cases_per_s": round(summary["cases"] / summary["wall_seconds"], 1),
            "worker_peak_mb": round(sampler.worker_peak(), 1),
            "cpu_s": round(cpu, 1), "cpu_ms_per_case": round(1000 * cpu / summary["cases"], 2),
            "llm_calls": summary["totals"]["llm_calls"], "errors": summary["error_cases"],
            "load": loadavg()}


def page_timings(result: Path) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT))
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/9_Fleet.py").run()
    steps: list[tuple[str, Any]] = [
        ("read the result and show it", lambda: at.text_input(key="dgrr_w_fleet_dir")
         .set_value(str(result))),
        ("same page again (cached)", lambda: None),
        ("filter: all cases", lambda: at.radio(key="dgrr_w_fleet_show").set_value("all")),
        ("filter: one domain", lambda: at.multiselect(key="dgrr_w_fleet_domains")
         .set_value(["travel"])),
        ("filter: case id contains", lambda: at.text_input(key="dgrr_w_fleet_find")
         .set_value("00042")),
        ("open the first case", lambda: at.button(key="dgrr_w_fleet_open").click()),
    ]
    timings = []
    for name, act in steps:
        act()
        t = time.perf_counter()
        at.run()
        seconds = time.perf_counter() - t
        if at.exception:
            raise SystemExit(f"page failed at {name!r}: {[e.value for e in at.exception]}")
        timings.append({"interaction": name, "seconds": round(seconds, 2)})
    return timings


def browser_timings(result: Path) -> list[dict[str, Any]]:
    """The same interactions in headless Chromium against `streamlit run app.py`: seconds
    from the action until the page is idle again (what a person waits for)."""
    import socket
    import urllib.request

    from playwright.sync_api import sync_playwright

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**_env(), "DGRR_FLEET_DIR": str(result)}
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    timings: list[dict[str, Any]] = []
    try:
        for _ in range(180):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.set_default_timeout(120_000)
            page.goto(url)
            page.locator('[data-testid="stSidebarNav"] a', has_text="Fleet").first.wait_for()

            def idle() -> None:
                page.wait_for_timeout(100)
                page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden")

            def timed(name: str, act: Any, until: Any) -> None:
                t = time.perf_counter()
                act()
                until()
                idle()
                timings.append({"interaction": name,
                                "seconds": round(time.perf_counter() - t, 2)})

            timed("open the Fleet page (read 10k rows, table shown)",
                  lambda: page.locator('[data-testid="stSidebarNav"] a',
                                       has_text="Fleet").first.click(),
                  lambda: page.locator('[data-testid="stDataFrame"]').first.wait_for())
            timed("filter: all cases",
                  lambda: page.get_by_text("all", exact=True).first.click(), lambda: None)
            timed("filter: case id contains",
                  lambda: (page.get_by_label("Case id contains").fill("00042"),
                           page.keyboard.press("Enter")), lambda: None)
            timed("open a case in the workbench",
                  lambda: page.get_by_role("button", name="Open in the workbench").click(),
                  lambda: page.get_by_text("Opened as the working case").wait_for())
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    return timings


def table(rows: list[dict[str, Any]], cols: list[str]) -> str:
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--replay-cases", type=int, default=1_000)
    parser.add_argument("--cache", default="/tmp/dgrr-fleet-bench")
    parser.add_argument("--engines", nargs="+", default=["local", "ray"])
    parser.add_argument("--skip-page", action="store_true")
    parser.add_argument("--skip-runs", action="store_true",
                        help="only the page timings, over an earlier plan-only result")
    parser.add_argument("--result", default=None,
                        help="the fleet result the page timings read (with --skip-runs)")
    parser.add_argument("--json-out", default=None, help="also write the results here")
    args = parser.parse_args()
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    if args.skip_runs:
        result = Path(args.result)
        print(table(page_timings(result), ["interaction", "seconds"]))
        print()
        print(table(browser_timings(result), ["interaction", "seconds"]))
        print(f"\nload: {loadavg()}")
        return
    src = fleet(cache, args.cases)
    runs = cache / f"runs-{int(time.time())}"
    print(f"machine: {machine()}; load before: {loadavg()}", file=sys.stderr)
    plan_rows = []
    for engine in args.engines:
        for workers in (1, 2):
            out = runs / f"{engine}-{workers}"
            row = run_fleet(src, out, engine, workers, ["--faults", "m1,m2"])
            plan_rows.append(row)
            print(row, file=sys.stderr)
    tenth = fleet(cache, max(1, args.cases // 10))
    flat = run_fleet(tenth, runs / "local-2-tenth", "local", 2, ["--faults", "m1,m2"])
    print(flat, file=sys.stderr)
    speedups = {}
    for engine in args.engines:
        one = next(r for r in plan_rows if r["engine"] == engine and r["workers"] == 1)
        two = next(r for r in plan_rows if r["engine"] == engine and r["workers"] == 2)
        speedups[engine] = round(one["run_s"] / two["run_s"], 2)
    replay = None
    if args.replay_cases > 0:  # --replay-cases 0 measures planning only
        replay_src = fleet(cache, args.replay_cases)
        replay = run_fleet(replay_src, runs / "replay", "local", 2,
                           ["--faults", "m1,m2", "--replay"])
        print(replay, file=sys.stderr)
    page = [] if args.skip_page else page_timings(runs / "local-2")
    browser = [] if args.skip_page else browser_timings(runs / "local-2")
    cols = ["engine", "workers", "cases", "planned", "run_s", "process_s", "cases_per_s",
            "cpu_s", "cpu_ms_per_case", "worker_peak_mb", "errors", "load"]
    print("## Plan only\n")
    print(table(plan_rows + [flat], cols))
    print(f"\n2-vs-1 worker speed-up: {speedups}\n")
    if replay is not None:
        print("## Replay (built-in reference model)\n")
        print(table([replay], cols + ["llm_calls"]))
    if page:
        print("\n## Fleet page over the plan-only result\n")
        print(table(page, ["interaction", "seconds"]))
        print("\n## Fleet page in headless Chromium (until the page is idle)\n")
        print(table(browser, ["interaction", "seconds"]))
    print(f"\nmachine: {machine()}; load after: {loadavg()}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(
            {"machine": machine(), "plan": plan_rows, "flat": flat, "speedups": speedups,
             "replay": replay, "page": page, "browser": browser}, indent=1) + "\n")


if __name__ == "__main__":
    main()
