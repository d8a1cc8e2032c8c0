"""`dgrr calls CASE`: the original run's model calls as a trace viewer shows them, from
what the importer kept of each step's span (`dgrr import`): when each started and how
long it took, its model, tokens and cost in US dollars by litellm's price table, and the
total; `--messages` adds each call's prompt and completion."""

from __future__ import annotations

import argparse
import json

from .._text import printable_lines
from . import add_case_argument, read_case


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calls", help="list the original run's model calls, tokens and cost",
                       description="List the model calls of an imported case's original "
                                   "run: start, duration, model, tokens and cost in US "
                                   "dollars per call and in total, priced with litellm's "
                                   "own price table (installed with litellm, read offline; "
                                   "a model it does not list is 'price unknown').")
    add_case_argument(p)
    p.add_argument("--json", action="store_true",
                   help="print the calls, the waterfall (every step's start and end, in "
                        "seconds after the run's first span) and the totals as JSON")
    p.add_argument("--messages", action="store_true",
                   help="after each call, print the prompt and the completion its span "
                        "recorded, message by message")
    p.set_defaults(func=run)


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _tokens(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def run(args: argparse.Namespace) -> int:
    from ..viz import money, original_run

    case = read_case(args)
    found = original_run(case)
    if args.json:
        print(json.dumps({"case_id": case.case_id, **found.model_dump(mode="json"),
                          "seconds": found.seconds}, indent=2))
        return 0
    if not found.calls:
        print(printable_lines(f"case {case.case_id!r}: no model call recorded (a case made "
                              f"by `dgrr import` from a trace keeps each model span's model, "
                              f"messages and tokens)"))
        return 0
    lines = [f"case {case.case_id!r}: the original run's model calls",
             f"{'seq':>5}  {'step':<20} {'type':<11} {'model':<24} {'start s':>8} "
             f"{'took s':>7} {'in':>8} {'out':>7}  cost"]
    for c in found.calls:
        cost = money(c.cost) if c.cost is not None else c.price
        if c.recorded_cost is not None:
            cost += f" (instrumentor: {c.recorded_cost:g})"
        lines.append(f"{c.seq:>5}  {c.step:<20} {c.type:<11} {c.model or '—':<24} "
                     f"{_seconds(c.start_s):>8} {_seconds(c.seconds):>7} "
                     f"{_tokens(c.input_tokens):>8} {_tokens(c.output_tokens):>7}  {cost}")
        if args.messages:
            for side, messages in (("prompt", c.sent), ("completion", c.answered)):
                lines.append(f"       {side}:" + ("" if messages else " (not recorded)"))
                lines += [f"         [{m.role or '?'}] {m.content}" for m in messages]
    took = found.seconds
    lines.append("total: " + found.describe_total()
                 + (f" · {took:.3f} s wall clock" if took is not None else ""))
    print(printable_lines("\n".join(lines)))
    return 0
