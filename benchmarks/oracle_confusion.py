"""Confusion matrices of the benchmark's oracles on the hand-written adversarial answers
(benchmarks/oracle_adversarial.py), written into docs/benchmark.md:

    python benchmarks/oracle_confusion.py            # print the section
    python benchmarks/oracle_confusion.py --write    # and rewrite it in docs/benchmark.md

Each answer is judged with the labels of its committed case. "Accepted" means the oracle
counts the answer as recovered; the human verdict (right/wrong) comes from the world's
truth and is written in the answer set, never from an oracle. The state rule reads the
final tool state, not the answer: it is judged here with each case's true final state
(`eval.required_state`), so it accepts every answer of a case whose world is right.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.oracle_adversarial import ANSWERS, CASES, HELD_OUT  # noqa: E402
from repair_core._io import write_marked_block  # noqa: E402
from repair_core.bench import is_recovered, missing_facts  # noqa: E402
from repair_core.bench._state import state_verdict  # noqa: E402

BEGIN, END = "<!-- oracle-confusion:begin -->", "<!-- oracle-confusion:end -->"
DOC = ROOT / "docs" / "benchmark.md"


def labels() -> dict[str, dict]:
    return {cid: json.loads((ROOT / path).read_text())["eval"] for cid, path in CASES.items()}


def oracles(ev: dict) -> dict[str, Callable[[str], bool]]:
    req, forb = ev["required_facts"], ev["forbidden_facts"]
    state = ev.get("required_state") or []

    def state_rule(_answer: str) -> bool:
        missing, stated = state_verdict(state, state, forb, req)
        return not missing and not stated

    return {
        "paper rule (required facts)": lambda a: not missing_facts(a, req, forb),
        "strict rule (+ no forbidden fact)": lambda a: is_recovered(a, req, forb),
        "state rule (tool state; reads no answer)": state_rule,
    }


def judge(answers: list[tuple[str, str, str, bool]]) -> dict[str, list[tuple[str, bool, bool]]]:
    """oracle -> [(answer id, human verdict, oracle verdict)]."""
    evs = labels()
    out: dict[str, list[tuple[str, bool, bool]]] = {}
    for aid, cid, answer, right in answers:
        for name, oracle in oracles(evs[cid]).items():
            out.setdefault(name, []).append((aid, right, bool(oracle(answer))))
    return out


def section() -> str:
    return "\n".join([
        matrix(ANSWERS, "The adversarial set (`ANSWERS`, the cues were developed on it)"),
        matrix(HELD_OUT, "The held-out set (`HELD_OUT`, written after the cues, not used to "
                         "tune them)")])


def matrix(answers: list[tuple[str, str, str, bool]], title: str) -> str:
    verdicts = judge(answers)
    n_right = sum(r for *_, r in answers)
    lines = [f"{title}: {len(answers)} answers ({n_right} right, {len(answers) - n_right} "
             f"wrong; cases {', '.join(CASES)}).", "",
             "| oracle | right, accepted | right, rejected | wrong, accepted | wrong, rejected "
             "| wrong verdicts |",
             "|---|---:|---:|---:|---:|---:|"]
    misjudged: dict[str, list[str]] = {}
    for name, rows in verdicts.items():
        ra = sum(h and o for _, h, o in rows)
        rr = sum(h and not o for _, h, o in rows)
        wa = sum(not h and o for _, h, o in rows)
        wr = sum(not h and not o for _, h, o in rows)
        lines.append(f"| {name} | {ra} | {rr} | {wa} | {wr} | {rr + wa} of {len(rows)} "
                     f"({(rr + wa) / len(rows):.1%}) |")
        misjudged[name] = [f"{a} ({'right' if h else 'wrong'})" for a, h, o in rows if h != o]
    lines.append("")
    for name, ids in misjudged.items():
        if name.startswith("state"):
            continue
        lines.append(f"- {name} misjudges: {', '.join(ids) or 'none'}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the section in docs/benchmark.md")
    args = ap.parse_args()
    text = section()
    print(text, end="")
    if args.write and not write_marked_block(DOC, BEGIN, END, text):
        raise SystemExit(f"{DOC}: no {BEGIN} marker")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
