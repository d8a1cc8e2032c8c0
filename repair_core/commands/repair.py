"""`dgrr repair CASE`: plan and selectively replay a repair (stages 1-5)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .._errors import DgrrError
from .._io import (
    check_output_folder,
    read_input,
    to_json,
    write_output_set,
)
from .._json_pieces import KeptOnDisk, Members, Streamed, model_members, object_pieces
from .._perf import gc_paused
from .._text import printable_lines, ratio_text
from ..plan._plan import RepairPlan, plan_case, resolve_objective
from ..plan._planner import PLANNERS, columnar_plan_report_of, file_size, wants_columnar
from . import (
    add_bounds_arguments,
    add_case_argument,
    add_objective_argument,
    add_suspects_argument,
    case_ids,
    clean_source_ids,
    edited_plan,
    model_client,
    not_suspect_ids,
    plural,
    read_case,
    wrap,
)
from .judging import add_judge_arguments, judge_from

if TYPE_CHECKING:
    from ..case._case import Case
    from ..replay import RepairResult

EXIT_OK, EXIT_FAILED, EXIT_NOT_CERTIFIED = 0, 1, 3


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "repair", help="repair a case: plan, then selectively replay (stages 1-5)",
        description="Plan the repair of a case and replay only what the corrected answer "
                    "needs, through a litellm model (default: the offline reference model).")
    add_case_argument(p)
    p.add_argument("--model", default="dgrr/reference",
                   help="dgrr/reference (the default: built-in, offline, no key, answered "
                        "in-process) or any litellm model string, e.g. openai/dgrr-reference "
                        "with --api-base for `dgrr serve-model`")
    p.add_argument("--api-base", default=None, help="API base URL for the model")
    add_bounds_arguments(p)
    add_judge_arguments(p)
    p.add_argument("--plan", metavar="EDITED_PLAN.json", default=None,
                   help="an edited plan report (same shape as `dgrr plan --json`)")
    p.add_argument("--force", action="store_true",
                   help="apply plan edits that override an invariant (needs --comment; a "
                        "diagnosed fault is never re-admitted, even forced)")
    p.add_argument("--comment", default=None,
                   help="the reviewer's reason for the plan edits (recorded with each edit; "
                        "required with --force)")
    p.add_argument("--observation", action="append", default=[], metavar="STEP=JSON",
                   help="hand-supplied output for a tool_action whose tool is not registered "
                        "(JSON, plain text, or @file); repeatable")
    p.add_argument("--progress", action="store_true",
                   help="print each replayed step with the running call and token count on "
                        "stderr")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when an effect of the failed run cannot be undone and needs a "
                        "human (irreversible tools), when a replayed claim, answer or write "
                        "states a diagnosed fault's value, or when the content check finds a "
                        "carrier of a fault or blocked a write; exit 3, as `dgrr verify` does, "
                        "when no carrier is found but the content check could not certify "
                        "the store (items not certified clean); without it all are reported "
                        "and the exit code stays 0")
    p.add_argument("--planner", choices=PLANNERS, default="auto",
                   help="auto (default): plan with the columnar planner of `dgrr plan` for "
                        "case files of 2 MB or more, else the networkx planner; columnar: "
                        "for any size; networkx: never the columnar one. The repair is the "
                        "same either way; --plan and --memory always plan with networkx, "
                        "and so does whatever the columnar planner declines "
                        "(docs/performance.md)")
    add_objective_argument(p, default="both")
    add_suspects_argument(p)
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--full", action="store_true",
                   help="list every item of every section of the readable summary (by "
                        "default each section lists its first 10 and counts the rest)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write result.json, answer.txt, trajectory.json, store.json, "
                        "report.json atomically into DIR")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..replay import repair, take_plan

    if args.out is not None:  # refuse a bad target before any model call
        check_output_folder(args.out, OUTPUT_FILES)
    if args.force and not (args.comment or "").strip():
        raise DgrrError("--force needs --comment: say in your own words why the edits "
                        "override an invariant")
    columnar = (args.plan is None and args.memory is None
                and wants_columnar(args.planner, file_size(args.case)))
    # both readers' input is the one read of the file; the columnar planner runs first,
    # while the process is small (its reader may fork a second process)
    raw = read_input(Path(args.case)) if columnar else None
    report = _columnar_report(args, raw) if raw is not None else None
    # what the replay runs from is taken, and the report let go, before the case is read:
    # the two never coexist (at 300k steps the report is hundreds of megabytes)
    taken = take_plan(report) if report is not None else None
    del report
    # a report means the columnar reader accepted these bytes, references and all
    case = read_case(args, raw, references_checked=taken is not None)
    del raw
    # handed over, not kept here: repair lets the plan go once it has taken its operations
    plans = [taken if taken is not None else _plan(args, case)]
    del taken
    client = model_client(args)
    judge = judge_from(args)
    observations = dict(_observation(o) for o in args.observation)
    result = repair(case, plans.pop(), client=client, observations=observations,
                    on_progress=_print_progress if args.progress else None, judge=judge)
    # the result holds what it needs of the case (kept steps' copies share their fields):
    # the case's own objects go before the result is written
    del case
    failed = ((result.answer is None and result.report.objective != "store")
              or bool(result.report.failures))
    with gc_paused():  # only data is built: see repair_core._perf
        if args.out is not None:
            write_outputs(Path(args.out), result, failed=failed)
        if args.json:
            sys.stdout.write(to_json(result.model_dump(mode="json")))
        # the summary too: its lists of a 300k-step result's steps met a full collection
        # of everything the result holds (1.6 CPU s)
        if not args.json:
            write_summary(result, sys.stdout, out_dir=args.out, failed=failed, full=args.full)
    if failed:
        reasons = result.report.failures
        why = (f"no model reply ({plural(result.cost.connection_failures, 'connection failure')}; "
               f"check --api-base, --timeout, --deadline)"
               if result.cost.connection_failures and not result.cost.llm_calls
               else reasons[0].error if reasons else "no corrected answer")
        print(printable_lines(
            f"dgrr repair: repair failed ({plural(len(reasons), 'failed step')}): {why}"
            + (f"; wrote only {Path(args.out) / 'failure.json'}" if args.out else "")),
            file=sys.stderr)
        return EXIT_FAILED
    echoes = result.report.fault_echoes
    if args.strict and echoes:
        print(printable_lines(
            f"--strict: {plural(len(echoes), 'replayed output')} state a diagnosed fault's "
            "value: " + ", ".join(f"{e.step} ({e.type}, {e.action}) states {e.fault}'s "
                                  f"{e.value!r}" for e in echoes)), file=sys.stderr)
        return EXIT_FAILED
    v = result.verification
    if args.strict and v is not None and (v.carriers or v.blocked):
        print(printable_lines(
            f"--strict: the content check found {plural(len(v.carriers), 'carrier')} of a "
            f"fault and blocked {plural(len(v.blocked), 'write')}: "
            + ", ".join([*(c.id for c in v.carriers), *(b.step for b in v.blocked)])),
            file=sys.stderr)
        return EXIT_FAILED
    if args.strict and result.needs_human:
        print(printable_lines(
            f"--strict: {plural(len(result.needs_human), 'effect')} of the failed run cannot "
            "be undone and need a human: " + ", ".join(n.step for n in result.needs_human)),
            file=sys.stderr)
        return EXIT_FAILED
    if args.strict and v is not None and v.outcome == "not_certified":
        print(printable_lines(
            f"--strict: the content check could not certify the repaired store: "
            f"{plural(len(v.uncertain), 'item')} not certified clean: "
            + ", ".join(u.id for u in v.uncertain)), file=sys.stderr)
        return EXIT_NOT_CERTIFIED
    return EXIT_OK


def _columnar_report(args: argparse.Namespace, raw: bytes) -> dict[str, Any] | None:
    """The columnar planner's report of the case file's bytes `raw` with its operations,
    what the repair runs from when `--planner` asks for that planner (the same plan as the
    networkx planner's: tests/test_replay_scale.py), or None when it declines the case
    (then the case is loaded and planned with networkx, and a bad case is worded by the
    exact loader)."""
    faults = None if args.faults is None else [
        f.strip() for f in args.faults.split(",") if f.strip()]
    unmarked: list[str] = []
    cleaned: dict[str, str] = {}

    def check_not_suspect(ids: list[str]) -> list[str]:
        unmarked[:] = not_suspect_ids(args, ids)
        return unmarked

    def check_clean_source(ids: list[str]) -> dict[str, str]:
        cleaned.update(clean_source_ids(args, ids))
        return cleaned

    # the columnar reader declines a case without an answer step: no objective is `both`
    report = columnar_plan_report_of(raw, objective=args.objective or "both", faults=faults,
                                     suspects=args.suspects,
                                     check_not_suspect=check_not_suspect,
                                     check_clean_source=check_clean_source)
    if report is not None:
        # what it was planned with, for the result's report (an approval's plan)
        report["suspects"], report["not_suspect"] = args.suspects, unmarked
        report["clean_source"] = cleaned
    return report


def _plan(args: argparse.Namespace, case: Case) -> RepairPlan:
    """The networkx planner's plan of `case`, with the edits of `--plan`."""
    plan = plan_case(case, objective=resolve_objective(case, args.objective, "both"),
                     suspects=args.suspects, not_suspect=not_suspect_ids(args, case_ids(case)),
                     clean_source=clean_source_ids(args, case_ids(case)))
    if args.plan:
        plan = edited_plan(plan, args.plan, force=args.force,
                           comment=(args.comment or "").strip() or None)
    return plan


def _print_progress(done: int, total: int, step_id: str, cost: Any) -> None:
    print(printable_lines(f"[{done}/{total}] {step_id}: {cost_text(cost)} so far"),
          file=sys.stderr, flush=True)


def _judged(v: Any) -> bool:
    use = v.judge_use
    return bool(use.calls or use.cached or use.unasked or v.judge_estimate is not None)


def judge_use_text(use: Any) -> str:
    """`model judge: 3 calls, 1 cached, 1200 tokens, $0.0012`, and what its budget left
    unasked."""
    return (f"model judge: {plural(use.calls, 'call')}, {use.cached} cached, "
            f"{plural(use.tokens, 'token')}, ${use.cost:.4f}"
            + (f"; {use.unasked} left unasked by --judge-budget" if use.unasked else ""))


def cost_text(cost: Any) -> str:
    """`3 LLM calls, 2293 tokens`, plus the calls that got no reply when there were any."""
    text = f"{plural(cost.llm_calls, 'LLM call')}, {plural(cost.tokens, 'token')}"
    failures = getattr(cost, "connection_failures", 0)
    if failures:
        text += f", {plural(failures, 'connection failure')} (no reply, not counted as calls)"
    return text


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


RESULT_FILES = ("result.json", "answer.txt", "trajectory.json", "store.json", "report.json")
OUTPUT_FILES = frozenset({*RESULT_FILES, "failure.json"})


STREAMED: Streamed = {
    "store": {"active": None, "quarantine": None},
    "trajectory": {"session": None, "memory": None, "trajectory": None},
    "report": {"decisions": None, "steps": None},
}
"""The members of a repair result whose long lists are written a chunk of items at a time."""


def write_outputs(out: Path, result: RepairResult, *, failed: bool = False) -> None:
    """The result and its parts as one set swapped into `out` whole (a reader sees the
    earlier set or this one). A failed repair writes only `failure.json`: no answer file
    or repaired store that could be mistaken for a result.

    Each part is encoded once, as UTF-8, a chunk of steps or records at a time
    (`model_members`), as its own file is written; result.json holds them all again, read
    back from an unnamed file beside `out` (at 300k steps the lists' text is 300 MB, held
    in memory between the two otherwise). The text is what
    `to_json(result.model_dump(mode="json"))` gives, without that whole dump."""
    if failed:
        data = result.model_dump(mode="json")
        report = data["report"]
        failure = {"failed": True, "case_id": report.get("case_id"), "model": report.get("model"),
                   "answer": data["answer"], "failures": report.get("failures", []),
                   "cost": data["cost"]}
        write_output_set(out, {"failure.json": to_json(failure)}, allowed=OUTPUT_FILES)
        return
    near = out.resolve().parent
    with tempfile.TemporaryFile(buffering=0, dir=near if near.is_dir() else None) as kept:
        parts = model_members(result, STREAMED, keep_in=kept)
        report = parts["report"]
        assert isinstance(report, dict)
        end = (b"\n",)
        write_output_set(out, {  # written piece by piece as they are made
            "trajectory.json": chain(_pieces(parts["trajectory"]), end),
            "store.json": chain(_pieces(parts["store"]), end),
            "report.json": chain(object_pieces({**report, "cost": parts["cost"]}), end),
            "answer.txt": (result.answer or "") + "\n",
            "result.json": chain(object_pieces(parts), end),
        }, allowed=OUTPUT_FILES)


def _pieces(part: Members | bytes | list[bytes] | KeptOnDisk) -> Iterable[bytes]:
    """The JSON text of one member of `model_members`, in pieces."""
    if isinstance(part, dict):
        return object_pieces(part)
    return (part,) if isinstance(part, bytes) else part


SECTION_LINES = 10
"""Lines a section of the readable summary prints unless `--full` is given."""


def _bounded(items: Any, full: bool, limit: int = SECTION_LINES) -> tuple[list[Any], int]:
    """The items a section prints and how many it leaves out."""
    items = list(items)
    return (items, 0) if full or len(items) <= limit else (items[:limit], len(items) - limit)


def write_summary(result: Any, out: TextIO, out_dir: str | None = None,
                  failed: bool = False, full: bool = False) -> None:
    """The corrected answer next to the original, the store changes and the cost (every
    line through `printable_lines`: ids, texts and answers come from the case and the
    model). Each section lists its first SECTION_LINES items and says how many more
    there are, unless `full`: a repair of 100k steps stays a page long."""

    def w(text: str) -> None:
        out.write(printable_lines(text))

    def more(left: int, what: str = "more") -> None:
        if left:
            w(f"  … {left} {what} (--full lists every one"
              + (f"; {out_dir} holds them all)\n" if out_dir else ")\n"))

    def ids_line(ids: list[str]) -> str:
        shown, left = _bounded(ids, full, 3 * SECTION_LINES)
        return ", ".join(shown) + (f", … {left} more ({len(ids)} in all)" if left else "")

    r = result.report
    w(f"Repair of {r.case_id} with {r.model}\n\n")
    w(f"  original answer:  {result.original_answer}\n" if result.trajectory.has_answer()
      else "  original answer:  (none: the case has no steps, only a store's records)\n")
    w(f"  corrected answer: {result.answer if result.answer is not None else '(failed)'}\n"
      if result.answer is not None or failed else
      "  corrected answer: (not regenerated: objective store repairs the memory only)\n")
    for lost in r.answer_lost:  # what the corrected answer cannot have from memory
        slot = f" (slot {lost.key})" if lost.key else ""
        w(f"  not determined:   what {lost.id}{slot} said: {lost.why}, nothing in its place\n")
    w("\n")
    ch = r.store_changes
    w(f"Store: {len(result.store.active)} active, {len(result.store.quarantine)} quarantined\n")
    for label, ids in (("deleted", ch.deleted), ("quarantined", ch.quarantined),
                       ("restored", ch.restored), ("added", ch.added), ("retired", ch.retired)):
        if ids:
            w(f"  {label:<12} {ids_line(ids)}\n")
    texts = {m.id: m.text for m in result.trajectory.memory}
    added, left = _bounded(ch.added, full)
    for rid in added:
        w(f"  + {rid}: {texts.get(rid, '')}\n")
    more(left, "more added records")
    # (place, outcome) of each changed step: a model is made only for a line printed
    steps = r.steps
    rows = getattr(steps, "id_outcomes", None)  # `StepOutcomeRows`
    outcomes = rows() if rows is not None else ((o.id, o.outcome) for o in steps)
    changed = [(i, outcome) for i, (_id, outcome) in enumerate(outcomes) if outcome != "kept"]
    counts = Counter(outcome for _i, outcome in changed)
    w(("\nReplay: " + ", ".join(f"{n} {k}" for k, n in counts.most_common()) + "\n"
       if changed else "\nReplay: no step changed\n") if steps
      else "\nReplay: none (the case has no steps)\n")
    # each outcome's first lines: on a large case most changed steps are invalidated
    for outcome in counts:
        at, left = _bounded([i for i, o in changed if o == outcome], full)
        for o in map(steps.__getitem__, at):
            calls = f" [{plural(o.llm_calls, 'call')}]" if o.llm_calls else ""
            head = f"  {o.outcome:<17} {o.id:<8} {o.type:<16}{calls} "
            w(wrap(o.detail, head, indent=len(head)) + "\n")
        more(left, f"more {outcome}")
    if r.fault_echoes:
        w("\nWARNING: replayed outputs state a diagnosed fault's value (--strict: exit 1; "
          f"{plural(len(r.fault_echoes), 'output')}):\n")
        echoes, left = _bounded(r.fault_echoes, full)
        for e in echoes:
            w(f"  {e.step} ({e.type}, {e.action}): states {e.fault}'s value {e.value!r}\n")
        more(left)
    v = result.verification
    if v is not None:
        c = v.checked
        w(f"\nVerification by content: {v.summary()} (checked "
          f"{plural(c.answer + c.outputs, 'output')} and {plural(c.records, 'active record')} "
          f"against {plural(c.signatures, 'signature')}; dgrr verify re-runs it)\n")
        carriers, left = _bounded(v.carriers, full)
        for k in carriers:
            w(f"  carrier {k.id} [{k.kind}]: {k.evidence}\n")
        more(left, "more carriers")
        uncertain, left = _bounded(v.uncertain, full)
        for u in uncertain:
            w(f"  not certified {u.id} [{u.kind}] ({u.reason}, {u.judge}): {u.why}\n")
        more(left, "more not certified")
        if _judged(v):
            w(f"  {judge_use_text(v.judge_use)}\n")
        blocked, left = _bounded(v.blocked, full)
        for b in blocked:
            w(f"  blocked write {b.step} carries {b.fault}: {b.evidence}; needs a human\n")
        more(left, "more blocked writes")
    if r.no_longer_sees:
        w(f"\nInputs the replayed steps no longer see ({plural(len(r.no_longer_sees), 'step')}):\n")
        seen, left = _bounded(r.no_longer_sees.items(), full)
        for sid, dropped in seen:
            w(f"  {sid}: {', '.join(dropped)}\n")
        more(left)
    if r.skipped_writes:
        w(f"\nSkipped writes ({len(r.skipped_writes)}):\n")
        skipped, left = _bounded(r.skipped_writes, full)
        for sw in skipped:
            w(f"  {sw.step}: \"{sw.text}\": {sw.reason}\n")
        more(left)
    for title, tool_notes in (("Needs a hand-supplied observation (--observation STEP=JSON)",
                               r.needs_observation),
                              ("Happened in the failed run and cannot be undone: needs a human",
                               result.needs_human),
                              ("Resets and compensations of the failed run's effects", r.resets)):
        if tool_notes:
            w(f"\n{title} ({len(tool_notes)}):\n")
            notes, left = _bounded(tool_notes, full)
            for n in notes:
                shown = ", ".join(f"{k}={v}" for k, v in n.args.items())
                w(f"  {n.step}: {n.tool}({shown}): {n.reason}\n")
            more(left)
    if r.failures:
        w(f"\nFailures ({len(r.failures)}):\n")
        failures, left = _bounded(r.failures, full)
        for f in failures:
            w(f"  {f.step} ({f.stage}): {f.error}\n")
        more(left)
    if r.notes:
        w(f"\nNotes ({len(r.notes)}):\n")
        notes_shown, left = _bounded(r.notes, full)
        for note in notes_shown:
            w(f"  {note}\n")
        more(left)
    c = result.cost
    w(f"\nCost: {cost_text(c)}, replay ratio {ratio_text(c.replay_ratio)}"
      + (f"; {judge_use_text(v.judge_use)}" if v is not None and _judged(v) else "") + "\n")
    if out_dir and failed:
        w(f"Wrote only failure.json to {out_dir}\n")
    elif out_dir:
        w(f"Wrote result.json, answer.txt, trajectory.json, store.json, report.json to {out_dir}\n")
