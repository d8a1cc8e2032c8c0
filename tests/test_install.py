"""Install safety: bounded ranges, never the attacker's litellm releases, a lock that agrees
with pyproject.toml, and README / CI commands that match."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
COMPROMISED_LITELLM = ("1.82.7", "1.82.8")  # published by an attacker in March 2026


def _requirements() -> list[Requirement]:
    project = PYPROJECT["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in project.get("optional-dependencies", {}).values():
        reqs += [Requirement(r) for r in extra if not r.startswith("dgrr[")]
    return reqs


def _litellm() -> Requirement:
    (req,) = [r for r in _requirements() if r.name == "litellm"]
    return req


def test_the_compromised_litellm_releases_can_never_satisfy_the_requirement():
    spec = _litellm().specifier
    for bad in COMPROMISED_LITELLM:
        assert not spec.contains(bad, prereleases=True), bad
        # and no local or post build of them either
        assert not spec.contains(f"{bad}+local", prereleases=True), bad
        assert not spec.contains(f"{bad}.0", prereleases=True), bad
    # the exclusion is exact: the releases around them are still allowed
    assert spec.contains("1.82.6") and spec.contains("1.82.9")
    assert {"!=1.82.7", "!=1.82.8"} <= {str(s) for s in spec}


def test_every_dependency_has_an_upper_bound_below_the_next_major():
    for req in _requirements():
        caps = [Version(s.version) for s in req.specifier if s.operator == "<"]
        assert caps, f"{req}: no upper bound"
        locked = _locked_version(req.name)
        assert req.specifier.contains(locked), f"{req}: the locked {locked} is outside it"
        next_major = Version(f"{locked.major + 1}") if locked.major >= 1 else Version("1")
        assert min(caps) <= next_major, f"{req}: admits the next major of {locked}"


def _locked(name: str) -> list[dict]:
    norm = re.sub(r"[-_.]+", "-", name).lower()
    return [p for p in LOCK["package"] if p["name"] == norm]


def _locked_version(name: str) -> Version:
    versions = [Version(p["version"]) for p in _locked(name)]
    assert versions, f"{name} is not in uv.lock"
    return min(versions)  # the oldest of the per-Python splits


def test_the_lock_agrees_with_pyproject():
    """Parsed check (needs no tool): the lock records the project's requirements exactly as
    pyproject.toml states them, and every locked version satisfies its range."""
    (project,) = [p for p in LOCK["package"] if p["source"].get("editable") == "."]
    assert project["name"] == PYPROJECT["project"]["name"]
    meta = project["metadata"]
    locked = {Requirement(_pep508(d)) for d in meta["requires-dist"]}
    declared = {Requirement(r) for r in PYPROJECT["project"]["dependencies"]}
    for extra, reqs in PYPROJECT["project"].get("optional-dependencies", {}).items():
        declared |= {Requirement(f"{r}; extra == '{extra}'") for r in reqs}
    assert {str(r) for r in locked} == {str(r) for r in declared}
    for req in _requirements():
        for p in _locked(req.name):
            assert req.specifier.contains(p["version"], prereleases=True), (req, p["version"])
    for p in _locked("litellm"):
        assert p["version"] not in COMPROMISED_LITELLM


def _pep508(dep: dict) -> str:
    extras = f"[{','.join(dep['extras'])}]" if dep.get("extras") else ""
    text = dep["name"] + extras + dep.get("specifier", "")
    return text + (f"; {dep['marker']}" if dep.get("marker") else "")


def test_uv_lock_check_passes():
    """uv's own check: `uv lock --check` fails when pyproject.toml changed after locking."""
    uv = shutil.which("uv")
    cmd = [uv] if uv else [sys.executable, "-m", "uv"]
    out = subprocess.run([*cmd, "lock", "--check", "--offline"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "UV_NO_PROGRESS": "1"})
    assert out.returncode == 0, out.stderr


def test_torch_is_never_locked():
    names = {p["name"] for p in LOCK["package"]}
    assert not names & {"torch", "torchvision", "tensorflow", "jax"}


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, re.S)][:2]


def test_readme_first_commands_are_the_main_job_and_the_test_command():
    main_job, tests = _readme_commands()
    assert main_job == "bash scripts/setup.sh && dgrr repair sample_traces/figure1-travel.json"
    assert tests.startswith("bash scripts/setup.sh --test && ")
    steps = tests.split(" && ")
    assert [s.split()[2] for s in steps[1:]] == ["ruff", "mypy", "pytest"]
    assert steps.index(next(s for s in steps if "ruff check" in s)) < len(steps) - 1


def test_ci_runs_exactly_the_readme_test_command():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [ln for ln in run.splitlines() if ln.strip() and not ln.startswith(("#", "set ",
                                                                                 "cd "))]
    assert lines == [_readme_commands()[1]]


def test_setup_installs_from_the_lock_with_uv_and_pip_only_when_asked():
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert "export --locked" in setup and "pip install" in setup
    assert 'if [ $use_pip = 1 ]' in setup
    out = subprocess.run(["bash", "scripts/setup.sh", "--nope"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "unknown option '--nope'" in out.stderr
