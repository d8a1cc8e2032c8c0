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


def _row(*cases):
    r = density.Row()
    for case_id, recovered, replayed, steps, calls in cases:
        r.add(recovered, replayed, steps, calls, case_id)
    return r


def _shape(steps, affected):
    return {"shape": {"cases": 2, "steps": steps, "faults": 3, "affected": affected}}


def test_report_gives_the_mean_and_interval_over_seeds_and_pools_the_paired_cases():
    seeds = [1, 2]
    plain = {s: {**_shape(40, 20), "rows": {
        "ours": _row(("c1", True, 4, 10, 2.0), ("c2", False, 6, 30, 4.0)),
        "full_rerun": _row(("c1", True, 10, 10, 5.0), ("c2", True, 30, 30, 9.0))}}
        for s in seeds}
    padded = {1: {**_shape(80, 20), "rows": {
                  "ours": _row(("c1", True, 4, 20, 2.0), ("c2", True, 6, 60, 4.0)),
                  "full_rerun": _row(("c1", False, 20, 20, 5.0), ("c2", True, 60, 60, 9.0))}},
              2: {**_shape(120, 20), "rows": {
                  "ours": _row(("c1", True, 4, 40, 2.0), ("c2", False, 6, 80, 4.0)),
                  "full_rerun": _row(("c1", False, 40, 40, 5.0), ("c2", False, 80, 80, 9.0))}}}
    text = density.report({"seeds": seeds, "target": 40.0, "quiet_at": "start",
                           "plain": plain, "padded": padded}, ["ours", "full_rerun"])
    lines = text.splitlines()
    assert "quiet turns at the start of the session" in lines[0]
    # identical seeds: no spread; two seeds 40 and 60 steps per case: t(1) = 12.706
    assert "| controlled | 2 | 3, 3 | 20.0 [20.0, 20.0] | 7.50 [7.50, 7.50] " \
           "| 0.500 [0.500, 0.500] |" in lines
    assert "| controlled, padded | 2 | 3, 3 | 50.0 [-77.1, 177.1] " in lines[5]
    ours = next(line for line in lines if line.startswith("| Ours |"))
    # recovery 1.0 and 0.5 over the seeds; the mean of the per-seed figures
    assert ours.startswith("| Ours | 0.500 [0.500, 0.500] | 0.750 [-2.427, 3.927] |")
    rerun = next(line for line in lines if line.startswith("| Delete session"))
    # Ours alone recovers c1 on both padded seeds; full re-run alone nothing: 2 / 0
    assert "| 2 / 0, p = 0.5 |" in rerun
    assert "| seed 1 | seed 2 |" in text
    assert "| Ours | 1.000, 0.125, 3.00 | 0.500, 0.083, 3.00 |" in lines


def test_t_interval_is_the_student_interval_and_a_point_for_one_value():
    mean, lo, hi = density.t_interval([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert hi - mean == pytest.approx(4.303 * 1.0 / 3 ** 0.5, abs=1e-3)
    assert density.t_interval([0.4]) == (0.4, 0.4, 0.4)


def test_paired_pools_discordant_cases_over_seeds():
    a1, b1 = _row(("c1", True, 0, 1, 0), ("c2", True, 0, 1, 0)), _row(("c1", False, 0, 1, 0),
                                                                      ("c2", True, 0, 1, 0))
    a2, b2 = _row(("c1", False, 0, 1, 0)), _row(("c1", True, 0, 1, 0))
    assert density.paired([(a1, b1), (a2, b2)]) == (1, 1, 1.0)


def test_seeds_that_are_not_integers_or_repeat_are_refused(capsys, tmp_path):
    for bad in ("42,x", "42,42"):
        with pytest.raises(SystemExit) as err:
            density.main(["--out", str(tmp_path), "--seeds", bad])
        assert err.value.code == 2
        assert "--seeds:" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


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
