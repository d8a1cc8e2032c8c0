"""`dgrr verify RESULT.json --case CASE.json`: check a repair result by content — does
anything the agent reads next still carry a fault?"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .._errors import DgrrError
from .._text import printable
from . import plural, read_json
from .judging import add_judge_arguments, judge_from

EXIT_CLEAN, EXIT_CARRIER, EXIT_NOT_CERTIFIED = 0, 1, 3
EXITS = {"clean": EXIT_CLEAN, "carriers": EXIT_CARRIER, "not_certified": EXIT_NOT_CERTIFIED}
"""`dgrr verify`'s exit status for each outcome of the check (2 is bad input)."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify", help="check a repair result by content: exit 1 while a carrier of a fault "
                       "remains, 3 when it is not certified clean",
        description="Match the result's corrected answer, every replayed output and every "
                    "active record of the store applying it would leave (recomputed from "
                    "the case and its store changes; a result that says otherwise is "
                    "refused, exit 2) against the content signature of "
                    "each diagnosed fault of the case (and each suspected source the result "
                    "names), whatever the lineage says; what the lexical judge leaves unsure "
                    "goes to the model judge (--judge). Exit 0 when certified clean, 1 while "
                    "a carrier remains, 3 when no carrier was found but something is not "
                    "certified, 2 on bad input.")
    p.add_argument("result", metavar="RESULT.json",
                   help="repair result (dgrr repair --json, or result.json of --out)")
    p.add_argument("--case", metavar="CASE.json", required=True,
                   help="the case the result repaired (its faults are what is looked for)")
    p.add_argument("--json", action="store_true",
                   help="print the verification as one JSON object (the `verification` "
                        "section `dgrr repair` writes)")
    add_judge_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .._io import to_json
    from ..case._load import load_case
    from ..verification import replay_recomputable, verify_result

    result = read_json(args.result, "RESULT")
    if not isinstance(result, dict):
        raise DgrrError(f"RESULT: expected a JSON object, got {type(result).__name__}")
    case = load_case(args.case)
    report = result.get("report")
    rid = report.get("case_id") if isinstance(report, dict) else None
    if rid != case.case_id:
        raise DgrrError(f"RESULT: report.case_id: the result repairs case "
                        f"{printable(str(rid)[:80])!r}, not {printable(case.case_id)!r}")
    verification = verify_result(case, result, judge=judge_from(args))
    if replay_recomputable(result):
        from ..replay import replay_again

        replay_again(case, result)  # rule gate.replay-recomputed
    if args.json:
        sys.stdout.write(to_json(verification.model_dump(mode="json")))
    else:
        write_verification(verification, sys.stdout, case_id=case.case_id,
                           replay_cost=_replay_cost(result.get("cost")))
    return EXITS[verification.outcome]


def _replay_cost(cost: Any) -> str:
    """`635 LLM calls, 846175 tokens` from a result's `cost`, or "" when it has none."""
    if not isinstance(cost, dict):
        return ""
    calls, tokens = cost.get("llm_calls"), cost.get("tokens")
    if (not isinstance(calls, int) or not isinstance(tokens, int) or isinstance(calls, bool)
            or isinstance(tokens, bool)):
        return ""
    return f"{plural(calls, 'LLM call')}, {plural(tokens, 'token')}"


def write_verification(v: Any, out: TextIO, *, case_id: str = "", replay_cost: str = ""
                       ) -> None:
    """The verification as plain text; every string from the case or the model is
    escaped (no control character reaches the terminal). `replay_cost`: what the repair's
    replay spent, shown beside the model judge's."""
    w = out.write
    c = v.checked
    head = f"Verification of {printable(case_id)}" if case_id else "Verification"
    w(f"{head}: checked {plural(c.answer, 'answer')}, {plural(c.outputs, 'replayed output')}, "
      f"{plural(c.records, 'active record')}, {plural(c.blocked_writes, 'blocked write')} "
      f"against {plural(c.signatures, 'signature')}\n")
    for f in v.faults:
        what = "suspected source" if f.source == "suspected_source" else "fault"
        tokens = ", ".join(printable(t) for t in f.tokens[:8]) or "none"
        w(f"  {what} {printable(f.node)}: {plural(len(f.carriers), 'carrier')}, "
          f"{plural(len(f.blocked), 'blocked write')} (tokens: {tokens}"
          + (f"; markers: {', '.join(f.markers)}" if f.markers else "") + ")\n")
    if v.carriers:
        w(f"\nCARRIERS ({len(v.carriers)}): the agent would read a fault again; an approval "
          "must acknowledge each (dgrr approve --acknowledge ID):\n")
        for k in v.carriers:
            w(f"  {printable(k.id)}  [{k.kind}] carries {printable(k.fault)}: "
              f"{printable(k.evidence)}\n")
            w(f"      text: {printable(' '.join(k.text.split())[:200])}\n")
    if v.blocked:
        w(f"\nBlocked writes ({len(v.blocked)}): not applied because they carry a fault; "
          "each needs a human:\n")
        for b in v.blocked:
            w(f"  {printable(b.step)} carries {printable(b.fault)}: {printable(b.evidence)}\n")
    if v.uncertain:
        w(f"\nNOT CERTIFIED ({len(v.uncertain)}): no judge could clear these; an approval "
          "must acknowledge each like a carrier (dgrr approve --acknowledge ID):\n")
        for u in v.uncertain:
            w(f"  {printable(u.id)}  [{u.kind}] may carry {printable(u.fault)} "
              f"({u.reason}, {printable(u.judge)}): {printable(u.why)}\n")
            w(f"      text: {printable(' '.join(u.text.split())[:200])}\n")
    use = v.judge_use
    if use.calls or use.cached or use.unasked or v.judge_estimate is not None:
        w(f"\nModel judge: {plural(use.calls, 'call')}, {use.cached} cached, "
          f"{plural(use.tokens, 'token')}, ${use.cost:.4f}"
          + (f"; {use.unasked} left unasked by --judge-budget" if use.unasked else "")
          + (f" (the repair's replay: {replay_cost})" if replay_cost else "") + "\n")
    w(f"\n{printable(v.summary())}\n")
