"""Reading any `dgrr bench run --out` folder for the Benchmark page, generically: every
method folder under `results/` and every recovery rule a result carries (`recovered`,
`recovered_<rule>`, `<rule>_ok` booleans), whatever methods and rules a version of the
benchmark wrote. Pure: no Streamlit here."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["BenchFolder", "default_out", "read_folder", "rule_columns", "case_table",
           "method_columns", "disagreeing", "find_case_file", "method_plan",
           "is_results_folder", "committed_folders", "suite_folder", "MethodPlan"]


def default_out() -> Path:
    """Where the dashboard writes benchmark results unless told otherwise: `$DGRR_BENCH_OUT`,
    else `~/.dgrr/bench-out` (outside the repository)."""
    return Path(os.environ.get("DGRR_BENCH_OUT") or Path.home() / ".dgrr" / "bench-out")


@dataclass
class BenchFolder:
    """The results of one folder: run metadata and one dict per (method, case)."""

    path: Path
    run: dict[str, Any]
    rows: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    """Files that could not be read, one line each (the rest is shown)."""


def is_results_folder(path: Path) -> bool:
    """A `dgrr bench run --out` folder (`results/<method>/*.json`) or a committed one
    (`results.csv` with `summary.json`, as under docs/results/)."""
    return (path / "results").is_dir() or ((path / "results.csv").is_file()
                                           and (path / "summary.json").is_file())


def committed_folders(root: Path) -> list[Path]:
    """The committed results folders under `root` (docs/results/), in name order."""
    return sorted(p for p in root.iterdir() if p.is_dir() and is_results_folder(p)) \
        if root.is_dir() else []


def _csv_value(text: str) -> Any:
    """A results.csv cell as the value the result file held: booleans, numbers, None for an
    empty cell, else the text."""
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _read_csv(path: Path) -> BenchFolder:
    import csv

    problems: list[str] = []
    rows = []
    with (path / "results.csv").open(newline="", encoding="utf-8") as fh:
        for n, row in enumerate(csv.DictReader(fh), start=2):
            if not row.get("case_id") or not row.get("method"):
                problems.append(f"results.csv line {n}: not a result (no case_id and method)")
                continue
            rows.append({k: _csv_value(v or "") if k not in ("case_id", "method", "answer")
                         else (v or "") for k, v in row.items() if k is not None})
    return BenchFolder(path=path, run={}, rows=rows, problems=problems)


def read_folder(path: Path) -> BenchFolder:
    """Every result file under `path/results/<method>/`, or the rows of a committed
    `results.csv`; a file or line that is not a result is named in `problems`, never
    fatal."""
    if not (path / "results").is_dir() and (path / "results.csv").is_file():
        return _read_csv(path)
    run: dict[str, Any] = {}
    problems: list[str] = []
    meta = path / "run.json"
    if meta.is_file():
        try:
            loaded = json.loads(meta.read_text())
            run = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError) as exc:
            problems.append(f"run.json: {exc}")
    rows = []
    for f in sorted((path / "results").glob("*/*.json")):
        try:
            data = json.loads(f.read_bytes())
        except (OSError, ValueError) as exc:
            problems.append(f"{f.parent.name}/{f.name}: {exc}")
            continue
        if not isinstance(data, dict) or "case_id" not in data or "method" not in data:
            problems.append(f"{f.parent.name}/{f.name}: not a result (no case_id and method)")
            continue
        rows.append(data)
    return BenchFolder(path=path, run=run, rows=rows, problems=problems)


def rule_columns(rows: list[dict[str, Any]]) -> list[str]:
    """The recovery rules present: `recovered` first, then `recovered_*` and `*_ok`
    fields holding booleans (or None: not judged), in name order."""
    names: set[str] = set()
    for r in rows:
        for k, v in r.items():
            if (k == "recovered" or k.startswith("recovered_") or k.endswith("_ok")) \
                    and (isinstance(v, bool) or v is None):
                names.add(k)
    return sorted(names, key=lambda k: (k != "recovered", k))


def rule_label(column: str) -> str:
    """`recovered` -> `strict`, `recovered_paper` -> `paper`, `state_ok` -> `state`."""
    if column == "recovered":
        return "strict"
    return column.removeprefix("recovered_").removesuffix("_ok")


def case_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per case: id, domain, fault type, then `<method> · <rule>` per method and
    rule (True/False, None when not judged or not run)."""
    rules = rule_columns(rows)
    methods = sorted({str(r["method"]) for r in rows})
    by_case: dict[str, dict[str, Any]] = {}
    for r in rows:
        cid = str(r["case_id"])
        row = by_case.setdefault(cid, {"case_id": cid, "domain": r.get("domain", ""),
                                       "fault_type": r.get("fault_type", "")})
        for rule in rules:
            row[f"{r['method']} · {rule_label(rule)}"] = r.get(rule)
    columns = [f"{m} · {rule_label(rule)}" for m in methods for rule in rules]
    # the case first (its id, domain and fault type), then the methods
    return [{**{k: row[k] for k in ("case_id", "domain", "fault_type")},
             **{c: row.get(c) for c in columns}} for row in by_case.values()]


