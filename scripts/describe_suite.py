"""Print the shape of the committed suites into docs/benchmark.md, measured from the case
files (repair_core.bench._describe). Run after regenerating a suite:

    python scripts/describe_suite.py            # rewrite the marked sections
    python scripts/describe_suite.py --check    # exit 1 if docs/benchmark.md is stale

The sections sit between `<!-- suite-shape:NAME -->` and `<!-- /suite-shape:NAME -->`.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmark.md"
SUITES = {"controlled": ROOT / "sample_traces" / "controlled",
          "adapted": ROOT / "sample_traces" / "adapted"}


def rendered(text: str) -> str:
    from repair_core.bench._describe import describe_markdown, describe_suite

    for name, folder in SUITES.items():
        start, end = f"<!-- suite-shape:{name} -->", f"<!-- /suite-shape:{name} -->"
        if start not in text or end not in text:
            raise SystemExit(f"{DOC}: no {start} ... {end} section")
        body = describe_markdown(describe_suite(folder))
        text = re.sub(re.escape(start) + r".*?" + re.escape(end),
                      lambda _m, s=start, b=body, e=end: f"{s}\n{b}{e}", text, flags=re.S)
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    args = ap.parse_args()
    old = DOC.read_text()
    new = rendered(old)
    if args.check:
        if new != old:
            print(f"{DOC} is stale: run python scripts/describe_suite.py", file=sys.stderr)
            return 1
        return 0
    if new != old:
        from repair_core._io import atomic_write_text

        atomic_write_text(DOC, new)  # never a half-written doc
    print(f"wrote the suite shapes into {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
