"""How the review queue's cost per request grows with the requests, on PostgreSQL.

    python benchmarks/queue_scale.py                     # 250, 500 and 1,000 requests
    python benchmarks/queue_scale.py --sizes 250 1000 --profile

The library path of `tests/test_queue_postgres.py` without browsers or waits, in one
process on a throwaway PostgreSQL cluster (`tests/postgres_server.py`): one real run of
the LangGraph travel agent (`tests/queue_agent.py`), then for each size, on a database of
its own, N requests submitted (each with a copy of the run's store as its write-back
target), all claimed and decided (every fifth rejected) through `RepairQueue.claim` and
`repair_core.queue.review`, then all approved ones written back with `apply_next`, one
worker object as `dgrr worker` keeps one.

Printed per size and phase: CPU seconds of this process and of the PostgreSQL server
(its postmaster and backends, read from /proc), for the first and the last quarter of
the requests: a phase whose last quarter costs about the first's is linear in the
requests; one whose last quarter costs several times more is quadratic. `--profile`
prints the 15 dearest functions of the largest size's apply and review phases.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import sqlalchemy as sa  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _server_cpu(postmaster: int) -> float:
    """CPU seconds of the postmaster, its reaped children and its live ones."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        elif ppid == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / TICK


class Clock:
    def __init__(self, postmaster: int) -> None:
        self.postmaster = postmaster

    def now(self) -> tuple[float, float]:
        return time.process_time(), _server_cpu(self.postmaster)


def _phase(name: str, n: int, step: Callable[[int], Any], clock: Clock,
           profile: cProfile.Profile | None) -> dict[str, Any]:
    quarter = max(n // 4, 1)
    marks = [clock.now()]
    wall = time.perf_counter()
    for i in range(n):
        if profile is not None:
            profile.enable()
        step(i)
        if profile is not None:
            profile.disable()
        if (i + 1) % quarter == 0:
            marks.append(clock.now())
    wall = time.perf_counter() - wall
    first = (marks[1][0] - marks[0][0], marks[1][1] - marks[0][1])
    last = (marks[4][0] - marks[3][0], marks[4][1] - marks[3][1])
    whole = (marks[-1][0] - marks[0][0], marks[-1][1] - marks[0][1])
    return {"phase": name, "n": n, "first": first, "last": last, "whole": whole, "wall": wall}


def run_size(base_url: str, n: int, case: Any, faults: list[str], stores: Path,
             profile: bool) -> list[dict[str, Any]]:
    from repair_core.queue import RepairQueue, apply_next, review

    name = f"scale_{n}_{os.getpid()}"
    admin = sa.create_engine(base_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        postmaster = int(conn.execute(sa.text(
            "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")
        ).scalar_one())
    admin.dispose()
    postmaster = int(Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()[1])
    url = base_url.rsplit("/", 1)[0] + "/" + name
    clock = Clock(postmaster)
    rows = []
    submitter, reviewer, worker = RepairQueue(url), RepairQueue(url), RepairQueue(url)
    decided: list[int] = []

    def submit(i: int) -> None:
        shutil.copyfile(stores / "base.db", stores / f"{i}.db")
        submitter.submit(case.model_copy(update={"case_id": f"{case.case_id}-{i}"}), faults,
                         diagnosed_by="detector", agent=f"agent-{i % 8}", objective="store",
                         store_target={"to": "langgraph", "store": f"queue_load_store:agent_{i}"})

    def decide(_i: int) -> None:
        r = reviewer.claim(reviewer="rev")
        assert r is not None
        review(reviewer, r.id, reviewer="rev",
               decision="approve" if r.id % 5 else "reject", comment="every fifth")
        decided.append(r.id)

    def apply(_i: int) -> None:
        r = apply_next(worker, worker="work")
        assert r is not None and r.status == "applied", r

    approved = n - sum(1 for i in range(1, n + 1) if i % 5 == 0)
    profiles = {}
    for label, count, step in (("submit", n, submit), ("review", n, decide),
                               ("apply", approved, apply)):
        prof = cProfile.Profile() if profile and label != "submit" else None
        rows.append(_phase(label, count, step, clock, prof))
        if prof is not None:
            profiles[label] = prof
    for q in (submitter, reviewer, worker):
        q.close()
    for label, prof in profiles.items():
        print(f"\n--- {n} requests, {label}: the 15 dearest (cumulative)")
        pstats.Stats(prof).sort_stats("cumulative").print_stats(15)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--profile", action="store_true",
                        help="profile the review and apply phases of the largest size")
    args = parser.parse_args(argv)
    from postgres_server import running_postgres

    from repair_core.queue import RepairQueue

    with tempfile.TemporaryDirectory(prefix="dgrr-queue-scale-") as tmp:
        tmp_path = Path(tmp)
        stores = tmp_path / "stores"
        stores.mkdir()
        os.environ.update({"DGRR_LOAD_STORES": str(stores),
                           "DGRR_APPLY_DIR": str(tmp_path / "journal"), "HOME": tmp})
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
        first = tmp_path / "first-run.db"
        subprocess.run([sys.executable, str(ROOT / "tests" / "queue_agent.py"), "run",
                        str(stores / "base.db"), str(tmp_path / "trace"),
                        f"sqlite:///{first}"], check=True, capture_output=True, cwd=ROOT,
                       env=env, timeout=300)
        scratch = RepairQueue(f"sqlite:///{first}")
        case, faults = scratch.case(1), scratch.get(1).faults
        scratch.close()
        results = []
        with running_postgres(tmp_path) as url:
            for n in args.sizes:
                results += run_size(url, n, case, faults, stores,
                                    args.profile and n == max(args.sizes))
                for f in stores.glob("[0-9]*.db"):
                    f.unlink()
    print("\nCPU seconds (this process + PostgreSQL server) per quarter of the requests")
    print(f"{'requests':>8} {'phase':>7} {'first quarter':>17} {'last quarter':>17} "
          f"{'last/first':>10} {'whole':>15} {'wall s':>7}")
    for r in results:
        f, la, w = sum(r["first"]), sum(r["last"]), r["whole"]
        print(f"{r['n']:>8} {r['phase']:>7} {r['first'][0]:>8.2f}+{r['first'][1]:<8.2f}"
              f"{r['last'][0]:>8.2f}+{r['last'][1]:<8.2f}{la / f if f else 0:>10.2f} "
              f"{w[0]:>7.2f}+{w[1]:<7.2f}{r['wall']:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
