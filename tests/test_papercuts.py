"""CLI papercuts, each pinned by a test: read-only commands create nothing,
argument ranges are checked, suite names do not depend on the current folder, `bench
generate` writes where it says, refusals name options that exist, progress bars only on a
terminal, plurals, long values wrapped instead of cut, and the README's serve-model example
uses the matching model string."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "sample_traces" / "figure1-travel.json"


def dgrr(*args: str, cwd: Path | None = None, env: dict | None = None
         ) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "repair_core", *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


# ---- read-only commands never create files ---------------------------------------------

def test_history_with_a_missing_db_folder_creates_nothing(tmp_path, capsys):
    db = tmp_path / "nonexistent-dir" / "x.db"
    assert main(["history", "--db", str(db)]) == 2
    assert "no such database" in capsys.readouterr().err
    assert not db.parent.exists()


def test_history_without_a_database_yet_says_so_and_creates_nothing(tmp_path, monkeypatch,
                                                                     capsys):
    db = tmp_path / "fresh" / "approvals.db"
    monkeypatch.setenv("DGRR_DB", str(db))
    assert main(["history"]) == 0
    assert "no approvals recorded (no database yet at" in capsys.readouterr().out
    assert not db.parent.exists()


def test_history_reads_an_existing_database(tmp_path, capsys):
    db = tmp_path / "a.db"
    assert main(["approve", str(FIG1), "--reviewer", "ana", "--decision", "approve",
                 "--db", str(db)]) == 0
    assert "(0 plan edits)" in capsys.readouterr().out
    assert main(["history", "--db", str(db)]) == 0
    assert "ana" in capsys.readouterr().out


# ---- argument ranges ---------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["history", "--limit", "-1"], ["history", "--limit", "0"], ["history", "--limit", "x"],
    ["repair", str(FIG1), "--timeout", "-5"], ["repair", str(FIG1), "--deadline", "inf"],
])
def test_out_of_range_arguments_are_refused(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and "Traceback" not in err


# ---- suites resolved from the checkout, not the current folder ----------------------------

def test_bench_run_finds_a_suite_by_name_from_another_folder(tmp_path):
    out = dgrr("bench", "run", "--suite", "adapted", "--methods", "no_repair",
               "--out", str(tmp_path / "res"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "neither a known suite" not in out.stderr
    assert json.loads((tmp_path / "res" / "run.json").read_text())
    # stderr is not a terminal here: no progress bar is drawn into it
    assert "%|" not in out.stderr and "run/s" not in out.stderr and "\r" not in out.stderr


def test_bench_generate_writes_where_out_says(tmp_path):
    out = dgrr("bench", "generate", "--suite", "adapted", "--out", str(tmp_path / "gen"),
               cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "gen").glob("*.json"))) > 10
    assert [p.name for p in tmp_path.iterdir()] == ["gen"]  # nothing else in the folder


def test_bench_generate_outside_a_checkout_requires_out(tmp_path, monkeypatch, capsys):
    from repair_core.commands import bench

    monkeypatch.setattr(bench, "checkout_root", lambda: None)
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "generate", "--suite", "adapted"]) == 2
    assert "--out: required" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_bench_generate_documents_its_default(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "generate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: sample_traces/<suite> of the dgrr checkout" in text


# ---- refusal names an option that exists ---------------------------------------------------

def test_refused_edit_names_force_and_comment_which_exist(tmp_path, capsys):
    edits = tmp_path / "edits.json"
    edits.write_text(json.dumps({"edits": {"s1": "invalidate"}}))
    assert main(["repair", str(FIG1), "--plan", str(edits)]) == 2
    err = capsys.readouterr().err
    assert "--force and --comment" in err and "apply with force" not in err
    assert main(["repair", str(FIG1), "--plan", str(edits), "--force",
                 "--comment", "the read is fine", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any("the read is fine" in d["reason"] for d in data["report"]["decisions"])


# ---- plurals -------------------------------------------------------------------------------

def test_singular_counts_read_as_singular(capsys):
    assert main(["validate", str(FIG1)]) == 0
    out = capsys.readouterr().out
    assert "(1 turn, 11 steps, 7 records, 1 fault)" in out
    assert main(["plan", str(FIG1)]) == 0
    assert "1 diagnosed fault\n" in capsys.readouterr().out
    assert main(["repair", str(FIG1)]) == 0
    out = capsys.readouterr().out
    assert "[1 call]" in out and "[1 calls]" not in out
    assert re.search(r"\b1 (turns|faults|plan edits|calls)\b", out) is None


# ---- long values wrapped, not cut ----------------------------------------------------------

def test_long_values_are_wrapped_not_cut(capsys):
    assert main(["repair", str(FIG1)]) == 0
    out = capsys.readouterr().out
    # the section's counts line, then its lines
    replay = out.split("\nReplay:", 1)[1].split("\n", 1)[1].split("\n\n", 1)[0]
    assert max(len(line) for line in replay.splitlines()) <= 100
    flat = " ".join(replay.split())
    assert "destination=NRT, date=next Friday, cabin=economy, seat=aisle" in flat
    assert main(["plan", str(FIG1)]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    flat = " ".join(out.split())
    assert '"Lin books window seats on long-haul flights."' in flat
    assert "quarantined (kept for audit, never retrieved)" in flat


# ---- the README's serve-model example ------------------------------------------------------

def test_readme_serve_model_example_uses_the_served_model_string():
    from repair_core.model._server import SERVED_MODEL

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    port = re.search(r"dgrr serve-model --port (\d+)", readme)
    assert port, "README has no serve-model example"
    assert (f"--model openai/{SERVED_MODEL} --api-base http://127.0.0.1:{port.group(1)}/v1"
            in readme)
