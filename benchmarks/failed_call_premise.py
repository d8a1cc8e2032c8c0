"""What Ours would recover on the noisy controlled suite if a failed tool call of the
final turn counted as a premise of the final answer: a rule the method does not have
(docs/results.md, "Why Ours loses the cases whose own lookup failed"), measured here
without changing the planner:

    python benchmarks/failed_call_premise.py --out out/failed-call            # print
    python benchmarks/failed_call_premise.py --out out/failed-call --write    # and docs

Every committed case of `sample_traces/controlled-noisy` is copied into `OUT/cases` with
one change: the final answer gets a plain `cite` edge from every failed tool observation
of its own turn that it does not cite already, which is the edge the answer would have
had if the call had returned. Ours then repairs the committed cases and the copies with
the committed model (`dgrr/reference/noise=0.1`); the script prints the recovery of
both and the cases gained and lost. The copies are an experiment, not cases of the
suite: their edges are not what the runtime recorded.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEGIN, END = "<!-- failed-call:begin -->", "<!-- failed-call:end -->"
DOC = ROOT / "docs" / "results.md"
SUITE = ROOT / "sample_traces" / "controlled-noisy"
MODEL = "dgrr/reference/noise=0.1"
"""The model the committed noisy results were repaired with."""


def with_failed_calls_cited(case: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A copy of `case` (a case file's JSON) whose final answer also cites every failed
    tool observation of the final turn, and the ids of the observations it added."""
    out = copy.deepcopy(case)
    last = out["session"][-1]["id"]
    answers = [s for s in out["trajectory"] if s["type"] == "answer" and s["turn"] == last]
    if not answers:
        return out, []
    answer = answers[-1]
    cited = {d["id"] for d in answer["deps"]}
    added = [s["id"] for s in out["trajectory"]
             if s["type"] == "tool_observation" and s["turn"] == last
             and s["status"] == "failed" and s["id"] not in cited]
    answer["deps"] = [*answer["deps"],
                      *({"id": i, "label": "cite", "sufficient": False} for i in added)]
    return out, added


def write_variants(out: Path) -> tuple[list[Path], list[Path], dict[str, list[str]]]:
    """The committed case files, their copies under `out/cases`, and the observations
    added per case id (cases with none are copied unchanged)."""
    from repair_core._io import atomic_write_json
    from repair_core.bench import suite_case_paths

    committed = [Path(p) for p in suite_case_paths(str(SUITE))]
    variants: list[Path] = []
    added: dict[str, list[str]] = {}
    for path in committed:
        case, ids = with_failed_calls_cited(json.loads(path.read_text(encoding="utf-8")))
        target = out / "cases" / path.name
        atomic_write_json(target, case)
        variants.append(target)
        if ids:
            added[case["case_id"]] = ids
    return committed, variants, added


def measure(out: Path) -> dict[str, Any]:
    """Ours' outcome per case on the committed cases and on their copies."""
    os.environ["DGRR_NO_PROGRESS"] = "1"
    from repair_core.bench import run_bench

    committed, variants, added = write_variants(out)
    outcome: dict[str, dict[str, bool]] = {}
    for name, paths in (("committed", committed), ("cited", variants)):
        results = run_bench(paths, ["ours"], out / "runs" / name, model=MODEL,
                            suite=f"failed-call-{name}", progress=False)
        errors = [r.case_id for r in results if r.error is not None]
        if errors:
            raise SystemExit(f"{name}: Ours crashed on {', '.join(errors)}")
        outcome[name] = {r.case_id: bool(r.recovered) for r in results}
    return {"added": added, **outcome}


def report(m: dict[str, Any]) -> str:
    base, cited = m["committed"], m["cited"]
    gained = sorted(c for c in base if cited[c] and not base[c])
    lost = sorted(c for c in base if base[c] and not cited[c])

    def short(ids: list[str]) -> str:
        return ", ".join(f"`{c[:7]}`" for c in ids) or "none"

    n = len(base)
    return "\n".join([
        "| Cases | Cases with a failed call in the final turn | Ours (strict rule), committed "
        "edges | Ours, the answer citing its turn's failed calls | Gained | Lost |",
        "|---:|---:|---:|---:|---|---|",
        f"| {n} | {len(m['added'])} | {sum(base.values()) / n:.3f} | "
        f"{sum(cited.values()) / n:.3f} | {short(gained)} | {short(lost)} |",
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "failed-call",
                    help="work folder for the copied cases and the runs (re-use it to resume)")
    ap.add_argument("--write", action="store_true",
                    help=f"write the table between {BEGIN} and {END} in {DOC.name}")
    args = ap.parse_args(argv)
    text = report(measure(args.out))
    print(text)
    if args.write:
        from repair_core._io import write_marked_block

        if not write_marked_block(DOC, BEGIN, END, text + "\n"):
            print(f"{DOC}: no {BEGIN} marker", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
