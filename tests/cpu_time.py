"""CPU seconds of one call, and how they grow with the call's input, for the tests that
check a rule's cost grows linearly.

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


A = TypeVar("A")


def grows_linearly(build: Callable[[int], A], call: Callable[[A], T], n: int, k: int = 8,
                   *, repeats: int = 3, label: object = "", margin: float = 3
                   ) -> tuple[T, float, float]:
    """(what `call(build(k * n))` returns, the CPU seconds of the call at size n, at k * n),
    asserting that the large call took less than `margin` * k times the small one plus
    0.03 s.

    How cost grows, not one absolute bound: a slower machine slows both sizes alike, while
    work quadratic in the input takes about k * k times as long at k times the size (64
    times for k = 8, against the 24 allowed). Code partly linear is caught only where its
    quadratic part outweighs the linear one at the large size by (margin - 1) * k /
    (k - margin) (3.2 times for k = 8 and the margin of 3, 2.5 for k = 16; 1.1 for k = 16
    and 2): a larger n, against which the quadratic part grows, or a smaller margin where
    the timing allows, catches more. The small call is the fewest CPU seconds of `repeats`
    runs (the first pays imports and compiled patterns); the large one is run
    again only if its first run is over the bound, so a pause of the machine during it
    does not fail linear code. The inputs are built outside the timing; no garbage
    collection runs during the runs, and none is made before them: in a long test process
    a full collection costs more than a small run, and disabling the collector is enough
    to keep one out of the timing."""
    small_input, large_input = build(n), build(k * n)
    enabled = gc.isenabled()
    gc.disable()
    try:
        small = min(_timed(call, small_input)[1] for _ in range(repeats))
        bound = margin * k * small + 0.03
        value, large = _timed(call, large_input)
        if large >= bound:
            value, large = _timed(call, large_input)
    finally:
        if enabled:
            gc.enable()
    assert large < bound, (
        f"{label!r}: {large:.3f} CPU s at size {k * n:,} against {small:.4f} at {n:,}; "
        f"linear growth allows under {bound:.3f}")
    return value, small, large


def _timed(call: Callable[[A], T], arg: A) -> tuple[T, float]:
    start = time.process_time()
    value = call(arg)
    return value, time.process_time() - start
