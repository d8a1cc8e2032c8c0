"""Keeping Python's cyclic garbage collector out of the hot path.

Loading and planning a large case allocates millions of small containers (dicts, lists,
pydantic models, graph adjacency) and frees almost none of them. Each allocation burst
triggers generation-2 collections that walk every live object again, which made loading
a 100k-step case several times slower and its cost grow faster than linearly (see
`docs/performance.md`). None of these objects form garbage cycles that need collecting
during the call, so collection is paused for its duration and resumed after, with the
objects made meanwhile promoted to the oldest generation (see `_promote_young_objects`).
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

__all__ = ["gc_paused", "without_gc", "freeze_after_pauses"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False
_freeze_after = False

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause cyclic garbage collection inside the block (nested and threaded uses share
    one pause; collection resumes when the outermost block ends, if it was on before)."""
    global _depth, _was_enabled
    if _freeze_after and _depth == 0 and gc.isenabled():
        # the freeze that ends the pause would keep for good what is garbage now (the
        # namespaces of page runs that have ended); only what is not frozen yet is walked.
        # Outside the lock: a finaliser the collection runs may pause too.
        gc.collect()
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                _promote_young_objects()
                gc.enable()


def freeze_after_pauses(enabled: bool = True) -> None:
    """From now on, end every pause with `gc.freeze()`: what the paused call built (a
    loaded case, its graph and plan) goes to the permanent generation, which no collection
    ever walks, instead of the oldest one, which the next full collection walks whole.

    For a long-running server that holds large cases for many sessions (the dashboard):
    there a full collection walking one session's 1.6M-object case stalled every other
    session for a second or more (docs/performance.md). The price: a reference cycle alive
    when a pause ends is never collected once it becomes garbage (objects without cycles
    are still freed as usual); the case, graph and plan objects form none, but the
    dashboard's page namespaces, alive while their run loads a case, do. Garbage is
    collected when a pause begins (only objects not frozen yet are walked), so cycles
    that were already garbage then are not frozen too."""
    global _freeze_after
    _freeze_after = enabled


def _promote_young_objects() -> None:
    if _freeze_after:
        gc.freeze()
        return
    # Everything allocated during the pause sits in the youngest generation; the first
    # collection after it would walk all of it (0.6 s after loading and planning 100k
    # steps). Freezing then unfreezing moves every tracked object into the oldest
    # generation unscanned, where cycles are still found by the next full collection.
    # Skipped if the program froze objects itself, so its freeze is not undone.
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def without_gc(func: Callable[P, R]) -> Callable[P, R]:
    """Decorator form of :func:`gc_paused`."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with gc_paused():
            return func(*args, **kwargs)

    return wrapper
