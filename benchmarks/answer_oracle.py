"""Error rates of the answer oracles on hand-written free-text answers
(`benchmarks/answers/answers.jsonl`, and `languages-fresh.jsonl`, `round4.jsonl`,
`round5.jsonl` to `round14.jsonl`, `heldout-15.jsonl`, `heldout-16.jsonl`,
`heldout-17.jsonl`, `heldout-18.jsonl`), per split
and per category:

    python benchmarks/answer_oracle.py                # print the section
    python benchmarks/answer_oracle.py --split dev    # only the split used for tuning
    python benchmarks/answer_oracle.py --write        # rewrite it in docs/benchmark.md

Each line of the answer set is one answer a model could give to the final request of a
committed case, with a reviewer's verdict written from the world's truth (`right`: it
tells the user the true values, as done where the request asked for an action, and asserts
no fault as true; otherwise `wrong`), a category, and a split: `dev` (the answers the
oracle's cues were tuned on), `held-out` (written with them, not used to tune the cues) or
`fresh` (written after the cues were final, on cases no other split uses) or `languages`
(French, German and Spanish answers, first run once after the reader's rules for those
languages were final, since then the development split for other languages), or, from
`round4.jsonl`, `english-round4` (English) and `other-languages` (Japanese, Chinese,
Russian, Polish, Swedish, Turkish and Czech), written blind by another author, or, from
`round5.jsonl`, `english-round5` (English) and `other-languages-round5` (French, German,
Spanish, Italian, Portuguese, Dutch, Polish, Japanese and Swedish), also written blind, or,
from `round6.jsonl`, `english-round6` (English) and `other-languages-round6` (French,
German, Spanish, Italian, Portuguese, Dutch, Polish, Japanese, Swedish and Turkish), also
written blind, or, from `round7.jsonl`, `english-round7` (English) and
`other-languages-round7` (the same ten languages), also written blind, or, from
`round8.jsonl`, `english-round8` (English) and `other-languages-round8` (French, German,
Spanish, Italian, Portuguese, Dutch and nine others), also written blind, or, from
`round9.jsonl`, `english-round9` and `other-languages-round9` (the same fifteen
languages), or, from `round10.jsonl`, `english-round10` and `other-languages-round10`
(the same fifteen languages), or, from `round11.jsonl`, `english-round11` and
`other-languages-round11` (sixteen languages), or, from `round12.jsonl`,
`english-round12` and `other-languages-round12` (22 languages), or, from `round13.jsonl`,
`english-round13` and `other-languages-round13` (28 languages), also written blind, or,
from `round14.jsonl`, `other-languages-round14` (21 languages and three code-mixed
phrasings no earlier set uses), written by a helper who had read the oracle, verdicts fixed before it
ran, or, from `heldout-15.jsonl`, `english-heldout15` and `other-languages-heldout15`
(Welsh, Tagalog, Basque, Croatian and ten languages no earlier set writes), written blind
by a helper who had not read the oracle, verdicts fixed before it ran, or, from
`heldout-16.jsonl`, `english-heldout16` and `other-languages-heldout16` (Yoruba, Zulu,
Luxembourgish, Slovenian, Serbian in both scripts and eight languages no earlier set
writes), written blind the same way, or, from `heldout-17.jsonl`, `english-heldout17` and
`other-languages-heldout17` (fifteen languages earlier sets write and nine none does),
written blind the same way, or, from `heldout-18.jsonl`, `english-heldout18` and
`other-languages-heldout18` (eleven languages earlier sets write and nine none does),
written blind the same way. An oracle
errs on an answer when it decides wrong (accepts a wrong one or rejects a right one); the
strict rule may also be *unsure* (it defers the answer to a judge), and an unsure answer
counts as not recovered in the error rate, so a right answer left unsure is an error
there. Every answer is judged with its case's own gold labels (`eval.required_facts`,
`eval.forbidden_facts`).
"""

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core import load_case  # noqa: E402
from repair_core._io import write_marked_block  # noqa: E402
from repair_core.bench import final_request, judge_recovery, missing_facts  # noqa: E402
from repair_core.content import fact_stated  # noqa: E402

