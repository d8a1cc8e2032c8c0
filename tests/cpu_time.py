"""CPU seconds of one call, for the tests that bound how long a rule may take.

A long test process holds the garbage of every test before it; a full collection that
happens to run during the call counts as the call's CPU time (a megabyte scan of 0.05 s
measured 1.04 s once in a full run). So the garbage is collected before the call and no
collection runs during it."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def cpu_seconds(call: Callable[[], T]) -> tuple[T, float]:
    """(what `call()` returns, the CPU seconds it took)."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time()
        value = call()
        return value, time.process_time() - start
    finally:
        if enabled:
            gc.enable()
