"""The committed results agree with each other and with the method registry: the fair
comparison at the top of docs/results.md is exactly what scripts/regenerate_results.py
prints from the committed summaries, and every registered method has a row in every
committed suite (a method added without regenerating the results fails here)."""

from __future__ import annotations

import csv
import json
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
