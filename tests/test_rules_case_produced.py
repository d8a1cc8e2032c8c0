"""`case.produced-in-run` (docs/rules.md): a record whose `created_seq` says it predates
the run (null or absent) while a `produce` edge says a step of the run wrote it is refused,
by the exact loader and by the columnar reader (which declines, so the loader names it)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from repair_core import CaseError, case_from_data, load_example
from repair_core.case._columns import read_columns
from repair_core.case._load import repaired_case

rule = pytest.mark.rule
ROOT = Path(__file__).resolve().parent.parent


def _example() -> dict:
    return json.loads(load_example().model_dump_json(exclude_none=False))


def _with_m6(**change: object) -> dict:
    """The example case with record m6 (created_seq 12, produced by write s11) changed."""
    data = _example()
    m6 = next(m for m in data["memory"] if m["id"] == "m6")
    assert m6["created_seq"] == 12 and [(d["id"], d["label"]) for d in m6["deps"]] \
        == [("s11", "produce")]
    for key, value in change.items():
        if value is ...:
            del m6[key]
        else:
            m6[key] = value
    return data


def _columns_of(data: dict) -> object:
    return read_columns(json.dumps(data).encode())


@rule("case.produced-in-run")
@pytest.mark.parametrize("change", [{"created_seq": None}, {"created_seq": ...}])
def test_a_record_before_the_run_produced_in_it_is_refused_by_both_readers(change):
    data = _with_m6(**change)
    index = next(i for i, m in enumerate(data["memory"]) if m["id"] == "m6")
    with pytest.raises(CaseError) as err:
        case_from_data(data)
    assert err.value.problems == [
        f"memory[{index}].created_seq: null or absent (the record predates the run), but "
        "deps[0] is "
        "a 'produce' edge from step 's11' of the run (the record was written in it): "
        "give the seq of the step that created it"]
    assert _columns_of(data) is None  # declined: the exact loader words the problem
    assert _columns_of(_with_m6()) is not None  # the reader takes the unchanged case


@rule("case.produced-in-run")
@pytest.mark.parametrize("label", ["update", "delete"])
def test_a_record_before_the_run_updated_or_deleted_in_it_stays_valid(label):
    # "update: write -> record version it created or rewrote", "delete: write -> record
    # it deleted or retired" (method.md): a write of the run may rewrite or retire a
    # record written before it
    data = _with_m6(created_seq=None, deps=[{"id": "s11", "label": label}])
    assert case_from_data(data).memory[5].created_seq is None
    assert _columns_of(data) is not None


@rule("case.produced-in-run")
def test_a_produce_edge_from_a_record_or_a_turn_is_not_a_step_of_the_run():
    data = _with_m6(created_seq=None, deps=[{"id": "m1", "label": "produce"},
                                            {"id": "u1", "label": "produce"}])
    assert case_from_data(data).memory[5].created_seq is None
    assert _columns_of(data) is not None


@rule("case.produced-in-run")
def test_a_record_the_replay_adds_so_is_refused_in_the_repaired_case():
    # the repaired case reads only its new items' references (`_new_references_hold`),
    # then words them by the whole check: both must see the record a step produced
    case = load_example()
    m6 = next(m for m in case.memory if m.id == "m6")
    added = {**m6.model_dump(mode="json", exclude_none=True), "id": "m_added"}
    del added["created_seq"]
    with pytest.raises(CaseError) as err:
        repaired_case(case, case.trajectory, [*case.memory, added])
    assert err.value.problems == [
        f"memory[{len(case.memory)}].created_seq: null or absent (the record predates the "
        "run), but deps[0] is a 'produce' edge from step 's11' of the run (the record was "
        "written in it): give the seq of the step that created it"]
    # dated by its producer, it is taken
    dated = repaired_case(case, case.trajectory, [*case.memory, {**added, "created_seq": 12}])
    assert dated.memory[-1].id == "m_added"


@rule("case.produced-in-run")
def test_the_commands_refuse_it_by_name_and_write_nothing(tmp_path: Path):
    case = tmp_path / "case.json"
    case.write_text(json.dumps(_with_m6(created_seq=None)), encoding="utf-8")
    out = tmp_path / "plan.json"
    for argv in (["validate", str(case)], ["plan", str(case), "--json", "--planner", "columnar"],
                 ["plan", str(case), "--json", "--planner", "networkx"],
                 ["repair", str(case), "--out", str(out)]):
        done = subprocess.run([sys.executable, "-m", "repair_core", *argv], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (argv, done.stderr)
        assert "memory[5].created_seq: null or absent (the record predates the run)" \
            in done.stderr
        assert "Traceback" not in done.stderr and done.stdout == ""
        assert not out.exists()


@rule("case.produced-in-run")
def test_committed_records_before_the_run_with_a_step_premise_are_updates_or_deletes():
    files = subprocess.run(["git", "ls-files", "*.json"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    labels: Counter[str] = Counter()
    holding: list[dict] = []
    for name in files:
        text = (ROOT / name).read_text(encoding="utf-8")
        if '"dgrr.case/v1"' not in text:
            continue
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != "dgrr.case/v1":
            continue
        steps = {s["id"] for s in data["trajectory"]}
        found = [d["label"] for m in data["memory"] if m.get("created_seq") is None
                 for d in m["deps"] if d["id"] in steps]
        labels.update(found)
        if found:
            holding.append(data)
    assert set(labels) == {"update", "delete"} and sum(labels.values()) >= 150, labels
    for data in holding:  # each still valid on both paths
        case_from_data(data)
        assert _columns_of(data) is not None, data["case_id"]


@rule("case.produced-in-run")
def test_the_benchmark_carrier_so_written_is_refused_where_it_was_kept():
    # cb-314's m_todo (written by step t2w0, created_seq 9) is quarantined as a carrier of
    # m_fee; with its created_seq null the plan read it as older than the run and kept it
    data = json.loads((ROOT / "benchmarks/carriers/cases/cb-314-benign-summary-ignored-sms.json")
                      .read_text(encoding="utf-8"))
    index = next(i for i, m in enumerate(data["memory"]) if m["id"] == "m_todo")
    data["memory"][index]["created_seq"] = None
    with pytest.raises(CaseError) as err:
        case_from_data(data)
    assert [p.split(":")[0] for p in err.value.problems] == [f"memory[{index}].created_seq"]
    assert "'produce' edge from step 't2w0'" in err.value.problems[0]
    assert _columns_of(data) is None
