"""The block of docs/results.md that says where each ablation's outcome differs from Ours
is what scripts/ablation_differences.py prints from the committed per-case results."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("ablation_differences",
                                                  ROOT / "scripts" / "ablation_differences.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ablation_block_is_the_committed_results():
    script = _script()
    text = (ROOT / "docs" / "results.md").read_text()
    block = text[text.index(script.BEGIN) + len(script.BEGIN) + 1:text.index(script.END)]
    assert block == script.block(), "run: python scripts/ablation_differences.py --write"


def test_every_ablation_has_a_row_per_committed_suite():
    from repair_core.bench import ABLATIONS, METHOD_LABELS

    block = _script().block()
    for suite in _script().SUITES:
        for ab in ABLATIONS:
            assert f"| {suite} | {METHOD_LABELS[ab]} |" in block
