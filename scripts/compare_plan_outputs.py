"""Check that a change to the planner leaves `dgrr plan --json` byte for byte as it was:

    git archive main repair_core | tar -x -C /tmp/before    # the code before the change
    python scripts/compare_plan_outputs.py --before /tmp/before
    python scripts/compare_plan_outputs.py --before /tmp/before --steps 20000 300000 --seeds 11

Each case is planned by both trees (`--before`, and `--after`: this checkout by default),
each in its own `python -m repair_core` process with the tree first on `PYTHONPATH`, with
the default objective and suspects and with `--objective answer --suspects off`, on the
columnar path (`--planner columnar`) and on the default one (`auto`). The cases: synthetic
ones (`dgrr synth --steps N --memories N/5 --faults 3 --seed S`, written once to
`--cache`), the committed sample traces and the test data cases. It prints one line per
difference and exits 1 when there is any, 0 when every output is the same.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS: tuple[tuple[str, ...], ...] = (
    (), ("--objective", "answer", "--suspects", "off"),
    ("--planner", "columnar"), ("--planner", "columnar", "--objective", "answer",
                                "--suspects", "off"))
"""The `dgrr plan --json` options each case is planned with."""


def committed_cases(per_folder: int) -> list[Path]:
    """The sample traces and test data that are cases (`format` dgrr.case/v1), at most
    `per_folder` of each folder (the first by name)."""
    found: list[Path] = []
    taken: dict[Path, int] = {}
    for path in sorted([*(ROOT / "sample_traces").rglob("*.json"),
                        *(ROOT / "tests" / "data").glob("*.json")]):
        head = path.read_bytes()[:4096]
        if b'"dgrr.case/v1"' in head and taken.get(path.parent, 0) < per_folder:
            taken[path.parent] = taken.get(path.parent, 0) + 1
            found.append(path)
    return found


def synth_cases(cache: Path, steps: list[int], seeds: list[int], tree: Path) -> list[Path]:
    cache.mkdir(parents=True, exist_ok=True)
    out = []
    for n in steps:
        for seed in seeds:
            path = cache / f"synth-{n}-seed{seed}.json"
            if not path.exists():
                subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(n),
                                "--memories", str(max(n // 5, 1)), "--faults", "3",
                                "--seed", str(seed), "--out", str(path.resolve())],
                               check=True, env=_env(tree), cwd=_where(tree),
                               stdout=subprocess.DEVNULL)
            out.append(path)
    return out


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree.resolve())}


def _where(tree: Path) -> Path:
    """The folder a tree's process runs in: the tree itself, since `python -m` puts the
    folder it runs in first on the path, before `PYTHONPATH` (run from a checkout, both
    trees' processes imported that checkout's code and compared it with itself)."""
    return tree.resolve()


def plan_digest(tree: Path, case: Path, options: tuple[str, ...]) -> str:
    """The SHA-256 of `dgrr plan --json` of `case` by the code in `tree` (with its exit
    status: a refusal is compared too)."""
    run = subprocess.run([sys.executable, "-m", "repair_core", "plan", "--json", *options,
                          str(case.resolve())], env=_env(tree), cwd=_where(tree),
                         capture_output=True)
    return f"{run.returncode}:{hashlib.sha256(run.stdout).hexdigest()}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", type=Path, required=True,
                   help="a folder holding the repair_core package before the change")
    p.add_argument("--after", type=Path, default=ROOT,
                   help="a folder holding the repair_core package after it (default: this "
                        "checkout)")
    p.add_argument("--steps", type=int, nargs="*", default=[20_000],
                   help="sizes of the synthetic cases (default: 20000)")
    p.add_argument("--seeds", type=int, nargs="*", default=[2, 11, 23])
    p.add_argument("--cache", type=Path, default=Path("/tmp/dgrr-compare-plans"),
                   help="where the synthetic cases are written")
    p.add_argument("--per-folder", type=int, default=3,
                   help="committed cases planned of each folder (default: 3; 0: none)")
    args = p.parse_args(argv)
    cases = synth_cases(args.cache, args.steps, args.seeds, args.after)
    cases += committed_cases(args.per_folder)
    differ = 0
    for case in cases:
        for options in VARIANTS:
            before = plan_digest(args.before, case, options)
            after = plan_digest(args.after, case, options)
            if before != after:
                differ += 1
                print(f"differs: {case} {' '.join(options)}")
    print(f"{len(cases)} cases x {len(VARIANTS)} option sets: "
          + (f"{differ} outputs differ" if differ else "every output is the same"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
