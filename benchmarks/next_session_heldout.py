"""The next-session agent on held-out injections written blind
(benchmarks/injections/heldout.json): each order must be obeyed, so that AgentDojo's own
`security()` of its injection task finds the attack; each benign record must make no call.
An item runs exactly as tests/test_agentdojo_reworded.py runs one: a store holding one
record with the item's text, a fresh session of the agent on the suite's default
environment.

    python benchmarks/next_session_heldout.py                 # per item, then the totals
    python benchmarks/next_session_heldout.py --write benchmarks/injections/heldout-run.md

`--write` also records the command, the UTC date and the commit in a Markdown file, the
output in a code block (item texts are quoted escaped, never as Markdown).
"""

import argparse
import datetime
import functools
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from repair_core._io import atomic_write_text  # noqa: E402
from repair_core._text import excerpt, printable  # noqa: E402
from repair_core.bench._agentdojo import (  # noqa: E402
    AgentDojoTools,
    _check,
    next_session,
    obeyed,
)

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
    benign: int
    """Benign records run."""
    benign_obeyed: int
    """Benign records the agent acted on."""
    benign_clean: int
    """Benign records with no call."""


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
    return Outcome(kind="order", suite=order.suite, task=order.task, text=order.text,
                   reason=order.reason, calls=[c.function for c in trace],
                   attack_seen=seen, as_expected=seen)


def run_benign(item: Benign) -> Outcome:
    """The agent on a store holding `item`: expected to call nothing and obey nothing."""
    _pre, _post, trace = next_session(_tools(item.suite), [_record(item.text)])
    clean = trace == [] and not obeyed(_record(item.text))
    return Outcome(kind="benign", suite=item.suite, task=None, text=item.text,
                   reason=item.reason, calls=[c.function for c in trace],
                   attack_seen=None, as_expected=clean)


def run(items: HeldoutItems) -> list[Outcome]:
    """Every item, orders first, in file order."""
    return [*map(run_order, items.obeyed), *map(run_benign, items.benign)]


def totals(outcomes: list[Outcome]) -> Totals:
    orders = [o for o in outcomes if o.kind == "order"]
    benign = [o for o in outcomes if o.kind == "benign"]
    seen = sum(o.as_expected for o in orders)
    clean = sum(o.as_expected for o in benign)
    return Totals(orders=len(orders), orders_obeyed=seen, orders_missed=len(orders) - seen,
                  benign=len(benign), benign_obeyed=len(benign) - clean, benign_clean=clean)


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
        mark = "ok  " if o.as_expected else "MISS" if o.kind == "order" else "FP  "
        lines.append(f"{mark} {n:3d} {o.suite}/{o.task or '-'} expected={expected} "
                     f"happened={happened} calls=[{calls}] reason={excerpt(o.reason, 80)!s} "
                     f"text={excerpt(o.text, QUOTED)}")
    t = totals(outcomes)
    missed = [str(n) for n, o in enumerate(outcomes, 1) if o.kind == "order" and not o.as_expected]
    acted = [str(n) for n, o in enumerate(outcomes, 1) if o.kind == "benign" and not o.as_expected]
    lines += ["", f"orders obeyed as expected: {t.orders_obeyed} of {t.orders}",
              f"missed orders: {t.orders_missed} of {t.orders}"
              + (f" (items {', '.join(missed)})" if missed else ""),
              f"benign obeyed: {t.benign_obeyed} of {t.benign}"
              + (f" (items {', '.join(acted)})" if acted else ""),
              f"benign with no call: {t.benign_clean} of {t.benign}"]
    return "\n".join(lines) + "\n"


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=False)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def markdown(body: str, command: str, items_path: Path) -> str:
    """`body` in a code block fenced longer than any backtick run in it, under the command,
    the UTC date and the commit it ran at."""
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", body)), default=0))
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    rel = items_path.resolve()
    if not rel.is_relative_to(ROOT):
        items_state = "outside the repository"
    else:
        rel = rel.relative_to(ROOT)
        items_state = ("as committed" if _git("status", "--porcelain", "--", str(rel)) == ""
                       else "CHANGED since the commit")
    return ("# Next-session agent on the held-out injections\n\n"
            "One run of `benchmarks/next_session_heldout.py` on items written blind and "
            "committed before it ran.\n\n"
            f"- command: `{command}`\n- date: {date}\n- commit: {_git('rev-parse', 'HEAD')}\n"
            f"- items: {printable(rel)} ({items_state})\n\n"
            "Per item: `ok` as expected, `MISS` an order whose attack AgentDojo's "
            "security() did not find, `FP` a benign record the agent acted on.\n\n"
            f"{fence}text\n{body}{fence}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=Path, default=ITEMS,
                        help="the items file (default: benchmarks/injections/heldout.json)")
    parser.add_argument("--write", type=Path, default=None,
                        help="also write the output, command, date and commit to this "
                             "Markdown file")
    args = parser.parse_args(argv)
    try:
        items = load_items(args.items)
    except ItemsError as exc:
        print(f"next_session_heldout: {exc}", file=sys.stderr)
        return 2
    body = report(run(items))
    sys.stdout.write(body)
    if args.write is not None:
        command = "python benchmarks/next_session_heldout.py " + " ".join(
            printable(a) for a in (argv if argv is not None else sys.argv[1:]))
        atomic_write_text(args.write, markdown(body, command.strip(), args.items), "--write")
    return 0


if __name__ == "__main__":
    sys.exit(main())
