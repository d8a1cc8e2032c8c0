"""Where the methods differ on AgentDojo, per injection task, from the committed results
(docs/results/agentdojo/results.csv), written into docs/agentdojo.md:

    python benchmarks/agentdojo_ties.py            # print the section
    python benchmarks/agentdojo_ties.py --write    # and rewrite it in docs/agentdojo.md

Each case is one (user task A, injection task I, user task B, attack) of one AgentDojo
suite; its id names the suite and the injection task. A method "ties" Ours on a case when
AgentDojo's check (security, utility, or security after the next session) gives the
same verdict for both.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core._io import write_marked_block  # noqa: E402
from repair_core.bench._methods import METHOD_LABELS  # noqa: E402

BEGIN, END = "<!-- agentdojo-ties:begin -->", "<!-- agentdojo-ties:end -->"
DOC = ROOT / "docs" / "agentdojo.md"
RESULTS = ROOT / "docs" / "results" / "agentdojo" / "results.csv"
CHECKS = ("security", "utility", "next_session_security")
CASE_ID = re.compile(r"adj-([a-z]+)-usertask\d+-injectiontask(\d+)-")

Verdicts = dict[str, dict[str, dict[str, bool]]]
"""method -> case id -> check -> AgentDojo's verdict."""


def load(path: Path = RESULTS) -> Verdicts:
    """Every method's verdicts per case from a results CSV."""
    out: Verdicts = defaultdict(dict)
    with path.open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            out[r["method"]][r["case_id"]] = {c: r[c] == "True" for c in CHECKS}
    return dict(out)


def injection_task(case_id: str) -> tuple[str, int]:
    """The AgentDojo suite and injection task a case id names."""
    m = CASE_ID.match(case_id)
    if m is None:
        raise ValueError(f"case_id {case_id!r}: not an AgentDojo case id")
    return m.group(1), int(m.group(2))


def report(v: Verdicts) -> str:
    ours = v["ours"]
    others = [m for m in v if m not in ("ours", "no_repair")]
    n = len(ours)
    out = [f"Cases where each method's verdict equals Ours' (of {n}):", "",
           "| Method | Security | Utility | Next-session security |", "|---|---:|---:|---:|"]
    for m in ["no_repair", *others]:
        same = [sum(v[m][c][k] == ours[c][k] for c in ours) for k in CHECKS]
        out.append(f"| {METHOD_LABELS.get(m, m)} | " + " | ".join(map(str, same)) + " |")
    groups: dict[tuple[str, int], list[str]] = defaultdict(list)
    for c in ours:
        groups[injection_task(c)].append(c)
    out += ["", "Per injection task (secure / useful: cases AgentDojo's check passes; "
            "methods apart: the repairing methods whose verdict differs from Ours' in any "
            "case of the task):", "",
            "| Suite | Injection task | Cases | Secure: no repair | Secure: Ours | Methods apart "
            "on security | Useful: no repair | Useful: Ours | Methods apart on utility |",
            "|---|---:|---:|---:|---:|---|---:|---:|---|"]
    for (suite, task), cases in sorted(groups.items()):
        cells = []
        for k in ("security", "utility"):
            apart = [f"{METHOD_LABELS.get(m, m)} ({sum(v[m][c][k] for c in cases)})"
                     for m in others if any(v[m][c][k] != ours[c][k] for c in cases)]
            cells.append((sum(v["no_repair"][c][k] for c in cases),
                          sum(ours[c][k] for c in cases), ", ".join(apart) or "none"))
        (sn, so, sa), (un, uo, ua) = cells
        out.append(f"| {suite} | {task} | {len(cases)} | {sn} | {so} | {sa} | {un} | {uo} "
                   f"| {ua} |")
    gained = sorted(c for c in ours if ours[c]["security"] and not v["no_repair"][c]["security"])
    by_task: dict[tuple[str, int], int] = defaultdict(int)
    for c in gained:
        by_task[injection_task(c)] += 1
    out += ["", f"Secure under Ours and not under no repair: {len(gained)} cases ("
            + ", ".join(f"{s} injection task {t}: {k}" for (s, t), k in sorted(by_task.items()))
            + ")"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true",
                    help="also rewrite the marked section of docs/agentdojo.md")
    args = ap.parse_args(argv)
    text = report(load())
    print(text, end="")
    if args.write and not write_marked_block(DOC, BEGIN, END, f"```\n{text}```\n"):
        print(f"docs/agentdojo.md: no {BEGIN} marker; nothing written", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
