"""Work done in a forked second process, its result sent back as bytes.

A large case's reading splits into two parts that need nothing from each other (the
trajectory's halves, `case._columns`): the second runs in a forked process, which sees
everything read so far (copy-on-write), while this one does the first. Forking is used
only where it is safe and can help (:func:`may_fork`); whoever starts the work does it
itself when the second process cannot start or fails (:meth:`Forked.result` is None), so
the output never depends on the path taken.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["Forked", "may_fork"]

F = TypeVar("F", bound="Forked")


def may_fork() -> bool:
    """A second process can help (two CPUs or more usable) and forking is safe: on Linux
    (macOS's system libraries are not fork-safe) and no other thread running (one holding
    a lock would leave it held in the child: the dashboard, a server)."""
    return sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) > 1 \
        and threading.active_count() == 1


class Forked:
    """A forked process computing bytes; :meth:`result` waits for them."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd

    @classmethod
    def start(cls: type[F], work: Callable[[], bytes]) -> F | None:
        """Run `work` in a forked process; None when no process could be started (the
        caller does the work itself). The child never returns: it leaves this process's
        buffers (stdout's among them) alone and exits without running exit handlers."""
        try:
            read_end, write_end = os.pipe()
        except OSError:
            return None
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return None
        if pid:
            os.close(write_end)
            return cls(pid, read_end)
        code = 1  # any exception: the parent sees a failure and does the work itself
        try:
            os.close(read_end)
            data = work()
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)

    def result(self) -> bytes | None:
        """The child's bytes, or None when it failed or died (killed, out of memory)."""
        fd, self.fd = self.fd, -1
        with os.fdopen(fd, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            return None
        return data

    def cancel(self) -> None:
        """Stop the child (its result is not wanted) and reap it."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.pid > 0:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0
