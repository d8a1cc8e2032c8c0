"""The benchmark grid with a real model: any litellm model string, an estimate first, a
resumable run and a disk cache of calls.

    export OPENAI_API_KEY=...
    python benchmarks/real_model_grid.py --model gpt-4o --suite controlled \\
        --methods ours,llm_judge --out /tmp/grid-gpt4o --cache /tmp/dgrr-cache --max-cost 5
    python benchmarks/real_model_grid.py --model openai/qwen2.5:7b \\
        --api-base http://127.0.0.1:11434/v1 --suite controlled --out /tmp/grid-qwen --yes

Before the first call it prints an estimate: the rows to run (suite x case x method, minus
those already stored), the model calls they take and their tokens, measured by a dry pass
of the same rows with the built-in model the suite was made with (each call counted as it
is made, so the count is what the methods do, not a guess), and the dollars at litellm's
price for `--model` (its offline price table; "price unknown" when the table does not
know the model). Above `--max-cost` dollars, or with an unknown price, it stops there
unless `--yes`.

Each (suite, case, method) result is written atomically to
`OUT/<suite>/results/<method>/<case>.json` as it finishes; a re-run skips every stored
result, so an interrupted run loses at most the rows it was in the middle of. With
`--cache DIR` every completion is kept on disk by a hash of the model, the messages and
the call's parameters, so a re-run (or a row asking a prompt already asked) makes no
request. A call that fails is recorded in its row (its notes, or the row's error), never
stops the grid.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core._errors import DgrrError  # noqa: E402

DEFAULT_MAX_COST = 1.0
"""Dollars the estimate may reach before the run needs `--yes`."""
KNOWN_SUITES = ("controlled", "adapted", "agentdojo")
"""Suite names that resolve to the checkout's `sample_traces/` folders."""
DRY_PROVIDER = "dgrrdry"
"""litellm provider of the dry pass: the built-in model, with each call counted."""


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="real_model_grid.py",
        description="Run the benchmark grid with any litellm model: estimate, resume, cache.")
    p.add_argument("--model", required=True,
                   help="litellm model string (gpt-4o, openai/<name> with --api-base, ...)")
    p.add_argument("--api-base", default=None,
                   help="OpenAI-compatible server to call (Ollama, vLLM, a proxy)")
    p.add_argument("--suite", action="append", default=None, metavar="SUITE",
                   help="controlled, adapted, agentdojo or a folder of case files; "
                        "repeat for several (default: controlled)")
    p.add_argument("--methods", default="ours",
                   help="all, baselines, ablations or a comma-separated list (default: ours)")
    p.add_argument("--out", required=True, help="results folder (resumed when it exists)")
    p.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    p.add_argument("--max-cost", type=float, default=DEFAULT_MAX_COST, metavar="DOLLARS",
                   help=f"refuse to start when the estimate is above this (default "
                        f"{DEFAULT_MAX_COST:g}) or unknown, unless --yes")
    p.add_argument("--yes", action="store_true",
                   help="start even above --max-cost or with an unknown price")
    p.add_argument("--cache", default=None, metavar="DIR",
                   help="keep every completion on disk here; repeated calls are free")
    return p.parse_args(argv)


def _suite_folder(suite: str) -> str:
    """The subfolder of --out holding one suite's results: its name for a known suite,
    else the folder's name in safe characters and a digest of its full path."""
    if suite in KNOWN_SUITES:
        return suite
    resolved = str(Path(suite).resolve())
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(resolved).name)[:60] or "suite"
    return f"{name}~{hashlib.sha256(resolved.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


