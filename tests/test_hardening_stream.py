"""Issue 12, validation memory: `dgrr validate` checks a file item by item and reports the
same problems as the full loader, in the same order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening_fuzz import mutated_text

from repair_core import CaseError, load_case
from repair_core.case._stream import validate_file
from repair_core.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _outcome(fn, path):
    try:
        fn(path)
    except CaseError as exc:
        return exc.problems
    return "valid"


def _same(tmp_path: Path, text: str) -> None:
    f = tmp_path / "case.json"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert _outcome(validate_file, f) == _outcome(load_case, f), text[:300]


@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_streamed_validation_reports_what_the_loader_reports(tmp_path, data):
    text = mutated_text(data)
    if text is None:
        return
    _same(tmp_path, text)


@pytest.mark.parametrize("edit", [
    lambda t: t[: len(t) // 2],  # truncated
    lambda t: t.replace('"case_id"', '"case_id": "x", "case_id"', 1),
    lambda t: t.replace('"trust": 0.9', '"trust": NaN', 1),
    lambda t: t.replace('"text": "', '"text": "\\ud800', 1),
    lambda t: t.replace('"seq": 2,', '"seq": ' + "9" * 5000 + ",", 1),
    lambda t: t.replace('"output": ', '"output": ' + "[" * 100_000, 1),
    lambda t: t + " x",
    lambda t: "[" + t + "]",
    lambda t: t.replace('"memory": [', '"memory": 5, "x": [', 1),
    lambda t: t.replace(', "trajectory"', ' "trajectory"', 1),
])
def test_broken_files_get_the_loaders_problems(tmp_path, edit):
    text = json.dumps(json.loads((ROOT / "sample_traces" / "figure1-travel.json").read_text()))
    _same(tmp_path, edit(text))


def test_cli_validate_says_valid(capsys):
    assert main(["validate", str(ROOT / "sample_traces" / "figure1-travel.json")]) == 0
    assert "valid dgrr.case/v1 case 'fig1-travel' (1 turn, 11 steps, 7 records, 1 fault)" \
        in capsys.readouterr().out
