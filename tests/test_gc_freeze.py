"""`freeze_after_pauses`: what a paused call built leaves the collector's walks."""

from __future__ import annotations

import gc
import weakref

from repair_core import load_example, plan_case
from repair_core._perf import freeze_after_pauses, gc_paused


def test_objects_built_in_a_pause_are_frozen_only_when_asked() -> None:
    gc.collect()
    gc.unfreeze()
    freeze_after_pauses(False)
    try:
        with gc_paused():
            held = [{"n": i} for i in range(1000)]
        assert gc.get_freeze_count() == 0  # default: promoted, not frozen
        freeze_after_pauses()
        plan = plan_case(load_example())
        with gc_paused():
            held2 = [{"n": i} for i in range(1000)]
        assert gc.get_freeze_count() >= len(held2)  # everything alive went permanent
        assert gc.isenabled()
        assert not any(o is held2 for o in gc.get_objects(generation=2))
        del held, plan
    finally:
        freeze_after_pauses(False)
        gc.unfreeze()
    assert gc.get_freeze_count() == 0


def test_garbage_waiting_for_the_collector_is_not_frozen_by_a_pause() -> None:
    """A reference cycle that is garbage when a pause begins is collected, not frozen with
    what the pause builds (in the dashboard's server, the namespaces of page runs that
    had ended were frozen with every case loaded, and kept for good)."""

    class Node:
        pass

    gc.collect()
    gc.unfreeze()
    freeze_after_pauses()
    try:
        cycle = Node()
        cycle.me = cycle  # type: ignore[attr-defined]
        gone = weakref.ref(cycle)
        del cycle  # garbage now, which only the collector finds
        with gc_paused():
            held = [{"n": i} for i in range(1000)]
        assert gc.get_freeze_count() >= len(held)  # what the pause built is frozen
        gc.collect()
        assert gone() is None
    finally:
        freeze_after_pauses(False)
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
