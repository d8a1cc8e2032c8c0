"""`dgrr bench generate|run`: build the benchmark suites and run repair methods on them."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .._errors import DgrrError
from .._io import check_output_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="generate benchmark suites and run repair methods",
                       description="The paper's benchmark: a controlled suite, an adapted "
                                   "LongMemEval-style suite, ten methods and the metrics.")
    bsub = p.add_subparsers(dest="bench_command", metavar="ACTION")

    g = bsub.add_parser("generate", help="generate a suite deterministically from a seed")
    g.add_argument("--suite", choices=("controlled", "adapted"), required=True,
                   help="which suite: the 150-case controlled one or the 50-case adapted one")
    g.add_argument("--seed", type=int, default=42,
                   help="seed of every random choice; the same seed gives identical files")
    g.add_argument("--out", help="folder to write (default sample_traces/<suite>)")
    g.add_argument("--longmemeval", metavar="FILE",
                   help="adapted suite: build it from this LongMemEval-format file instead "
                        "of the built-in chat histories")
    g.set_defaults(func=run_generate)

    r = bsub.add_parser("run", help="run methods on a suite; resumable")
    r.add_argument("--suite", default="controlled",
                   help="controlled, adapted, or a folder of case files (default controlled)")
    r.add_argument("--methods", default="all",
                   help="all, baselines, ablations, or a comma-separated list of names")
    r.add_argument("--model", default="dgrr/reference",
                   help="litellm model for the replay and the model-driven baselines "
                        "(default: the offline reference model)")
    r.add_argument("--api-base", default=None,
                   help="base URL of an OpenAI-compatible server for --model")
    r.add_argument("--workers", type=int, default=1,
                   help="cases repaired in parallel processes")
    r.add_argument("--out", required=True, help="results folder (re-use it to resume)")
    r.add_argument("--no-progress", action="store_true",
                   help="no progress bar (also DGRR_NO_PROGRESS=1)")
    r.set_defaults(func=run_run)

    t = bsub.add_parser("table", help="rewrite the summary and tables of a results folder")
    t.add_argument("out", help="results folder of an earlier run")
    t.set_defaults(func=run_table)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def run_generate(args: argparse.Namespace) -> int:
    from ..bench import generate_suite

    out = check_output_dir(args.out or f"sample_traces/{args.suite}")
    manifest = generate_suite(args.suite, out, seed=args.seed, longmemeval=args.longmemeval)
    print(f"wrote {manifest['cases']} cases to {out} (manifest: {out / 'manifest.json'})")
    return 0


def run_run(args: argparse.Namespace) -> int:
    from ..bench import method_names, run_bench, suite_case_paths, write_outputs

    if args.workers < 1:
        raise DgrrError(f"--workers: must be at least 1, got {args.workers}")
    methods = method_names(args.methods)
    paths = suite_case_paths(args.suite)
    out = check_output_dir(args.out)
    start = time.perf_counter()
    results = run_bench(paths, methods, out, model=args.model, api_base=args.api_base,
                        workers=args.workers, suite=args.suite, progress=not args.no_progress)
    suite = args.suite if args.suite in ("controlled", "adapted") else "custom"
    write_outputs(results, out, suite, {"model": args.model})
    errors = sum(1 for r in results if r.error)
    print(f"{len(results)} results ({len(paths)} cases x {len(methods)} methods) in "
          f"{time.perf_counter() - start:.1f} s; tables in {out / 'table.md'}"
          + (f"; {errors} crashed (re-run to retry)" if errors else ""))
    sys.stdout.write((out / "table.md").read_text().split("\n#### ")[0])
    return 1 if errors else 0


def run_table(args: argparse.Namespace) -> int:
    import json

    from ..bench import load_results, write_outputs

    out = Path(args.out)
    if not out.is_dir() or not (out / "run.json").is_file():
        raise DgrrError(f"{out}: not a results folder (no run.json)")
    meta = json.loads((out / "run.json").read_text())
    results = load_results(out)
    suite = meta.get("suite") if meta.get("suite") in ("controlled", "adapted") else "custom"
    write_outputs(results, out, suite, meta)
    sys.stdout.write((out / "table.md").read_text())
    return 0
