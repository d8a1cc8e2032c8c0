"""Subcommands of `dgrr`, one module each (see `repair_core.cli`)."""

from __future__ import annotations

import argparse

from .._case import Case
from .._load import load_case, load_case_parts


def add_case_argument(parser: argparse.ArgumentParser) -> None:
    """CASE, and --memory for a case given as a trajectory file plus a memory-store file."""
    parser.add_argument("case", help="path of the case JSON (or of the trajectory, with --memory)")
    parser.add_argument("--memory", metavar="FILE", default=None,
                        help="memory-store JSON (a list of records or {\"memory\": [...]}) "
                             "when CASE is a trajectory without its store")


def read_case(args: argparse.Namespace) -> Case:
    """The case the command's arguments name."""
    if args.memory:
        return load_case_parts(args.case, args.memory)
    return load_case(args.case)