ANSWERS = ROOT / "benchmarks" / "answers" / "answers.jsonl"
LANGUAGES_FRESH = ROOT / "benchmarks" / "answers" / "languages-fresh.jsonl"
ROUNDS = tuple(ROOT / "benchmarks" / "answers" / f"round{n}.jsonl" for n in range(4, 15))
"""`round4.jsonl` to `round14.jsonl`, in the order they were written."""
HELDOUT_15 = ROOT / "benchmarks" / "answers" / "heldout-15.jsonl"
"""The round-15 held-out set, written blind after round 14."""
HELDOUT_16 = ROOT / "benchmarks" / "answers" / "heldout-16.jsonl"
"""The round-16 held-out set, written blind after round 15's mends."""
HELDOUT_17 = ROOT / "benchmarks" / "answers" / "heldout-17.jsonl"
"""The round-17 held-out set, written blind after round 16's mends."""
HELDOUT_18 = ROOT / "benchmarks" / "answers" / "heldout-18.jsonl"
"""The round-18 held-out set, written blind after round 17's mends."""
Outcome = Literal["recovered", "not recovered", "unsure"]
BEGIN, END = "<!-- answer-oracle:begin -->", "<!-- answer-oracle:end -->"
DOC = ROOT / "docs" / "benchmark.md"
Split = Literal["dev", "held-out", "fresh", "languages", "languages-fresh", "english-round4",
                "other-languages", "english-round5", "other-languages-round5",
                "english-round6", "other-languages-round6", "english-round7",
                "other-languages-round7", "english-round8", "other-languages-round8",
                "english-round9", "other-languages-round9", "english-round10",
                "other-languages-round10", "english-round11", "other-languages-round11",
                "english-round12", "other-languages-round12", "english-round13",
                "other-languages-round13", "other-languages-round14", "english-heldout15",
                "other-languages-heldout15", "english-heldout16", "other-languages-heldout16",
                "english-heldout17", "other-languages-heldout17", "english-heldout18",
                "other-languages-heldout18"]
SPLITS: tuple[str, ...] = get_args(Split)


class Answer(BaseModel):
    """One hand-written answer with its reviewer's verdict."""

    # the id and category go into Markdown tables of docs/benchmark.md, and the case names
    # a file read: each is held to a plain shape, so no answer file writes Markdown or
    # HTML there, or reads a file outside the committed cases
    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    """Unique id: the case's short id and a running number."""
    case: str = Field(pattern=r"^sample_traces/(?:[A-Za-z0-9_-]+/)*[A-Za-z0-9._-]+\.json$")
    """Path of the committed case file under `sample_traces/`, relative to the repository
    root."""
    answer: str
    """The answer's text, as a model could write it."""
    verdict: Literal["right", "wrong"]
    """The reviewer's verdict from the world's truth, never from an oracle."""
    category: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
    """What the answer tests, in kebab case: paraphrase, format, negation, pending, hedge, history,
    rejection-of-poison, poison-stated, other-item, omission, question, and in
    `round5.jsonl` to `round8.jsonl` also options, conditional, partial,
    self-correction, refusal or repeated-action."""
    split: Split
    """`dev`: used while tuning the oracle; `held-out`: written with `dev`, not used to
    tune it; `fresh`: written after the oracle's rules were final, run once; `languages`:
    French, German and Spanish answers first run once after the reader's rules for those
    languages were final, since then the development split of the rules for other
    languages; `languages-fresh`: answers in six languages written by another author
    without reading the oracle (`languages-fresh.jsonl`), run once after the rules for
    other languages were final; `english-round4` and `other-languages`: English answers
    and answers in languages the reader does not read, over cases no other set uses,
    written blind by another author (`round4.jsonl`), run once after the rules for
    unread languages and status requests were final; `english-round5` and
    `other-languages-round5`: English answers and answers in nine other languages,
    over cases no earlier set uses, written blind by another author (`round5.jsonl`), run
    once; `english-round6` and `other-languages-round6`: English answers and answers in
    ten other languages, mostly over the cases earlier sets use least, written blind by
    another author (`round6.jsonl`), run once; `english-round7` and
    `other-languages-round7`: the same again over the cases earlier sets use least,
    written blind by another author (`round7.jsonl`), run once; `english-round8` and
    `other-languages-round8`: English answers and answers in fifteen other languages
    over cases earlier sets use least, written blind by another author
    (`round8.jsonl`), run once; `english-round9` and `other-languages-round9`: the same
    again over cases earlier sets use least, in kinds earlier rounds did not use, written
    blind by another author (`round9.jsonl`), run once; `english-round10` and
    `other-languages-round10`: the same again, written blind by another author after the
    oracle's last mends of the session (`round10.jsonl`), run once; `english-round11`
    and `other-languages-round11`: the same again, in kinds earlier rounds did not use,
    written blind by another author (`round11.jsonl`), run once; `english-round12` and
    `other-languages-round12`: the same again in 22 languages, written blind by another
    author (`round12.jsonl`), run once; `english-round13` and `other-languages-round13`:
    the same again in 28 languages, written blind by another author while the oracle's
    readers of more languages were being written by a helper who did not read them
    (`round13.jsonl`), run once before those mends landed; `other-languages-round14`: 48
    answers in 20 languages no earlier set writes (Icelandic, Welsh, Latvian, Lithuanian,
    Albanian, Afrikaans, Basque, Irish, Maltese, Esperanto, Croatian, Estonian, Tagalog,
    Georgian, Armenian, Amharic, Tamil, Khmer, Uzbek, Azerbaijani), Malay (whose neighbour
    Indonesian earlier sets write) and three
    code-mixed phrasings (Hinglish, Spanglish, Taglish), two answers a case, one right and
    one wrong, over 24 controlled cases (`round14.jsonl`), written by a helper who had read
    the oracle's code, not blind, each verdict fixed from the case's labels and committed
    before any oracle ran on them; `english-heldout15` and `other-languages-heldout15`:
    101 English answers and 45 in Welsh, Tagalog, Basque, Croatian, Danish, Norwegian,
    Slovak, Slovenian, Serbian, Cebuano, Somali, Yoruba, Zulu and Luxembourgish over 28
    controlled, adapted and multi-session cases (`heldout-15.jsonl`), written blind by a
    helper who had not read the oracle, each verdict fixed from the case's labels and
    committed before any oracle ran on them; `english-heldout16` and
    `other-languages-heldout16`: 91 English answers and 47 in Yoruba, Zulu, Luxembourgish,
    Slovenian, Serbian (Latin and Cyrillic), Macedonian, Hausa, Xhosa, Haitian Creole,
    Malagasy, Kazakh, Javanese and Maori over 28 controlled, adapted and multi-session
    cases (`heldout-16.jsonl`), written blind the same way; `english-heldout17` and
    `other-languages-heldout17`: 88 English answers and 48 in fifteen languages earlier
    sets write and nine none does (Bulgarian, Belarusian, Mongolian, Bengali, Urdu,
    Nepali, Punjabi, Scottish Gaelic, Sundanese) over 30 controlled, adapted and
    multi-session cases (`heldout-17.jsonl`), written blind the same way;
    `english-heldout18` and `other-languages-heldout18`: 80 English answers and 48 in
    eleven languages earlier sets write and nine none does (Marathi, Gujarati, Telugu,
    Kannada, West Frisian, Yiddish, Latin, Kurmanji, Tajik) over 33 controlled-noisy,
    controlled, adapted and multi-session cases (`heldout-18.jsonl`), written blind the
    same way."""


