"""`dgrr` run in a process of its own forked from the test process, for tests about a
process that dies (SIGKILL) in the middle of its work: the child starts with dgrr and the
agents' libraries already imported, where a fresh interpreter spent most of its CPU
importing them again."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Mapping
from pathlib import Path


def fork_safe() -> bool:
    """No other thread runs (one holding a lock would leave it held in the child), except
    the idle queue consumers of Mem0's PostHog clients (telemetry off: never used)."""
    return all(t is threading.main_thread() or type(t).__module__ == "posthog.consumer"
               for t in threading.enumerate())


def run_dgrr(args: list[str], env: Mapping[str, str], cwd: Path,
             pythonpath: list[Path], timeout: float = 300,
             fork: bool | None = None) -> subprocess.CompletedProcess:
    """`dgrr ARGS` with `env` added to the environment, in `cwd`, with `pythonpath` first on
    the import path: forked, or a fresh interpreter when forking is not safe. returncode
    is -9 when the process was killed by SIGKILL. Past `timeout` seconds the process is
    killed and subprocess.TimeoutExpired raised, forked or not.

    `fork=True` forks whatever threads run, for tests of the fork itself: whether
    another thread runs is decided by the tests an xdist worker ran before, so a test
    that needs the forked path cannot leave the choice to `fork_safe`."""
    if not (fork if fork is not None else fork_safe()):
        code = "import sys; from repair_core.cli import main; sys.exit(main(sys.argv[1:]))"
        full = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(
            [str(p) for p in pythonpath] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
        return subprocess.run([sys.executable, "-c", code, *args], env=full, cwd=cwd,
                              capture_output=True, text=True, timeout=timeout)
    from repair_core.cli import main

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            status = 1
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
                os.environ.update(env)
                os.chdir(cwd)
                sys.path[:0] = [str(p) for p in pythonpath]
                try:
                    status = main(args)
                except SystemExit as exc:
                    status = exc.code if isinstance(exc.code, int) else 1
                except BaseException:
                    traceback.print_exc()
            finally:
                with contextlib.suppress(BaseException):
                    sys.stdout.flush()
                    sys.stderr.flush()
                os._exit(status)
        status = _wait(pid, args, timeout)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(args, os.waitstatus_to_exitcode(status),
                                           out.read().decode(), err.read().decode())


def _wait(pid: int, args: list[str], timeout: float) -> int:
    """The wait status of the child `pid`, killed (and TimeoutExpired raised) past
    `timeout` seconds: a child stuck on a lock a native thread of this process held when
    it forked (threads `fork_safe` cannot see) would otherwise hang the test run, where
    the fresh interpreter is stopped by subprocess.run's timeout."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(args, timeout)
        time.sleep(0.01)
