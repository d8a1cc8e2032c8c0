"""Issue 12, "done when": the hostile-input campaign's inputs, re-run through the real
command line (a fresh `python -m repair_core` each), give a clear message and exit 2 (or 1
for a failed model), never a traceback, and clobber nothing."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIG1 = str(ROOT / "sample_traces" / "figure1-travel.json")
TEXT = (ROOT / "sample_traces" / "figure1-travel.json").read_text()


def dgrr(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "repair_core", *argv], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)


def _case(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def _inputs(tmp: Path) -> list[tuple[str, list[str], int]]:
    data = json.loads(TEXT)
    cases = {
        "string seq": TEXT.replace('"seq": 3,', '"seq": "3",', 1),
        "duplicate case_id": TEXT.replace('"case_id"', '"case_id": "x", "case_id"', 1),
        "NaN trust": TEXT.replace('"trust": 0.9', '"trust": NaN', 1),
        "lone surrogate": TEXT.replace('"text": "', '"text": "\\ud800', 1),
        "100k-deep nesting": '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "5000-digit integer": TEXT.replace('"seq": 3,', '"seq": ' + "9" * 5000 + ",", 1),
        "truncated": TEXT[: len(TEXT) // 2],
    }
    cyc = json.loads(TEXT)
    cyc["memory"][0]["deps"] = [{"id": "m2", "label": "consolidate"}]
    cyc["memory"][1]["deps"] = [{"id": "m1", "label": "consolidate"}]
    cases["record cycle"] = json.dumps(cyc)
    many = dict(data)
    many["trajectory"] = [dict(data["trajectory"][0],
                               deps=[{"id": f"x{i}", "label": "cite"} for i in range(5000)])
                          ] + data["trajectory"][1:]
    cases["5000 problems"] = json.dumps(many)
    runs: list[tuple[str, list[str], int]] = []
    for name, text in cases.items():
        f = _case(tmp, name.replace(" ", "-") + ".json", text)
        runs.append((f"validate: {name}", ["validate", f], 2))
        runs.append((f"plan: {name}", ["plan", f], 2))
    deep = _case(tmp, "deep.json", "[" * 100_000 + "]" * 100_000)
    runs.append(("repair --plan deep", ["repair", FIG1, "--plan", deep], 2))
    runs.append(("approve --result deep", ["approve", FIG1, "--reviewer", "a", "--decision",
                                           "approve", "--result", deep, "--db",
                                           str(tmp / "a.db")], 2))
    runs.append(("validate --memory deep", ["validate", FIG1, "--memory", deep], 2))
    os.mkfifo(tmp / "fifo")
    (tmp / "dangling").symlink_to(tmp / "nowhere" / "x")
    (tmp / "folder").mkdir()
    runs.append(("graph --out FIFO", ["graph", FIG1, "--out", str(tmp / "fifo")], 2))
    runs.append(("graph --out dangling", ["graph", FIG1, "--out", str(tmp / "dangling")], 2))
    runs.append(("graph --out folder", ["graph", FIG1, "--out", str(tmp / "folder")], 2))
    runs.append(("graph --out ''", ["graph", FIG1, "--out", ""], 2))
    runs.append(("graph --out /sys", ["graph", FIG1, "--out", "/sys/dgrr-x.html"], 2))
    if os.geteuid() == 0:
        os.mknod(tmp / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        runs.append(("graph --out device", ["graph", FIG1, "--out", str(tmp / "null")], 2))
    runs.append(("repair --out FIFO", ["repair", FIG1, "--out", str(tmp / "fifo")], 2))
    runs.append(("bench run --out FIFO", ["bench", "run", "--suite", FIG1, "--methods", "ours",
                                          "--out", str(tmp / "fifo")], 2))
    runs.append(("bench generate --out FIFO", ["bench", "generate", "--suite", "controlled",
                                               "--out", str(tmp / "fifo")], 2))
    runs.append(("bench table FIFO", ["bench", "table", str(tmp / "fifo")], 2))
    runs.append(("history --db postgresql", ["history", "--db",
                                             "postgresql://u:pw@127.0.0.1:1/x"], 2))
    runs.append(("serve-model --host 0.0.0.0", ["serve-model", "--host", "0.0.0.0",
                                                "--port", "0"], 2))
    edited = _case(tmp, "keep-fault.json", json.dumps({"edits": {"m3": "keep"}}))
    runs.append(("repair --force keeps a fault", ["repair", FIG1, "--plan", edited, "--force",
                                                  "--comment", "x"], 2))
    return runs


@pytest.mark.slow
def test_campaign_inputs_get_a_message_and_the_right_exit_code(tmp_path):
    failures = []
    for name, argv, code in _inputs(tmp_path):
        r = dgrr(*argv)
        lines = r.stderr.strip().splitlines()
        ok = (r.returncode == code and "Traceback" not in r.stderr and lines
              and lines[0].startswith("dgrr ") and len(r.stderr) < 20_000)
        if not ok:
            failures.append((name, r.returncode, r.stderr[-500:]))
    assert failures == []
    assert stat.S_ISFIFO((tmp_path / "fifo").lstat().st_mode)
    assert (tmp_path / "dangling").is_symlink() and (tmp_path / "folder").is_dir()
    if os.geteuid() == 0:
        assert stat.S_ISCHR((tmp_path / "null").lstat().st_mode)


@pytest.mark.slow
def test_a_tampered_log_is_reported_by_history_verify(tmp_path):
    db = str(tmp_path / "a.db")
    assert dgrr("approve", FIG1, "--reviewer", "ana", "--decision", "approve", "--db",
                db).returncode == 0
    assert dgrr("history", "--verify", "--db", db).returncode == 0
    con = sqlite3.connect(db)
    con.execute("DROP TRIGGER dgrr_approvals_no_update")
    con.execute("UPDATE dgrr_approvals SET reviewer = 'mallory'")
    con.commit()
    con.close()
    r = dgrr("history", "--verify", "--db", db)
    assert r.returncode == 1 and "BROKEN at" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_a_failed_model_exits_1_and_writes_only_failure_json(tmp_path):
    out = tmp_path / "res"
    # a closed port: every model call fails
    r = dgrr("repair", FIG1, "--model", "openai/x", "--api-base", "http://127.0.0.1:9/v1",
             "--out", str(out), timeout=600)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["failure.json"]
