"""How often the suspects rules flag what is benign, per committed suite.

    python benchmarks/suspects_false_positives.py            # every suite under sample_traces/
    python benchmarks/suspects_false_positives.py --objective answer

Every case of each suite is planned (`plan_case`, `--suspects quarantine`, the default;
`--objective store` by default, under which a carrier record is quarantined). Printed per
suite: the cases, those with a suspect, the suspected sources and carriers, and the false
positives by the suite's own labels: benign records (`eval.benign`, the world's truth:
records that must stay active) flagged as a suspect, over all benign records. For the
AgentDojo suite, whether each case's source is the step holding AgentDojo's injection
text (`agentdojo.injection`'s first line, found by substring once letters and digits
alone are kept, since a tool may print it YAML-escaped and wrapped; not by the scorer).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core import load_case, plan_case  # noqa: E402


def _alnum(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--objective", choices=("answer", "store", "both"), default="store")
    ap.add_argument("--root", default=str(ROOT / "sample_traces"))
    args = ap.parse_args()
    root = Path(args.root)
    suites = {"samples": sorted(p for p in root.glob("*.json") if not p.name.endswith(".plan.json"))}
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        suites[d.name] = sorted(p for p in d.glob("*.json") if p.name != "manifest.json")
    print(f"objective {args.objective}, suspects quarantine")
    print(f"{'suite':<14}{'cases':>6}{'w/ suspect':>11}{'sources':>9}{'carriers':>9}"
          f"{'quarantined':>12}{'benign flagged':>16}{'FP rate':>9}{'s/case':>8}")
    for name, files in suites.items():
        cases = with_suspect = sources = carriers = quarantined = flagged = benign = 0
        injected_sources = injected_cases = 0
        t0 = time.perf_counter()
        for f in files:
            raw = json.loads(f.read_text())
            if raw.get("format") != "dgrr.case/v1":
                continue
            case = load_case(f)
            cases += 1
            plan = plan_case(case, objective=args.objective if case.has_answer() else "store")
            labels = set(case.eval.benign) if case.eval else set()
            benign += len(labels)
            sus = plan.suspected
            with_suspect += bool(sus)
            sources += sum(s.role == "source" for s in sus)
            carriers += sum(s.role == "carrier" for s in sus)
            quarantined += sum(s.action == "quarantine" for s in sus)
            flagged += sum(s.id in labels for s in sus)
            if "agentdojo" in raw:
                injected_cases += 1
                text = raw["agentdojo"]["injection"].strip().splitlines()
                marker = _alnum(next(line for line in text
                                     if line.strip() and "INFORMATION" not in line))
                steps = {s.id: _alnum(s.text) for s in case.trajectory}
                injected_sources += any(s.role == "source" and marker in steps.get(s.id, "")
                                        for s in sus)
        per_case = (time.perf_counter() - t0) / max(cases, 1)
        rate = f"{flagged / benign:.2%}" if benign else "-"
        print(f"{name:<14}{cases:>6}{with_suspect:>11}{sources:>9}{carriers:>9}"
              f"{quarantined:>12}{f'{flagged}/{benign}':>16}{rate:>9}{per_case:>8.3f}")
        if injected_cases:
            print(f"{'':<14}AgentDojo: the suspected source holds the injection text in "
                  f"{injected_sources} of {injected_cases} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
