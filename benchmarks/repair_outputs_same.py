"""Are the files `dgrr repair --out` writes the same byte for byte on two versions of dgrr?

    python benchmarks/repair_outputs_same.py --before main            # this tree vs main
    python benchmarks/repair_outputs_same.py --before d60454a --sizes 300 6000 --seeds 1 2
    python benchmarks/repair_outputs_same.py --before main --cases 'sample_traces/**/*.json'

The older version is the tree of a git revision (`--before`, exported with `git archive`
into a temporary folder); the newer one is this working tree. Each case is repaired by
each version in a fresh `python -m repair_core repair CASE --out DIR` process, with the
built-in reference model; every file of the two folders is compared with `filecmp`
(`shallow=False`), and a case whose repair fails must fail the same way (the same exit
code and the same files). The cases: synthetic ones (`dgrr synth --steps N --memories
N/5 --faults 3 --seed S`, made by this tree once per size and seed) and the sample
traces (`sample_traces/*.json`, not the `.plan.json` files: those are plans). Exit 1
when any case differs.
"""

from __future__ import annotations

import argparse
import filecmp
import glob
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SIZES = (300, 2_000, 12_000)
DEFAULT_SEEDS = (1, 7, 11)


def export_tree(rev: str, into: Path) -> Path:
    """The files of git revision `rev` of this repository, unpacked into `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def repair_into(tree: Path, case: Path, out: Path) -> int:
    """Exit code of `dgrr repair CASE --out OUT` run from the source tree `tree`."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-m", "repair_core", "repair", str(case),
                           "--out", str(out)], cwd=tree, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return done.returncode


def differences(a: Path, b: Path) -> list[str]:
    """The names of the files that differ between folders `a` and `b` (or are in one)."""
    names_a = {p.name for p in a.iterdir()} if a.is_dir() else set()
    names_b = {p.name for p in b.iterdir()} if b.is_dir() else set()
    differ = sorted(names_a ^ names_b)
    differ += [n for n in sorted(names_a & names_b)
               if not filecmp.cmp(a / n, b / n, shallow=False)]
    return differ


def synth_case(folder: Path, steps: int, seed: int) -> Path:
    path = folder / f"synth-{steps}-{seed}.json"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "repair_core", "synth", "--steps", str(steps),
                        "--memories", str(max(1, steps // 5)), "--faults", "3",
                        "--seed", str(seed), "--out", str(path)],
                       check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="git revision of the older version")
    ap.add_argument("--sizes", type=int, nargs="*", default=list(DEFAULT_SIZES),
                    help="steps of the synthetic cases (none: no synthetic case)")
    ap.add_argument("--seeds", type=int, nargs="+", default=list(DEFAULT_SEEDS))
    ap.add_argument("--cases", nargs="*", default=["sample_traces/*.json"],
                    help="glob patterns of case files, relative to the repository")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="dgrr-same-") as tmp_name:
        tmp = Path(tmp_name)
        before = export_tree(args.before, tmp / "before")
        cases = [synth_case(tmp, n, s) for n in args.sizes for s in args.seeds]
        cases += sorted(Path(p) for pattern in args.cases
                        for p in glob.glob(str(ROOT / pattern), recursive=True)
                        if not p.endswith(".plan.json"))
        bad = 0
        for i, case in enumerate(cases):
            old, new = tmp / f"old-{i}", tmp / f"new-{i}"
            codes = repair_into(before, case, old), repair_into(ROOT, case, new)
            differ = differences(old, new)
            same = codes[0] == codes[1] and not differ
            bad += not same
            name = case.name if case.parent == tmp else case.relative_to(ROOT)
            print(f"{'same' if same else 'DIFFERENT':<9} {name} (exit {codes[0]} / {codes[1]})"
                  + (f": {', '.join(differ)}" if differ else ""), flush=True)
        print(f"{len(cases) - bad} of {len(cases)} cases byte-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
