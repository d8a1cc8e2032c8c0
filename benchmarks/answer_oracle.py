"""Error rates of the answer oracles on hand-written free-text answers
(`benchmarks/answers/answers.jsonl`), per split and per category:

    python benchmarks/answer_oracle.py                # print the section
    python benchmarks/answer_oracle.py --split dev    # only the split used for tuning
    python benchmarks/answer_oracle.py --write        # rewrite it in docs/benchmark.md

Each line of the answer set is one answer a model could give to the final request of a
committed case, with a reviewer's verdict written from the world's truth (`right`: it
tells the user the true values, as done where the request asked for an action, and asserts
no fault as true; otherwise `wrong`), a category, and a split: `dev` (the answers the
oracle's cues were tuned on), `held-out` (written with them, not used to tune the cues) or
`fresh` (written after the cues were final, on cases no other split uses) or `languages`
(French, German and Spanish answers, written after the reader's rules for those languages
were final). An oracle errs
on an answer when it accepts a wrong one or rejects a right one. Every answer is judged
with its case's own gold labels (`eval.required_facts`, `eval.forbidden_facts`).
"""

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core._io import write_marked_block  # noqa: E402
from repair_core.bench import is_recovered, missing_facts  # noqa: E402
from repair_core.content import fact_stated  # noqa: E402

ANSWERS = ROOT / "benchmarks" / "answers" / "answers.jsonl"
BEGIN, END = "<!-- answer-oracle:begin -->", "<!-- answer-oracle:end -->"
DOC = ROOT / "docs" / "benchmark.md"
SPLITS = ("dev", "held-out", "fresh", "languages")


class Answer(BaseModel):
    """One hand-written answer with its reviewer's verdict."""

    id: str
    """Unique id: the case's short id and a running number."""
    case: str
    """Path of the committed case file, relative to the repository root."""
    answer: str
    """The answer's text, as a model could write it."""
    verdict: Literal["right", "wrong"]
    """The reviewer's verdict from the world's truth, never from an oracle."""
    category: str
    """What the answer tests: paraphrase, format, negation, pending, hedge, history,
    rejection-of-poison, poison-stated, other-item, omission or question."""
    split: Literal["dev", "held-out", "fresh", "languages"]
    """`dev`: used while tuning the oracle; `held-out`: written with `dev`, not used to
    tune it; `fresh`: written after the oracle's rules were final, run once; `languages`:
    French, German and Spanish answers written after the reader's rules for those
    languages were final, run once."""


def load_answers(path: Path = ANSWERS) -> list[Answer]:
    return [Answer.model_validate_json(line) for line in
            path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _labels(case: str) -> tuple[list[str], list[str]]:
    ev = json.loads((ROOT / case).read_text(encoding="utf-8"))["eval"]
    return list(ev["required_facts"]), list(ev["forbidden_facts"])


def _substring(answer: str, required: list[str], forbidden: list[str]) -> bool:
    return (bool(required) and all(fact_stated(answer, f) for f in required)
            and not any(fact_stated(answer, f) for f in forbidden if f not in required))


RULES: dict[str, Callable[[str, list[str], list[str]], bool]] = {
    "strict rule (is_recovered)": is_recovered,
    "paper rule (required facts only)": lambda a, req, forb: not missing_facts(a, req, forb),
    "whole-word rule (no reading)": _substring,
}
"""The oracles compared: the strict rule every table reports, the paper's rule (required
facts only, read the same way) and plain whole-word matching of every label (a fact's
normalised words anywhere in the answer, negated or not)."""


def judge(answers: list[Answer]) -> dict[str, list[tuple[Answer, bool]]]:
    """rule -> [(answer, whether the rule accepts it)]."""
    labels: dict[str, tuple[list[str], list[str]]] = {}
    out: dict[str, list[tuple[Answer, bool]]] = {name: [] for name in RULES}
    for a in answers:
        if a.case not in labels:
            labels[a.case] = _labels(a.case)
        req, forb = labels[a.case]
        for name, rule in RULES.items():
            out[name].append((a, bool(rule(a.answer, req, forb))))
    return out


def _errs(rows: list[tuple[Answer, bool]]) -> list[Answer]:
    return [a for a, accepted in rows if accepted != (a.verdict == "right")]


def _cell(rows: list[tuple[Answer, bool]]) -> str:
    if not rows:
        return "–"
    return f"{len(_errs(rows))}/{len(rows)}"


def split_table(answers: list[Answer], split: str) -> str:
    chosen = [a for a in answers if a.split == split]
    verdicts = judge(chosen)
    categories = sorted({a.category for a in chosen})
    n_right = sum(a.verdict == "right" for a in chosen)
    cases = len({a.case for a in chosen})
    lines = [f"Split `{split}`: {len(chosen)} answers ({n_right} right, "
             f"{len(chosen) - n_right} wrong) over {cases} cases. Errors per rule, overall "
             "and per category (errors/answers):", "",
             "| rule | errors | " + " | ".join(categories) + " |",
             "|---|---:|" + "---:|" * len(categories)]
    for name, rows in verdicts.items():
        errs = _errs(rows)
        per = [_cell([(a, v) for a, v in rows if a.category == c]) for c in categories]
        lines.append(f"| {name} | {len(errs)} of {len(rows)} ({len(errs) / len(rows):.1%}) | "
                     + " | ".join(per) + " |")
    strict = next(iter(RULES))
    missed = ", ".join(f"{a.id} ({a.verdict})" for a in _errs(verdicts[strict])) or "none"
    lines += ["", f"- {strict} errs on: {missed}"]
    return "\n".join(lines) + "\n"


def section(answers: list[Answer] | None = None, splits: tuple[str, ...] = SPLITS) -> str:
    answers = load_answers() if answers is None else answers
    return "\n".join(split_table(answers, s) for s in splits)


_ROW = re.compile(r"^\| (?P<rule>[^|]+?) \| (?P<errors>\d+) of (?P<n>\d+) ", re.M)


def recorded_errors(doc: str) -> dict[tuple[str, str], int]:
    """(split, rule) -> the error count recorded in the docs' section."""
    block = doc[doc.index(BEGIN):doc.index(END)]
    out: dict[tuple[str, str], int] = {}
    for part in block.split("Split `")[1:]:
        split = part[:part.index("`")]
        for m in _ROW.finditer(part):
            out[(split, m.group("rule"))] = int(m.group("errors"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=SPLITS, help="print one split only")
    ap.add_argument("--write", action="store_true", help="rewrite the section in docs/benchmark.md")
    args = ap.parse_args()
    if args.write and args.split:
        raise SystemExit("--write records every split; leave out --split")
    text = section(splits=(args.split,) if args.split else SPLITS)
    print(text, end="")
    if args.write and not write_marked_block(DOC, BEGIN, END, text):
        raise SystemExit(f"{DOC}: no {BEGIN} marker")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
