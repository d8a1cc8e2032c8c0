"""Issue 12, smaller items: bench result files never collide (x/y vs x_y)."""

from __future__ import annotations

import json
from pathlib import Path

from repair_core.bench import load_results, result_path, run_bench

ROOT = Path(__file__).resolve().parent.parent


def test_result_paths_of_different_case_ids_differ(tmp_path):
    ids = ["x/y", "x_y", "x:y", "x y", "x_y~", "..", "ünï"]
    paths = {result_path(tmp_path, "dgrr", cid) for cid in ids}
    assert len(paths) == len(ids)
    assert result_path(tmp_path, "dgrr", "syn_42_018").name == "syn_42_018.json"  # unchanged
    for p in paths:
        assert p.parent == tmp_path / "results" / "dgrr"


def test_bench_run_keeps_both_cases_whose_ids_sanitise_alike(tmp_path):
    data = json.loads((ROOT / "sample_traces" / "figure1-travel.json").read_text())
    paths = []
    for i, cid in enumerate(["x/y", "x_y"]):
        p = tmp_path / f"case{i}.json"
        p.write_text(json.dumps({**data, "case_id": cid}))
        paths.append(p)
    out = tmp_path / "out"
    results = run_bench(paths, ["dgrr"], out, progress=False)
    assert sorted(r.case_id for r in results) == ["x/y", "x_y"]
    assert sorted(r.case_id for r in load_results(out)) == ["x/y", "x_y"]
