"""What a model judge is asked, and what it costs, as the case grows.

    python benchmarks/judge_scale.py                      # 10k and 100k steps
    python benchmarks/judge_scale.py --sizes 10000 100000 --budget 300

Each size gets a synthetic case (`dgrr synth --steps N --faults 3 --seed 11`, records =
steps/5), in two forms:

- `as written`: the case as synthesised; the synthetic agent writes no memory from a tool
  result, so the lexical judge settles everything and only the texts that descend from a
  tool observation (`--judge-untrusted`) reach the model;
- `lineage cut`: every record the run wrote (but the diagnosed faults) loses its recorded
  premises (a producer edge the trace did not record): each is then of unknown lineage
  for every fault written before it, a question for the model judge.

Each form is repaired with the offline reference model, then its content check is run
with a scripted model judge (`--judge-untrusted`, the default budget): an in-process
completion that answers `no` to every question and reports as tokens the characters of
its prompt / 4 plus 60 per answer (the estimate's own rule). The table gives the
questions put to the judge, the distinct ones, the calls after batching, the questions
the budget left unasked, the tokens, the dollars at litellm's price for
`openai/gpt-4o-mini` and the CPU seconds of the check; then the growth from the first
size to the last.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core import load_case  # noqa: E402
from repair_core.judge import ModelJudge  # noqa: E402
from repair_core.judge._estimate import (  # noqa: E402
    ANSWER_TOKENS,
    estimated_tokens,
    model_price,
)
from repair_core.replay import repair  # noqa: E402
from repair_core.verification import verify_result  # noqa: E402

MODEL = "openai/gpt-4o-mini"


def scripted(messages: list[dict[str, str]]) -> tuple[str, int, float]:
    """Answers `no` to every question of a call (the carries.v2 format)."""
    questions = json.loads(messages[-1]["content"].split("INPUT:\n", 1)[1])["questions"]
    reply = json.dumps({"answers": [{"id": q["id"], "verdict": "no",
                                     "evidence": "it states something else"}
                                    for q in questions]})
    tokens = estimated_tokens(sum(len(m["content"]) for m in messages))
    return reply, tokens + ANSWER_TOKENS * len(questions), 0.0


def cut_lineage(src: Path, dst: Path) -> int:
    """Write `src` with every record the run wrote, but the faults, stripped of its deps;
    how many were."""
    raw = json.loads(src.read_text(encoding="utf-8"))
    faults = set(raw["faults"])
    cut = 0
    for m in raw["memory"]:
        if m.get("created_seq") is not None and m["id"] not in faults and m.get("deps"):
            m["deps"] = []
            cut += 1
    dst.write_text(json.dumps(raw), encoding="utf-8")
    return cut


def measure(path: Path, budget: int) -> dict[str, Any]:
    case = load_case(str(path))
    result = repair(case)
    judge = ModelJudge(MODEL, complete=scripted, budget=budget, untrusted=True)
    start = time.process_time()
    v = verify_result(case, result, judge=judge)
    cpu = time.process_time() - start
    e = v.judge_estimate
    return {"questions": e.questions if e else 0, "distinct": e.distinct if e else 0,
            "calls": v.judge_use.calls, "unasked": v.judge_use.unasked,
            "tokens": v.judge_use.tokens, "estimate_tokens": e.tokens if e else 0,
            "dollars": e.cost if e else 0.0, "check_cpu_s": round(cpu, 2),
            "outcome": v.outcome, "replay_calls": result.cost.llm_calls,
            "replay_tokens": result.cost.tokens}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dgrr-judge-scale-"))
    rows: list[dict[str, Any]] = []
    model_price(MODEL)  # litellm's import, once, outside the timed checks
    print(f"{'steps':>7} {'form':<12} {'questions':>9} {'distinct':>8} {'calls':>5} "
          f"{'unasked':>7} {'tokens':>8} {'est. $':>8} {'check s':>7} {'replay calls':>12}")
    for n in args.sizes:
        written = folder / f"synth-{n}.json"
        subprocess.run([sys.executable, "-m", "repair_core.cli", "synth", "--steps", str(n),
                        "--faults", "3", "--seed", "11", "--out", str(written)],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        cut = folder / f"synth-{n}-cut.json"
        cut_lineage(written, cut)
        for form, path in (("as written", written), ("lineage cut", cut)):
            row = {"steps": n, "form": form, **measure(path, args.budget)}
            rows.append(row)
            dollars = "unknown" if row["dollars"] is None else f"{row['dollars']:.4f}"
            print(f"{n:>7} {form:<12} {row['questions']:>9} {row['distinct']:>8} "
                  f"{row['calls']:>5} {row['unasked']:>7} {row['tokens']:>8} {dollars:>8} "
                  f"{row['check_cpu_s']:>7} {row['replay_calls']:>12}", flush=True)
    if len(args.sizes) > 1:
        first, last = args.sizes[0], args.sizes[-1]
        for form in ("as written", "lineage cut"):
            a = next(r for r in rows if r["steps"] == first and r["form"] == form)
            b = next(r for r in rows if r["steps"] == last and r["form"] == form)
            grow = {k: (f"x{b[k] / a[k]:.1f}" if a[k] else f"{a[k]} -> {b[k]}")
                    for k in ("questions", "distinct", "calls", "tokens")}
            print(f"growth {first} -> {last} ({form}): " + ", ".join(
                f"{k} {v}" for k, v in grow.items()))
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
