"""`dgrr synth`: write a synthetic case of a given size, for scale tests and benchmarks."""

from __future__ import annotations

import argparse
import time

from .._errors import DgrrError
from .._progress import progress
from .._synth import check_synth_args, write_synth_case


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "synth", help="write a synthetic case of a given size",
        description="Write a valid synthetic dgrr.case/v1 case: user turns, each an episode "
                    "of memory reads, claims, plans, tool calls, an answer and memory writes, "
                    "with periodic consolidations and faults of several kinds. The same "
                    "arguments always give the same file.")
    p.add_argument("--steps", type=int, default=None, metavar="N",
                   help="trajectory steps (at least 1; required for a single case)")
    p.add_argument("--memories", type=int, default=None, metavar="M",
                   help="memory records (default: steps/5, at least 1)")
    p.add_argument("--faults", type=int, default=3, metavar="K",
                   help="diagnosed faulty records (default: 3; at most --memories)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    p.add_argument("--out", metavar="FILE", default=None, help="where to write the case")
    p.set_defaults(func=run)
    kinds = p.add_subparsers(dest="synth_kind", metavar="KIND")
    from .fleet import register_synth_fleet

    register_synth_fleet(kinds)


def run(args: argparse.Namespace) -> int:
    if args.steps is None or args.out is None:
        missing = " and ".join(f for f, v in (("--steps", args.steps), ("--out", args.out))
                               if v is None)
        raise DgrrError(f"{missing}: required to write a single synthetic case "
                        "(or use `dgrr synth fleet` for a fleet)")
    memories = args.memories if args.memories is not None else max(1, args.steps // 5)
    check_synth_args(args.steps, memories, args.faults)
    start = time.perf_counter()
    with progress("dgrr synth", total=args.steps, unit="step") as bar:
        stats = write_synth_case(args.out, args.steps, memories, args.faults, args.seed,
                                 on_steps=bar.update)
    seconds = time.perf_counter() - start
    counts = ", ".join(_count(n, what) for n, what in (
        (stats.steps, "step"), (stats.records, "record"), (stats.faults, "fault"),
        (stats.turns, "turn"), (stats.deps, "dependency")))
    print(f"wrote {args.out}: {counts} (seed {args.seed}) in {seconds:.2f} s")
    return 0


def _count(n: int, what: str) -> str:
    if n == 1:
        return f"1 {what}"
    return f"{n} {what[:-1]}ies" if what.endswith("y") else f"{n} {what}s"