def load_answers(paths: tuple[Path, ...] = (ANSWERS, LANGUAGES_FRESH, *ROUNDS, HELDOUT_15,
                                           HELDOUT_16, HELDOUT_17, HELDOUT_18)
                 ) -> list[Answer]:
    return [Answer.model_validate_json(line) for path in paths for line in
            path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _labels(case: str) -> tuple[list[str], list[str], str]:
    """The case's required and forbidden facts and the user's request its answer answers
    (a case whose labels list no forbidden facts, as `figure1-travel.json`, forbids none)."""
    ev = json.loads((ROOT / case).read_text(encoding="utf-8"))["eval"]
    return (list(ev["required_facts"]), list(ev.get("forbidden_facts", [])),
            final_request(load_case(ROOT / case)))


def _outcome(recovered: bool) -> Outcome:
    return "recovered" if recovered else "not recovered"


def _strict(answer: str, required: list[str], forbidden: list[str], request: str) -> Outcome:
    return judge_recovery(answer, required, forbidden, request=request).outcome


def _paper(answer: str, required: list[str], forbidden: list[str], request: str) -> Outcome:
    return _outcome(not missing_facts(answer, required, forbidden, request=request))


def _substring(answer: str, required: list[str], forbidden: list[str],
               request: str) -> Outcome:
    return _outcome(bool(required) and all(fact_stated(answer, f) for f in required)
                    and not any(fact_stated(answer, f) for f in forbidden
                                if f not in required))


RULES: dict[str, Callable[[str, list[str], list[str], str], Outcome]] = {
    "strict rule (is_recovered)": _strict,
    "paper rule (required facts only)": _paper,
    "whole-word rule (no reading)": _substring,
}
"""The oracles compared: the strict rule every table reports, the paper's rule (required
facts only, read the same way) and plain whole-word matching of every label (a fact's
normalised words anywhere in the answer, negated or not). Each reads the answer with its
case's labels and the user's request it answers (`final_request`)."""


def judge(answers: list[Answer]) -> dict[str, list[tuple[Answer, Outcome]]]:
    """rule -> [(answer, the rule's outcome)]."""
    labels: dict[str, tuple[list[str], list[str], str]] = {}
    out: dict[str, list[tuple[Answer, Outcome]]] = {name: [] for name in RULES}
    for a in answers:
        if a.case not in labels:
            labels[a.case] = _labels(a.case)
        req, forb, request = labels[a.case]
        for name, rule in RULES.items():
            out[name].append((a, rule(a.answer, req, forb, request)))
    return out


def decided_wrong(rows: list[tuple[Answer, Outcome]]) -> list[Answer]:
    """Answers the rule decided and got wrong: a wrong one recovered, a right one not."""
    return [a for a, o in rows if o != "unsure" and (o == "recovered") != (a.verdict == "right")]


def unsure(rows: list[tuple[Answer, Outcome]]) -> list[Answer]:
    """Answers the rule deferred to a judge."""
    return [a for a, o in rows if o == "unsure"]


def errors(rows: list[tuple[Answer, Outcome]]) -> list[Answer]:
    """Errors with an unsure answer counted as not recovered, as every recovery rate
    counts it: a right answer left unsure is an error."""
    return [a for a, o in rows if (o == "recovered") != (a.verdict == "right")]


def _cell(rows: list[tuple[Answer, Outcome]]) -> str:
    if not rows:
        return "–"
    return f"{len(errors(rows))}/{len(rows)}"


def split_table(answers: list[Answer], split: str) -> str:
    chosen = [a for a in answers if a.split == split]
    verdicts = judge(chosen)
    categories = sorted({a.category for a in chosen})
    n_right = sum(a.verdict == "right" for a in chosen)
    cases = len({a.case for a in chosen})
    lines = [f"Split `{split}`: {len(chosen)} answers ({n_right} right, "
             f"{len(chosen) - n_right} wrong) over {cases} cases. Per rule: answers decided "
             "wrong, answers left unsure (deferred to a judge), and the errors with an "
             "unsure answer counted as not recovered, overall and per category "
             "(errors/answers):", "",
             "| rule | decided wrong | unsure | errors, unsure as not recovered | "
             + " | ".join(categories) + " |",
             "|---|---:|---:|---:|" + "---:|" * len(categories)]
    for name, rows in verdicts.items():
        errs = errors(rows)
        per = [_cell([(a, v) for a, v in rows if a.category == c]) for c in categories]
        lines.append(f"| {name} | {len(decided_wrong(rows))} | {len(unsure(rows))} | "
                     f"{len(errs)} of {len(rows)} ({len(errs) / len(rows):.1%}) | "
                     + " | ".join(per) + " |")
    strict = next(iter(RULES))
    wrong = ", ".join(f"{a.id} ({a.verdict})" for a in decided_wrong(verdicts[strict]))
    deferred = ", ".join(f"{a.id} ({a.verdict})" for a in unsure(verdicts[strict]))
    lines += ["", f"- {strict} decides wrong on: {wrong or 'none'}",
              f"- {strict} is unsure of: {deferred or 'none'}"]
    return "\n".join(lines) + "\n"


def section(answers: list[Answer] | None = None, splits: tuple[str, ...] = SPLITS) -> str:
    answers = load_answers() if answers is None else answers
    return "\n".join(split_table(answers, s) for s in splits)


_ROW = re.compile(r"^\| (?P<rule>[^|]+?) \| (?P<wrong>\d+) \| (?P<unsure>\d+) \| "
                  r"(?P<errors>\d+) of (?P<n>\d+) ", re.M)


class Recorded(BaseModel):
    """One rule's figures on one split as docs/benchmark.md records them."""

    decided_wrong: int
    """Answers the rule decided wrong."""
    unsure: int
    """Answers the rule left unsure."""
    errors: int
    """Errors with an unsure answer counted as not recovered."""


def recorded_errors(doc: str) -> dict[tuple[str, str], Recorded]:
    """(split, rule) -> the figures recorded in the docs' section."""
    block = doc[doc.index(BEGIN):doc.index(END)]
    out: dict[tuple[str, str], Recorded] = {}
    for part in block.split("Split `")[1:]:
        split = part[:part.index("`")]
        for m in _ROW.finditer(part):
            out[(split, m.group("rule"))] = Recorded(
                decided_wrong=int(m.group("wrong")), unsure=int(m.group("unsure")),
                errors=int(m.group("errors")))
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
