"""`dgrr synth`: valid, deterministic synthetic cases of the requested size."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from repair_core import case_from_data, load_case, plan_case
from repair_core._synth import synth_case_data, write_synth_case
from repair_core.cli import main

SIZES = [(1, 1, 0, 0), (1, 1, 1, 3), (2, 1, 1, 4), (3, 2, 2, 1), (40, 10, 2, 1), (500, 3, 3, 4),
         (300, 300, 20, 5), (1000, 200, 3, 0), (2000, 400, 8, 9)]


@pytest.mark.parametrize(("steps", "memories", "faults", "seed"), SIZES)
def test_synth_case_validates_with_requested_counts(steps, memories, faults, seed):
    case = case_from_data(synth_case_data(steps, memories, faults, seed))
    assert len(case.trajectory) == steps
    assert len(case.memory) == memories
    assert len(case.faults) == faults == len(set(case.faults))
    records = {m.id for m in case.memory}
    assert set(case.faults) <= records
    assert any(s.type == "answer" for s in case.trajectory)
    plan_case(case)  # plans without error


@pytest.mark.parametrize(("steps", "memories", "faults", "seed"), SIZES[-3:])
def test_written_file_loads_and_holds_the_same_data(tmp_path, steps, memories, faults, seed):
    path = tmp_path / "case.json"
    stats = write_synth_case(path, steps, memories, faults, seed)
    assert (stats.steps, stats.records, stats.faults) == (steps, memories, faults)
    assert json.loads(path.read_text()) == synth_case_data(steps, memories, faults, seed)
    case = load_case(path)
    assert stats.deps == sum(len(n.deps) for n in (*case.trajectory, *case.memory))
    assert stats.turns == len(case.session)


def test_same_seed_gives_byte_identical_file_and_other_seed_differs(tmp_path):
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    write_synth_case(a, 3000, 600, 4, seed=7)
    write_synth_case(b, 3000, 600, 4, seed=7)
    write_synth_case(c, 3000, 600, 4, seed=8)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert json.loads(a.read_text())["trajectory"] != json.loads(c.read_text())["trajectory"]


def test_structure_has_every_kind_of_step_write_and_fault():
    data = synth_case_data(3000, 600, 8, seed=2)
    case = case_from_data(data)
    types = Counter(s.type for s in case.trajectory)
    assert set(types) == {"memory_read", "claim", "plan", "tool_action", "tool_observation",
                          "answer", "memory_write"}
    assert len(case.session) > 100 and types["answer"] == len(case.session)
    writes = [s for s in case.trajectory if s.type == "memory_write"]
    assert {w.op for w in writes} == {"add", "update", "delete", "consolidate"}
    assert any(w.op == "update" and w.status == "failed" for w in writes)
    claims = [s for s in case.trajectory if s.type == "claim"]
    assert any(c.verified for c in claims)
    assert any(d.sufficient for c in claims for d in c.deps)
    assert {r.status for r in case.memory} == {"active", "superseded", "deleted"}
    labels = Counter(d.label for n in (*case.trajectory, *case.memory) for d in n.deps)
    assert {"initiate", "cite", "produce", "derive", "update", "delete", "consolidate"} <= set(labels)
    assert {t.effect for t in case.tools} == {"pure", "idempotent", "resettable", "compensable",
                                              "irreversible"}
    # Faults of every kind the generator promises, round-robin over kinds.
    assert set(data["eval"]["fault_types"].values()) == {"poisoned", "wrong-user", "stale",
                                                         "summary-drift"}


def test_consolidation_shape_follows_the_spec():
    case = case_from_data(synth_case_data(2000, 400, 3, seed=5))
    records = {m.id: m for m in case.memory}
    consolidations = [s for s in case.trajectory if s.type == "memory_write" and s.op == "consolidate"]
    assert consolidations
    for w in consolidations:
        *sources, summary = w.target
        summary_deps = {(d.id, d.label) for d in records[summary].deps}
        assert (w.id, "produce") in summary_deps
        for src in sources:
            assert (src, "consolidate") in summary_deps
            assert (w.id, "delete") in {(d.id, d.label) for d in records[src].deps}
            assert records[src].status == "superseded"


def test_fault_kinds_have_the_seeds_their_kind_implies():
    data = synth_case_data(3000, 600, 8, seed=2)
    case = case_from_data(data)
    steps = {s.id: s for s in case.trajectory}
    seeds = plan_case(case).analysis.seeds
    for fault, kind in data["eval"]["fault_types"].items():
        if kind == "summary-drift":
            # a consolidation produced it (or a failed update in its lineage came first)
            assert seeds[fault] in steps
        if kind == "stale":
            seed = steps[seeds[fault]]
            assert seed.type == "memory_write" and seed.status == "failed"


@pytest.mark.parametrize(("argv", "message"), [
    (["--steps", "0"], "--steps must be at least 1, got 0"),
    (["--steps", "10", "--memories", "0"], "--memories must be at least 1, got 0"),
    (["--steps", "10", "--memories", "4", "--faults", "5"], "--faults 5 is more than --memories 4"),
    (["--steps", "10", "--faults", "-1"], "--faults must not be negative, got -1"),
])
def test_cli_rejects_bad_arguments_with_exit_2(tmp_path, capsys, argv, message):
    out = tmp_path / "case.json"
    assert main(["synth", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_cli_rejects_a_directory_as_out(tmp_path, capsys):
    assert main(["synth", "--steps", "10", "--memories", "5", "--out", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_cli_reports_an_unwritable_out_path_with_exit_2(tmp_path, capsys):
    (tmp_path / "plain-file").write_text("x")
    out = tmp_path / "plain-file" / "case.json"
    assert main(["synth", "--steps", "10", "--memories", "5", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out: cannot write '{out}'" in err and "Traceback" not in err


def test_cli_writes_a_valid_case_and_says_so(tmp_path, capsys):
    out = tmp_path / "sub" / "case.json"
    assert main(["synth", "--steps", "1000", "--memories", "200", "--faults", "3", "--seed", "4",
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"wrote {out}: 1000 steps, 200 records, 3 faults" in said and " s\n" in said
    assert main(["validate", str(out)]) == 0
    assert [p.name for p in out.parent.iterdir()] == ["case.json"]  # no temporary left behind


@pytest.mark.parametrize("seed", range(6))
def test_faults_make_the_final_answer_wrong_and_the_last_turn_is_full(seed):
    case = case_from_data(synth_case_data(1500, 300, 3, seed))
    plan = plan_case(case)
    final = case.final_answer()
    assert final.id in plan.analysis.affected
    assert plan.answer_relevant and plan.steps[final.id] == "replay"
    last_turn = [s for s in case.trajectory if s.turn == final.turn]
    assert len(last_turn) >= 6 and any(s.type == "claim" for s in last_turn)


def test_faults_are_spread_over_the_run():
    data = synth_case_data(6000, 1200, 3, seed=3)
    case = case_from_data(data)
    first_use: dict[str, int] = {}
    for s in case.steps_in_order():
        for rid in getattr(s, "returned", []):
            first_use.setdefault(rid, s.seq)
    created = {m.id: m.created_seq for m in case.memory}
    where = sorted(created[f] or first_use.get(f, 0) for f in case.faults)
    last_seq = case.steps_in_order()[-1].seq
    assert where[0] < last_seq / 2 < where[-1]


@pytest.mark.slow
def test_scale_benchmark_runs_and_prints_its_table(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "plan_scale.py"
    out = subprocess.run([sys.executable, str(script), "--sizes", "200", "2000", "--cache",
                          str(tmp_path), "--json", str(tmp_path / "rows.json")],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    assert "| steps | records | edges | affected | validate s |" in out
    assert "| 200 | 40 |" in out and "| 2,000 | 400 |" in out
    rows = json.loads((tmp_path / "rows.json").read_text())["rows"]
    assert [(r["steps"], r["records"]) for r in rows] == [(200, 40), (2000, 400)]
    assert all(r["peak_mb"] > 0 and r["total"] > 0 for r in rows)
