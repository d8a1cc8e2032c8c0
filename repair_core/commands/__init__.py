"""Subcommands of `dgrr`, one module each (see `repair_core.cli`)."""

from __future__ import annotations

import argparse

from .._case import Case
from .._load import load_case, load_case_parts, with_faults


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