def disagreeing(rows: list[dict[str, Any]], a: str, b: str) -> set[str]:
    """Cases where methods `a` and `b` differ under some rule."""
    rules = rule_columns(rows)
    of: dict[tuple[str, str], dict[str, Any]] = {(str(r["method"]), str(r["case_id"])): r
                                                 for r in rows}
    cases = {c for m, c in of if m == a} & {c for m, c in of if m == b}
    return {c for c in cases
            if any(of[(a, c)].get(rule) != of[(b, c)].get(rule) for rule in rules)}


_SHOWN = ("forbidden_stated", "missing_facts", "state_missing", "state_forbidden",
          "needs_human", "llm_calls", "tokens", "replayed_steps", "replayed_step_ids",
          "faults_removed", "benign_kept", "recurred", "notes", "error", "answer")


def method_columns(rows: list[dict[str, Any]], case_id: str) -> dict[str, dict[str, str]]:
    """Per method (in name order), what it did to `case_id`: each rule, the forbidden
    facts stated, the calls, ... and the answer, as text (field -> value)."""
    rules = rule_columns(rows)
    out: dict[str, dict[str, str]] = {}
    for r in sorted((r for r in rows if str(r["case_id"]) == case_id),
                    key=lambda r: str(r["method"])):
        col: dict[str, str] = {}
        for rule in rules:
            v = r.get(rule)
            col[f"recovered ({rule_label(rule)})"] = "—" if v is None else "yes" if v else "no"
        for k in _SHOWN:
            if k in r:
                v = r[k]
                col[k] = ("—" if v is None or v == [] else ", ".join(map(str, v))
                          if isinstance(v, list) else str(v))
        out[str(r["method"])] = col
    return out


def _repo() -> Path:
    return Path(__file__).resolve().parents[1]


def suite_folder(folder: BenchFolder) -> Path | None:
    """The folder of the suite the results of `folder` were run on: the one its run.json
    names (a known suite, or a folder), else, for a folder that records no suite (a
    committed `docs/results/NAME`), `sample_traces/NAME` when there is one; None when it
    cannot be known."""
    from repair_core.bench._runner import SUITE_DIRS

    repo = _repo()
    suite = str(folder.run.get("suite") or "")
    if suite in SUITE_DIRS:
        return repo / SUITE_DIRS[suite]
    if suite:
        named = Path(suite) if Path(suite).is_absolute() else repo / suite
        return named if named.is_dir() else None
    by_name = repo / "sample_traces" / folder.path.name
    return by_name if by_name.is_dir() else None


