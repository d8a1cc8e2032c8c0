"""What a content check with the operator's model judge costs the dashboard server on the
hostile case of `content_scale.py --carriers` (`carrier_case`: 3,000 fault sentences and
600 records at 1x, each record sharing a dozen of the fault's tokens and written with no
lineage, so the model judge is asked about every one): made in the server's interpreter,
as the Approve page's check and the Apply panel's were with a judge set, and sent to the
upload worker, as they are in team mode now (docs/dashboard.md, "Uploads in a worker
process").

Per check: the CPU seconds of this process (`time.process_time`: the server's side; the
worker is a child and its time is not in it), in which every other session of a server
waits; the wall-clock seconds the reviewer waits; the judge's calls. The Approve check
reads the RepairResult, the Apply check its JSON data, as `dgrr apply` does. The judge is
a scripted OpenAI-compatible server on 127.0.0.1 in a process of its own
(tests/judge_server.py), answering "no" to every question. The in-server checks run
with litellm already imported (a server imports it once); the worker imports it for
each check, and that is in the worker's time.

    python benchmarks/dashboard_check_cpu.py [--scale 1] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from content_scale import carrier_case  # noqa: E402

from dgrr_dashboard.judge_settings import JudgeSettings  # noqa: E402
from dgrr_dashboard.upload_client import WorkerLimits, verify_in_worker  # noqa: E402
from repair_core import case_from_data, plan_case, repair  # noqa: E402
from repair_core.approvals import check_sources, result_data  # noqa: E402
from repair_core.verification import verify_result  # noqa: E402

_JUDGE = """
import sys
sys.path.insert(0, sys.argv[1])
from judge_server import answer_each, scripted_server
with scripted_server(answer_each(lambda text: ("no", "scripted"))) as server:
    print(server.api_base, flush=True)
    sys.stdin.read()
"""
LIMITS = WorkerLimits(cpu_seconds=120, memory_mb=4096, wall_seconds=1200)


def timed(call):
    cpu, wall = time.process_time(), time.monotonic()
    out = call()
    return out, time.process_time() - cpu, time.monotonic() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    data = carrier_case(args.scale)
    case = case_from_data(data)
    plan = plan_case(case)
    result = repair(case, plan, check=False)
    sources = check_sources(plan)
    judge = subprocess.Popen([sys.executable, "-c", _JUDGE, str(ROOT / "tests")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert judge.stdout is not None
        settings = JudgeSettings(model="openai/scripted-judge",
                                 api_base=judge.stdout.readline().strip(), budget=300)
        from repair_core.judge._model import _import_litellm

        _import_litellm()
        print(f"case {len(json.dumps(data)) / 1e6:.2f} MB, {len(case.memory)} records; "
              f"load average {os.getloadavg()[0]:.1f}")
        print("| check | where | server CPU s | reviewer waits s | judge calls | outcome |")
        print("|---|---|---:|---:|---:|---|")
        checks = {
            "Approve": (lambda: verify_result(case, result, sources=sources,
                                              judge=settings.model_judge()),
                        lambda: verify_in_worker(case, result.model_dump_json(), sources,
                                                 judge=settings, limits=LIMITS)),
            "Apply": (lambda: verify_result(case, result_data(result),
                                            judge=settings.model_judge()),
                      lambda: verify_in_worker(case, json.dumps(result_data(result)), [],
                                               judge=settings, limits=LIMITS)),
        }
        for _ in range(args.repeat):
            for name, (here, there) in checks.items():
                for where, call in (("server", here), ("worker", there)):
                    check, cpu, wall = timed(call)
                    print(f"| {name} | {where} | {cpu:.2f} | {wall:.1f} | "
                          f"{check.judge_use.calls} | {check.outcome} |", flush=True)
    finally:
        if judge.stdin is not None:
            judge.stdin.close()
        judge.wait(10)


if __name__ == "__main__":
    main()
