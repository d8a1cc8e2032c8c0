"""`dgrr fleet SOURCES... --match-text TEXT --out DIR`: find, plan and repair every case a
bad memory touched, on a local process pool or on Ray."""

from __future__ import annotations

import argparse
import os
import sys

from .._errors import DgrrError
from .._io import to_json
from .._text import printable
from . import add_objective_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fleet", help="plan (and repair) every case a bad memory touched, at scale",
        description="Mark the records that match as the diagnosed faults of every case in "
                    "SOURCES (folders of case files, case files, JSON-lines or Parquet "
                    "datasets of cases), plan each repair and, with --replay, carry it out. "
                    "Writes DIR/cases.parquet (one row per case) and DIR/summary.json; a "
                    "rerun into the same DIR skips the cases already done.")
    p.add_argument("sources", nargs="+", metavar="SOURCE",
                   help="case file, folder of cases, .jsonl or .parquet dataset")
    match = p.add_mutually_exclusive_group(required=True)
    match.add_argument("--faults", metavar="IDS",
                       help="comma-separated record ids to mark as faults in every case")
    match.add_argument("--match-text", metavar="TEXT",
                       help="mark every record whose text contains TEXT (case-sensitive)")
    match.add_argument("--match-key", metavar="KEY=VALUE",
                       help="mark every record whose structured key is KEY and value VALUE "
                            "(VALUE as JSON when it parses, else as text)")
    match.add_argument("--match-field", metavar="FIELD=TEXT",
                       help="mark every record whose field FIELD (any record field, e.g. an "
                            "importer's source or user_id) contains TEXT")
    p.add_argument("--replay", action="store_true",
                   help="repair each matched case (selective replay), not only plan it")
    p.add_argument("--model", default="dgrr/reference",
                   help="litellm model string for --replay (default: dgrr/reference, "
                        "offline, no key)")
    p.add_argument("--api-base", default=None, help="API base URL for the model")
    p.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="local: a process pool on this machine (default); ray: Ray Data")
    p.add_argument("--address", metavar="RAY_ADDRESS", default=None,
                   help="join this Ray cluster instead of starting Ray locally (--engine ray)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes (local) or CPUs given to a local Ray (default: CPU count; "
                        "with --address Ray uses the cluster's CPUs)")
    p.add_argument("--chunk-size", type=int, default=None, metavar="C",
                   help="cases per task and per part file (default: chosen from the fleet "
                        "size and workers)")
    add_objective_argument(p, default="answer")
    p.add_argument("--json", action="store_true", help="print summary.json on stdout")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for cases.parquet and summary.json (and resumable parts)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..fleet import FleetSpec, parse_match_key, run_fleet

    if args.address and args.engine != "ray":
        raise DgrrError("--address: only with --engine ray")
    if args.faults is not None:
        spec = FleetSpec(mode="faults", value=args.faults)
    elif args.match_text is not None:
        if not args.match_text:
            raise DgrrError("--match-text: empty text would match every record")
        spec = FleetSpec(mode="text", value=args.match_text)
    elif args.match_key is not None:
        key, value = parse_match_key(args.match_key)
        spec = FleetSpec(mode="key", key=key, value=value)
    else:
        key, value = parse_match_key(args.match_field, "--match-field")
        spec = FleetSpec(mode="field", key=key, value=value)
    spec = spec.model_copy(update={"replay": args.replay, "model": args.model,
                                   "api_base": args.api_base,
                                   "objective": args.objective or "answer"})
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    check_fleet_out(args.out)
    summary = run_fleet(args.sources, spec, args.out, engine=args.engine, workers=workers,
                        address=args.address, chunk_size=args.chunk_size)
    if args.json:
        sys.stdout.write(to_json(summary))
    else:
        write_summary(summary, args.out)
        write_cases(args.out)
    if summary.get("error_cases"):  # errored rows are a failed run, not a pass
        print(f"dgrr fleet: {summary['error_cases']} of {summary['cases']} cases errored "
              f"(their rows in {args.out}/cases.parquet say why)", file=sys.stderr)
        return 1
    return 0


FLEET_OUTPUTS = ("cases.parquet", "summary.json", "fleet-run.json")


