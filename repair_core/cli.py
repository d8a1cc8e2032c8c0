"""The `dgrr` command line.

Each subcommand lives in its own module under `repair_core/commands/` and exposes
`register(subparsers)`; the parser sets `func(args) -> int`. User errors (`DgrrError`)
print their message on stderr and exit 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from ._errors import DgrrError
from ._text import printable, printable_lines

__all__ = ["main", "build_parser"]

# Order is the order of `dgrr --help`.
COMMAND_MODULES = (
    "validate",
    "plan",
    "graph",
    "calls",
    "approve",
    "keys",
    "synth",
    "repair",
    "verify",
    "compare",
    "serve_model",
    "bench",
    "fleet",
    "import_",
    "apply",
    "fork_thread",
    "queue",
)

# The module that registers each command (tests/test_cli_startup.py checks this against the
# modules): when the first argument names a command, `main` imports only its module, so
# `dgrr validate` does not pay at start-up for what `dgrr repair` or `dgrr queue` import.
COMMAND_MODULE = {
    "validate": "validate", "plan": "plan", "graph": "graph", "calls": "calls",
    "approve": "approve",
    "history": "approve", "keys": "keys", "synth": "synth", "repair": "repair",
    "verify": "verify", "compare": "compare",
    "serve-model": "serve_model", "bench": "bench", "fleet": "fleet", "import": "import_",
    "apply": "apply", "fork-thread": "fork_thread", "queue": "queue", "worker": "queue",
}

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of `command` (and those its module registers)
    when it names one."""
    parser = argparse.ArgumentParser(
        prog="dgrr",
        description="Dependency-guided rollback repair for memory-augmented LLM agents.",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"dgrr {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = (COMMAND_MODULE[command],) if command in COMMAND_MODULE else COMMAND_MODULES
    for name in names:
        module = importlib.import_module(f"repair_core.commands.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if "numpy" not in sys.modules:
        # dgrr does no linear algebra: the OpenBLAS under numpy would start a thread per
        # CPU when numpy is imported, 0.05 CPU s of a one-second `dgrr plan`
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_INVALID
    try:
        return int(args.func(args))
    except DgrrError as exc:
        # messages quote ids and texts of the input: shown escaped, never raw
        print(f"dgrr {args.command}: {printable_lines(exc)}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # a file-system failure no check above foresaw: one line
        where = f" '{exc.filename}'" if exc.filename else ""
        print(f"dgrr {args.command}: {printable_lines(exc.strerror or exc)}"
              f"{printable(where)}", file=sys.stderr)
        return EXIT_INVALID
    except RecursionError:  # an input nested deeper than a check before it caught
        print(f"dgrr {args.command}: input nested too deeply to process", file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        print(f"dgrr {args.command}: interrupted", file=sys.stderr)
        return 130


def run() -> None:
    """The `dgrr` command: :func:`main`, then the process's exit. After a model call was
    abandoned at its deadline the process ends at once, its output flushed: the call may
    still hold a silent server's connection, and the interpreter's exit (litellm's exit
    handlers among it) waited on it after the whole output was printed, past 150 s."""
    status = main()
    # only a process that loaded the model layer can have abandoned a call; importing it
    # to ask would cost every other command the model layer's start-up
    bounded = sys.modules.get("repair_core.model._bounded")
    if bounded is not None and bounded.abandoned_calls():
        for stream in (sys.stdout, sys.stderr):
            # its reader gone: nothing more can reach it, as `main` treats a closed pipe
            with contextlib.suppress(BrokenPipeError):
                stream.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
