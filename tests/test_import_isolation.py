"""The library stays a library: importing it pulls in no UI and no litellm."""

import subprocess
import sys


def _imported_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_import_repair_core_does_not_import_streamlit_pyvis_or_litellm():
    mods = _imported_after("import repair_core")
    assert "repair_core" in mods
    for heavy in ("streamlit", "pyvis", "litellm"):
        assert heavy not in mods, heavy


def test_planning_a_case_does_not_import_them_either():
    mods = _imported_after(
        "import repair_core as r; r.plan_case(r.load_example()).report()")
    for heavy in ("streamlit", "pyvis", "litellm"):
        assert heavy not in mods, heavy


def test_no_module_in_the_package_imports_the_ui_even_lazily():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "repair_core"
    offenders = []
    for path in root.rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith(("import streamlit", "from streamlit",
                                    "import pyvis", "from pyvis")):
                offenders.append(f"{path.name}: {stripped}")
    assert offenders == []


def test_the_columnar_default_plan_loads_neither_the_model_judge_nor_pydantic(tmp_path):
    # the carrier check reads the lexical judge's words and cues only; the model judge,
    # its estimate and pydantic would cost most of a second of start-up at every plan
    case = tmp_path / "case.json"
    subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", "3000",
                    "--memories", "600", "--faults", "3", "--seed", "11", "--out", str(case)],
                   check=True, capture_output=True)
    mods = _imported_after(
        "import io, contextlib; from repair_core.cli import main; out = io.StringIO(); "
        "r = contextlib.redirect_stdout(out); r.__enter__(); "
        f"main(['plan', '--json', '--planner', 'columnar', {str(case)!r}]); "
        "r.__exit__(None, None, None); "
        "assert '\"suspected\"' in out.getvalue()")
    assert "repair_core.judge._lexical" in mods  # the carrier check ran
    for heavy in ("repair_core.judge._model", "repair_core.judge._estimate", "pydantic"):
        assert heavy not in mods, heavy


def test_the_judge_packages_names_are_its_type_checking_imports_each_loaded_on_first_use():
    """`repair_core.judge` lists its names once, as imports for type checkers: `__all__`
    is read from them, each name comes from the submodule they name, and using one name
    loads its own submodule only."""
    import importlib

    import repair_core.judge as judge

    assert {"cue", "LexicalJudge", "ModelJudge", "Verdict", "untrusted_lineage"} <= set(
        judge.__all__)
    for name in judge.__all__:
        module = importlib.import_module(f"repair_core.judge.{judge._MODULE_OF[name]}")
        assert name in module.__all__ and getattr(judge, name) is getattr(module, name)
    mods = _imported_after("from repair_core.judge import cue, fault_words")
    assert "repair_core.judge._cues" in mods and "repair_core.judge._model" not in mods
    star = _imported_after("from repair_core.judge import *; "
                           "assert 'ModelJudge' in dir() and 'RecoveryJudge' in dir()")
    assert "repair_core.judge._model" in star


def test_the_plan_of_a_small_case_loads_neither_numpy_nor_the_model_layer():
    # numpy (0.05-0.1 CPU s) is for searching long texts and many records; the model
    # layer for commands that call a model; the readable plan's summary for `dgrr plan`
    # without --json: none of them is start-up a small plan should pay
    from pathlib import Path

    case = Path(__file__).resolve().parent.parent / "sample_traces" / "figure1-travel.json"
    mods = _imported_after(
        "import io, contextlib; from repair_core.cli import main; out = io.StringIO(); "
        "r = contextlib.redirect_stdout(out); r.__enter__(); "
        f"status = main(['plan', '--json', {str(case)!r}]); "
        "r.__exit__(None, None, None); "
        "assert status == 0 and '\"m3\": \"delete\"' in out.getvalue()")
    assert "repair_core.plan._plan" in mods and "repair_core.content._match" in mods
    for heavy in ("numpy", "repair_core.model", "repair_core.plan._summary"):
        assert heavy not in mods, heavy
