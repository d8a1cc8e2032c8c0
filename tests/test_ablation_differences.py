"""The block of docs/results.md that says where each ablation's outcome differs from Ours
is what scripts/ablation_differences.py prints from the committed per-case results."""

from __future__ import annotations

from pathlib import Path

from script_module import load_script

ROOT = Path(__file__).resolve().parent.parent


def _script():
    return load_script("scripts/ablation_differences.py")


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


def test_each_ablation_changes_some_outcome_on_a_committed_suite():
    """An ablation that never changes an outcome says nothing about the part it removes:
    each must lose or win some case against Ours (strict rule) on a committed suite."""
    from repair_core.bench import ABLATIONS, METHOD_LABELS

    rows = [line.split(" | ") for line in _script().block().splitlines()[2:]]
    for ab in ABLATIONS:
        mine = [r for r in rows if r[1] == METHOD_LABELS[ab]]
        assert any(r[2] != "none" or r[3] != "none" for r in mine), \
            f"{METHOD_LABELS[ab]}: same outcome as Ours on every committed suite"
