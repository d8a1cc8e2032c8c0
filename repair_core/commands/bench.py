"""`dgrr bench generate|run`: build the benchmark suites and run repair methods on them."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .._errors import DgrrError
from .._io import check_output_dir
from . import checkout_root, positive_int

if TYPE_CHECKING:
    from ..bench._runner import AnswerJudgeSpec


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="generate benchmark suites and run repair methods",
                       description="The paper's benchmark: a controlled suite, an adapted "
                                   "LongMemEval-style suite, ten methods and the metrics.")
    bsub = p.add_subparsers(dest="bench_command", metavar="ACTION")

    g = bsub.add_parser("generate", help="generate a suite deterministically from a seed")
    g.add_argument("--suite", choices=("controlled", "adapted", "agentdojo"), required=True,
                   help="which suite: the 150-case controlled one, the 50-case adapted one, "
                        "or multi-session cases built from AgentDojo's suites (needs the "
                        "agentdojo extra)")
    g.add_argument("--seed", type=int, default=42,
                   help="seed of every random choice; the same seed gives identical files")
    g.add_argument("--out", metavar="DIR",
                   help="folder to write (default: sample_traces/<suite> of the dgrr checkout, "
                        "wherever you run the command from; required outside a checkout)")
    g.add_argument("--model", default="dgrr/reference",
                   help="litellm model string of the agent whose failed runs are recorded "
                        "(default dgrr/reference; built-in: dgrr/reference, "
                        "dgrr/reference-b, with an optional /noise=P)")
    g.add_argument("--noise", type=float, default=None, metavar="P",
                   help="slip rate of a built-in dgrr/ model (same as the /noise=P suffix)")
    g.add_argument("--count", type=positive_int, default=None, metavar="K",
                   help="generate only the first K cases of the suite")
    g.add_argument("--steps-per-case", type=float, default=None, metavar="N",
                   help="controlled suite: pad every case with quiet turns (questions about "
                        "records the request does not need), in proportion to its length, "
                        "until the suite has about N trajectory steps per case: the same "
                        "faults over more steps (default: no padding)")
    g.add_argument("--quiet-turns-at", choices=("request", "start"), default="request",
                   help="with --steps-per-case: put the quiet turns just before the final "
                        "request, after the faults' first exposure (request), or at the "
                        "start of the session, before it (start)")
    g.add_argument("--api-base", default=None,
                   help="base URL of an OpenAI-compatible server for --model")
    g.add_argument("--cache", default=None, metavar="DIR",
                   help="litellm disk cache folder (default: none, so a suite folder stays "
                        "clean)")
    g.add_argument("--no-cache", action="store_true", help="call the model every time")
    g.add_argument("--longmemeval", metavar="FILE",
                   help="adapted suite: build it from this LongMemEval-format file instead "
                        "of the built-in chat histories")
    g.set_defaults(func=run_generate)

    r = bsub.add_parser("run", help="run methods on a suite; resumable")
    r.add_argument("--suite", default="controlled",
                   help="controlled, adapted or agentdojo (the checkout's "
                        "sample_traces/<suite>, wherever you run the command from), or a "
                        "folder of case files; AgentDojo cases run with the AgentDojo agent "
                        "(default controlled)")
    r.add_argument("--methods", default="all",
                   help="all, baselines, ablations, or a comma-separated list of names")
    r.add_argument("--model", default="dgrr/reference",
                   help="litellm model for the replay and the model-driven baselines "
                        "(default: the offline reference model)")
    r.add_argument("--api-base", default=None,
                   help="base URL of an OpenAI-compatible server for --model")
    r.add_argument("--noise", type=float, default=None, metavar="P",
                   help="slip rate of a built-in dgrr/ model (same as the /noise=P suffix)")
    r.add_argument("--cache", default=None, metavar="DIR",
                   help="litellm disk cache folder: a re-run with the same prompts makes no "
                        "model requests (default: <out>/.litellm-cache)")
    r.add_argument("--no-cache", action="store_true", help="call the model every time")
    r.add_argument("--answer-judge", default=None, metavar="MODEL",
                   help="a litellm model that decides recovery where the lexical answer "
                        "reader is unsure (a negation or warning it has no rule for); each "
                        "result names the judge that decided (default: the reader alone)")
    r.add_argument("--answer-judge-api-base", default=None, metavar="URL",
                   help="base URL of an OpenAI-compatible server for --answer-judge")
    r.add_argument("--answer-judge-all", action="store_true",
                   help="ask --answer-judge about every answer (a translated or reworded "
                        "value is no word the reader can match), not only the unsure ones")
    r.add_argument("--workers", type=int, default=1,
                   help="cases repaired in parallel processes")
    r.add_argument("--out", required=True, help="results folder (re-use it to resume)")
    r.add_argument("--no-progress", action="store_true",
                   help="no progress bar (also DGRR_NO_PROGRESS=1; the bar is only drawn when "
                        "stderr is a terminal)")
    r.set_defaults(func=run_run)

    t = bsub.add_parser("table", help="rewrite the summary and tables of a results folder")
    t.add_argument("out", help="results folder of an earlier run")
    t.set_defaults(func=run_table)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def _model(args: argparse.Namespace) -> str:
    """--model with --noise folded in, checked before any work starts."""
    from ..bench._cache import with_noise_suffix
    from ..model._builtin import resolve_builtin

    model = with_noise_suffix(args.model, args.noise)
    try:
        resolve_builtin(model)
    except DgrrError as exc:
        raise DgrrError(f"--model: {exc}") from None
    return model


def _cache(args: argparse.Namespace, out: Path | None) -> Path | None:
    """The disk cache folder: --cache, else `<out>/.litellm-cache` (for a run), else none."""
    from ..bench._cache import use_disk_cache

    folder = (None if args.no_cache else Path(args.cache) if args.cache
              else out / ".litellm-cache" if out is not None else None)
    use_disk_cache(folder)
    return folder


def _uncache(args: argparse.Namespace) -> None:
    """Turn the cache off again: it is a process setting, and `main` may be called
    again in the same process (tests, the dashboard)."""
    if args.no_cache or args.cache or getattr(args, "bench_command", "") == "run":
        from ..bench._cache import use_disk_cache

        use_disk_cache(None)


def run_generate(args: argparse.Namespace) -> int:
    from ..bench import generate_suite
    from ..bench._suites import check_generate_args

    # refused before the output folder is made, so a bad option leaves nothing behind
    check_generate_args(args.suite, count=args.count, steps_per_case=args.steps_per_case,
                        quiet_at=args.quiet_turns_at)
    model = _model(args)
    if args.out:
        out = check_output_dir(args.out)
    else:
        root = checkout_root()
        if root is None:
            raise DgrrError("--out: required here (dgrr is not run from a checkout with "
                            "sample_traces/)")
        out = check_output_dir(root / "sample_traces" / args.suite)
    if args.api_base:  # the generator's agents call the model without an api_base of their own
        from ..model import import_litellm

        litellm = import_litellm()
        saved = litellm.api_base, litellm.api_key
        litellm.api_base = args.api_base
        litellm.api_key = litellm.api_key or "dgrr-local"
    if args.suite == "agentdojo":
        from ..bench._agentdojo import generate_agentdojo

        paths = generate_agentdojo(out)
        print(f"wrote {len(paths)} cases to {out} (manifest: {out / 'manifest.json'})")
        return 0
    try:
        _cache(args, None)
        manifest = generate_suite(args.suite, out, seed=args.seed,
                                  longmemeval=args.longmemeval, model=model, count=args.count,
                                  steps_per_case=args.steps_per_case,
                                  quiet_at=args.quiet_turns_at)
    finally:
        _uncache(args)
        if args.api_base:
            litellm.api_base, litellm.api_key = saved
    print(f"wrote {manifest['cases']} cases to {out} (manifest: {out / 'manifest.json'})")
    return 0


def _answer_judge(args: argparse.Namespace, out: Path) -> AnswerJudgeSpec | None:
    """The answer judge the flags ask for, its answers kept under the results folder."""
    if args.answer_judge is None:
        for flag in ("answer_judge_api_base", "answer_judge_all"):
            if getattr(args, flag) not in (None, False):
                raise DgrrError(f"--{flag.replace('_', '-')}: needs --answer-judge MODEL")
        return None
    if not args.answer_judge.strip():
        raise DgrrError(f"--answer-judge: expected a litellm model string, got "
                        f"{args.answer_judge!r}")
    from ..bench._runner import AnswerJudgeSpec

    return AnswerJudgeSpec(args.answer_judge, args.answer_judge_api_base,
                           args.answer_judge_all, str(out / ".answer-judge"))


def run_run(args: argparse.Namespace) -> int:
    from ..bench import method_names, run_bench, suite_case_paths, write_outputs
    from ..bench._runner import is_agentdojo_suite

    if args.workers < 1:
        raise DgrrError(f"--workers: must be at least 1, got {args.workers}")
    methods = method_names(args.methods)
    model = _model(args)
    root = checkout_root() if args.suite in ("controlled", "adapted", "agentdojo") else None
    paths = suite_case_paths(args.suite, root)
    if args.model == "dgrr/reference" and is_agentdojo_suite(paths):
        model = "dgrr/agentdojo-vulnerable"  # the scripted tool agent the cases were made by
    out = check_output_dir(args.out)
    start = time.perf_counter()
    try:
        results = run_bench(paths, methods, out, model=model, api_base=args.api_base,
                            workers=args.workers, suite=args.suite,
                            progress=not args.no_progress and sys.stderr.isatty(),
                            cache_dir=_cache(args, out), answer_judge=_answer_judge(args, out))
    finally:
        _uncache(args)
    suite = args.suite if args.suite in ("controlled", "adapted", "agentdojo") else "custom"
    write_outputs(results, out, suite, {"model": model})
    crashed = [r for r in results if r.error]
    print(f"{len(results)} results ({len(paths)} cases x {len(methods)} methods) in "
          f"{time.perf_counter() - start:.1f} s; tables in {out / 'table.md'}"
          + (f"; {len(crashed)} crashed, each counted as a failure (re-run to retry)"
             if crashed else ""))
    sys.stdout.write((out / "table.md").read_text().split("\n#### ")[0])
    for r in crashed:  # named, with the error's first line, as plain text
        error = (r.error or "").splitlines()[0][:200] if r.error else ""
        print(f"crashed: {r.method!r} on {r.case_id!r}: {error!r}")
    return 1 if crashed else 0


def run_table(args: argparse.Namespace) -> int:
    import json

    from ..bench import load_results, write_outputs

    out = Path(args.out)
    if not out.is_dir() or not (out / "run.json").is_file():
        raise DgrrError(f"{out}: not a results folder (no run.json)")
    meta = json.loads((out / "run.json").read_text())
    results = load_results(out)
    suite = (meta.get("suite") if meta.get("suite") in ("controlled", "adapted", "agentdojo")
             else "custom")
    write_outputs(results, out, suite, meta)
    sys.stdout.write((out / "table.md").read_text())
    return 0
