"""benchmarks/plan_scale.py --targets says pass or FAIL for each target of the
million-step plan from what was measured."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "plan_scale.py"


def _plan_scale():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("plan_scale", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_target_passes_or_fails_on_its_measurement() -> None:
    ps = _plan_scale()
    answer = ps.ANSWER_ONLY
    cpus = {("plan --json", "auto", 100_000): 0.7, ("plan --json", "auto", 1_000_000): 7.5,
            (answer, "auto", 100_000): 0.65, (answer, "auto", 1_000_000): 6.0}
    peaks = {("plan --json", "auto", 1_000_000): 990.0}
    lines = ps.target_lines(cpus, peaks, "auto")
    assert lines == [
        "100,000 steps `plan --json` <= 0.8 CPU s: 0.70 pass",
        "1,000,000 steps `plan --json` <= 6.0 CPU s: 7.50 FAIL",
        "1,000,000 steps `plan --json` <= 1024 MB peak RSS: 990 pass",
        "growth 100,000 -> 1,000,000 steps <= 10x CPU: 10.7x FAIL",
        "100,000 steps: the default objective and suspects <= 1.10x `--objective answer "
        "--suspects off`'s CPU: 1.08x pass",
        "1,000,000 steps: the default objective and suspects <= 1.10x `--objective answer "
        "--suspects off`'s CPU: 1.25x FAIL",
    ]


def test_a_target_without_its_measurement_is_not_judged() -> None:
    ps = _plan_scale()
    assert ps.target_lines({("plan --json", "auto", 100_000): 0.9}, {}, "auto") == [
        "100,000 steps `plan --json` <= 0.8 CPU s: 0.90 FAIL"]
