"""A pytest plugin that writes each test's CPU seconds, one JSON line per test, to the file
named by $DGRR_CPU_PER_TEST (default cpu-per-test.jsonl): user + system time of the test's
process and of the child processes it waited for, over setup, call and teardown (a module
fixture's setup counts in the first test that uses it; a child that outlives its test is
counted in the test that waits for it). Wall seconds beside it. With xdist each worker
appends its own lines.

    PYTHONPATH=$PWD:benchmarks python3 -m pytest tests/test_x.py -p cpu_per_test -n 2
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Iterator

import pytest


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    own, children = _cpu()
    start = time.perf_counter()
    yield
    own_after, children_after = _cpu()
    row = {"id": item.nodeid, "self": round(own_after - own, 3),
           "child": round(children_after - children, 3),
           "wall": round(time.perf_counter() - start, 3)}
    with open(os.environ.get("DGRR_CPU_PER_TEST", "cpu-per-test.jsonl"), "a",
              encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
