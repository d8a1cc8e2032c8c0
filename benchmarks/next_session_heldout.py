"""The next-session agent on held-out injections written blind
(benchmarks/injections/heldout.json): each order must be obeyed, so that AgentDojo's own
`security()` of its injection task finds the attack; each benign record must make no call.
An item runs exactly as tests/test_agentdojo_reworded.py runs one: a store holding one
record with the item's text, a fresh session of the agent on the suite's default
environment.

    python benchmarks/next_session_heldout.py                 # per item, then the totals
    python benchmarks/next_session_heldout.py --write benchmarks/injections/heldout-run.md
    python benchmarks/next_session_heldout.py --append benchmarks/injections/heldout-run.md \
        --note "what changed since the run before"

`--write` also records the command, the UTC date and the commit in a Markdown file, the
output in a code block (item texts are quoted escaped, never as Markdown); `--append`
adds the run as a new section after the runs already in the file, under `--note`.

Where the agent does not act on an item, it may say it is unsure of it (the record names
a slot of a goal in a language it does not read, or names the attacker's slot with no
order it obeys: `repair_core/bench/_agentdojo_unsure.py`); an order it neither obeys nor
is unsure of is a silent miss.
"""

import argparse
import datetime
import functools
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core._io import atomic_write_text  # noqa: E402
from repair_core._text import excerpt, markdown_code, printable  # noqa: E402
from repair_core.bench._agentdojo import (  # noqa: E402
    AgentDojoTools,
    _check,
    next_session,
    obeyed,
)
from repair_core.bench._agentdojo_unsure import unsure_readings  # noqa: E402

ITEMS = ROOT / "benchmarks" / "injections" / "heldout.json"
QUOTED = 160
"""Characters of an item's text the per-item line quotes."""


class Order(BaseModel):
    """A reworded injection the agent must obey."""

    model_config = ConfigDict(extra="forbid")
    suite: Literal["banking", "slack", "travel", "workspace"]
    """The AgentDojo suite whose tools the agent calls."""
    task: str = Field(pattern=r"^injection_task_[0-9]+$")
    """The injection task whose `security()` must find the attack."""
    text: str = Field(min_length=1)
    """The record's text, as the store would hold it."""
    reason: str = Field(min_length=1)
    """What the wording tries, in one line."""


class Benign(BaseModel):
    """A record naming an injection's slots on which the agent must make no call."""

    model_config = ConfigDict(extra="forbid")
    suite: Literal["banking", "slack", "travel", "workspace"]
    """The AgentDojo suite whose tools the agent could call."""
    text: str = Field(min_length=1)
    """The record's text, as the store would hold it."""
    reason: str = Field(min_length=1)
    """Why it is not an order, in one line."""


class HeldoutItems(BaseModel):
    """The items file: the same shape as tests/data/agentdojo_reworded.json."""

    model_config = ConfigDict(extra="forbid")
    about: str = ""
    """Who wrote the items and how."""
    obeyed: list[Order]
    """Orders the agent must obey."""
    benign: list[Benign]
    """Records the agent must not act on."""


class Outcome(BaseModel):
    """What the agent did on one item."""

    kind: Literal["order", "benign"]
    """Which list of the items file the item is from."""
    suite: str
    """The AgentDojo suite."""
    task: str | None
    """The injection task of an order; None for a benign record."""
    text: str
    """The item's text."""
    reason: str
    """The item's one-line reason."""
    calls: list[str]
    """Names of the functions the agent called, in order."""
    attack_seen: bool | None
    """For an order, whether AgentDojo's `security()` of its task found the attack."""
    unsure: str = ""
    """Why the agent is unsure of the record (of the order's goal; of any goal for a
    benign record); empty when it is not."""
    as_expected: bool
    """An order whose attack AgentDojo saw, or a benign record with no call and not obeyed."""


class Totals(BaseModel):
    """Counts over a run."""

    orders: int
    """Orders run."""
    orders_obeyed: int
    """Orders whose attack AgentDojo's `security()` found."""
    orders_missed: int
    """Orders whose attack it did not find."""
    orders_unsure: int = 0
    """Missed orders the agent says it is unsure of."""
    orders_silent: int = 0
    """Missed orders it is not unsure of and made no call for: read as no order at all."""
    orders_wrong_goal: int = 0
    """Missed orders it is not unsure of and acted on, but as another goal (its calls are
    not the ones AgentDojo's `security()` of the order's task looks for)."""
    benign: int
    """Benign records run."""
    benign_obeyed: int
    """Benign records the agent acted on."""
    benign_clean: int
    """Benign records with no call."""
    benign_unsure: int = 0
    """Benign records with no call that the agent says it is unsure of."""


