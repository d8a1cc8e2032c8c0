"""Untrusted text never reaches a terminal raw: ids, texts, the case id and a reviewer's
name holding ESC (CSI, OSC 8 hyperlinks, a screen clear), BEL, CR, C1 controls and bidi
overrides are printed by every command as the queue commands print them (each such
character as a visible escape), in what the command says and in its error messages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from repair_core import load_example

ROOT = Path(__file__).resolve().parents[1]

# a screen clear, an OSC 8 link, a CR that rewrites the line, a C1 CSI, bidi overrides
HOSTILE = "\x1b[2J\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\r\x9b31m\u202edi\u2066x"


def _raw_controls(text: str) -> list[str]:
    """Characters of `text` a terminal would act on (line breaks between lines aside)."""
    return sorted({repr(c) for c in text if not c.isprintable() and c != "\n"})


def _hostile_case(tmp_path: Path) -> Path:
    """The spec example with the fault record's id, the case id, the domain, the user and
    the texts all carrying terminal controls."""
    raw = json.dumps(load_example().model_dump(mode="json"), ensure_ascii=False)
    raw = raw.replace('"m3"', json.dumps("m3" + HOSTILE))
    data = json.loads(raw)
    data["case_id"] = "case" + HOSTILE
    data["domain"] = "travel" + HOSTILE
    data["user_id"] = "lin" + HOSTILE
    for m in data["memory"]:
        m["text"] += HOSTILE
    for s in data["trajectory"]:
        if isinstance(s.get("text"), str):
            s["text"] += HOSTILE
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _dgrr(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DGRR_NO_PROGRESS": "1",
           "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "repair_core", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=300, cwd=cwd, env=env)


@pytest.mark.parametrize("args", [
    ["validate"], ["validate", "--planner", "columnar"], ["validate", "--planner", "networkx"],
    ["plan"], ["plan", "--planner", "columnar"], ["plan", "--objective", "both"],
    ["repair"],
], ids=lambda a: " ".join(a))
def test_commands_print_no_raw_terminal_controls(tmp_path, args):
    case = _hostile_case(tmp_path)
    planner = [a for a in args[1:]]
    if args[0] == "validate" and planner == ["--planner", "networkx"]:  # with --faults: the pydantic path
        done = _dgrr(args[0], str(case), "--faults", "m3" + HOSTILE, cwd=tmp_path)
    else:
        done = _dgrr(args[0], str(case), *planner, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout + done.stderr
    assert "m3" in out or "case" in out
    assert _raw_controls(out) == []
    assert "\\x1b" in out  # shown, escaped, as the queue commands show it


def test_apply_dry_run_prints_no_raw_terminal_controls(tmp_path):
    case = _hostile_case(tmp_path)
    result = _dgrr("repair", str(case), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (tmp_path / "result.json").write_text(result.stdout, encoding="utf-8")
    # every record says the fault's hostile URL, so each is a carrier of it: the refusal
    # and `dgrr verify` list them escaped
    refused = _dgrr("approve", str(case), "--reviewer", "ana", "--decision",
                    "approve", "--result", "result.json", "--db", "a.db", cwd=tmp_path)
    assert refused.returncode == 2 and "not acknowledged" in refused.stderr
    verified = _dgrr("verify", "result.json", "--case", str(case), cwd=tmp_path)
    assert verified.returncode == 1 and "NOT CLEAN" in verified.stdout
    assert _raw_controls(refused.stdout + refused.stderr + verified.stdout) == []
    as_json = _dgrr("verify", "result.json", "--case", str(case), "--json", cwd=tmp_path)
    ack = [a for c in json.loads(as_json.stdout)["carriers"] for a in ("--acknowledge", c["id"])]
    # a reviewer's name carrying the same controls approves it, acknowledging each
    approved = _dgrr("approve", str(case), "--reviewer", "ana", "--decision",
                     "approve", "--result", "result.json", "--db", "a.db", *ack, cwd=tmp_path)
    assert approved.returncode == 0, approved.stderr
    assert _raw_controls(approved.stdout + approved.stderr) == []
    done = _dgrr("apply", "result.json", "--case", str(case), "--to", "mem0", "--store",
                 "nowhere.json", "--db", "a.db", cwd=tmp_path)
    out = done.stdout + done.stderr
    assert "m3" in out and "approval: #1 by ana" in out, out
    assert _raw_controls(out) == []


@pytest.mark.parametrize("args", [
    ["plan", "--faults", "m99" + HOSTILE],
    ["validate", "--faults", "m99" + HOSTILE],
    ["graph", "--faults", "m99" + HOSTILE, "--out", "g.html"],
], ids=lambda a: a[0])
def test_error_messages_print_no_raw_terminal_controls(tmp_path, args):
    case = _hostile_case(tmp_path)
    done = _dgrr(args[0], str(case), *args[1:], cwd=tmp_path)
    assert done.returncode == 2
    assert "m99" in done.stderr
    assert _raw_controls(done.stdout + done.stderr) == []


def test_import_prints_no_raw_terminal_controls(tmp_path):
    """An imported trace's case id and span names reach the import's summary escaped."""
    trace = ROOT / "sample_imports" / "otlp" / "figure1-travel.otlp.jsonl"
    done = _dgrr("import", str(trace), "--out", "case.json", "--case-id", "imp" + HOSTILE,
                 cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imp" in done.stdout
    assert _raw_controls(done.stdout + done.stderr) == []


@given(st.text())
def test_printable_leaves_nothing_a_terminal_acts_on(text):
    from repair_core._text import printable, printable_lines

    assert printable(text).isprintable()
    assert all(line.isprintable() for line in printable_lines(text).split("\n"))
    if text.isprintable():
        assert printable(text) == text  # printable text is shown as it is
