"""What each carrier judge gets wrong on text nobody on the project wrote, and what the
repair pipeline still leaves behind on held-out cases.

    python benchmarks/carrier_judges.py                  # the lexical judge, every case
    python benchmarks/carrier_judges.py --judge openai/gpt-4o-mini   # and a model judge
    python benchmarks/carrier_judges.py --json           # one JSON object for machines
    python benchmarks/carrier_judges.py --markdown       # the tables of docs/benchmark.md

Part one reads `benchmarks/carriers/items.jsonl`: each item is a diagnosed fault (its text,
and its slot key and value where it has one), a candidate text an agent could read next,
the user's turns when they matter, and a reviewer's verdict (`carries`: yes, no, or unsure
where a careful person would have to look). Every judge is asked whether the candidate
carries the fault's content signature; per judge and category the script counts missed
carriers (the reviewer says yes, the judge no), false positives (the reviewer no, the judge
yes), what the judge left unsure, and reviewer-unsure items the judge called no (nobody
would look at them).

The judges: the content scorer alone (`repair_core.content.match` at its threshold, yes
or no), the lexical judge (`repair_core.judge.LexicalJudge`, which refines the scorer's
answer and may say unsure), and with `--judge MODEL` (a litellm model string) the model
judge `repair_core.judge.ModelJudge`.

Part two runs each case of `benchmarks/carriers/cases/` through the command line, in this
process: `dgrr plan --json`, `dgrr repair --json`, `dgrr verify`, under the objectives
`answer` and `store`. From the repaired store (`store.active` of the result) and the
reviewer's labels in `cases/reviewer.json` it counts: a false "clean" (verify exits 0 while
a record the reviewer says must not remain is active, or a record the replay wrote holds
the fault's payload), payload written back (an active record the replay wrote, not in the
case, whose text or value holds one of the reviewer's payload strings, compared after
NFKC and case folding with letters and digits only, or, for a payload naming a host or
an address, without white space but with its dots and hyphens, a defanged dot or `@`
such as `[.]`, `(dot)` or `[@]` read as the character it stands for), and benign records
lost (the
reviewer's benign ids no longer active).
"""


import argparse
import contextlib
import importlib
import io
import json
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core._text import markdown_text, printable  # noqa: E402
from repair_core.cli import main as dgrr  # noqa: E402
from repair_core.content import THRESHOLD, ContentSignature, match, signature_of  # noqa: E402
from repair_core.judge import Judge, Judgement, LexicalJudge, Verdict  # noqa: E402

ITEMS = ROOT / "benchmarks" / "carriers" / "items.jsonl"
CASES = ROOT / "benchmarks" / "carriers" / "cases"
REVIEWER = "reviewer.json"
"""The file of `CASES` holding the reviewer's labels of every case (not a case)."""

CATEGORIES = ("paraphrase", "synonyms", "added-words", "translation", "formats", "unicode",
              "split-payload", "summary", "negation", "warning", "user-quote",
              "benign-lookalike")
"""Every category of the item set, in the order the tables list them."""

OBJECTIVES = ("answer", "store")

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fault(_Strict):
    """The diagnosed record, as the judge's signature is built from it."""

    text: str
    """The record's text."""
    key: str | None = None
    """Its slot key, when the record has one."""
    value: Any = None
    """Its slot value, when the record has one."""


class CarrierItem(_Strict):
    """One line of items.jsonl: a fault, a text an agent could read next, and whether a
    reviewer says the text carries the fault."""

    id: str
    """Unique within the set: the category and a number."""
    category: Literal["paraphrase", "synonyms", "added-words", "translation", "formats",
                      "unicode", "split-payload", "summary", "negation", "warning",
                      "user-quote", "benign-lookalike"]
    """What kind of difficulty the candidate poses (`CATEGORIES`)."""
    domain: str
    """Where such a text occurs: travel, banking, shipping, injection."""
    fault: Fault
    """The diagnosed record."""
    candidate: str
    """The text the agent could read next."""
    carries: Verdict
    """The reviewer's verdict: yes, no, or unsure where a careful person must look."""
    reason: str
    """The reviewer's reason, one line."""
    user_turns: list[str] = Field(default_factory=list)
    """The user's own turns of the session (what they say is left out of the signature)."""


