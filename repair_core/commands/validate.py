"""`dgrr validate CASE`: check a case and say what is wrong with it."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from .._progress import progress
from .._text import printable
from ..plan._planner import PLANNERS, file_size, wants_columnar
from . import add_case_argument, plural, read_case


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check a dgrr.case/v1 file",
                       description="Check a case file; list every problem with its field path.")
    add_case_argument(p)
    p.add_argument("--planner", choices=PLANNERS, default="auto",
                   help="auto (default): check case files of 2 MB and more in one typed parse "
                        "and a linear cross-reference pass (the columnar reader of `dgrr plan`), "
                        "smaller ones item by item; any problem is worded by the item-by-item "
                        "checks either way")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.memory is None and args.faults is None and wants_columnar(args.planner,
                                                                      file_size(args.case)):
        # one typed parse and a linear cross-reference pass; anything it does not accept
        # goes to the exact checks below, which word every problem
        from ..plan._planner import columnar_summary

        with progress("dgrr validate", total=1) as bar:
            bar.stage("check")
            found = columnar_summary(args.case)
        if found is not None:
            _print_valid(args.case, found)
            return 0
    if args.memory is None and args.faults is None:
        # checked item by item, never built whole: memory stays a few times the file size
        from ..case._stream import validate_file

        with progress("dgrr validate", total=1) as bar:
            bar.stage("check")
            summary = validate_file(args.case)
        _print_valid(args.case, summary)
        return 0
    case = read_case(args)
    print(f"{printable(args.case)}: valid {case.format} case '{printable(case.case_id)}' "
          f"({plural(len(case.session), 'turn')}, {plural(len(case.trajectory), 'step')}, "
          f"{plural(len(case.memory), 'record')}, {plural(len(case.faults), 'fault')})")
    return 0


def _print_valid(path: str, s: Mapping[str, Any]) -> None:
    print(f"{printable(path)}: valid {s['format']} case '{printable(s['case_id'])}' "
          f"({plural(s['turns'], 'turn')}, {plural(s['steps'], 'step')}, "
          f"{plural(s['records'], 'record')}, {plural(s['faults'], 'fault')})")
