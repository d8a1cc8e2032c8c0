"""`dgrr validate` and `dgrr plan`: exit codes, stdout/stderr, the JSON report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repair_core import load_case, plan_case
from repair_core.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sample_traces" / "figure1-travel.json"


def test_validate_ok(capsys):
    assert main(["validate", str(EXAMPLE)]) == 0
    assert "valid dgrr.case/v1 case 'fig1-travel'" in capsys.readouterr().out


def test_validate_bad_case_exits_2_with_every_problem_on_stderr(tmp_path, capsys):
    data = json.loads(EXAMPLE.read_text())
    data["format"] = "nope"
    data["trajectory"][4]["deps"][1]["id"] = "s99"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["validate", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "format: unknown format 'nope'" in captured.err
    assert "trajectory[4].deps[1]: unknown id 's99'" in captured.err
    assert "Traceback" not in captured.err


def test_a_plan_without_faults_has_no_empty_faults_heading(tmp_path, capsys):
    data = json.loads(EXAMPLE.read_text())
    data["faults"] = []
    path = tmp_path / "no-faults.json"
    path.write_text(json.dumps(data))
    assert main(["plan", str(path)]) == 0
    out = capsys.readouterr().out
    assert "No faults are marked: nothing is affected" in out
    assert "Faults and their seeds" not in out
    assert main(["plan", str(EXAMPLE)]) == 0
    assert "Faults and their seeds\n  m3  " in capsys.readouterr().out


def test_plan_json_is_exactly_the_report(capsys):
    assert main(["plan", str(EXAMPLE), "--json", "--objective", "answer"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == plan_case(load_case(EXAMPLE)).report().model_dump(mode="json")
    assert set(out) == {"case_id", "seeds", "affected", "supported", "unsupported",
                        "answer_relevant", "memory", "steps", "reasons"}


def test_plan_repair_and_the_dashboard_share_one_default_objective(capsys):
    from dgrr_dashboard.state import DEFAULT_OBJECTIVE

    assert main(["plan", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    both = plan_case(load_case(EXAMPLE), objective="both")
    assert out == both.report().model_dump(mode="json") and out["objective"] == "both"
    assert main(["repair", str(EXAMPLE), "--json"]) == 0
    repaired = json.loads(capsys.readouterr().out)
    assert repaired["report"]["objective"] == "both"
    assert {d["id"]: d["action"] for d in repaired["report"]["decisions"]} == \
        {**both.memory, **both.steps}
    assert DEFAULT_OBJECTIVE == "both"


def test_plan_summary_is_readable(capsys):
    assert main(["plan", str(ROOT / "sample_traces" / "shop-summary-drift.json")]) == 0
    out = capsys.readouterr().out
    assert "seed: its producer s2" in out
    assert "restore    m1" in out
    assert "quarantine m6" in out
    assert "s2 → s3 → s4" in out


@pytest.mark.parametrize("args", [["plan", "missing.json"], ["validate", "/"]])
def test_bad_paths_exit_2(args, capsys):
    assert main(args) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_module_entry_point_and_console_script_agree():
    a = subprocess.run([sys.executable, "-m", "repair_core", "plan", str(EXAMPLE), "--json"],
                       capture_output=True, text=True)
    assert a.returncode == 0
    assert json.loads(a.stdout)["memory"]["m3"] == "delete"


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "validate" in capsys.readouterr().err


def test_faults_option_overrides_the_case_faults(capsys):
    assert main(["plan", str(EXAMPLE), "--json", "--faults", "m5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["memory"]["m5"] == "delete" and out["memory"]["m3"] == "keep"
    assert main(["plan", str(EXAMPLE), "--json", "--faults", ""]) == 0
    assert json.loads(capsys.readouterr().out)["affected"] == []
    assert main(["plan", str(EXAMPLE), "--faults", "m3,s2"]) == 2
    assert "faults[1]: not a memory record, tool observation or user turn 's2'" in capsys.readouterr().err


@pytest.mark.parametrize("preset", [None, "3"])
def test_dgrr_asks_openblas_for_one_thread_unless_told(preset: str | None) -> None:
    # numpy's OpenBLAS starts a thread per CPU at import, which dgrr never uses
    code = ("import contextlib, io, os, sys\n"
            "from repair_core.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['validate', sys.argv[1]])\n"
            "import numpy\n"
            "print(os.environ.get('OPENBLAS_NUM_THREADS'), len(os.listdir('/proc/self/task')))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], capture_output=True,
                         text=True, env=env, check=True).stdout.split()
    assert out[0] == (preset or "1")
    if preset is None and sys.platform.startswith("linux"):
        assert out[1] == "1"  # no OpenBLAS worker thread beside the main one


def test_repair_counts_the_steps_that_no_longer_see_an_input_in_words(tmp_path, capsys):
    from repair_core.importers import import_trace

    case = import_trace([ROOT / "sample_imports" / "frameworks" / "openai-agents.otlp.json"]).case
    path = tmp_path / "case.json"
    path.write_text(case.model_copy(update={"faults": ["mem-seat"]}).model_dump_json())
    assert main(["repair", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Inputs the replayed steps no longer see (1 step):\n  964112710a91e385: mem-seat" in out
    assert main(["repair", str(EXAMPLE)]) == 0
    assert "Inputs the replayed steps no longer see (2 steps):" in capsys.readouterr().out
