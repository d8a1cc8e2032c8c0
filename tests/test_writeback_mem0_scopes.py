"""Mem0 write-back judged by what the agent reads next, on mem0ai 0.1.x (this
environment) and 2.x (a second venv made by the test with uv): after an approved apply
no search or get_all scoped by the agent's user, agent or run id (alone or together)
returns a quarantined or deleted memory; the restored memory keeps every scope id and
the metadata; each operation is in Mem0's own history (tests/mem0_writeback_scenario.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="dgrr-mem0-"))
pytest.importorskip("mem0", reason="needs the 'import' extra (mem0ai)")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import mem0_writeback_scenario as scenario  # noqa: E402

MEM0_V2 = "mem0ai>=2.2,<3"


def _check(report: dict) -> None:
    for text in report["reachable"]:
        assert text not in (scenario.WINDOW, scenario.HABIT, scenario.NOTE), text
    assert scenario.AISLE in report["reachable"] and scenario.HOME in report["reachable"]
    seen, restored = report["seen"]["seat"], report["restored"]
    assert restored["memory"] == scenario.AISLE
    for key in ("user_id", "agent_id", "run_id", "role"):
        assert restored.get(key) == seen.get(key), key
    assert restored["user_id"] == "lin" and restored["agent_id"] == "travel-bot"
    assert restored["run_id"] == "trip-42"
    meta = restored["metadata"]
    assert meta["dgrr_restored_from"] == report["ids"]["seat"] + "@1"
    assert {k: meta.get(k) for k in seen.get("metadata") or {}} == (seen.get("metadata") or {})
    assert sorted(report["quarantine_listing"]) == sorted([scenario.HABIT, scenario.NOTE])
    history = report["history"]
    assert [tuple(h) for h in history["seat"]][-1] == ("DELETE", scenario.WINDOW, None)
    assert [tuple(h) for h in history["habit"]][-1] == ("DELETE", scenario.HABIT, None)
    assert [tuple(h) for h in history["note"]][-1] == ("DELETE", scenario.NOTE, None)
    assert [tuple(h) for h in history["restored"]] == [("ADD", None, scenario.AISLE)]
    assert [h[0] for h in history["home"]] == ["ADD"]


@pytest.mark.slow
def test_mem0_0_1_quarantine_is_out_of_every_scope(tmp_path):
    report = json.loads(json.dumps(scenario.run(tmp_path), default=str))
    assert report["mem0"].startswith("0.1.")
    _check(report)


@pytest.mark.slow
def test_mem0_2_quarantine_is_out_of_every_scope(tmp_path):
    """mem0ai 2.x cannot share this environment (the importer's pin is 0.1.x): a second
    venv gets it and dgrr from this tree, and runs the same scenario."""
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    subprocess.run([sys.executable, "-m", "uv", "venv", "-q", "--python", sys.executable,
                    str(venv)], check=True, env=env, timeout=300)
    python = str(venv / "bin" / "python")
    install = subprocess.run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python",
                              python, str(ROOT), MEM0_V2], env=env, capture_output=True,
                             text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    env["PYTHONPATH"] = str(ROOT)  # this tree, whatever was installed
    env["MEM0_DIR"] = str(tmp_path / "mem0dir")
    out = subprocess.run([python, str(ROOT / "tests" / "mem0_writeback_scenario.py"),
                          str(tmp_path / "store")], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["mem0"].startswith("2."), report["mem0"]
    _check(report)
