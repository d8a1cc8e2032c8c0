"""`dgrr serve-model --port P`: the reference model over OpenAI-compatible HTTP."""

from __future__ import annotations

import argparse
import sys

from .._errors import DgrrError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve-model", help="serve the reference model at 127.0.0.1:P/v1/chat/completions",
        description="An OpenAI-compatible server for the offline reference model. Use it with "
                    "--model openai/dgrr-reference --api-base http://127.0.0.1:P/v1. It "
                    "answers only dgrr's own prompts (replay, judge, synthesis), not a "
                    "framework's agent loop; for scripted tool calls in a framework's own "
                    "loop see scripts/story_model.py.")
    p.add_argument("--port", type=int, default=8765, help="port (0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; a loopback address unless "
                        "--allow-remote)")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow a non-loopback --host (the server has no authentication)")
    p.add_argument("--max-body", type=int, default=1_000_000, metavar="BYTES",
                   help="largest request body accepted (default 1000000; larger gets 413)")
    p.add_argument("--read-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="time a request may take to arrive before it gets 408 (default 10)")
    p.add_argument("--verbose", action="store_true", help="log every request on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..model._server import SERVED_MODEL, make_server

    if not 0 <= args.port <= 65535:
        raise DgrrError(f"--port {args.port}: must be between 0 and 65535")
    try:
        server = make_server(args.port, args.host, verbose=args.verbose,
                             allow_remote=args.allow_remote, max_body=args.max_body,
                             read_timeout=args.read_timeout)
    except OSError as exc:
        raise DgrrError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    host, port = str(server.server_address[0]), int(server.server_address[1])
    print(f"serving {SERVED_MODEL} at http://{host}:{port}/v1 "
          f"(use --model openai/{SERVED_MODEL} --api-base http://{host}:{port}/v1)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
