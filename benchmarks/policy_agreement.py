"""Per-decision agreement between every pair of built-in policies (a second policy must measurably disagree).

Every prompt the repair of the committed controlled suite sends (Ours, redo from first
exposure, LLM-judge and MemAudit-style, each driven by `dgrr/reference`), and every prompt
of the failed session re-run as it happened (faults active, nothing removed), is collected
once; then every policy answers every prompt, and for each stage and each pair of
policies the share of prompts on which the two take the same structured decision is
reported:

- claim: the value claimed (normalised as facts are);
- memory_write: the set of (key, value) records written;
- plan: the tool and its arguments; answer: the evidence ids cited;
- consolidate: the value; audit: suspicious or not; judge: per-record actions + redo step.

Usage:

    python benchmarks/policy_agreement.py [--count N] [--json-out FILE] [--doc FILE]

With `--doc` the table replaces the block between the agreement markers of that file.
The grid (`cross_model_grid.py`) is called cross-model only for pairs below 80% on
claims and on memory writes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POLICIES = ("reference", "reference-b", "rolling", "rolling-vulnerable")
METHODS = ("ours", "redo_first_exposure", "llm_judge", "memaudit")
STAGES = ("claim", "memory_write", "plan", "answer", "consolidate", "audit", "judge")
BEGIN, END = "<!-- agreement:begin -->", "<!-- agreement:end -->"
THRESHOLD = 0.80


def _norm(v: Any) -> str:
    from repair_core.content._normalise import normalise

    if isinstance(v, dict | list):
        return json.dumps(v, sort_keys=True, default=str).casefold()
    return normalise(str(v)) if v is not None else ""


def decision(stage: str, reply: str) -> str:
    """The structured decision of one reply, as a comparable string."""
    try:
        out = json.loads(reply)
    except json.JSONDecodeError:
        return "unreadable"
    if not isinstance(out, dict) or "error" in out:
        return "error"
    if stage == "claim":
        return _norm(out.get("value"))
    if stage == "memory_write":
        return json.dumps(sorted((str(r.get("key")), _norm(r.get("value")))
                                 for r in out.get("records") or []))
    if stage == "plan":
        return json.dumps([out.get("tool"), {k: _norm(v) for k, v in
                                             sorted((out.get("args") or {}).items())}])
    if stage == "answer":
        return json.dumps(sorted(out.get("cites") or []))
    if stage == "consolidate":
        return _norm(out.get("value"))
    if stage == "audit":
        return str(bool(out.get("suspicious")))
    if stage == "judge":
        return json.dumps([sorted((r.get("id"), r.get("action"))
                                  for r in out.get("records") or []), out.get("redo_from")])
    return reply


def collect(count: int | None) -> list[tuple[str, list[dict[str, Any]]]]:
    from repair_core import load_case
    from repair_core.bench import decide, suite_case_paths
    from repair_core.model import ModelClient
    from repair_core.replay import execute

    prompts: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    paths = suite_case_paths("controlled", ROOT)[:count]
    for path in paths:
        case = load_case(path).without_eval()
        for method in METHODS:
            client = ModelClient("dgrr/reference")
            d = decide(method, case, client)
            execute(case, d.store_edits, sorted(d.replay), invalidated=sorted(d.invalidated),
                    client=client, decisions=d.reasons)
            _keep(client, prompts)
        # and the failed run's own prompts: the whole session re-run with nothing
        # removed (the faults active, as the agent first saw them)
        client = ModelClient("dgrr/reference")
        execute(case, {}, [s.id for s in case.trajectory], faults=(), client=client)
        _keep(client, prompts)
    return list(prompts.values())


def _keep(client: Any, prompts: dict[str, tuple[str, list[dict[str, Any]]]]) -> None:
    for rec in client.log:
        if rec.attempt == 1:
            prompts.setdefault(json.dumps(rec.messages, sort_keys=True),
                               (rec.stage, rec.messages))


def agreement(prompts: list[tuple[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    from repair_core.model._builtin import resolve_builtin

    replies = {p: resolve_builtin(f"dgrr/{p}") for p in POLICIES}
    decisions = {p: [decision(stage, fn(msgs)) for stage, msgs in prompts]  # type: ignore[misc]
                 for p, fn in replies.items()}
    stages = [s for s, _ in prompts]
    out: dict[str, Any] = {"prompts": {s: stages.count(s) for s in STAGES}, "pairs": {}}
    for a, b in itertools.combinations(POLICIES, 2):
        row = {}
        for s in STAGES:
            idx = [i for i, st in enumerate(stages) if st == s]
            row[s] = (sum(decisions[a][i] == decisions[b][i] for i in idx) / len(idx)
                      if idx else None)
        row["cross_model"] = all(row[s] is not None and row[s] < THRESHOLD
                                 for s in ("claim", "memory_write"))
        out["pairs"][f"{a} / {b}"] = row
    return out


def table(result: dict[str, Any]) -> str:
    head = "| pair | " + " | ".join(f"{s} (n={result['prompts'][s]})" for s in STAGES) \
        + " | cross-model (claims and writes < 80%) |"
    lines = [head, "|---|" + "---:|" * len(STAGES) + "---|"]
    for pair, row in result["pairs"].items():
        cells = ["–" if row[s] is None else f"{row[s]:.1%}" for s in STAGES]
        lines.append(f"| {pair} | " + " | ".join(cells) + " | "
                     + ("yes" if row["cross_model"] else "no") + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=None, help="first N cases only")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--doc", type=Path)
    args = ap.parse_args()
    t0 = time.perf_counter()
    prompts = collect(args.count)
    result = agreement(prompts)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    text = table(result)
    print(text)
    print(f"{len(prompts)} distinct prompts, {result['seconds']} s")
    if args.json_out:
        args.json_out.write_text(json.dumps(result, indent=1) + "\n")
    if args.doc:
        from repair_core._io import write_marked_block

        write_marked_block(args.doc, BEGIN, END, f"{text}\n\n{len(prompts)} distinct prompts.\n",
                           append=True)


if __name__ == "__main__":
    main()
