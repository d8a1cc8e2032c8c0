"""The committed results agree with each other and with the method registry: the fair
comparison at the top of docs/results.md is exactly what scripts/regenerate_results.py
prints from the committed summaries, and every registered method has a row in every
committed suite (a method added without regenerating the results fails here)."""

from __future__ import annotations

import csv
import importlib.util
import json
import shlex
from pathlib import Path

from script_module import load_script

from repair_core.bench import METHOD_LABELS

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"


def _regenerate_script():
    return load_script("scripts/regenerate_results.py")


def _summaries(script) -> dict[str, dict[str, dict]]:
    return {suite: json.loads((RESULTS / suite / "summary.json").read_text())
            for suite in script.SUITES if (RESULTS / suite / "summary.json").exists()}


def test_every_registered_method_has_a_row_in_every_committed_suite():
    script = _regenerate_script()
    summaries = _summaries(script)
    assert set(summaries) == set(script.SUITES)
    for suite, by_method in summaries.items():
        missing = [m for m in METHOD_LABELS if m not in by_method]
        assert not missing, f"{suite}: no committed row for {missing}"
        with (RESULTS / suite / "results.csv").open(newline="") as f:
            csv_methods = {row["method"] for row in csv.DictReader(f)}
        assert csv_methods == set(by_method)


def test_the_fair_comparison_is_the_committed_summaries():
    script = _regenerate_script()
    text = (ROOT / "docs" / "results.md").read_text()
    block = text[text.index(script.BEGIN) + len(script.BEGIN) + 1:text.index(script.END)]
    assert block == script.fair_table(_summaries(script))


def _flags(argv: list[str]) -> dict[str, str]:
    """`--flag value` pairs of a command line, without the work folder and the workers."""
    pairs = dict(zip(argv[::2], argv[1::2], strict=True))
    return {k: v for k, v in pairs.items() if k not in ("--out", "--workers")}


def _documented_executor_rules_command() -> list[str]:
    text = (ROOT / "docs" / "results.md").read_text()
    start = text.index("python benchmarks/executor_rules_across_seeds.py")
    return shlex.split(text[start:text.index("\n\n", start)].replace("\\\n", " "))


def test_regenerate_runs_the_executor_rules_the_docs_show_and_keeps_its_units(
        tmp_path, monkeypatch):
    script = _regenerate_script()
    issued: list[list[str]] = []
    monkeypatch.setattr(script, "_run", issued.append)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    stored = tmp_path / "executor-rules" / "units" / "controlled-noisy-s42-k1.json"
    stored.parent.mkdir(parents=True)
    stored.write_text("{}")
    script.across_seeds(tmp_path, 2, skip_grid=True, skip_executor_rules=False)
    [command] = issued
    assert command[1] == "benchmarks/executor_rules_across_seeds.py"
    documented = _documented_executor_rules_command()
    assert documented[1] == command[1]
    assert _flags(command[2:]) == _flags(documented[2:])
    assert _flags(command[2:])["--doc"] == "docs/results.md"
    pairs = dict(zip(command[2::2], command[3::2], strict=True))
    assert pairs["--out"] == str(tmp_path / "executor-rules")
    assert pairs["--workers"] == "2"
    assert stored.read_text() == "{}"  # resumable: the stored units are not removed

    issued.clear()
    script.across_seeds(tmp_path, 2, skip_grid=True, skip_executor_rules=True)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    script.across_seeds(tmp_path, 2, skip_grid=True, skip_executor_rules=False)
    assert issued == []

