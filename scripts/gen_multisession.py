"""Write the multi-session cases to sample_traces/multisession/.

    python scripts/gen_multisession.py [--seed 42] [--count 4]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from repair_core._io import atomic_write_json
from repair_core.bench._controlled import controlled_multisession_cases

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "sample_traces" / "multisession"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for case in controlled_multisession_cases(args.seed, args.count):
        atomic_write_json(out / f"{case.case_id}.json", case.model_dump(mode="json",
                                                                       exclude_none=True))
    print(f"wrote {2 * args.count} cases to {out}")


if __name__ == "__main__":
    main()
