"""Subcommands of `dgrr`, one module each (see `repair_core.cli`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .._case import Case
from .._edit import apply_edits, edits_from_report
from .._errors import DgrrError
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
    """The JSON document an option names; a clear error naming the option otherwise."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DgrrError(f"{flag}: no such file: '{path}'") from None
    except OSError as exc:
        raise DgrrError(f"{flag}: cannot read '{path}': {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise DgrrError(f"{flag}: '{path}' is not JSON (line {exc.lineno} column "
                        f"{exc.colno}: {exc.msg})") from None


def edited_plan(plan: RepairPlan, path: str, *, force: bool, comment: str | None) -> RepairPlan:
    """`plan` with the edits of the `--plan` file (an edited plan report or {"edits": ...})."""
    edits = edits_from_report(plan, read_json(path, "--plan"))
    return apply_edits(plan, edits, force=force, comment=comment) if edits else plan
