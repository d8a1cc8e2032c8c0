"""The judge flags the commands that check a result by content share: `--judge MODEL`,
`--judge-api-base URL`, `--judge-budget N`, `--judge-cache DIR`, `--judge-timeout S`,
`--judge-untrusted`. The judge they make prints its estimate to stderr before its first
call."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .._errors import DgrrError
from .._text import printable
from . import DEFAULT_TIMEOUT, positive_seconds

if TYPE_CHECKING:
    from ..judge import JudgeEstimate, ModelJudge

DEFAULT_BUDGET = 300  # the judge's own default (kept here so --help needs no import)


def _calls(text: str) -> int:
    """argparse type: a whole number of calls, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 0")
    return value


def add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    """--judge, --judge-api-base, --judge-budget, --judge-cache, --judge-timeout."""
    parser.add_argument("--judge", metavar="MODEL", default=None,
                        help="a litellm model asked about what the lexical judge leaves "
                             "unsure (default: the lexical judge alone)")
    parser.add_argument("--judge-api-base", metavar="URL", default=None,
                        help="API base URL for the --judge model (e.g. a local "
                             "OpenAI-compatible server)")
    parser.add_argument("--judge-budget", metavar="N", type=_calls, default=DEFAULT_BUDGET,
                        help=f"at most N calls of the --judge model, each asking up to 8 "
                             f"distinct questions (default {DEFAULT_BUDGET}); its estimate "
                             "(questions, calls, tokens, cost) is printed to stderr before "
                             "the first call, and what the budget leaves unasked stays not "
                             "certified (judge-budget-spent)")
    parser.add_argument("--judge-cache", metavar="DIR", default=None,
                        help="keep the --judge model's answers in DIR (one file per answer): "
                             "a second run asks nothing it asked before")
    parser.add_argument("--judge-timeout", metavar="S", type=positive_seconds,
                        default=DEFAULT_TIMEOUT,
                        help=f"seconds one --judge call may take (default {DEFAULT_TIMEOUT:g}); "
                             "a call that takes longer is given up and its text stays not "
                             "certified. With --judge-budget N a check waits at most N times "
                             "this long on the model")
    parser.add_argument("--judge-untrusted", action="store_true",
                        help="also ask the --judge model about every text written at or "
                             "after a fault whose lineage reaches an untrusted input (a tool "
                             "observation), even where the lexical judge finds nothing of the "
                             "fault in it (a payload restated in another language); within "
                             "--judge-budget, after what the lexical judge leaves unsure")


def judge_from(args: argparse.Namespace) -> ModelJudge | None:
    """The model judge the flags describe, or None for the lexical judge alone."""
    model = getattr(args, "judge", None)
    if model is None:
        for flag in ("judge_api_base", "judge_cache", "judge_untrusted"):
            if getattr(args, flag, None) not in (None, False):
                raise DgrrError(f"--{flag.replace('_', '-')}: needs --judge MODEL")
        return None
    from .._io import check_output_dir
    from ..judge import ModelJudge

    if not str(model).strip():
        raise DgrrError(f"--judge: expected a litellm model string, got {model!r}")
    cache = args.judge_cache
    if cache is not None:
        check_output_dir(cache, "--judge-cache")
    from ..model._bounded import guarded_call

    return ModelJudge(model, api_base=args.judge_api_base, budget=args.judge_budget,
                      cache_dir=cache, guard=guarded_call,
                      timeout=getattr(args, "judge_timeout", DEFAULT_TIMEOUT),
                      untrusted=bool(getattr(args, "judge_untrusted", False)),
                      on_estimate=print_estimate)


def print_estimate(estimate: JudgeEstimate) -> None:
    """The model judge's estimate, one line on stderr (before its first call)."""
    print(f"dgrr: {printable(estimate.line())}", file=sys.stderr, flush=True)
