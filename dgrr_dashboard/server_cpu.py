"""Keep the dashboard server's threads on one CPU.

Every session of a `streamlit run` server runs in a thread of one process, and only the
thread holding the interpreter lock (GIL) runs Python. While one reviewer's 130k-node case
loads, another reviewer's page change waits for the lock again and again (its script
thread and the event-loop thread that sends its messages each take it many times). With
the threads free to run on two CPUs, each hand-over of the lock to a thread waiting on the
other CPU was slow enough that 5–10 of B's 317–381 page changes a run took 0.5–1.0 s as
the server delivered them; with every thread of the server on one CPU, none of 3,586 did
(the slowest 0.32–0.50 s), and A's steps together took 45–59 s against 45–51 s
(`benchmarks/dashboard_sessions.py --b-websocket`, docs/performance.md). The lock lets
only one thread run Python at a time anyway, so the server gives up little.

`DGRR_SERVER_CPU` chooses: unset or `auto`, the CPU the server is running on when it
first serves a page (if it may use more than one); `off`, no pinning; a number, that CPU.
Threads and processes started later by a pinned thread inherit its CPU; the upload worker
(`upload_worker`) moves itself to the other CPUs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["SETTING", "chosen_cpu", "pin_server_threads"]

SETTING = "DGRR_SERVER_CPU"


def _current_cpu() -> int:
    # field 39 of /proc/thread-self/stat, "processor": the CPU this thread last ran on
    return int(Path("/proc/thread-self/stat").read_text().rsplit(")", 1)[1].split()[36])


def chosen_cpu(value: str | None, allowed: set[int]) -> int | None:
    """The CPU the setting `value` pins the server to, among the CPUs it may use
    (`allowed`); None for no pinning (`off`, or only one CPU allowed anyway).

    >>> chosen_cpu("off", {0, 1}) is None
    True
    >>> chosen_cpu("1", {0, 1})
    1
    >>> chosen_cpu("auto", {3})  # one CPU already
    """
    text = (value or "auto").strip().lower()
    if text == "off" or (text == "auto" and len(allowed) < 2):
        return None
    if text == "auto":
        cpu = _current_cpu()
        return cpu if cpu in allowed else min(allowed)
    if text.isdecimal() and int(text) in allowed:
        return int(text)
    raise ValueError(f"{SETTING}={value!r}: expected auto, off or one of the CPUs this "
                     f"server may use ({', '.join(map(str, sorted(allowed)))})")


def pin_server_threads(value: str | None = None) -> int | None:
    """Pin every thread of this process to the CPU the setting chooses (`value`, by default
    the environment's `DGRR_SERVER_CPU`); the CPU, or None if nothing was pinned. A bad
    setting is reported on stderr, naming it, and nothing is pinned."""
    if not hasattr(os, "sched_setaffinity"):  # not Linux: nothing to do
        return None
    raw = os.environ.get(SETTING) if value is None else value
    try:
        cpu = chosen_cpu(raw, os.sched_getaffinity(0))
        if cpu is None:
            return None
        tasks = [int(task.name) for task in Path("/proc/self/task").iterdir()]
    except (ValueError, OSError) as exc:  # a bad setting; no /proc to read
        print(f"dgrr dashboard: {exc}; the server's threads are not pinned", file=sys.stderr)
        return None
    for task in tasks:
        try:
            os.sched_setaffinity(task, {cpu})
        except OSError:  # a thread that has just ended
            continue
    return cpu