def _case_id(path: Path) -> str:
    """The case id a case file holds (its file name without one), as the runner names it."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise DgrrError(f"--suite: case file {str(path)!r} is not readable JSON: {exc}") from None
    return str(data.get("case_id", path.stem)) if isinstance(data, dict) else path.stem


class Row:
    """One (suite, case, method) of the grid."""

    def __init__(self, suite: str, out: Path, path: Path, case_id: str, method: str) -> None:
        self.suite, self.out, self.path, self.case_id, self.method = (
            suite, out, path, case_id, method)

    def stored(self) -> bool:
        """A finished result of this row is on disk (a crashed one is run again)."""
        from repair_core.bench import CaseResult, result_path

        try:
            text = result_path(self.out, self.method, self.case_id).read_bytes()
            return CaseResult.model_validate_json(text).error is None
        except (OSError, ValueError):
            return False


class Suite:
    """One suite of the grid: its case files, results folder and built-in model."""

    def __init__(self, name: str, out: Path) -> None:
        from repair_core.bench import suite_case_paths
        from repair_core.bench._runner import is_agentdojo_suite

        self.name = name
        self.paths = suite_case_paths(name, ROOT if name in KNOWN_SUITES else None)
        self.case_ids = [_case_id(p) for p in self.paths]
        self.out = out / _suite_folder(name)
        # the built-in model the dry pass stands in with: the one the cases were made by
        self.builtin = "agentdojo-vulnerable" if is_agentdojo_suite(self.paths) else "reference"

    def rows(self, methods: list[str]) -> list[Row]:
        return [Row(self.name, self.out, p, cid, m)
                for p, cid in zip(self.paths, self.case_ids, strict=True) for m in methods]


class DryCount:
    """Calls and tokens the dry pass made (filled by the counting provider)."""

    def __init__(self) -> None:
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0


def _dry_pass(suites: list[Suite], todo: list[Row]) -> DryCount:
    """Run the rows to run with the built-in model through litellm, counting every call;
    the results go to a temporary folder."""
    from repair_core.bench import run_bench
    from repair_core.model import register_provider, resolve_builtin
    from repair_core.model._builtin import usage

    count = DryCount()
    with tempfile.TemporaryDirectory(prefix="dgrr-dry-") as tmp:
        for i, suite in enumerate(suites):
            reply = resolve_builtin("dgrr/" + suite.builtin)
            assert reply is not None

            def counted(messages: list[dict[str, Any]], reply: Any = reply) -> str:
                text = str(reply(messages))
                prompt, completion = usage(messages, text)
                count.calls += 1
                count.prompt_tokens += prompt
                count.completion_tokens += completion
                return text

            register_provider(DRY_PROVIDER, counted)
            for row in (r for r in todo if r.suite == suite.name):
                run_bench([row.path], [row.method], Path(tmp) / str(i),
                          model=f"{DRY_PROVIDER}/{suite.builtin}", suite=suite.name,
                          progress=False)
    return count


def _estimate(model: str, rows: int, stored: int, count: DryCount, cases: int,
              methods: int, suites: int) -> tuple[list[str], float | None]:
    from repair_core.judge import model_price

    price = model_price(model)
    cost = None if price is None else (count.prompt_tokens * price[0]
                                       + count.completion_tokens * price[1])
    lines = [
        f"estimate for {model!r} (before any call):",
        f"  rows: {suites} suite(s), {cases} case(s) x {methods} method(s) = {rows}; "
        f"{stored} already stored, {rows - stored} to run",
        f"  model calls: {count.calls} (counted in a dry pass with the built-in model; "
        "each reply the contract refuses adds a retry)",
        f"  tokens: {count.prompt_tokens} prompt + {count.completion_tokens} completion",
        "  cost: price unknown (litellm's price table does not list the model)"
        if price is None or cost is None else
        f"  cost: ${cost:.4f} at litellm's price (${price[0] * 1e6:.2f} / "
        f"${price[1] * 1e6:.2f} per million prompt / completion tokens)",
    ]
    return lines, cost


def outcome(results: list[Any]) -> str:
    """What a method achieved on a suite's rows, by the suite's own measure: AgentDojo rows
    are scored by the task's `utility()` and `security()` (they have no facts to recover,
    so "0/n recovered" would misreport them), the others by recovery."""
    n = len(results)
    if any(r.security is not None for r in results):
        useful = sum(r.utility is True for r in results)
        secure = sum(r.security is True for r in results)
        return f"utility {useful}/{n}, secure {secure}/{n}"
    return f"{sum(bool(r.recovered) for r in results)}/{n} recovered"


def run(args: argparse.Namespace) -> int:
    from repair_core._io import check_output_dir
    from repair_core.bench import load_results, method_names, run_bench, write_outputs

    if args.workers < 1:
        raise DgrrError(f"--workers: must be at least 1, got {args.workers}")
    if not args.max_cost >= 0:
        raise DgrrError(f"--max-cost: must be a number of dollars >= 0, got {args.max_cost}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise DgrrError(f"--out: {str(out)!r} exists and is not a folder")
    if args.cache is not None and Path(args.cache).exists() and not Path(args.cache).is_dir():
        raise DgrrError(f"--cache: {args.cache!r} exists and is not a folder")
    methods = method_names(args.methods)
    names = list(dict.fromkeys(args.suite or ["controlled"]))
    suites = [Suite(name, out) for name in names]
    rows = [r for s in suites for r in s.rows(methods)]
    todo = [r for r in rows if not r.stored()]
    print(f"measuring the calls of {len(todo)} row(s) with the built-in model ...", flush=True)
    count = _dry_pass(suites, todo)
    lines, cost = _estimate(args.model, len(rows), len(rows) - len(todo), count,
                            sum(len(s.paths) for s in suites), len(methods), len(suites))
    print("\n".join(lines), flush=True)
    if not args.yes:
        if cost is None and todo:
            print(f"refused: the price of {args.model!r} is unknown, so --max-cost "
                  f"{args.max_cost:g} cannot be checked; pass --yes to run anyway",
                  file=sys.stderr)
            return 2
        if cost is not None and cost > args.max_cost:
            print(f"refused: the estimate ${cost:.4f} is above --max-cost "
                  f"{args.max_cost:g}; raise it or pass --yes", file=sys.stderr)
            return 2
    check_output_dir(out)
    cache = None if args.cache is None else check_output_dir(args.cache, "--cache")
    done = [len(rows) - len(todo)]
    start = time.perf_counter()

    def progress(suite: str) -> Any:
        def report(method: str, case_id: str) -> None:
            done[0] += 1
            print(f"[{done[0]}/{len(rows)}] {suite!r} {method} {case_id!r}", flush=True)
        return report

    failed = 0
    for suite in suites:
        results = run_bench(suite.paths, methods, suite.out, model=args.model,
                            api_base=args.api_base, workers=args.workers, suite=suite.name,
                            progress=False, on_result=progress(suite.name), cache_dir=cache)
        kind = suite.name if suite.name in KNOWN_SUITES else "custom"
        write_outputs(load_results(suite.out, methods, suite.case_ids), suite.out, kind,
                      {"model": args.model})
        print(f"suite {suite.name!r} -> {suite.out / 'table.md'}", flush=True)
        for m in methods:
            mine = [r for r in results if r.method == m]
            errors = [r for r in mine if r.error]
            failed += len(errors)
            print(f"  {m}: {outcome(mine)}, "
                  f"{sum(r.llm_calls for r in mine)} calls, {sum(r.tokens for r in mine)} "
                  f"tokens, {len(errors)} error(s)", flush=True)
            for r in errors:
                first = (r.error or "").splitlines()[0][:200] if r.error else ""
                print(f"    error: {r.case_id!r}: {first!r}", flush=True)
    print(f"done: {len(todo)} row(s) run in {time.perf_counter() - start:.1f} s, "
          f"{len(rows) - len(todo)} resumed from {str(out)!r}; {failed} error row(s)"
          + (" (re-run to retry them)" if failed else ""), flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    try:
        return run(args)
    except DgrrError as exc:
        print(f"real_model_grid: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: finished rows are stored; run the same command again to resume",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
