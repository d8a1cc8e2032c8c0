"""`dgrr graph CASE --out graph.html`: the dependency graph as one standalone HTML file."""

from __future__ import annotations

import argparse

from .._errors import DgrrError
from .._text import printable_lines
from ..case._case import STEP_TYPES
from ..viz import COLOUR_BY, colour_summary
from . import add_case_argument, read_case

NODE_TYPES = ("turn", "record", *STEP_TYPES)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("graph", help="draw the dependency graph as a standalone HTML file",
                       description="Write the typed dependency graph of a case, coloured by the "
                                   "repair plan, as one HTML file that needs no internet.")
    add_case_argument(p)
    p.add_argument("--out", required=True, help="HTML file to write")
    p.add_argument("--affected-only", action="store_true", help="draw the affected subgraph only")
    p.add_argument("--hide-chain", action="store_true", help="leave out chain (order) edges")
    p.add_argument("--types", default=None,
                   help=f"comma-separated node types to keep ({', '.join(NODE_TYPES)})")
    p.add_argument("--layout", choices=("timeline", "force"), default="timeline",
                   help="timeline: left to right by seq (default); force: physics layout")
    p.add_argument("--max-nodes", type=int, default=2000,
                   help="above this, draw only the affected neighbourhood (default 2000)")
    p.add_argument("--colour-by", choices=COLOUR_BY, default="decision",
                   help="what a node's colour says: decision, the plan's decision on it "
                        "(default); analysis, its class in stage 2 of the method (fault, "
                        "answer-relevant, kept by independent support, affected, "
                        "unaffected), as the dashboard's Colour by switch")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dgrr_dashboard.graph_html import write_graph_html

    from ..plan._plan import plan_case

    types = None
    if args.types is not None:
        types = [t.strip() for t in args.types.split(",") if t.strip()]
        unknown = [t for t in types if t not in NODE_TYPES]
        if unknown:
            raise DgrrError(f"--types: unknown node type(s) {', '.join(map(repr, unknown))} "
                            f"(expected {', '.join(NODE_TYPES)})")
    if args.max_nodes < 1:
        raise DgrrError(f"--max-nodes: must be at least 1, got {args.max_nodes}")
    from .._io import check_not_input

    check_not_input(args.out, [args.case, getattr(args, "memory", None)])
    plan = plan_case(read_case(args))
    view = write_graph_html(plan, args.out, affected_only=args.affected_only,
                            hide_chain=args.hide_chain, node_types=types, layout=args.layout,
                            max_nodes=args.max_nodes, colour_by=args.colour_by)
    print(printable_lines(f"{args.out}: {len(view.nodes)} of {view.total_nodes} nodes, "
                          f"{len(view.edges)} edges" + (f" — {view.note}" if view.note else "")))
    print(printable_lines(colour_summary(plan, [n.id for n in view.nodes], args.colour_by)))
    return 0
