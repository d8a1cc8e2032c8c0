"""Write the failure gallery of some methods of a results folder to a file (the folder's
own failures.md covers every method). Used for docs/results/*-ours-failures.md:

    python scripts/gallery_of.py RESULTS_DIR DEST.md [--methods ours]
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main() -> int:
    from repair_core._io import atomic_write_text
    from repair_core.bench import load_results
    from repair_core.bench._gallery import failure_gallery
    from repair_core.bench._methods import METHOD_LABELS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="results folder of `dgrr bench run`")
    ap.add_argument("dest", help="Markdown file to write")
    ap.add_argument("--methods", default="ours", help="comma-separated method names")
    a = ap.parse_args()
    methods = [m.strip() for m in a.methods.split(",") if m.strip()]
    results = load_results(Path(a.results), methods)
    atomic_write_text(Path(a.dest), failure_gallery(results, METHOD_LABELS, methods))
    print(f"wrote {a.dest} ({sum(not r.recovered for r in results)} failures)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
