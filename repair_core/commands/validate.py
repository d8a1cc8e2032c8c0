"""`dgrr validate CASE`: check a case and say what is wrong with it."""

from __future__ import annotations

import argparse

from . import add_case_argument, plural, read_case


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check a dgrr.case/v1 file",
                       description="Check a case file; list every problem with its field path.")
    add_case_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.memory is None and args.faults is None:
        # checked item by item, never built whole: memory stays a few times the file size
        from .._stream import validate_file

        s = validate_file(args.case)
        print(f"{args.case}: valid {s['format']} case '{s['case_id']}' "
              f"({plural(s['turns'], 'turn')}, {plural(s['steps'], 'step')}, "
              f"{plural(s['records'], 'record')}, {plural(s['faults'], 'fault')})")
        return 0
    case = read_case(args)
    print(f"{args.case}: valid {case.format} case '{case.case_id}' "
          f"({plural(len(case.session), 'turn')}, {plural(len(case.trajectory), 'step')}, "
          f"{plural(len(case.memory), 'record')}, {plural(len(case.faults), 'fault')})")
    return 0
