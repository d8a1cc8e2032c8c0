"""Subcommands of `dgrr`, one module each (see `repair_core.cli`)."""

from __future__ import annotations

import argparse
import math
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .._errors import DgrrError, PlanEditError
from .._io import read_json as read_json  # the command modules import it from here
from .._text import plural as plural  # the command modules import it from here

# The library is imported where it is used, so that a command's start-up pays only for
# what that command needs (`dgrr validate` on a large case needs no pydantic model).
if TYPE_CHECKING:
    from ..case._case import Case
    from ..model import ModelClient
    from ..plan._plan import RepairPlan

DEFAULT_TIMEOUT = 60.0  # the same default as ModelClient's (kept here so --help needs no import)


def positive_seconds(text: str) -> float:
    """argparse type: a finite number of seconds greater than 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of seconds "
                                         "above 0")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1")
    return value


def checkout_root() -> Path | None:
    """The dgrr checkout this package runs from (the folder holding `sample_traces/`), or
    None for an installed copy: suite names resolve there, not in the current folder."""
    root = Path(__file__).resolve().parent.parent.parent
    return root if (root / "sample_traces").is_dir() else None


def add_bounds_arguments(parser: argparse.ArgumentParser) -> None:
    """--timeout and --deadline: how long model calls may take."""
    parser.add_argument("--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help=f"give up on one model call after this long (default "
                             f"{DEFAULT_TIMEOUT:g}); the SDK's own retries are off")
    parser.add_argument("--deadline", type=positive_seconds, default=None, metavar="SECONDS",
                        help="give up on the whole run's model calls after this long, counted "
                             "from the first call, retries included (default: none)")


def model_client(args: argparse.Namespace) -> ModelClient:
    """The model client the command's --model/--api-base/--timeout/--deadline describe."""
    from ..model import ModelClient

    return ModelClient(args.model, args.api_base, timeout=args.timeout, deadline=args.deadline,
                       keep_log=False)  # no command reads the calls back


def wrap(text: str, head: str, indent: int, width: int = 100) -> str:
    """`head` followed by `text` wrapped at word boundaries to `width` columns, every
    further line indented by `indent` spaces; nothing is cut.

    >>> print(wrap("alpha beta gamma", "  x: ", indent=5, width=16))
      x: alpha beta
         gamma
    """
    text = " ".join(str(text).split())
    return textwrap.fill(text, width=width, initial_indent=head,
                         subsequent_indent=" " * indent, break_long_words=False,
                         break_on_hyphens=False) or head.rstrip()


def add_case_argument(parser: argparse.ArgumentParser) -> None:
    """CASE, and --memory for a case given as a trajectory file plus a memory-store file."""
    parser.add_argument("case", help="path of the case JSON (or of the trajectory, with --memory)")
    parser.add_argument("--memory", metavar="FILE", default=None,
                        help="memory-store JSON (a list of records or {\"memory\": [...]}) "
                             "when CASE is a trajectory without its store")
    parser.add_argument("--faults", metavar="IDS", default=None,
                        help="comma-separated ids to mark as the diagnosed faults, instead "
                             "of the case's own (an empty string marks none): memory records, "
                             "tool observations (a tool result or retrieved document) or user "
                             "turns")


def add_objective_argument(parser: argparse.ArgumentParser, default: str) -> None:
    """--objective answer|store|both (see `plan_case`). Left unset it is None, and the
    command plans for `default`, or for `store` when the case has no answer step
    (`resolve_objective`)."""
    parser.add_argument("--objective", choices=("answer", "store", "both"), default=None,
                        help="what the plan repairs: answer (the last run's final answer, as "
                             "the paper defines it), store (the memory the next session "
                             "reads; no past answer is regenerated) or both "
                             f"(default: {default}; store for a case without an answer "
                             "step, e.g. a Mem0 history imported on its own)")


