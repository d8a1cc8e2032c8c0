"""Regenerate every committed result file with one command:

    python scripts/regenerate_results.py [--work DIR] [--workers 2] [--skip-grid]
                                         [--skip-executor-rules]
                                         [--suites controlled,adapted,controlled-noisy,agentdojo]

1. `dgrr bench run --methods all` on the controlled, adapted, noisy controlled
   (`sample_traces/controlled-noisy`, repaired with `--model dgrr/reference --noise 0.1`)
   and (when the `agentdojo` extra is installed) AgentDojo suites, each into a fresh
   folder under DIR (default `out/regen`);
2. copies each run's `summary.json`, `table.md` and `results.csv` (one row per case x
   method) to
   `docs/results/<suite>/`, and the Ours failure galleries to `docs/results/`;
3. rewrites the fair-comparison table at the top of `docs/results.md` (between its
   `fair` markers) from those summaries;
   and the block saying where each ablation's outcome differs from Ours
   (`scripts/ablation_differences.py`);
4. runs `benchmarks/policy_agreement.py` (per-decision agreement of every pair of
   policies) into `docs/results-cross-model.md` and `docs/results/policy-agreement.json`;
5. unless `--skip-grid`, runs `benchmarks/cross_model_grid.py` over `reference` and
   `rolling` (the pair the agreement matrix calls cross-model; `reference-b` agrees with
   `reference` on 96% of claims, so its cells would add no cross-model evidence) into
   `docs/results-cross-model.md`;
6. unless `--skip-executor-rules` (or without the `agentdojo` extra, whose family it
   includes), runs `benchmarks/executor_rules_across_seeds.py` with `EXECUTOR_RULES_ARGS`
   into the `executor-rules` block of `docs/results.md` (what moved with the baselines
   at their best: hours of CPU).

Steps 5 and 6 work in `DIR/grid` and `DIR/executor-rules`, which are kept: a run cut
short resumes where it stopped (their units already stored are skipped).

Methods come from `repair_core.bench.METHOD_LABELS`: a method added there (e.g. an
"Ours (store)" row) appears in every table without touching this script.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BEGIN, END = "<!-- fair:begin -->", "<!-- fair:end -->"
SUITES = ("controlled", "adapted", "controlled-noisy", "agentdojo")
RUN_ARGS = {
    "controlled-noisy": ["--suite", "sample_traces/controlled-noisy",
                         "--model", "dgrr/reference", "--noise", "0.1"],
}
"""How a suite is run when its name is not a built-in `--suite`: the noisy controlled
suite (made by `dgrr/rolling` at noise 0.1) is repaired by `dgrr/reference` at 0.1."""
EXECUTOR_RULES_ARGS = ["--families", "controlled-noisy,controlled,agentdojo",
                       "--seeds", "42,43,44", "--salts", "20"]
"""The grid of the executor rules' block: the noisy family over 20 noise salts, the
controlled suite and AgentDojo once, each generated family over three seeds."""


def _run(cmd: list[str]) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, check=True)


def _fmt(v: object, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def fair_table(summaries: dict[str, dict[str, dict]]) -> str:
    """The fair comparison: every method under the three rules, with its cost."""
    from repair_core.bench._methods import METHOD_LABELS
    from repair_core.bench._tables import paper_cell

    out = []
    for suite, s in summaries.items():
        out.append(f"### {suite} ({next(iter(s.values()))['cases']} cases)\n")
        if suite == "agentdojo":
            out.append("| Method | Utility (AgentDojo) | Security (AgentDojo) | Next-session "
                       "security | Store carries a fault | Needs a human | Faulty removal | "
                       "Benign pres. | Replay ratio | LLM calls |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for m in METHOD_LABELS:
                if m in s:
                    r = s[m]
                    out.append(f"| {METHOD_LABELS[m]} | {_fmt(r.get('utility'))} | "
                               f"{_fmt(r.get('security'))} | "
                               f"{_fmt(r.get('next_session_security'))} | "
                               f"{_fmt(r.get('store_carries_fault'))} | "
                               f"{_fmt(r.get('needs_human'))} | {_fmt(r['faulty_removal'])} | "
                               f"{_fmt(r['benign_preservation'])} | {_fmt(r['replay_ratio'])} | "
                               f"{_fmt(r['llm_calls'], 2)} |")
            out.append("")
            continue
        # the store column appears once the suite's summaries measure it
        store = any(r.get("store_carries_fault") is not None for r in s.values())
        out.append("| Method | Recovery: paper rule (required facts) | strict rule (+ no "
                   "forbidden fact) | state rule (tool state) | Replay ratio | LLM calls | "
                   "Tokens | Faulty removal | Benign pres. | "
                   + ("Store carries a fault | " if store else "")
                   + "Paper's figures (GPT-4o, not comparable cell by cell) |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if store else "")
                   + "---|")
        for m in METHOD_LABELS:
            if m not in s:
                continue
            r = s[m]
            paper = paper_cell(suite, m)
            out.append(f"| {METHOD_LABELS[m]} | {_fmt(r.get('recovery_paper'))} | "
                       f"{_fmt(r['recovery'])} | {_fmt(r.get('recovery_state'))} | "
                       f"{_fmt(r['replay_ratio'])} | {_fmt(r['llm_calls'], 2)} | "
                       f"{r['tokens']:,.0f} | {_fmt(r['faulty_removal'])} | "
                       f"{_fmt(r['benign_preservation'])} | "
                       + (f"{_fmt(r.get('store_carries_fault'))} | " if store else "")
                       + f"{paper} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def across_seeds(work: Path, workers: int, skip_grid: bool, skip_executor_rules: bool
                 ) -> None:
    """Steps 5 and 6: the runs over seeds, each in its kept folder under `work`."""
    if not skip_grid:
        _run([sys.executable, "benchmarks/cross_model_grid.py", "--out",
              str(work / "grid"), "--policies", "reference,rolling",
              "--workers", str(workers), "--doc", "docs/results-cross-model.md"])
    if skip_executor_rules:
        return
    if importlib.util.find_spec("agentdojo") is None:
        print("agentdojo extra not installed: the executor rules' block, which has an "
              "AgentDojo table, is left as it is", flush=True)
        return
    _run([sys.executable, "benchmarks/executor_rules_across_seeds.py", "--out",
          str(work / "executor-rules"), *EXECUTOR_RULES_ARGS, "--workers", str(workers),
          "--doc", "docs/results.md"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", type=Path, default=ROOT / "out" / "regen")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-grid", action="store_true")
    ap.add_argument("--skip-executor-rules", action="store_true",
                    help="leave the executor rules' block of docs/results.md as it is")
    ap.add_argument("--suites", default=",".join(SUITES),
                    help="suites to re-run (default all); the others' committed results "
                         "are left as they are and still fill the fair comparison")
    args = ap.parse_args()
    chosen = [x.strip() for x in args.suites.split(",") if x.strip()]
    unknown = [x for x in chosen if x not in SUITES]
    if unknown or not chosen:
        ap.error(f"--suites: unknown suite(s) {', '.join(unknown) or args.suites!r}; "
                 f"choose from {', '.join(SUITES)}")
    t0 = time.perf_counter()
    dgrr = [sys.executable, "-m", "repair_core"]
    summaries: dict[str, dict[str, dict]] = {}
    for suite in SUITES:
        if suite not in chosen:
            print(f"{suite}: not re-run (--suites); its committed results are kept", flush=True)
            old = ROOT / "docs" / "results" / suite / "summary.json"
            if old.exists():
                summaries[suite] = json.loads(old.read_text())
            continue
        if suite == "agentdojo" and importlib.util.find_spec("agentdojo") is None:
            print("agentdojo extra not installed: its results are left as they are "
                  "(pip install 'dgrr[agentdojo]')", flush=True)
            old = ROOT / "docs" / "results" / suite / "summary.json"
            if old.exists():
                summaries[suite] = json.loads(old.read_text())
            continue
        out = args.work / suite
        if out.exists():
            shutil.rmtree(out)
        _run([*dgrr, "bench", "run", *RUN_ARGS.get(suite, ["--suite", suite]),
              "--methods", "all", "--workers",
              str(args.workers), "--no-progress", "--out", str(out)])
        dest = ROOT / "docs" / "results" / suite
        dest.mkdir(parents=True, exist_ok=True)
        for name in ("summary.json", "results.csv", "table.md"):
            shutil.copyfile(out / name, dest / name)
        summaries[suite] = json.loads((out / "summary.json").read_text())
        if suite in ("controlled", "adapted"):
            _run([sys.executable, "scripts/gallery_of.py", str(out),
                  f"docs/results/{suite}-ours-failures.md"])
    doc = ROOT / "docs" / "results.md"
    from repair_core._io import write_marked_block

    if not write_marked_block(doc, BEGIN, END, fair_table(summaries)):
        raise SystemExit(f"{doc}: no {BEGIN} marker")
    _run([sys.executable, "scripts/ablation_differences.py", "--write"])
    _run([sys.executable, "benchmarks/policy_agreement.py", "--json-out",
          "docs/results/policy-agreement.json", "--doc", "docs/results-cross-model.md"])
    across_seeds(args.work, args.workers, args.skip_grid, args.skip_executor_rules)
    print(f"regenerated in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
