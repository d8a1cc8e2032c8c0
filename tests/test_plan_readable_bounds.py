"""The readable plan is for a person: a megabyte record is quoted, not printed whole, and a
case with hundreds of suspected carriers lists the first ones and says how many more; the
JSON report keeps every text and every suspect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_module import load_script

from repair_core._text import QUOTED_CHARS, excerpt
from repair_core.cli import main

content_scale = load_script("benchmarks/content_scale.py")


def _plan(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["plan", str(path), *extra]) == 0
    return capsys.readouterr().out


def test_a_long_fault_text_is_quoted_once_with_what_was_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = content_scale.fault_text(200_000)
    path = tmp_path / "case.json"
    path.write_text(json.dumps(content_scale.case(text)), encoding="utf-8")
    readable = _plan(path, capsys)
    assert len(readable) < 20_000  # the text appears twice (fault, store row): 400 chars each
    assert f"… ({len(text) - QUOTED_CHARS:,} more characters)" in readable
    report = json.loads(_plan(path, capsys, "--json"))
    assert report["memory"] == {"m1": "delete"} and report["steps"]["s1"] == "replay"


def test_hundreds_of_suspects_are_listed_up_to_fifty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(content_scale.carrier_case(1, sentences=300, records=80)),
                    encoding="utf-8")
    readable = _plan(path, capsys)
    suspected = json.loads(_plan(path, capsys, "--json"))["suspected"]
    assert len(suspected) > 50
    assert f"  … {len(suspected) - 50} more: see --json\n" in readable
    section = readable.split("Suspected by content")[1].split("\nAffected")[0]
    assert sum("carrier of m1" in line for line in section.splitlines()) == 50


def test_an_excerpt_escapes_what_it_keeps() -> None:
    assert excerpt("a\x1b[2J" + "b" * 10, limit=3) == "a\\x1b[… (12 more characters)"
    assert excerpt("short") == "short"