def check_fleet_out(out: str) -> None:
    """The output rules every command follows: no symbolic link, and an existing path must
    be a folder holding only what an earlier fleet run wrote there (its outputs, its
    `parts/` folder, leftover temporary files of an interrupted write)."""
    import re
    import stat
    from pathlib import Path

    from .._io import OutputError, _check_common

    target, st = _check_common(out, "--out")
    if st is None:
        return
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"--out: '{target}' exists and is not a folder")
    from ..fleet._run import PARTS

    temp = re.compile(r"\..+\.dgrr-\d+-[0-9a-f]+\.(?:tmp|old)$")
    foreign = []
    for entry in sorted(Path(target).iterdir(), key=lambda p: p.name):
        ours = (entry.is_dir() if entry.name == PARTS else entry.is_file() and (
            entry.name in FLEET_OUTPUTS or bool(temp.match(entry.name))))
        if entry.is_symlink() or not ours:
            foreign.append(entry.name)
    if foreign:
        shown = ", ".join(repr(n) for n in foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise OutputError(f"--out: '{target}' is not a dgrr fleet output folder (it holds "
                          f"{shown}); give an empty or new folder")


def _plain(text: object, width: int = 48) -> str:
    """Case text for a terminal: control characters shown escaped, long text cut."""
    shown = printable(text)
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def write_cases(out: str, limit: int = 20) -> None:
    """The matched cases, most severe first: what each plan affects."""
    from ..fleet import by_severity, read_fleet_result

    rows = read_fleet_result(out).rows
    matched = by_severity(rows[rows["matched"]])
    if matched.empty:
        return
    w = sys.stdout.write
    w(f"\nMatched cases, most severe first ({min(limit, len(matched))} of {len(matched)}):\n")
    w(f"  {'case':<40} {'faults':<14} {'affected':>8} {'ans-rel':>7} {'replay':>6} "
      f"{'store':>5} {'irrev':>5}  answer\n")
    for _, r in matched.head(limit).iterrows():
        changed = r["answer_changed"]
        answer = ("affected" if r["answer_affected"] else "-") if changed is None or \
            changed != changed else ("changed" if changed else "unchanged")
        w(f"  {_plain(r['case_id'], 40):<40} {_plain(','.join(r['faults']), 14):<14} "
          f"{r['affected']:>8} {r['answer_relevant']:>7} {r['replay_size']:>6} "
          f"{r['store_operations']:>5} {r['irreversible']:>5}  {answer}\n")
    if len(matched) > limit:
        w(f"  … {len(matched) - limit} more in {out}/cases.parquet\n")


def write_summary(s: dict, out: str) -> None:
    """The counts a person reads first, then where the rows are."""
    w = sys.stdout.write
    w(f"Fleet {s['match']}: {s['cases']} cases ({s['resumed_cases']} from an earlier run), "
      f"{s['engine']} engine, {s['workers']} worker{'s' if s['workers'] != 1 else ''}, "
      f"{s['wall_seconds']:.1f} s\n")
    w(f"  matched (a record matches):          {s['matched_cases']}\n")
    w(f"  affected (the faults reached steps):  {s['affected_cases']}\n")
    w(f"  answer-relevant steps to replay:      {s['answer_relevant_cases']}\n")
    if s["answers_changed"] is not None:
        w(f"  answers changed by the repair:        {s['answers_changed']}\n")
    w(f"  cases with an error:                  {s['error_cases']}\n")
    t = s["totals"]
    w(f"Totals: {t['affected']} affected nodes, {t['replay_size']} steps to replay, "
      f"{t['store_operations']} store operations, {t['irreversible']} irreversible tool "
      f"calls, {t['llm_calls']} LLM calls, {t['tokens']} tokens\n")
    w(f"Wrote {out}/cases.parquet and {out}/summary.json\n")


def register_synth_fleet(kinds: argparse._SubParsersAction) -> None:
    """`dgrr synth fleet`: registered under `dgrr synth`."""
    p = kinds.add_parser(
        "fleet", help="write a synthetic fleet: many agents whose stores share records",
        description="Write N synthetic cases (20-80 steps, from the benchmark's domains) "
                    "whose stores share K knowledge-base records, P of them poisoned (the "
                    "cases' diagnosed faults), and DIR/manifest.json with the generator's "
                    "truth: which case holds which shared record and which cases read it. "
                    "The same arguments always give the same files.")
    p.add_argument("--agents", type=int, required=True, metavar="N", help="cases to write")
    p.add_argument("--shared-records", type=int, required=True, metavar="K",
                   help="knowledge-base records shared across the stores")
    p.add_argument("--poison", type=int, required=True, metavar="P",
                   help="how many of the K shared records are poisoned")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    p.add_argument("--min-steps", type=int, default=20, metavar="N",
                   help="fewest trajectory steps per case (default: 20)")
    p.add_argument("--max-steps", type=int, default=80, metavar="N",
                   help="most trajectory steps per case (default: 80)")
    p.add_argument("--coverage", type=float, default=0.5, metavar="F",
                   help="chance that an agent of a shared record's domain holds it "
                        "(default: 0.5)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the case files")
    p.set_defaults(func=run_synth_fleet)


def run_synth_fleet(args: argparse.Namespace) -> int:
    import time

    from .._progress import progress
    from ..fleet._synth_fleet import write_synth_fleet

    start = time.perf_counter()
    with progress("dgrr synth fleet", total=args.agents, unit="case") as bar:
        m = write_synth_fleet(args.out, args.agents, args.shared_records, args.poison,
                              args.seed, min_steps=args.min_steps, max_steps=args.max_steps,
                              coverage=args.coverage, on_case=bar.update)
    holding = sum(1 for c in m["cases"] if c["faults"])
    print(f"wrote {args.agents} cases and manifest.json to {args.out} in "
          f"{time.perf_counter() - start:.1f} s: {args.shared_records} shared records, "
          f"{args.poison} poisoned, held by {holding} case{'s' if holding != 1 else ''}")
    return 0
