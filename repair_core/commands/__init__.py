"""Subcommands of `dgrr`, one module each (see `repair_core.cli`)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from .._case import Case
from .._edit import apply_edits, edits_from_report
from .._errors import MAX_SHOWN_PROBLEMS, DgrrError
from .._json import loads_strict
from .._load import load_case, load_case_parts, with_faults
from .._plan import RepairPlan


def add_case_argument(parser: argparse.ArgumentParser) -> None:
    """CASE, and --memory for a case given as a trajectory file plus a memory-store file."""
    parser.add_argument("case", help="path of the case JSON (or of the trajectory, with --memory)")
    parser.add_argument("--memory", metavar="FILE", default=None,
                        help="memory-store JSON (a list of records or {\"memory\": [...]}) "
                             "when CASE is a trajectory without its store")
    parser.add_argument("--faults", metavar="IDS", default=None,
                        help="comma-separated record ids to mark as the diagnosed faults, "
                             "instead of the case's own (an empty string marks none)")


def read_case(args: argparse.Namespace) -> Case:
    """The case the command's arguments name."""
    case = load_case_parts(args.case, args.memory) if args.memory else load_case(args.case)
    if args.faults is not None:
        case = with_faults(case, [f.strip() for f in args.faults.split(",") if f.strip()])
    return case


def read_json(path: str, flag: str) -> object:
    """The JSON document an option names; a clear error naming the option otherwise
    (strictly parsed: duplicate keys, NaN, lone surrogates, too deep nesting and huge
    integers are refused with their path)."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise DgrrError(f"{flag}: no such file: '{path}'") from None
    except IsADirectoryError:
        raise DgrrError(f"{flag}: '{path}' is a folder, not a JSON file") from None
    except OSError as exc:
        raise DgrrError(f"{flag}: cannot read '{path}': {exc.strerror}") from None
    data, problems = loads_strict(raw)
    syntax = re.fullmatch(r"line (\d+), column (\d+): invalid JSON: (.*)", problems[0]) \
        if len(problems) == 1 else None
    if syntax:
        raise DgrrError(f"{flag}: '{path}' is not JSON (line {syntax[1]} column {syntax[2]}: "
                        f"{syntax[3]})")
    if problems:
        shown = problems[:MAX_SHOWN_PROBLEMS]
        more = len(problems) - len(shown)
        raise DgrrError(f"{flag}: '{path}' is not usable JSON:\n"
                        + "\n".join(f"  - {p}" for p in shown)
                        + (f"\n  ... and {more} more problems" if more else ""))
    return data


def edited_plan(plan: RepairPlan, path: str, *, force: bool, comment: str | None) -> RepairPlan:
    """`plan` with the edits of the `--plan` file (an edited plan report or {"edits": ...})."""
    edits = edits_from_report(plan, read_json(path, "--plan"))
    return apply_edits(plan, edits, force=force, comment=comment) if edits else plan
