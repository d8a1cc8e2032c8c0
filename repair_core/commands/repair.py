"""`dgrr repair CASE`: plan and selectively replay a repair (stages 1-5)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from .._errors import DgrrError
from .._io import atomic_write_json, atomic_write_text, to_json
from .._plan import plan_case
from . import add_case_argument, edited_plan, read_case

EXIT_OK, EXIT_FAILED = 0, 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "repair", help="repair a case: plan, then selectively replay (stages 1-5)",
        description="Plan the repair of a case and replay only what the corrected answer "
                    "needs, through a litellm model (default: the offline reference model).")
    add_case_argument(p)
    p.add_argument("--model", default="dgrr/reference",
                   help="litellm model string (default: dgrr/reference, offline, no key)")
    p.add_argument("--api-base", default=None, help="API base URL for the model")
    p.add_argument("--plan", metavar="EDITED_PLAN.json", default=None,
                   help="an edited plan report (same shape as `dgrr plan --json`)")
    p.add_argument("--force", action="store_true",
                   help="apply plan edits even when they break the method's invariants")
    p.add_argument("--observation", action="append", default=[], metavar="STEP=JSON",
                   help="hand-supplied output for a tool_action whose tool is not registered "
                        "(JSON, plain text, or @file); repeatable")
    p.add_argument("--progress", action="store_true",
                   help="print each replayed step with the running call and token count on "
                        "stderr")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when an effect of the failed run cannot be undone and needs a "
                        "human (irreversible tools); without it such effects are reported and "
                        "the exit code stays 0")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write result.json, answer.txt, trajectory.json, store.json, "
                        "report.json atomically into DIR")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..replay import repair

    case = read_case(args)
    plan = plan_case(case)
    if args.plan:
        plan = edited_plan(plan, args.plan, force=args.force,
                           comment=f"edited plan {args.plan}")
    observations = dict(_observation(o) for o in args.observation)
    result = repair(case, plan, model=args.model, api_base=args.api_base,
                    observations=observations,
                    on_progress=_print_progress if args.progress else None)
    data = result.model_dump(mode="json")
    if args.out:
        write_outputs(Path(args.out), data)
    if args.json:
        sys.stdout.write(to_json(data))
    else:
        write_summary(result, sys.stdout, out_dir=args.out)
    if result.answer is None or result.report.failures:
        return EXIT_FAILED
    if args.strict and result.needs_human:
        print(f"--strict: {len(result.needs_human)} effect(s) of the failed run cannot be "
              "undone and need a human: " + ", ".join(n.step for n in result.needs_human),
              file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _print_progress(done: int, total: int, step_id: str, cost: Any) -> None:
    print(f"[{done}/{total}] {step_id}: {cost.llm_calls} LLM calls, {cost.tokens} tokens so far",
          file=sys.stderr, flush=True)


def _observation(spec: str) -> tuple[str, Any]:
    step, sep, value = spec.partition("=")
    if not sep or not step:
        raise DgrrError(f"--observation {spec!r}: expected STEP=VALUE")
    if value.startswith("@"):
        try:
            value = Path(value[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise DgrrError(f"--observation {step}: cannot read {value[1:]}: {exc}") from None
    try:
        return step, json.loads(value)
    except json.JSONDecodeError:
        return step, value


def write_outputs(out: Path, data: dict[str, Any]) -> None:
    """The result and its parts, each written atomically."""
    if out.exists() and not out.is_dir():
        raise DgrrError(f"--out {out}: exists and is not a folder")
    atomic_write_json(out / "trajectory.json", data["trajectory"])
    atomic_write_json(out / "store.json", data["store"])
    atomic_write_json(out / "report.json", {**data["report"], "cost": data["cost"]})
    atomic_write_text(out / "answer.txt", (data["answer"] or "") + "\n")
    atomic_write_json(out / "result.json", data)


def write_summary(result: Any, out: TextIO, out_dir: str | None = None) -> None:
    """The corrected answer next to the original, the store changes and the cost."""
    from ..replay._world import NEEDS_HUMAN

    w = out.write
    r = result.report
    w(f"Repair of {r.case_id} with {r.model}\n\n")
    w(f"  original answer:  {result.original_answer}\n")
    w(f"  corrected answer: {result.answer if result.answer is not None else '(failed)'}\n\n")
    ch = r.store_changes
    w(f"Store: {len(result.store.active)} active, {len(result.store.quarantine)} quarantined\n")
    for label, ids in (("deleted", ch.deleted), ("quarantined", ch.quarantined),
                       ("restored", ch.restored), ("added", ch.added), ("retired", ch.retired)):
        if ids:
            w(f"  {label:<12} {', '.join(ids)}\n")
    texts = {m.id: m.text for m in result.trajectory.memory}
    for rid in ch.added:
        w(f"  + {rid}: {texts.get(rid, '')}\n")
    w("\nReplay:\n")
    for o in r.steps:
        if o.outcome not in ("kept",):
            calls = f" [{o.llm_calls} call{'s' if o.llm_calls != 1 else ''}]" if o.llm_calls else ""
            detail = o.detail if NEEDS_HUMAN in o.detail else o.detail[:90]
            w(f"  {o.outcome:<17} {o.id:<8} {o.type:<16}{calls} {detail}\n")
    if r.skipped_writes:
        w("\nSkipped writes:\n")
        for sw in r.skipped_writes:
            w(f"  {sw.step}: \"{sw.text}\": {sw.reason}\n")
    for title, tool_notes in (("Needs a hand-supplied observation (--observation STEP=JSON)",
                               r.needs_observation),
                              ("Happened in the failed run and cannot be undone: needs a human",
                               result.needs_human),
                              ("Resets and compensations of the failed run's effects", r.resets)):
        if tool_notes:
            w(f"\n{title}:\n")
            for n in tool_notes:
                shown = ", ".join(f"{k}={v}" for k, v in n.args.items())
                w(f"  {n.step}: {n.tool}({shown}): {n.reason}\n")
    if r.failures:
        w("\nFailures:\n")
        for f in r.failures:
            w(f"  {f.step} ({f.stage}): {f.error}\n")
    if r.notes:
        w("\nNotes:\n")
        for note in r.notes:
            w(f"  {note}\n")
    c = result.cost
    w(f"\nCost: {c.llm_calls} LLM calls, {c.tokens} tokens, replay ratio {c.replay_ratio:.3f}\n")
    if out_dir:
        w(f"Wrote result.json, answer.txt, trajectory.json, store.json, report.json to {out_dir}\n")
