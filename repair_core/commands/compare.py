"""`dgrr compare RESULT_A RESULT_B`: what differs between two repair results of one case
(e.g. two replays of a plan with different models): the answers, where each record ends,
each step's outcome and new output."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .._errors import DgrrError
from .._text import printable
from . import plural, read_json

# a step's or record's text is clipped to this many characters in the printed lines
_CLIP = 120


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compare", help="what differs between two repair results of one case",
                       description="Compare two repair results (dgrr repair --json, or "
                                   "result.json of --out): whether the corrected answers "
                                   "agree, the records each leaves in a different place or "
                                   "with a different text, and the steps whose outcome or new "
                                   "output differ. Exit 0 when nothing differs, 1 otherwise.")
    p.add_argument("result_a", metavar="RESULT_A", help="the first repair result")
    p.add_argument("result_b", metavar="RESULT_B", help="the second repair result")
    p.add_argument("--json", action="store_true",
                   help="print the comparison as one JSON object")
    p.set_defaults(func=run)


def _result(path: str, name: str) -> Any:
    from pydantic import ValidationError

    from ..replay import RepairResult

    data = read_json(path, name)
    if not isinstance(data, dict):
        raise DgrrError(f"{name}: expected a JSON object, got {type(data).__name__}")
    try:
        return RepairResult.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "(root)"
        more = len(exc.errors()) - 1
        raise DgrrError(f"{name}: {where}: {err['msg']}"
                        + (f" (and {plural(more, 'more problem')})" if more else "")) from None


def _clip(text: str | None) -> str:
    if text is None:
        return "(answer generation failed)"
    flat = " ".join(text.split())
    return flat if len(flat) <= _CLIP else flat[:_CLIP - 1] + "…"


def run(args: argparse.Namespace) -> int:
    from ..result_compare import compare_results

    diff = compare_results(_result(args.result_a, "RESULT_A"), _result(args.result_b, "RESULT_B"))
    if args.json:
        print(json.dumps(diff.model_dump(mode="json"), ensure_ascii=False))
        return 0 if diff.same else 1
    lines = [f"A: case '{diff.case_a}', model {diff.model_a}",
             f"B: case '{diff.case_b}', model {diff.model_b}"]
    if diff.case_a != diff.case_b:
        lines.append("the two results repair different cases")
    if diff.answers_agree:
        lines.append("answers: the same")
    else:
        lines += ["answers differ:", f"  A: {_clip(diff.answer_a)}", f"  B: {_clip(diff.answer_b)}"]
    lines.append(f"records: {len(diff.records)} of {diff.records_compared} differ")
    lines += [f"  {r.id}: {r.placement_a} -> {r.placement_b}"
              + (f" (text A: {_clip(r.text_a)} | text B: {_clip(r.text_b)})"
                 if r.text_a != r.text_b else "") for r in diff.records]
    lines.append(f"steps: {len(diff.steps)} of {diff.steps_compared} differ")
    lines += [f"  {s.id} ({s.type}): {s.outcome_a or '-'} -> {s.outcome_b or '-'}"
              + (f" (A: {_clip(s.output_a)} | B: {_clip(s.output_b)})"
                 if s.output_a != s.output_b else "") for s in diff.steps]
    # every line holds text of the results: shown escaped, never raw to the terminal
    print("\n".join(printable(line) for line in lines))
    return 0 if diff.same else 1