class CaseLabels(_Strict):
    """The reviewer's labels of one held-out case (an entry of cases/reviewer.json)."""

    file: str
    """The case file, relative to the cases folder."""
    variant: str
    """What makes the case hard, in a few words."""
    must_not_remain: list[str]
    """Record ids that carry the fault and must not be active after the repair."""
    benign: list[str]
    """Record ids that are true and must stay active."""
    payload: list[str]
    """Strings only the fault brought in: a record the replay writes that holds one
    carries the fault again."""
    note: str = ""
    """Why the reviewer labelled a record as they did where a careful reader could doubt it
    (a record quoting the payload kept as benign, say); read by people, never by the run."""


class MatchScorer:
    """The content scorer alone (`repair_core.content.match` at `THRESHOLD`) as a judge:
    yes when it matches, else no, never unsure. It is what `LexicalJudge` refines, so
    the two side by side show what the refinement changes."""

    name = f"content.match (score >= {THRESHOLD})"

    def carries(self, text: str, fault: ContentSignature) -> Judgement:
        found = match(fault, text)
        return Judgement(verdict="no" if found is None else "yes",
                         evidence="" if found is None else found.evidence(), judge=self.name)


def model_judge(model: str, api_base: str | None = None, budget: int | None = None) -> Judge:
    """`repair_core.judge.ModelJudge(model)`; SystemExit naming the model when this
    checkout has no model judge or refuses the arguments."""
    make = getattr(importlib.import_module("repair_core.judge"), "ModelJudge", None)
    if make is None:
        raise SystemExit(f"carrier_judges: --judge {model!r}: no model judge in this "
                         "checkout (repair_core.judge.ModelJudge is not there)")
    options: dict[str, Any] = {"api_base": api_base}
    if budget is not None:
        options["budget"] = budget
    try:
        judge: Judge = make(model, **options)
    except ValueError as exc:
        raise SystemExit(f"carrier_judges: --judge {model!r}: {exc}") from None
    return judge