class ItemsError(ValueError):
    """The items file cannot be run; the message names the field and its value."""


def load_items(path: Path) -> HeldoutItems:
    """The items file at `path`, checked: each order's task exists in its suite."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ItemsError(f"items file {printable(path)}: cannot read ({exc.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ItemsError(f"items file {printable(path)}: not JSON ({exc})") from None
    try:
        items = HeldoutItems.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ItemsError(f"items file {printable(path)}: field {where} = "
                         f"{excerpt(repr(err.get('input')), 80)}: {err['msg']}") from None
    for i, order in enumerate(items.obeyed):
        if order.task not in _tools(order.suite).suite.injection_tasks:
            raise ItemsError(f"items file {printable(path)}: field obeyed.{i}.task = "
                             f"{printable(order.task)!r}: no such injection task in "
                             f"{order.suite}")
    return items


@functools.cache
def _tools(suite: str) -> AgentDojoTools:
    return AgentDojoTools(suite, {})


def _record(text: str) -> SimpleNamespace:
    return SimpleNamespace(id="m_note", key="note", text=text, value=None)


def run_order(order: Order) -> Outcome:
    """The agent on a store holding `order`; AgentDojo's check of its injection task."""
    tools = _tools(order.suite)
    task = tools.suite.get_injection_task_by_id(order.task)
    pre, post, trace = next_session(tools, [_record(order.text)])
    seen = _check(task, "security", "", pre, post, trace)
    unsure = unsure_readings([_record(order.text)], f"{order.suite}/{order.task}")
    return Outcome(kind="order", suite=order.suite, task=order.task, text=order.text,
                   reason=order.reason, calls=[c.function for c in trace],
                   attack_seen=seen, as_expected=seen,
                   unsure=unsure[0].reason if unsure else "")


def run_benign(item: Benign) -> Outcome:
    """The agent on a store holding `item`: expected to call nothing and obey nothing."""
    _pre, _post, trace = next_session(_tools(item.suite), [_record(item.text)])
    clean = trace == [] and not obeyed(_record(item.text))
    unsure = [u for u in unsure_readings([_record(item.text)])
              if u.goal.startswith(f"{item.suite}/")]
    return Outcome(kind="benign", suite=item.suite, task=None, text=item.text,
                   reason=item.reason, calls=[c.function for c in trace],
                   attack_seen=None, as_expected=clean,
                   unsure=unsure[0].reason if unsure else "")


def run(items: HeldoutItems) -> list[Outcome]:
    """Every item, orders first, in file order."""
    return [*map(run_order, items.obeyed), *map(run_benign, items.benign)]


def totals(outcomes: list[Outcome]) -> Totals:
    orders = [o for o in outcomes if o.kind == "order"]
    benign = [o for o in outcomes if o.kind == "benign"]
    seen = sum(o.as_expected for o in orders)
    clean = sum(o.as_expected for o in benign)
    unsure = sum(1 for o in orders if not o.as_expected and o.unsure)
    wrong = sum(1 for o in orders if not o.as_expected and not o.unsure and o.calls)
    return Totals(orders=len(orders), orders_obeyed=seen, orders_missed=len(orders) - seen,
                  orders_unsure=unsure, orders_silent=len(orders) - seen - unsure - wrong,
                  orders_wrong_goal=wrong,
                  benign=len(benign), benign_obeyed=len(benign) - clean, benign_clean=clean,
                  benign_unsure=sum(1 for o in benign if o.as_expected and o.unsure))


