"""`dgrr fleet`: the per-case function on each matching mode, error rows, resumption after
a killed run, the same rows whatever the chunking, and the synthetic fleet's truth.

Expected values come from outside the method: the spec's worked example (its plan report
fixture), the fleet generator's manifest, and independent reads of the case files.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from repair_core import CaseError, fixture_path  # noqa: E402
from repair_core.cli import main  # noqa: E402
from repair_core.fleet import (  # noqa: E402
    ROW_FIELDS,
    FleetSpec,
    WorkItem,
    case_at,
    case_row,
    run_fleet,
)
from repair_core.fleet._synth_fleet import write_synth_fleet  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONTROLLED = ROOT / "sample_traces" / "controlled"
QUAY = "5 Quay Ln, Dublin"
EXAMPLE = fixture_path("figure1-travel.json")


def _rows(out: Path) -> list[dict]:
    return pq.read_table(out / "cases.parquet").to_pylist()


def _example_item() -> WorkItem:
    return WorkItem(index=3, source="example", path=str(EXAMPLE))


def _record_ids_with_text(case: dict, text: str) -> list[str]:
    return [m["id"] for m in case["memory"] if text in m["text"]]


# -- the per-case function -------------------------------------------------------------

def test_row_of_the_worked_example_matches_its_plan_report():
    report = json.loads(fixture_path("figure1-travel.plan.json").read_text())
    row = case_row(_example_item(), FleetSpec(mode="faults", value="m3"))
    assert list(row) == list(ROW_FIELDS)
    assert row["index"] == 3 and row["source"] == "example"
    assert row["case_id"] == report["case_id"] and row["faults"] == ["m3"]
    assert row["matched"] and row["error"] is None
    assert row["affected"] == len(set(report["affected"]) - {"m3"})
    assert row["unsupported"] == len(set(report["unsupported"]) - {"m3"})
    assert row["answer_relevant"] == len(report["answer_relevant"])
    replayed = [s for s, a in report["steps"].items() if a in ("replay", "refresh")]
    assert row["replay_size"] == len(replayed)
    ops = [a for a in report["memory"].values() if a != "keep"]
    assert row["store_operations"] == len(ops)
    assert row["deleted"] == ops.count("delete")
    assert row["quarantined"] == ops.count("quarantine")
    assert not row["replayed"] and row["answer_changed"] is None
    assert row["llm_calls"] == row["tokens"] == 0


def test_row_by_text_marks_exactly_the_records_holding_the_text():
    # the first committed case holding the text in a record (found from the files, so the
    # test holds whenever the suite is regenerated)
    path, case = next((p, c) for p in sorted(CONTROLLED.glob("ctl-*.json"))
                      if _record_ids_with_text(c := json.loads(p.read_text()), QUAY))
    expected = _record_ids_with_text(case, QUAY)
    assert len(expected) >= 1
    row = case_row(WorkItem(index=0, source=str(path), path=str(path)),
                   FleetSpec(mode="text", value=QUAY))
    assert row["faults"] == expected and row["matched"]
    assert row["affected"] > 0


def test_row_by_key_and_value():
    case = json.loads(EXAMPLE.read_text())
    m3 = next(m for m in case["memory"] if m["id"] == "m3")
    spec = FleetSpec(mode="key", key=m3["key"], value=json.dumps(m3["value"]))
    expected = [m["id"] for m in case["memory"]
                if m["key"] == m3["key"] and m["value"] == m3["value"]]
    row = case_row(_example_item(), spec)
    assert row["faults"] == expected and "m3" in expected
    other = case_row(_example_item(), FleetSpec(mode="key", key=m3["key"], value="no such"))
    assert other["faults"] == [] and not other["matched"] and other["affected"] == 0


def test_row_by_any_record_field(tmp_path, capsys):
    case = json.loads(EXAMPLE.read_text())
    case["memory"][1]["source"] = "https://faq.example.com/seats?v=2"  # an importer's field
    item = WorkItem(index=0, source="x", text=json.dumps(case))
    row = case_row(item, FleetSpec(mode="field", key="source", value="faq.example.com"))
    assert row["faults"] == [case["memory"][1]["id"]]
    by_user = case_row(item, FleetSpec(mode="field", key="user_id", value=case["user_id"]))
    assert by_user["faults"] == [m["id"] for m in case["memory"]
                                 if case["user_id"] in m["user_id"]]
    assert main(["fleet", str(EXAMPLE), "--match-field", "source=", "--out",
                 str(tmp_path / "o")]) == 2
    assert "empty text would match every record" in capsys.readouterr().err


def test_unmatched_case_is_a_row_with_nothing_to_repair():
    row = case_row(_example_item(), FleetSpec(mode="text", value="text in no record"))
    assert row["case_id"] == "fig1-travel" and row["steps"] > 0
    assert not row["matched"] and row["faults"] == [] and row["replay_size"] == 0


def test_replay_row_counts_calls_and_compares_answers():
    row = case_row(_example_item(), FleetSpec(mode="faults", value="m3", replay=True))
    assert row["error"] is None and row["replayed"]
    assert row["llm_calls"] > 0 and row["tokens"] > 0
    assert row["answer_changed"] is True  # the poisoned seat preference is gone
    assert row["deleted"] >= 1


def test_a_fault_that_reached_nothing_does_not_change_the_answer():
    row = case_row(_example_item(), FleetSpec(mode="faults", value="m1", replay=True))
    assert row["affected"] == 0 and row["replayed"]
    assert row["answer_changed"] is False  # regenerated wording is not a changed answer


def test_broken_cases_become_error_rows_and_the_run_finishes(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a-good.json").write_text(EXAMPLE.read_text())
    (src / "b-not-json.json").write_text("{ this is not json")
    bad = json.loads(EXAMPLE.read_text())
    bad["trajectory"][0]["deps"].append({"id": "s999", "label": "cite"})
    (src / "c-bad-ref.json").write_text(json.dumps(bad))
    (src / "d.jsonl").write_text(EXAMPLE.read_text().replace("\n", " ") + "\n[1, 2]\n")
    (src / "manifest.json").write_text("{}")  # not a case: skipped
    code = main(["fleet", str(src), "--faults", "m3", "--out", str(tmp_path / "o"),
                 "--workers", "2"])
    assert code == 1  # rows errored, so the run failed (the outputs are written)
    rows = _rows(tmp_path / "o")
    assert [Path(r["source"]).name for r in rows] == [
        "a-good.json", "b-not-json.json", "c-bad-ref.json", "d.jsonl:1", "d.jsonl:2"]
    errors = {Path(r["source"]).name: r["error"] for r in rows}
    assert errors["a-good.json"] is None and errors["d.jsonl:1"] is None
    assert "not JSON" in errors["b-not-json.json"] or "JSON" in errors["b-not-json.json"]
    assert "s999" in errors["c-bad-ref.json"]
    assert errors["d.jsonl:2"]
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["cases"] == 5 and summary["error_cases"] == 3
    assert summary["matched_cases"] == 2


def test_bad_arguments_exit_2_without_writing(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["fleet", str(tmp_path / "missing"), "--faults", "m3", "--out", str(out)]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["fleet", str(EXAMPLE), "--match-key", "novalue", "--out", str(out)]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    assert not out.exists()


# -- whole runs --------------------------------------------------------------------------

def test_done_when_local_reports_exactly_the_cases_holding_the_text(tmp_path, capsys):
    expected = {}
    for f in sorted(CONTROLLED.glob("*.json")):
        data = json.loads(f.read_text())
        if "memory" in data and _record_ids_with_text(data, QUAY):
            expected[data["case_id"]] = _record_ids_with_text(data, QUAY)
    mentioned = [f for f in CONTROLLED.glob("*.json") if QUAY in f.read_text()]
    assert expected and len(mentioned) > len(expected)  # the text also sits outside records
    out = tmp_path / "local"
    assert main(["fleet", str(CONTROLLED), "--match-text", QUAY, "--out", str(out),
                 "--workers", "2"]) == 0
    listing = capsys.readouterr().out.split("Matched cases, most severe first")[1]
    listed = [line.split()[0] for line in listing.splitlines()[2:] if line.strip()]
    assert sorted(listed) == sorted(expected)
    for line in listing.splitlines()[2:]:
        case_id, faults = line.split()[:2]
        assert faults == ",".join(expected[case_id])
    rows = _rows(out)
    assert {r["case_id"]: r["faults"] for r in rows if r["matched"]} == expected
    assert all(r["error"] is None for r in rows)
    assert len(rows) == len([f for f in CONTROLLED.glob("*.json") if f.name != "manifest.json"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["matched_cases"] == len(expected) and summary["engine"] == "local"


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    out = tmp_path_factory.mktemp("fleet") / "src"
    manifest = write_synth_fleet(out, 60, 6, 2, seed=5)
    return out, manifest


def test_synthetic_fleet_matches_the_generator_truth(fleet, tmp_path):
    src, manifest = fleet
    poisoned = [s for s in manifest["shared_records"] if s["poisoned"]]
    target = poisoned[0]
    summary = run_fleet([str(src)], FleetSpec(mode="key", key=target["key"],
                                              value=target["value"]),
                        tmp_path / "o", workers=2, progress=False)
    rows = {r["case_id"]: r for r in _rows(tmp_path / "o")}
    truth = {c["case_id"]: c for c in manifest["cases"]}
    holders = {cid for cid, c in truth.items() if target["shared_id"] in c["shared"]}
    readers = {cid for cid, c in truth.items() if target["shared_id"] in c["read"]}
    assert {cid for cid, r in rows.items() if r["matched"]} == holders
    for cid in holders:
        assert rows[cid]["faults"] == [truth[cid]["shared"][target["shared_id"]]]
    affected = {cid for cid, r in rows.items() if r["affected"]}
    # a record nobody read cannot affect a run; some holders never read it
    assert affected <= readers
    assert 0 < len(readers) < len(holders) < len(rows)
    assert summary["matched_cases"] == len(holders)
    assert summary["affected_cases"] == len(affected)
    assert summary["totals"]["replay_size"] == sum(r["replay_size"] for r in rows.values())


def test_rows_do_not_depend_on_chunking_or_workers(fleet, tmp_path):
    src, manifest = fleet
    spec = FleetSpec(mode="faults", value="m1,m4")
    tables = []
    for n, (workers, chunk) in enumerate([(1, 60), (2, 1), (2, 7)]):
        run_fleet([str(src)], spec, tmp_path / str(n), workers=workers, chunk_size=chunk,
                  progress=False)
        tables.append((tmp_path / str(n) / "cases.parquet").read_bytes())
    assert tables[0] == tables[1] == tables[2]


def test_datasets_give_the_same_rows_as_the_folder(fleet, tmp_path):
    src, manifest = fleet
    files = [src / c["file"] for c in manifest["cases"]]
    jsonl = tmp_path / "fleet.jsonl"
    jsonl.write_text("".join(f.read_text() for f in files))
    parquet = tmp_path / "fleet.parquet"
    pq.write_table(pa.table({"case": [f.read_text() for f in files]}), parquet)
    spec = FleetSpec(mode="text", value="KB-00")
    drop = {"source"}
    results = []
    for name, source in (("dir", src), ("jsonl", jsonl), ("parquet", parquet)):
        run_fleet([str(source)], spec, tmp_path / name, workers=2, progress=False)
        results.append([{k: v for k, v in r.items() if k not in drop}
                        for r in _rows(tmp_path / name)])
    assert results[0] == results[1] == results[2]
    assert any(r["matched"] for r in results[0])
    assert [r["source"] for r in _rows(tmp_path / "parquet")][:2] == [
        f"{parquet}#0", f"{parquet}#1"]
    # every row's source leads back to its case (what the Fleet page opens)
    for name in ("dir", "jsonl", "parquet"):
        for r in _rows(tmp_path / name)[::17]:
            assert case_at(r["source"]).case_id == r["case_id"]
    with pytest.raises(CaseError, match="no line 999"):
        case_at(f"{jsonl}:999")
    # a row is read from its own row group, past the first one too
    grouped = tmp_path / "grouped.parquet"
    pq.write_table(pa.table({"case": [f.read_text() for f in files]}), grouped, row_group_size=7)
    assert pq.ParquetFile(grouped).num_row_groups > 2
    for n in (0, 6, 7, 15, len(files) - 1):
        assert case_at(f"{grouped}#{n}").case_id == json.loads(files[n].read_text())["case_id"]
    with pytest.raises(CaseError, match=f"no row {len(files)}"):
        case_at(f"{grouped}#{len(files)}")


def test_rerun_with_other_question_into_the_same_folder_is_refused(fleet, tmp_path, capsys):
    src, _ = fleet
    out = tmp_path / "o"
    assert main(["fleet", str(src), "--faults", "m1", "--out", str(out)]) == 0
    assert main(["fleet", str(src), "--faults", "m2", "--out", str(out)]) == 2
    assert "asked something else" in capsys.readouterr().err
    # the same question again: nothing to do, same rows
    before = (out / "cases.parquet").read_bytes()
    assert main(["fleet", str(src), "--faults", "m1", "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["resumed_cases"] == 60 and summary["processed_cases"] == 0
    assert (out / "cases.parquet").read_bytes() == before


def test_resumes_after_a_killed_run(tmp_path):
    src = tmp_path / "src"
    write_synth_fleet(src, 150, 4, 2, seed=9)
    args = [sys.executable, "-m", "repair_core", "fleet", str(src), "--faults", "m1,m2",
            "--replay", "--workers", "1", "--chunk-size", "3"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DGRR_NO_PROGRESS": "1"}
    killed = tmp_path / "killed"
    proc = subprocess.Popen([*args, "--out", str(killed)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    parts = killed / "parts"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if parts.is_dir() and len(list(parts.glob("part-*.parquet"))) >= 3:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (killed / "cases.parquet").exists()
    done_before = len(list(parts.glob("part-*.parquet")))
    assert done_before < 50
    subprocess.run([*args, "--out", str(killed)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    summary = json.loads((killed / "summary.json").read_text())
    assert summary["resumed_cases"] >= done_before * 3 and summary["processed_cases"] > 0
    assert summary["resumed_cases"] + summary["processed_cases"] == 150
    whole = tmp_path / "whole"
    subprocess.run([*args, "--out", str(whole)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    assert (killed / "cases.parquet").read_bytes() == (whole / "cases.parquet").read_bytes()


def test_synth_fleet_is_reproducible_and_checks_its_arguments(tmp_path, capsys):
    a = write_synth_fleet(tmp_path / "a", 5, 3, 1, seed=2)
    b = write_synth_fleet(tmp_path / "b", 5, 3, 1, seed=2)
    assert a == b
    for c in a["cases"]:
        assert (tmp_path / "a" / c["file"]).read_bytes() == (tmp_path / "b" / c["file"]).read_bytes()
    assert main(["synth", "fleet", "--agents", "3", "--shared-records", "2", "--poison", "3",
                 "--out", str(tmp_path / "c")]) == 2
    assert "--poison" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def _controlled_cases() -> list[dict]:
    return [json.loads(f.read_text()) for f in sorted(CONTROLLED.glob("ctl-00*.json"))]

CASES = _controlled_cases()


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_text_match_marks_every_record_holding_any_substring(data):
    case = data.draw(st.sampled_from(CASES))
    record = data.draw(st.sampled_from(case["memory"]))
    start = data.draw(st.integers(0, max(0, len(record["text"]) - 1)))
    length = data.draw(st.integers(1, 20))
    needle = record["text"][start:start + length] or record["text"]
    row = case_row(WorkItem(index=0, source="x", text=json.dumps(case)),
                   FleetSpec(mode="text", value=needle))
    assert row["faults"] == _record_ids_with_text(case, needle)
    assert record["id"] in row["faults"] and row["matched"] and row["error"] is None
    # the faults are never beyond the affected set's reach: A0 ⊇ faults, counted apart
    assert row["unsupported"] <= row["affected"]
    assert row["answer_relevant"] <= row["unsupported"]


def test_ray_engine_without_ray_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code = main(["fleet", str(EXAMPLE), "--faults", "m3", "--engine", "ray",
                 "--out", str(tmp_path / "o")])
    assert code == 2
    assert "pip install 'dgrr[fleet]'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_case_in_two_parts_is_counted_once(fleet, tmp_path):
    src, _ = fleet
    out = tmp_path / "o"
    spec = FleetSpec(mode="faults", value="m1")
    first = run_fleet([str(src)], spec, out, workers=1, chunk_size=8, progress=False)
    before = (out / "cases.parquet").read_bytes()
    part = sorted((out / "parts").glob("part-*.parquet"))[2]
    (out / "parts" / "copy-of-a-part.parquet").write_bytes(part.read_bytes())
    again = run_fleet([str(src)], spec, out, workers=1, progress=False)
    assert (out / "cases.parquet").read_bytes() == before
    assert again["cases"] == first["cases"] == 60 and again["processed_cases"] == 0
