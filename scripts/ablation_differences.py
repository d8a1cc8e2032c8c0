"""Where each ablation's outcome differs from Ours on the committed suites, from their
per-case results (docs/results/<suite>/results.csv) and summaries:

    python scripts/ablation_differences.py           # print the block
    python scripts/ablation_differences.py --write   # and rewrite it in docs/results.md

For every ablation and suite: the cases Ours recovers and the ablation does not, the
cases the ablation recovers and Ours does not (strict rule), and the cost beside Ours'.
`scripts/regenerate_results.py` runs it after the suites; a test checks the block is
what this script prints.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEGIN, END = "<!-- ablations:begin -->", "<!-- ablations:end -->"
DOC = ROOT / "docs" / "results.md"
SUITES = ("controlled", "adapted", "controlled-noisy")
SHOWN = 6


def _cases(ids: list[str]) -> str:
    if not ids:
        return "none"
    shown = ", ".join(f"`{c}`" for c in ids[:SHOWN])
    return f"{len(ids)}: {shown}" + (f", … ({len(ids) - SHOWN} more)" if len(ids) > SHOWN else "")


def block() -> str:
    from repair_core.bench import ABLATIONS, METHOD_LABELS

    lines = ["| Suite | Ablation | Ours recovers, the ablation does not | The ablation recovers, "
             "Ours does not | Replay ratio (Ours) | LLM calls (Ours) |",
             "|---|---|---|---|---:|---:|"]
    for suite in SUITES:
        folder = ROOT / "docs" / "results" / suite
        if not (folder / "results.csv").exists():
            continue
        with (folder / "results.csv").open(newline="") as f:
            rows = list(csv.DictReader(f))
        summary = json.loads((folder / "summary.json").read_text())
        won = {(r["method"], r["case_id"]): r["recovered"] == "True" for r in rows}
        cases = sorted({r["case_id"] for r in rows})
        ours = summary["ours"]
        for ab in ABLATIONS:
            if ab not in summary:
                continue
            lost = [c for c in cases if won.get(("ours", c)) and not won.get((ab, c))]
            gained = [c for c in cases if won.get((ab, c)) and not won.get(("ours", c))]
            s = summary[ab]
            lines.append(f"| {suite} | {METHOD_LABELS[ab]} | {_cases(lost)} | {_cases(gained)} | "
                         f"{s['replay_ratio']:.3f} ({ours['replay_ratio']:.3f}) | "
                         f"{s['llm_calls']:.2f} ({ours['llm_calls']:.2f}) |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the block in docs/results.md")
    args = ap.parse_args()
    text = block()
    print(text, end="")
    if args.write:
        from repair_core._io import write_marked_block

        if not write_marked_block(DOC, BEGIN, END, text):
            raise SystemExit(f"{DOC}: no {BEGIN} marker")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
