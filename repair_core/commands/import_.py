"""`dgrr import TRACE... --out CASE.json`: a case from what a real agent stack recorded."""

from __future__ import annotations

import argparse
import sys

from .._io import atomic_write_json
from .._text import printable, printable_lines
from . import plural


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import", help="make a dgrr.case/v1 from OTLP traces (OTel GenAI, OpenInference) "
                       "and a Mem0 history",
        description="Read OTLP JSON traces (JSON lines with hex ids or one document with "
                    "base64 ids; OTel GenAI or OpenInference spans, with dgrr.* provenance "
                    "where the agent recorded it) and optionally a Mem0 history database, "
                    "and write a valid dgrr.case/v1. Step ids are the spans' hex ids, record "
                    "ids the source's ids; dependencies a span did not record are inferred "
                    "and marked inferred. See docs/import.md.")
    p.add_argument("traces", nargs="*", metavar="TRACE",
                   help="OTLP JSON file(s) (OTel GenAI, OpenInference, OpenLLMetry spans)")
    p.add_argument("--logs", metavar="FILE", action="append", default=[],
                   help="OTLP JSON logs of the same run (repeatable): log records with an "
                        "event.name and a span id become events of that span, for frameworks "
                        "that log message content instead of tracing it (Semantic Kernel)")
    p.add_argument("--store", metavar="STORE", default=None,
                   help="Mem0 history database (SQLite) to take the memory store from, "
                        "with status and lineage")
    p.add_argument("--faults", metavar="IDS", default="",
                   help="comma-separated ids diagnosed as faulty: record ids (the source's ids), or the span id of a tool observation (a tool result or retrieved document) or of a user turn")
    p.add_argument("--user", metavar="U", default=None,
                   help="user id of the session and of records that name none "
                        "(default: the spans' user.id or LangChain metadata user_id, else "
                        "'unknown')")
    p.add_argument("--trace", metavar="TRACE_ID", default=None,
                   help="hex id of the trace to import (default: the one with the most "
                        "GenAI spans) with the other traces of its session (session.id, "
                        "gen_ai.conversation.id, thread id); spans of other traces are "
                        "skipped and counted")
    p.add_argument("--memory-tool", metavar="NAME=KIND", action="append", default=[],
                   help="declare a tool that reads or writes the agent's memory: KIND is "
                        "read (its JSON result's items become records), write (its argument's "
                        "text becomes a memory write producing the record its output names) "
                        "or none (not a memory tool); repeatable. Default names: recall_*, "
                        "load_memory, search_memory, *save*memory*, remember, add_memory, "
                        "manage_memory and others (docs/import.md)")
    p.add_argument("--memory-in-prompt", metavar="HEADER", action="append", default=[],
                   help="a header line under which a model call's system or developer "
                        "message lists memories, one a line (repeatable): each line becomes "
                        "a record read just before that call. AutoGen's ListMemory and "
                        "Agno's memory blocks are known without it")
    p.add_argument("--config", metavar="FILE", default=None,
                   help="TOML (or JSON) file with a [memory_tools] table of NAME = \"read\" "
                        "| \"write\" | \"none\" (--memory-tool wins)")
    p.add_argument("--case-id", metavar="ID", default=None,
                   help="case id to write (default: trace-<trace id>)")
    p.add_argument("--out", metavar="CASE.json", required=True,
                   help="where to write the case (written atomically, only when valid)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .._io import check_not_input
    from ..importers import import_trace, parse_memory_tools, read_memory_tools_file

    check_not_input(args.out, [*args.traces, *args.logs, args.store])  # before reading
    faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    memory_tools = read_memory_tools_file(args.config) if args.config else {}
    memory_tools.update(parse_memory_tools(args.memory_tool))
    if args.store and not (args.traces or args.logs or args.trace):
        # a Mem0 history alone: streamed into the file, never a whole case in memory
        from ..importers._mem0_case import history_case_id, import_mem0_history_file

        case_id = args.case_id if args.case_id is not None else history_case_id(args.store)
        summary = import_mem0_history_file(args.store, args.out, faults=faults,
                                           user=args.user, case_id=case_id)
        print(printable_lines(summary.describe()))
        print(f"wrote {printable(args.out)}: case '{printable(case_id)}' "
              f"({plural(len(faults), 'fault')})")
        return 0
    imported = import_trace(args.traces, store=args.store, faults=faults, user=args.user,
                            case_id=args.case_id, trace_id=args.trace,
                            memory_tools=memory_tools, logs=args.logs,
                            memory_in_prompt=args.memory_in_prompt)
    atomic_write_json(args.out, imported.case.model_dump(mode="json", exclude_none=True))
    print(printable_lines(imported.summary.describe()))
    case = imported.case
    print(f"wrote {printable(args.out)}: case '{printable(case.case_id)}' "
          f"({plural(len(case.faults), 'fault')})",
          file=sys.stdout)
    return 0