def add_suspects_argument(parser: argparse.ArgumentParser, *,
                          from_result: bool = False) -> None:
    """--suspects quarantine|flag|off, --not-suspect IDS and --clean-source ID=REASON
    (see `plan_case`).
    `from_result`: left unset they are None, and the command takes them from its
    --result (else the defaults)."""
    default = "the --result's, else quarantine" if from_result else "quarantine"
    parser.add_argument("--suspects", choices=("quarantine", "flag", "off"),
                        default=None if from_result else "quarantine",
                        help="what the plan does with what the faults' content finds beyond "
                             "their lineage (docs/method.md, Suspects): quarantine cleans a "
                             "suspected source like a diagnosed fault and, under --objective "
                             "store or both, quarantines an active suspected carrier record; "
                             f"flag lists them only; off looks for none (default: {default})")
    parser.add_argument("--not-suspect", metavar="IDS", default=None if from_result else "",
                        help="comma-separated ids a reviewer un-marked: never a suspected "
                             "source or carrier"
                             + (" (default: the --result's, else none)" if from_result else ""))
    parser.add_argument("--clean-source", metavar="ID=REASON", action="append",
                        default=None if from_result else [],
                        help="ID=REASON: a suspected source the plan lists (e.g. one "
                             "flagged by lineage) that the reviewer cleans like a diagnosed "
                             "fault, REASON saying why (it goes into the source's reason "
                             "line and the result); repeat for each"
                             + (" (default: the --result's, else none)" if from_result
                                else ""))


def not_suspect_ids(args: argparse.Namespace, known: Iterable[str]) -> list[str]:
    """The ids of --not-suspect, each checked against `known` (the case's ids)."""
    ids = [f.strip() for f in (getattr(args, "not_suspect", "") or "").split(",") if f.strip()]
    if not ids:
        return ids
    unknown = sorted(set(ids) - set(known))
    if unknown:
        raise DgrrError("--not-suspect: not an id of the case: "
                        + ", ".join(repr(u) for u in unknown))
    return ids


def clean_source_ids(args: argparse.Namespace, known: Iterable[str]) -> dict[str, str]:
    """The sources of --clean-source (ID=REASON, repeated) -> their reasons, each id
    checked against `known` (the case's ids) and each given a reason. Whether each is a
    suspected source is the plan's to say (`plan_case` refuses one that is not)."""
    given = getattr(args, "clean_source", None) or []
    if not given:
        return {}
    out: dict[str, str] = {}
    problems: list[str] = []
    ids = set(known)
    for item in given:
        node, sep, reason = item.partition("=")
        node, reason = node.strip(), reason.strip()
        if not sep or not reason:
            problems.append(f"{item!r}: expected ID=REASON (the reviewer's reason is "
                            "recorded with the cleaning)")
        elif node not in ids:
            problems.append(f"{node!r}: not an id of the case")
        elif node in out:
            problems.append(f"{node!r}: given twice")
        else:
            out[node] = reason
    if problems:
        raise DgrrError("--clean-source: " + "; ".join(problems))
    return out


def case_ids(case: Case) -> set[str]:
    """Every turn, step and record id of `case`."""
    return ({t.id for t in case.session} | {s.id for s in case.trajectory}
            | {m.id for m in case.memory})


def read_case(args: argparse.Namespace, raw: bytes | None = None,
              references_checked: bool = False) -> Case:
    """The case the command's arguments name (from `raw`, the case file's bytes, when the
    command has read them already; `references_checked`: the columnar reader accepted
    those bytes, see `parse_case_in_chunks`)."""
    from .._io import read_input
    from ..case._chunked import parse_case_in_chunks
    from ..case._load import load_case_parts, with_faults

    # a chunk of items at a time: the whole JSON tree never coexists with the whole case
    case = (load_case_parts(args.case, args.memory) if args.memory
            else parse_case_in_chunks(read_input(Path(args.case)) if raw is None else raw,
                                      source=str(Path(args.case)),
                                      references_checked=references_checked and raw is not None))
    if args.faults is not None:
        case = with_faults(case, [f.strip() for f in args.faults.split(",") if f.strip()])
    return case




def edited_plan(plan: RepairPlan, path: str, *, force: bool, comment: str | None) -> RepairPlan:
    """`plan` with the edits of the `--plan` file (an edited plan report or {"edits": ...})."""
    from ..plan._edit import apply_edits, edits_from_report

    edits = edits_from_report(plan, read_json(path, "--plan"))
    if not edits:
        return plan
    try:
        return apply_edits(plan, edits, force=force, comment=comment)
    except PlanEditError as exc:  # name the options that exist, not the library's arguments
        raise PlanEditError([p if not p.startswith("(apply with force") else
                             "(to override, give --force and --comment WHY)"
                             for p in exc.problems]) from None