def _holds_case(f: Path, case_id: str) -> bool:
    try:
        head = f.read_bytes()[:4096]
    except OSError:
        return False
    if case_id.encode() not in head and json.dumps(case_id).encode() not in head:
        return False
    try:
        data = json.loads(f.read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("case_id") == case_id


def _files_with_case(place: Path, case_id: str) -> list[Path]:
    return [f for f in sorted(place.rglob("*.json"))
            if "results" not in f.relative_to(place).parts and _holds_case(f, case_id)]


def find_case_file(case_id: str, folder: BenchFolder,
                   roots: list[Path]) -> tuple[Path | None, str]:
    """The case file the results of `case_id` in `folder` were computed on, and where it
    was found (or, with None, why none can be named). In order: the file the run recorded
    (run.json's `case_paths`), else the run's suite folder only (`suite_folder`), else —
    the suite unknown — the folder's `cases/`, its parent and `roots`, where exactly one
    file may have the id (a controlled case and its noisy variant share theirs). Matched by
    the `case_id` inside the file (file names are not trusted to say it)."""
    recorded = folder.run.get("case_paths")
    if isinstance(recorded, dict) and isinstance(recorded.get(case_id), str):
        path = Path(recorded[case_id])
        if path.is_file() and _holds_case(path, case_id):
            return path, "the file the run recorded"
    suite = suite_folder(folder)
    if suite is not None:
        found = _files_with_case(suite, case_id)
        if found:
            return found[0], f"the run's suite folder {suite.name}"
        return None, (f"the run's suite folder {suite} has no file with this case_id "
                      "(was the suite generated again, or moved?)")
    places = [folder.path / "cases", folder.path.parent, *roots]
    matches: dict[bytes, Path] = {}
    seen: set[Path] = set()
    for place in places:
        if not place.is_dir() or place.resolve() in seen:
            continue
        seen.add(place.resolve())
        for f in _files_with_case(place, case_id):
            matches.setdefault(f.read_bytes(), f)
    if len(matches) == 1:
        return next(iter(matches.values())), "the only file with this case_id"
    if not matches:
        return None, ("the results folder names no suite, and no file next to it or under "
                      "sample_traces/ has this case_id")
    return None, ("the results folder names no suite, and several different files have this "
                  "case_id: " + ", ".join(str(f) for f in sorted(matches.values())))


@dataclass
class MethodPlan:
    """The plan a benchmark method ran on a case, as the workbench opens it."""

    method: str
    """The method's registry name."""
    plan: Any
    """The `RepairPlan`: the core's plan with the objective the method planned for, and
    what the method decided otherwise as reviewer edits (forced, commented with its name)."""
    skipped: list[str] = field(default_factory=list)
    """Decisions of the method the plan could not take (refused outright by the library)."""

    def label(self) -> str:
        """One line saying what ran: method, objective, suspects setting, edits."""
        n = len(self.plan.edits)
        return (f"the plan benchmark method {self.method} ran: objective {self.plan.objective}"
                f", suspects {self.plan.suspects}, {n} edit{'s' if n != 1 else ''} of the "
                "computed plan")


def method_plan(case: Any, method: str) -> MethodPlan:
    """The plan that carries out what benchmark method `method` decided for `case`: the
    computed plan for the objective the method planned for (a store-only method for the
    `store`, every other for the `answer`, as `decide` runs them), with the method's other
    decisions as reviewer edits (forced, commented with the method's name), and the
    decisions the plan could not take (refused outright by the library)."""
    from repair_core import PlanEditError, apply_edits, plan_case
    from repair_core.bench import decide
    from repair_core.plan._edit import _problems

    decision = decide(method, case)
    objective = "answer" if decision.answer and case.has_answer() else "store"
    plan = plan_case(case, objective=objective)
    edits: dict[str, str] = {}
    for m in case.memory:
        want = decision.store_edits.get(m.id, "keep")
        if want != plan.memory[m.id]:
            edits[m.id] = want
    replay = set(decision.replay)
    for s in case.trajectory:
        if s.id in replay:
            want = "refresh" if s.type == "tool_observation" else "replay"
        elif s.id in decision.invalidated:
            want = "invalidate"
        else:
            want = "keep"
        if want != plan.steps[s.id]:
            edits[s.id] = want
    hard = {n for n, _ in _problems(plan, edits)[0]}
    skipped = [f"{n}: {edits[n]}" for n in sorted(hard)]
    kept = {n: a for n, a in edits.items() if n not in hard}
    if not kept:
        return MethodPlan(method, plan, skipped)
    try:
        return MethodPlan(method, apply_edits(plan, kept, force=True,
                                              comment=f"benchmark method {method}"), skipped)
    except PlanEditError as exc:
        return MethodPlan(method, plan, [*skipped, *exc.problems])
