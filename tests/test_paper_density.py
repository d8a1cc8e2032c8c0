"""benchmarks/paper_density.py: its figures are the results CSVs' and the suites' own, set
beside the paper's."""

from __future__ import annotations

import csv

import pytest
from script_module import ROOT, load_script

density = load_script("benchmarks/paper_density.py")

FIELDS = ["case_id", "method", "recovered", "replayed_steps", "trajectory_steps",
          "llm_calls", "error"]


def _csv(path, rows):
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(dict(zip(FIELDS, r, strict=True)))


def test_rows_sum_a_results_csv_and_skip_crashed_cases(tmp_path):
    _csv(tmp_path / "r.csv", [("c1", "ours", "True", 4, 10, 2.0, ""),
                              ("c2", "ours", "False", 6, 30, 4.0, ""),
                              ("c3", "ours", "False", 0, 20, 0.0, "boom"),
                              ("c1", "full_rerun", "True", 10, 10, 5.0, "")])
    rows = density.rows_from_csv(tmp_path / "r.csv", ["ours"])
    assert set(rows) == {"ours"}
    r = rows["ours"]
    assert (r.cases, r.recovered, r.replayed, r.steps, r.calls) == (2, 1, 10, 40, 6.0)


def test_report_sets_the_padded_suite_beside_the_committed_one_and_the_paper():
    a, b = density.Row(), density.Row()
    a.add(True, 4, 10, 2.0)
    a.add(False, 6, 30, 4.0)
    b.add(True, 4, 20, 2.0)
    b.add(True, 6, 60, 4.0)
    text = density.report({"seed": 42, "target": 40.0, "committed": {"ours": a},
                           "padded": {"ours": b},
                           "committed_shape": {"cases": 2, "steps": 40, "faults": 3,
                                               "affected": 20},
                           "padded_shape": {"cases": 2, "steps": 80, "faults": 3,
                                            "affected": 20}}, ["ours"])
    lines = text.splitlines()
    assert "| controlled (committed) | 2 | 3 | 20.0 | 7.50 | 0.500 |" in lines
    assert "| controlled, padded | 2 | 3 | 40.0 | 3.75 | 0.250 |" in lines
    assert "| paper (implied) | 150 | 172–194 | 46.3 | 2.48–2.79 | – |" in lines
    assert "| Ours | 0.500 | 1.000 | 0.250 | 0.125 | 3.00 | 3.00 | 0.853, 0.123, 5.70 |" in lines


def test_an_unknown_method_is_refused_by_name(capsys, tmp_path):
    with pytest.raises(SystemExit) as err:
        density.main(["--out", str(tmp_path), "--methods", "ours,no_such_method"])
    assert err.value.code == 2
    assert "--methods: unknown no_such_method" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_the_committed_csv_has_every_default_method():
    rows = density.rows_from_csv(ROOT / "docs/results/controlled/results.csv",
                                 list(density.DEFAULT_METHODS))
    assert all(r.cases == 150 for r in rows.values())
