"""Progress for long single-process commands: a tqdm bar on a terminal, nothing otherwise.

The bar appears only once the work has run for about a second (tqdm's `delay`), on
stderr, and only when stderr is a terminal: piped or captured output stays byte for byte
what it was, and short runs print nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["progress", "Progress", "SHOW_AFTER_SECONDS"]

SHOW_AFTER_SECONDS = 1.0


class Progress:
    """What a command reports to: `stage(name)` between phases, `update(n)` in loops."""

    def __init__(self, bar: Any = None) -> None:
        self._bar = bar

    def stage(self, name: str) -> None:
        """A phase of known order finished or started: the bar says which one."""
        if self._bar is not None:
            self._bar.set_postfix_str(name, refresh=False)
            self._bar.update(1)

    def update(self, n: int = 1) -> None:
        """`n` more units of a loop are done."""
        if self._bar is not None:
            self._bar.update(n)


def _on_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def progress(desc: str, total: int | None = None, unit: str = "stage") -> Iterator[Progress]:
    """A :class:`Progress` that draws a tqdm bar on stderr when it is a terminal and the
    block has run for :data:`SHOW_AFTER_SECONDS`; a silent one otherwise."""
    if not _on_terminal():
        yield Progress()
        return
    from tqdm import tqdm

    # no monitor thread: the columnar reader forks only a process without other threads
    tqdm.monitor_interval = 0
    bar = tqdm(total=total, desc=desc, unit=unit, delay=SHOW_AFTER_SECONDS, leave=False,
               file=sys.stderr, dynamic_ncols=True)
    try:
        yield Progress(bar)
    finally:
        bar.close()
