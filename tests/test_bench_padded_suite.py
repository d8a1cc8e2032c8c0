"""The controlled suite padded to more steps per case (`steps_per_case`): the same cases,
faults and labels, quiet turns before the final request that the faults do not reach, and
the same bytes from the same seed."""

from __future__ import annotations

import json

import pytest

from repair_core import load_case, plan_case
from repair_core._errors import DgrrError
from repair_core.bench import generate_suite
from repair_core.bench._controlled import QUIET_QUESTIONS


def _cases(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    return manifest, [load_case(folder / name) for name in manifest["files"]]


def _affected_steps(case) -> int:
    return len({s.id for s in case.trajectory} & set(plan_case(case).report().affected))


def test_padding_adds_quiet_unaffected_turns_and_keeps_every_label(tmp_path):
    plain_dir, padded_dir, again_dir = tmp_path / "plain", tmp_path / "padded", tmp_path / "again"
    generate_suite("controlled", plain_dir, seed=42, count=3)
    manifest = generate_suite("controlled", padded_dir, seed=42, count=3, steps_per_case=30)
    _, plain = _cases(plain_dir)
    _, padded = _cases(padded_dir)
    assert manifest["steps_per_case_target"] == 30
    assert [c.case_id for c in padded] == [c.case_id for c in plain]
    plain_total = sum(len(c.trajectory) for c in plain)
    assert plain_total < 90 <= manifest["trajectory_steps"]["total"]
    for a, b in zip(plain, padded, strict=True):
        assert len(b.trajectory) >= -(-len(a.trajectory) * 90 // plain_total)  # its share
        assert (a.faults, a.eval.required_facts, a.eval.forbidden_facts, a.eval.benign,
                a.eval.fault_types) == (b.faults, b.eval.required_facts,
                                        b.eval.forbidden_facts, b.eval.benign,
                                        b.eval.fault_types)
        before, after = [t.text for t in a.session], [t.text for t in b.session]
        assert after[:len(before) - 1] == before[:-1] and after[-1] == before[-1]
        quiet = after[len(before) - 1:-1]
        assert quiet and set(quiet) <= set(QUIET_QUESTIONS.values())
        # the faults reach none of the added steps: the same affected steps, more steps
        assert _affected_steps(b) == _affected_steps(a)
    # seeded: the same seed writes the same bytes
    generate_suite("controlled", again_dir, seed=42, count=3, steps_per_case=30)
    for name in manifest["files"]:
        assert (again_dir / name).read_bytes() == (padded_dir / name).read_bytes(), name


@pytest.mark.parametrize("suite,steps,message", [
    ("adapted", 40.0, "--steps-per-case: only for --suite controlled, not 'adapted'"),
    ("controlled", 4.0, "--steps-per-case: must be between 8 and 400, got 4"),
])
def test_bad_steps_per_case_is_refused_before_anything_is_written(tmp_path, suite, steps,
                                                                  message):
    with pytest.raises(DgrrError) as err:
        generate_suite(suite, tmp_path / "out", seed=42, count=1, steps_per_case=steps)
    assert message in str(err.value)
    assert not (tmp_path / "out").exists()


def _episodes(case) -> list[tuple[str, str, str]]:
    """Each memory write's operation, status and the text of the turn it happened in."""
    text = {t.id: t.text for t in case.session}
    return [(s.op, s.status, text[s.turn]) for s in case.trajectory if s.type == "memory_write"]


def test_quiet_turns_at_the_start_come_before_every_turn_and_keep_the_episodes(tmp_path):
    plain_dir, padded_dir = tmp_path / "plain", tmp_path / "padded"
    generate_suite("controlled", plain_dir, seed=42, count=4)  # a stale and a drift case
    manifest = generate_suite("controlled", padded_dir, seed=42, count=4, steps_per_case=40,
                              quiet_at="start")
    assert manifest["quiet_turns_at"] == "start"
    _, plain = _cases(plain_dir)
    _, padded = _cases(padded_dir)
    assert {c.eval.fault_types[c.faults[0]] for c in plain} >= {"stale", "summary-drift"}
    for a, b in zip(plain, padded, strict=True):
        assert (a.faults, a.eval.required_facts, a.eval.forbidden_facts, a.eval.benign) == (
            b.faults, b.eval.required_facts, b.eval.forbidden_facts, b.eval.benign)
        before, after = [t.text for t in a.session], [t.text for t in b.session]
        quiet = len(after) - len(before)
        assert quiet > 0 and set(after[:quiet]) <= set(QUIET_QUESTIONS.values())
        assert after[quiet:] == before
        # the failed update and the consolidation happen in the same turns as unpadded
        assert _episodes(b) == _episodes(a)
        assert _affected_steps(b) == _affected_steps(a)


def test_quiet_turns_at_needs_padding_and_a_known_place(tmp_path):
    with pytest.raises(DgrrError, match="--quiet-turns-at start: only with --steps-per-case"):
        generate_suite("controlled", tmp_path / "a", seed=42, count=1, quiet_at="start")
    with pytest.raises(DgrrError, match="--quiet-turns-at: unknown place 'middle'"):
        generate_suite("controlled", tmp_path / "b", seed=42, count=1, steps_per_case=30,
                       quiet_at="middle")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


@pytest.mark.parametrize("argv,message", [
    (["--suite", "controlled", "--quiet-turns-at", "start"],
     "--quiet-turns-at start: only with --steps-per-case"),
    (["--suite", "adapted", "--steps-per-case", "40"],
     "--steps-per-case: only for --suite controlled, not 'adapted'"),
])
def test_the_cli_refuses_bad_padding_before_making_the_output_folder(tmp_path, capsys, argv,
                                                                     message):
    from repair_core.cli import main

    out = tmp_path / "suite"
    assert main(["bench", "generate", *argv, "--count", "1", "--out", str(out)]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()