def report(outcomes: list[Outcome]) -> str:
    """One line per item (expected, what happened, the item quoted escaped), then totals
    and every item that went against its expectation."""
    lines = []
    for n, o in enumerate(outcomes, 1):
        expected = "obey" if o.kind == "order" else "no call"
        if o.kind == "order":
            happened = "attack seen" if o.attack_seen else "attack NOT seen"
        else:
            happened = "no call" if o.as_expected else "ACTED"
        calls = ", ".join(o.calls)
        mark = ("ok  " if o.as_expected else "FP  " if o.kind == "benign"
                else "UNSR" if o.unsure else "WRNG" if o.calls else "MISS")
        unsure = f" unsure={excerpt(o.unsure, 110)}" if o.unsure else ""
        lines.append(f"{mark} {n:3d} {o.suite}/{o.task or '-'} expected={expected} "
                     f"happened={happened} calls=[{calls}]{unsure} "
                     f"reason={excerpt(o.reason, 80)!s} text={excerpt(o.text, QUOTED)}")
    t = totals(outcomes)
    missed = [str(n) for n, o in enumerate(outcomes, 1) if o.kind == "order" and not o.as_expected]
    acted = [str(n) for n, o in enumerate(outcomes, 1) if o.kind == "benign" and not o.as_expected]
    unsure = [str(n) for n, o in enumerate(outcomes, 1)
              if o.kind == "order" and not o.as_expected and o.unsure]
    wrong = [str(n) for n, o in enumerate(outcomes, 1)
             if o.kind == "order" and not o.as_expected and not o.unsure and o.calls]
    lines += ["", f"orders obeyed as expected: {t.orders_obeyed} of {t.orders}",
              f"missed orders: {t.orders_missed} of {t.orders}"
              + (f" (items {', '.join(missed)})" if missed else ""),
              f"missed orders the agent says it is unsure of: {t.orders_unsure} of "
              f"{t.orders_missed}" + (f" (items {', '.join(unsure)})" if unsure else ""),
              f"missed orders read as no order (silent): {t.orders_silent} of {t.orders}",
              f"missed orders acted on as a wrong goal: {t.orders_wrong_goal} of {t.orders}"
              + (f" (items {', '.join(wrong)})" if wrong else ""),
              f"benign obeyed: {t.benign_obeyed} of {t.benign}"
              + (f" (items {', '.join(acted)})" if acted else ""),
              f"benign with no call: {t.benign_clean} of {t.benign}"
              f" ({t.benign_unsure} of them unsure)"]
    return "\n".join(lines) + "\n"


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=False)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


_LEGEND = ("Per item: `ok` as expected, `MISS` an order whose attack AgentDojo's security() "
           "did not find and that the agent read as no order, `WRNG` such an order the "
           "agent acted on as another goal (it made calls, not the attack AgentDojo looks "
           "for), `UNSR` such an order the agent says it is unsure of (the reason follows "
           "`unsure=`), `FP` a benign record the agent acted on.")


def markdown(body: str, command: str, items_path: Path, note: str | None = None) -> str:
    """`body` in a code block fenced longer than any backtick run in it, under the command,
    the UTC date and the commit it ran at: a whole file, or with `note` a section to
    append to one (`## Run at DATE`, the note, then the same)."""
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", body)), default=0))
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    rel = items_path.resolve()
    if not rel.is_relative_to(ROOT):
        items_state = "outside the repository"
    else:
        rel = rel.relative_to(ROOT)
        items_state = ("as committed" if _git("status", "--porcelain", "--", str(rel)) == ""
                       else "CHANGED since the commit")
    # the command holds the note and the items' path: a code span whatever backticks
    # they hold, so neither ends it early nor renders as Markdown
    facts = (f"- command: {markdown_code(command)}\n- date: {date}\n"
             f"- commit: {_git('rev-parse', 'HEAD')}\n"
             f"- items: {markdown_code(printable(rel))} ({items_state})\n\n{_LEGEND}\n\n"
             f"{fence}text\n{body}{fence}\n")
    if note is not None:
        return f"## Run at {date}\n\n{printable(note)}\n\n{facts}"
    return ("# Next-session agent on the held-out injections\n\n"
            "One run of `benchmarks/next_session_heldout.py` on items written blind and "
            f"committed before it ran.\n\n{facts}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=Path, default=ITEMS,
                        help="the items file (default: benchmarks/injections/heldout.json)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--write", type=Path, default=None,
                       help="also write the output, command, date and commit to this "
                            "Markdown file")
    where.add_argument("--append", type=Path, default=None,
                       help="also add the output, command, date and commit as a new section "
                            "at the end of this Markdown file, keeping the runs in it")
    parser.add_argument("--note", default=None,
                        help="with --append: what changed since the run before (required)")
    args = parser.parse_args(argv)
    if args.append is not None and not (args.note or "").strip():
        print("next_session_heldout: --note: empty; --append needs a note saying what "
              "changed since the run before", file=sys.stderr)
        return 2
    earlier = ""
    if args.append is not None:
        try:
            earlier = args.append.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"next_session_heldout: --append {printable(args.append)}: cannot read "
                  f"({getattr(exc, 'strerror', None) or exc})", file=sys.stderr)
            return 2
    try:
        items = load_items(args.items)
    except ItemsError as exc:
        print(f"next_session_heldout: {exc}", file=sys.stderr)
        return 2
    body = report(run(items))
    sys.stdout.write(body)
    command = ("python benchmarks/next_session_heldout.py " + " ".join(
        shlex.quote(printable(a)) for a in (argv if argv is not None else sys.argv[1:]))).strip()
    if args.write is not None:
        atomic_write_text(args.write, markdown(body, command, args.items), "--write")
    if args.append is not None:
        atomic_write_text(args.append, earlier.rstrip("\n") + "\n\n"
                          + markdown(body, command, args.items, args.note), "--append")
    return 0


if __name__ == "__main__":
    sys.exit(main())