def load_items(path: Path = ITEMS) -> list[CarrierItem]:
    """Every item of `path`; SystemExit(2) naming the line and field of a bad one."""
    items = []
    for n, line in enumerate(_read(path, "--items").splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append(CarrierItem.model_validate_json(line))
        except ValueError as exc:
            raise SystemExit(f"carrier_judges: {printable(path.name)} line {n}: "
                             f"{_first_problem(exc)}") from None
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise SystemExit(f"carrier_judges: {printable(path.name)}: id "
                             f"{printable(item.id)!r} appears twice")
        seen.add(item.id)
    return items


def _read(path: Path, what: str) -> str:
    """The text of `path`; SystemExit naming `what` and the path when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise SystemExit(f"carrier_judges: {what} {printable(str(path))!r}: "
                         f"{printable(reason)}") from None


def _first_problem(exc: ValueError) -> str:
    """The first problem of a validation error as one line: where, and what."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "(the line)"
        return printable(f"{where}: {first.get('msg', '')}"[:300])
    return printable(str(exc).splitlines()[0][:300])


def signature(item: CarrierItem) -> ContentSignature:
    """The item's fault signature, with what the user's turns say left out."""
    return signature_of(item.fault.text, item.fault.value, item.fault.key, node=item.id,
                        user_texts=item.user_turns)


class Tally(BaseModel):
    """One judge's errors on one group of items."""

    items: int = 0
    """Items in the group."""
    carriers: int = 0
    """Items the reviewer says carry the fault."""
    missed: int = 0
    """Carriers the judge called no."""
    benign: int = 0
    """Items the reviewer says do not carry it."""
    false_positives: int = 0
    """Benign items the judge called yes."""
    judge_unsure: int = 0
    """Items the judge answered unsure (a person is asked)."""
    reviewer_unsure: int = 0
    """Items the reviewer marked unsure."""
    unsure_called_no: int = 0
    """Reviewer-unsure items the judge called no: nobody would look at them."""

    def add(self, reviewer: Verdict, judged: Verdict) -> None:
        self.items += 1
        self.judge_unsure += judged == "unsure"
        if reviewer == "yes":
            self.carriers += 1
            self.missed += judged == "no"
        elif reviewer == "no":
            self.benign += 1
            self.false_positives += judged == "yes"
        else:
            self.reviewer_unsure += 1
            self.unsure_called_no += judged == "no"


class JudgeRun(BaseModel):
    """One judge over the whole item set."""

    judge: str
    """The judge's name."""
    total: Tally
    """Over every item."""
    by_category: dict[str, Tally]
    """Per category, in `CATEGORIES` order."""
    wrong: list[str]
    """Ids of the items the judge got wrong (missed, false positive, unsure called no)."""
    seconds: float
    """Time spent judging."""
    model_calls: int | None = None
    """Calls a model judge made (None for a judge without a model)."""
    tokens: int | None = None
    """Tokens those calls used."""
    cost: float | None = None
    """Their cost in USD, as litellm prices them."""


def run_judge(judge: Judge, items: Sequence[CarrierItem]) -> JudgeRun:
    """Ask `judge` about every item and tally its answers against the reviewer's."""
    total = Tally()
    by_category = {c: Tally() for c in CATEGORIES}
    wrong = []
    t0 = time.perf_counter()
    # a model judge quotes the fault's text in its prompt when it is told it
    fault_texts = getattr(judge, "fault_texts", None)
    for item in items:
        if isinstance(fault_texts, dict):
            fault_texts[item.id] = item.fault.text
        judged = judge.carries(item.candidate, signature(item)).verdict
        if judged not in ("yes", "no", "unsure"):
            raise SystemExit(f"carrier_judges: {judge.name}: verdict {judged!r} on "
                             f"{item.id} is not yes, no or unsure")
        total.add(item.carries, judged)
        by_category[item.category].add(item.carries, judged)
        if (item.carries == "yes" and judged == "no") or (item.carries == "no" and judged
                                                          == "yes") \
                or (item.carries == "unsure" and judged == "no"):
            wrong.append(item.id)
    return JudgeRun(judge=judge.name, total=total,
                    by_category={c: t for c, t in by_category.items() if t.items},
                    wrong=wrong, seconds=round(time.perf_counter() - t0, 3),
                    model_calls=getattr(judge, "calls", None),
                    tokens=getattr(judge, "tokens", None), cost=getattr(judge, "cost", None))


# ---- part two: held-out cases through plan, repair and verify ---------------------------


class CaseRun(BaseModel):
    """One case repaired under one objective, measured on its repaired store."""

    case: str
    """The case file's name."""
    variant: str
    """The reviewer's description of what makes it hard."""
    objective: Literal["answer", "store"]
    """The objective the plan and repair ran under."""
    suspected: int
    """Suspected sources and carriers the plan names."""
    verify_exit: int
    """`dgrr verify`'s exit status (0: it calls the result clean; any other: it does not)."""
    remaining: list[str]
    """Must-not-remain records still active in the repaired store."""
    written_back: list[str]
    """Active records the replay wrote (ids not in the case) that hold a payload string."""
    benign_lost: list[str]
    """Benign records no longer active."""
    false_clean: bool
    """verify exited 0 while `remaining` or `written_back` is not empty."""


def load_labels(folder: Path = CASES) -> list[CaseLabels]:
    """The reviewer's labels of every case in `folder`, in file order."""
    where = folder / REVIEWER
    try:
        raw = json.loads(_read(where, "--cases"))
    except ValueError as exc:
        raise SystemExit(f"carrier_judges: {printable(str(where))!r}: not JSON "
                         f"({printable(exc)})") from None
    if not isinstance(raw, list):
        raise SystemExit(f"carrier_judges: {printable(str(where))!r}: expected a list of "
                         "case labels")
    labels = []
    for n, entry in enumerate(raw):
        try:
            labels.append(CaseLabels.model_validate(entry))
        except ValueError as exc:
            raise SystemExit(f"carrier_judges: {REVIEWER}[{n}]: {_first_problem(exc)}") \
                from None
        name = labels[-1].file
        if Path(name).name != name or not (folder / name).is_file():
            raise SystemExit(f"carrier_judges: {REVIEWER}[{n}].file: {printable(name)!r} "
                             "is not a file of the cases folder")
    return sorted(labels, key=lambda c: c.file)


def letters_and_digits(text: str) -> str:
    """`text` after NFKC and case folding, with everything but letters and digits gone:
    the form in which a payload string is looked for."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold()
                   if ch.isalnum())


_DEFANGED_DOTS = tuple(f"{o}{inner}{c}" for o, c in ("[]", "()", "{}") for inner in (".", "dot"))
"""A defanged dot (bracketed so that no reader links the address)."""
_DEFANGED_AT = re.compile(
    r"(?<=[^\W_]|[.+-])\s*[\[({](?:@|at)[\])}]\s*(?=[^\W_][\w-]{0,62}(?:\.|\s*(?:"
    + "|".join(map(re.escape, [*_DEFANGED_DOTS, "\u3002"])) + r")\s*)[^\W\d_])")
"""A defanged `@` (`[@]`, `(@)`, `{@}`, `[at]`, `(at)`, `{at}`) where an address is being
written: after a letter, digit or `.+-` of its local part and before a domain, a label
then a dot (a defanged one with blanks around it, as "[at] hartley-build {.} co" writes)
and a letter. "meet (at) noon" and "meet (at) noon. Then" are words. The label is at
most 63 characters, as DNS's are, so the look ahead is bounded and the search linear."""


def host_form(text: str) -> str:
    """`text` after NFKC and case folding, without white space and format characters,
    every dash a hyphen, a defanged dot (`[.]`, `(.)`, `{.}`, `[dot]`, `(dot)`,
    `{dot}`) a dot and a defanged `@` (`[@]`, `(@)`, `{@}`, `[at]`, `(at)`, `{at}`)
    where an address is being written (`_DEFANGED_AT`) an `@`: the form in which a payload naming a host or an address is looked for, as the
    host or address a defanged spelling names. Its dots, hyphens and `@` stay: with
    letters and digits only, the look-alike `hartley-build.co` was found in the true
    `hartleybuild.co.uk`."""
    text = _DEFANGED_AT.sub("@", unicodedata.normalize("NFKC", text).casefold())
    # the ideographic full stop separates a host's labels as a dot does (IDNA; NFKC
    # makes the full-width and half-width stops a dot or this one)
    for defanged in (*_DEFANGED_DOTS, "\u3002"):
        text = text.replace(defanged, ".")
    return "".join("-" if unicodedata.category(ch) == "Pd" else ch for ch in text
                   if not ch.isspace() and unicodedata.category(ch) != "Cf")


# In `host_form`: an `@` between two letters or digits (a mail or payment address), a
# dotted name whose last label begins with a letter (`hartley-build.co`, `bit.ly/x`,
# `apple-unlock.xn--p1ai`), or a dotted IPv4 address. A dot alone is no sign of a host:
# an amount (`3,275.50`, `1.450,00`), a quantity (`0.5 g`) or a position
# (`41.38739, 2.16861`) is written with other groupings, which `letters_and_digits`
# looks through.
_ADDRESS = re.compile(r"[^\W_]@[^\W_]|[^\W_]\.[^\W\d_][\w-]*(?![\w.])|\d\.\d{1,3}\.\d{1,3}\.\d")


def names_address(payload: str) -> bool:
    """Whether a payload string names a host or an address (`_ADDRESS`)."""
    return _ADDRESS.search(host_form(payload)) is not None


def holds_payload(record: dict[str, Any], payload: Iterable[str]) -> bool:
    """Whether a record's text or value holds one of the `payload` strings: one naming a
    host or an address (`names_address`) in `host_form`, any other (an account, an
    amount) in `letters_and_digits`, whatever its grouping."""
    value = record.get("value")
    said = (f"{record.get('text', '')} "
            f"{'' if value is None else json.dumps(value, ensure_ascii=False)}")
    letters, host = letters_and_digits(said), host_form(said)
    return any(p and (host_form(p) in host if names_address(p)
                      else letters_and_digits(p) in letters)
               for p in payload)


def _dgrr(argv: list[str]) -> tuple[int, str]:
    """Run one dgrr command in this process: (exit status, standard output); standard
    error is kept from the terminal and shown only when the command refused its input
    (2) or was stopped. Any other status is the command's answer (`dgrr verify`: 0 clean,
    1 a carrier remains, another status whatever else it cannot certify)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = dgrr(argv)
    if status == 2 or status >= 128:
        raise SystemExit(f"carrier_judges: dgrr {' '.join(argv[:2])}: exit {status}: "
                         f"{ascii(err.getvalue()[:300])}")
    return status, out.getvalue()


def run_case(folder: Path, labels: CaseLabels, objective: Literal["answer", "store"],
             scratch: Path) -> CaseRun:
    """Plan, repair and verify one case under `objective` and measure its repaired store."""
    path = str(folder / labels.file)
    try:
        case_ids = {m["id"] for m in json.loads(_read(Path(path), "case"))["memory"]}
    except (ValueError, KeyError, TypeError):
        raise SystemExit(f"carrier_judges: case {printable(labels.file)!r}: not a case "
                         "(check it with dgrr validate)") from None
    _status, plan_json = _dgrr(["plan", path, "--json", "--objective", objective])
    suspected = len(json.loads(plan_json).get("suspected") or [])
    _status, result_json = _dgrr(["repair", path, "--json", "--objective", objective])
    result = json.loads(result_json)
    result_path = scratch / f"{Path(labels.file).stem}.{objective}.json"
    result_path.write_text(result_json, encoding="utf-8")
    verify_exit, _ = _dgrr(["verify", str(result_path), "--case", path])
    active = {r["id"]: r for r in result["store"]["active"]}
    remaining = [r for r in labels.must_not_remain if r in active]
    written_back = [rid for rid, r in active.items()
                    if rid not in case_ids and holds_payload(r, labels.payload)]
    return CaseRun(case=labels.file, variant=labels.variant, objective=objective,
                   suspected=suspected, verify_exit=verify_exit, remaining=remaining,
                   written_back=written_back,
                   benign_lost=[b for b in labels.benign if b not in active],
                   false_clean=verify_exit == 0 and bool(remaining or written_back))


def run_cases(folder: Path = CASES, only: Sequence[str] = ()) -> list[CaseRun]:
    """Every case of `folder` (or only the files named in `only`) under each objective."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="carrier-judges-") as tmp:
        for labels in load_labels(folder):
            if only and labels.file not in only:
                continue
            for objective in OBJECTIVES:
                runs.append(run_case(folder, labels, objective, Path(tmp)))
    return runs


# ---- output -----------------------------------------------------------------------------


def cell(value: object) -> str:
    r"""`value` as the text of one Markdown table cell that renders as exactly that text:
    control characters written as escapes (`printable`: a line break never ends the
    row), then the project's escaping of untrusted text for Markdown (`markdown_text`:
    every ASCII punctuation character escaped, so a reviewer's or a case's string shows
    no emphasis, link, HTML or cell break, a regular expression's `|` among them).

    >>> print(cell("paypal(-resolve.info|.com)\n**next**"))
    paypal\(\-resolve\.info\|\.com\)\\x0a\*\*next\*\*
    """
    return markdown_text(printable(value))


def judge_table(run: JudgeRun) -> str:
    """A markdown table of one judge's tallies, per category and in total."""
    head = ("| category | items | carriers | missed | benign | false positives | "
            "judge unsure | reviewer unsure | unsure called no |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    rows = [*run.by_category.items(), ("**all**", run.total)]
    return head + "".join(
        f"| {name} | {t.items} | {t.carriers} | {t.missed} | {t.benign} | "
        f"{t.false_positives} | {t.judge_unsure} | {t.reviewer_unsure} | "
        f"{t.unsure_called_no} |\n" for name, t in rows)


def case_table(runs: Sequence[CaseRun]) -> str:
    """A markdown table of the case runs, one row per case and objective, and totals."""
    head = ("| case | variant | objective | suspects | verify exit | must-not-remain active "
            "| payload written back | benign lost | false clean |\n"
            "|---|---|---|---:|---:|---|---|---|---|\n")

    def ids(xs: Sequence[str]) -> str:
        return ", ".join(map(cell, xs)) or "-"

    body = "".join(
        f"| {cell(Path(r.case).stem)} | {cell(r.variant)} | {r.objective} | "
        f"{r.suspected} | "
        f"{r.verify_exit} | {ids(r.remaining)} | {ids(r.written_back)} | "
        f"{ids(r.benign_lost)} | {'**yes**' if r.false_clean else 'no'} |\n" for r in runs)
    totals = "".join(
        f"| **all** | | {o} | | {sum(r.verify_exit == 0 for r in rs)} clean | "
        f"{sum(bool(r.remaining) for r in rs)} | {sum(bool(r.written_back) for r in rs)} | "
        f"{sum(bool(r.benign_lost) for r in rs)} | {sum(r.false_clean for r in rs)} |\n"
        for o in OBJECTIVES if (rs := [r for r in runs if r.objective == o]))
    return head + body + totals


def judges_side_by_side(runs: Sequence[JudgeRun]) -> str:
    """One markdown table of every judge's tallies per category (docs/benchmark.md's)."""
    head = "| category | items | reviewer yes / no / unsure |" + "".join(
        f" {r.judge}: missed | FP | unsure | unsure called no |" for r in runs)
    rule = "|---|---:|---|" + "---:|---:|---:|---:|" * len(runs)
    lines = [head, rule]
    for cat in [*CATEGORIES, "all"]:
        tallies = [r.total if cat == "all" else r.by_category.get(cat) for r in runs]
        if not runs or tallies[0] is None:
            continue
        t0 = tallies[0]
        assert t0 is not None
        lines.append(f"| {'**all**' if cat == 'all' else cat} | {t0.items} | {t0.carriers} / "
                     f"{t0.benign} / {t0.reviewer_unsure} |" + "".join(
                         f" {t.missed} | {t.false_positives} | {t.judge_unsure} | "
                         f"{t.unsure_called_no} |" for t in tallies if t is not None))
    return "\n".join(lines) + "\n"


def cases_compact(runs: Sequence[CaseRun]) -> str:
    """One markdown row per case, one column per objective (docs/benchmark.md's)."""

    def outcome(r: CaseRun) -> str:
        bits = [f"verify exit {r.verify_exit}"]
        if r.remaining:
            bits.append("remain: " + ", ".join(map(cell, r.remaining)))
        if r.written_back:
            bits.append("written back: " + ", ".join(map(cell, r.written_back)))
        if r.benign_lost:
            bits.append("benign lost: " + ", ".join(map(cell, r.benign_lost)))
        if r.false_clean:
            bits.append("**false clean**")
        return "; ".join(bits)

    by_case: dict[str, dict[str, CaseRun]] = {}
    for r in runs:
        by_case.setdefault(r.case, {})[r.objective] = r
    lines = ["| case | what makes it hard | " + " | ".join(OBJECTIVES) + " |",
             "|---|---|" + "---|" * len(OBJECTIVES)]
    for case, per in by_case.items():
        lines.append(f"| {cell(Path(case).stem)} | "
                     f"{cell(next(iter(per.values())).variant)} | "
                     + " | ".join(outcome(per[o]) if o in per else "-" for o in OBJECTIVES)
                     + " |")
    for o in OBJECTIVES:
        rs = [r for r in runs if r.objective == o]
        lines.append(f"\n{o}: {sum(r.verify_exit == 0 for r in rs)} of {len(rs)} called "
                     f"clean, {sum(r.verify_exit == 1 for r in rs)} carriers, "
                     f"{sum(r.verify_exit not in (0, 1) for r in rs)} neither (not "
                     f"certified); false clean {sum(r.false_clean for r in rs)}; a must-not-remain "
                     f"record active in {sum(bool(r.remaining) for r in rs)}; payload written "
                     f"back in {sum(bool(r.written_back) for r in rs)}; benign lost in "
                     f"{sum(bool(r.benign_lost) for r in rs)}.")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run and print; 2 with one line on standard error when an input is bad."""
    try:
        return _run(argv)
    except SystemExit as exc:
        if not isinstance(exc.code, str):
            raise
        print(exc.code, file=sys.stderr)
        return 2


def _run(argv: Sequence[str] | None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--judge", action="append", default=[], metavar="MODEL",
                    help="also run the model judge with this litellm model (repeatable)")
    ap.add_argument("--api-base", default=None, help="API base URL for the --judge models")
    ap.add_argument("--judge-budget", type=int, default=None, metavar="N",
                    help="model calls each model judge makes at most (its default otherwise)")
    ap.add_argument("--items", type=Path, default=ITEMS, help="the item set (JSONL)")
    ap.add_argument("--cases", type=Path, default=CASES, help="the folder of held-out cases")
    ap.add_argument("--no-items", action="store_true", help="skip part one")
    ap.add_argument("--no-cases", action="store_true", help="skip part two")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--markdown", action="store_true",
                    help="print the two tables docs/benchmark.md records")
    args = ap.parse_args(argv)
    judges = [MatchScorer(), LexicalJudge(), *(model_judge(m, args.api_base, args.judge_budget) for m in args.judge)]
    t0 = time.perf_counter()
    items = [] if args.no_items else load_items(args.items)
    judged = [run_judge(j, items) for j in judges] if items else []
    cases = [] if args.no_cases else run_cases(args.cases)
    seconds = round(time.perf_counter() - t0, 1)
    if args.json:
        sys.stdout.write(json.dumps({"items": len(items),
                                     "judges": [r.model_dump() for r in judged],
                                     "cases": [r.model_dump() for r in cases],
                                     "seconds": seconds}, indent=1) + "\n")
        return 0
    if args.markdown:
        print(judges_side_by_side(judged))
        print(cases_compact(cases))
        return 0
    for r in judged:
        calls = "" if r.model_calls is None else \
            f", {r.model_calls} model calls, {r.tokens} tokens, ${r.cost or 0:.4f}"
        print(f"## {r.judge}: {len(items)} items, {r.seconds:.2f} s{calls}\n")
        print(judge_table(r))
        print("wrong:", ", ".join(map(printable, r.wrong)) or "none", "\n")
    if cases:
        print(f"## cases: {len(cases) // len(OBJECTIVES)} cases x {len(OBJECTIVES)} "
              "objectives\n")
        print(case_table(cases))
    print(f"{seconds} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
