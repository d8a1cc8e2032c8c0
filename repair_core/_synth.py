"""Synthetic `dgrr.case/v1` cases of any size, for scale tests and benchmarks.

The generator plays a memory-augmented agent through many user turns. Each turn is a
small episode: memory reads returning a few ranked records, claims citing the read and
one record, plans citing claims, tool actions and observations, an answer citing claims
and observations, then memory writes (add, update, delete, a failed update now and then)
and, every few turns, a consolidation that folds several records into a summary. Faults
are then chosen among records of different kinds: pre-existing records, records produced
by writes, a stale record whose update failed, a drifted summary.

Everything is drawn from one `random.Random(seed)`, so a seed gives a byte-identical file.
Steps are written out as soon as they are made and records are kept as small lists, so a
million-step case needs memory for its records only, not for pydantic objects.
"""

from __future__ import annotations

import bisect
import json
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ._errors import DgrrError
from ._io import atomic_open
from .case._case import CASE_FORMAT

__all__ = ["SynthStats", "synth_case_data", "write_synth_case", "check_synth_args"]

USER = "user-0"
OTHER_USER = "user-1"
_CONSOLIDATE_EVERY = 8  # turns between consolidations
_MIN_LAST_TURN = 6  # steps the last turn gets at least (when the run is long enough)
_WRITE_OPS = ("add", "add", "add", "update", "update", "delete", "failed_update")
# Mean steps and produced records per turn of the episode template below, used to size
# the pre-existing store so that most records exist before the run and some are written.
_STEPS_PER_TURN = 9.7
_PRODUCED_PER_TURN = 0.5 + 1 / _CONSOLIDATE_EVERY

_FACTS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("home_city", ("Lisbon", "Osaka", "Denver", "Nairobi", "Quito", "Tallinn"),
     "The user's home city is {v}."),
    ("seat_pref", ("aisle", "window", "middle"), "The user prefers {v} seats."),
    ("meal", ("vegetarian", "vegan", "halal", "kosher", "no preference"),
     "The user's meal preference is {v}."),
    ("budget", ("under $200", "under $500", "under $1000", "flexible"),
     "The user's usual budget is {v}."),
    ("shoe_size", ("38", "40", "42", "44", "46"), "The user wears shoe size {v}."),
    ("brand", ("Acme", "Northwind", "Contoso", "Globex", "Initech"),
     "The user's favourite brand is {v}."),
    ("delivery_window", ("mornings", "evenings", "weekends"),
     "The user wants deliveries in the {v}."),
    ("language", ("English", "Spanish", "Japanese", "Swahili"),
     "The user prefers answers in {v}."),
    ("payment", ("visa", "paypal", "invoice", "mastercard"), "The user pays by {v}."),
    ("allergy", ("peanuts", "gluten", "none", "shellfish"), "The user is allergic to {v}."),
    ("airline", ("JL", "LH", "KQ", "TP", "UA"), "The user prefers to fly with {v}."),
)
_FACT_BY_KEY = {key: (values, template) for key, values, template in _FACTS}
_REQUESTS = (
    "Book my usual trip for next week.",
    "Order running shoes I would like.",
    "Find a restaurant for dinner on Friday.",
    "Reorder what I bought last month.",
    "Plan a weekend away within my budget.",
    "Check on my latest order and tell me when it arrives.",
    "Pick a gift for my sister.",
    "Change my delivery preferences.",
)
_TOOLS: tuple[tuple[str, str, str], ...] = (
    ("search_catalog", "pure", "Search the product catalogue; read-only."),
    ("check_availability", "pure", "Check stock or seat availability; read-only."),
    ("lookup_order", "pure", "Look up an order's status; read-only."),
    ("update_profile", "idempotent", "Set a profile field; repeating it is harmless."),
    ("reserve_item", "resettable", "Hold an item; holds can be released."),
    ("create_booking", "compensable", "Book a flight or table; can be cancelled."),
    ("send_email", "irreversible", "Send an email to the user; cannot be unsent."),
)
_TOOL_WEIGHTS = (30, 20, 15, 10, 10, 10, 5)


@dataclass(frozen=True)
class SynthStats:
    """What a synthetic case holds."""

    steps: int
    records: int
    faults: int
    turns: int
    deps: int
    """Dependencies written (edges of the graph before chain edges are derived)."""


class _Record:
    __slots__ = ("num", "user_id", "text", "key", "value", "status", "created_seq", "trust",
                 "deps", "kind", "seen")

    def __init__(self, num: int, key: str, value: str, text: str, created_seq: int | None,
                 trust: float, kind: str) -> None:
        self.num = num
        self.user_id = USER
        self.text = text
        self.key = key
        self.value = value
        self.status = "active"
        self.created_seq = created_seq
        self.trust = trust
        self.deps: list[tuple[str, str]] = []
        self.kind = kind  # pre | added | summary (generator bookkeeping, not written)
        self.seen = created_seq  # seq at which the run first used it (read or created)

    @property
    def id(self) -> str:
        return f"m{self.num}"

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "user_id": self.user_id, "text": self.text, "key": self.key,
            "value": self.value, "status": self.status, "created_seq": self.created_seq,
            "trust": self.trust, "deps": [{"id": i, "label": lb} for i, lb in self.deps],
        }


def _dep(node: str, label: str, sufficient: bool = False) -> dict[str, Any]:
    return {"id": node, "label": label, "sufficient": True} if sufficient else \
        {"id": node, "label": label}


class _Generator:
    """One synthetic run; `steps()` yields step dicts in seq order while filling state."""

    def __init__(self, n_steps: int, n_memories: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n_steps = n_steps
        self.seq = 0
        self.step_num = 0
        self.deps_written = 0
        self.turns: list[dict[str, Any]] = []
        self.records: list[_Record] = []
        self.pool: list[_Record] = []  # active records, for reads
        self.pool_pos: dict[int, int] = {}
        self.recent: list[_Record] = []  # records written lately; later reads bring them back
        self.failed_updates: list[tuple[int, _Record]] = []  # (seq of the write, target)
        self.episode_returned: list[_Record] = []  # records read in the latest turn
        expected = int(n_steps / _STEPS_PER_TURN * _PRODUCED_PER_TURN * 0.9)
        self.produce_quota = max(0, min(n_memories - 1, expected))
        self.n_memories = n_memories
        for _ in range(n_memories - self.produce_quota):
            self._new_record(created_seq=None, kind="pre")

    # -- records ----------------------------------------------------------------------
    def _fact(self) -> tuple[str, str, str]:
        key, values, template = self.rng.choice(_FACTS)
        value = self.rng.choice(values)
        return key, value, template.format(v=value)

    def _new_record(self, created_seq: int | None, kind: str,
                    fact: tuple[str, str, str] | None = None) -> _Record:
        key, value, text = fact or self._fact()
        rec = _Record(len(self.records) + 1, key, value, text, created_seq,
                      round(self.rng.uniform(0.3, 1.0), 2), kind)
        self.records.append(rec)
        self.pool_pos[rec.num] = len(self.pool)
        self.pool.append(rec)
        return rec

    def _retire(self, rec: _Record, status: str) -> None:
        rec.status = status
        pos = self.pool_pos.pop(rec.num)
        last = self.pool.pop()
        if last is not rec:
            self.pool[pos] = last
            self.pool_pos[last.num] = pos

    def _sample_pool(self, k: int) -> list[_Record]:
        """Up to `k` distinct active records, ranked; recent writes come first when drawn."""
        chosen: list[_Record] = []
        if self.recent and self.rng.random() < 0.5:
            rec = self.recent[-1 - self.rng.randrange(min(len(self.recent), 4))]
            if rec.status == "active":
                chosen.append(rec)
        tries = 0
        while len(chosen) < k and tries < 3 * k and self.pool:
            rec = self.rng.choice(self.pool)
            tries += 1
            if rec not in chosen:
                chosen.append(rec)
        return chosen

    # -- steps ------------------------------------------------------------------------
    def _step(self, turn: str, type_: str, text: str, deps: list[dict[str, Any]],
              **fields: Any) -> dict[str, Any]:
        self.seq += 1
        self.step_num += 1
        self.deps_written += len(deps)
        step: dict[str, Any] = {"id": f"s{self.step_num}", "seq": self.seq, "turn": turn,
                                "type": type_, "text": text}
        step.update(fields)
        step["deps"] = deps
        return step

    def _skeleton(self, turn_index: int, budget: int) -> list[str]:
        """The step kinds of one episode, cut down to fit `budget` steps (≥ 1)."""
        rng = self.rng
        reads = [rng.randint(1, 3) for _ in range(2 if rng.random() < 0.3 else 1)]
        tools = rng.choice((0, 1, 1, 1, 2, 2))
        writes = [rng.choice(_WRITE_OPS) for _ in range(rng.choice((0, 1, 1, 2)))]
        if turn_index % _CONSOLIDATE_EVERY == _CONSOLIDATE_EVERY - 1:
            writes.append("consolidate")

        def size() -> int:
            return sum(1 + c for c in reads) + 3 * tools + 1 + len(writes)

        # Cut the least essential parts first; the smallest episode is its answer alone.
        while size() > budget:
            if writes:
                writes.pop()
            elif tools:
                tools -= 1
            elif len(reads) > 1:
                reads.pop()
            elif reads and reads[0] > 0:
                reads[0] -= 1
            else:
                reads.pop()
        # A turn that would leave too few steps for a full last turn takes them as claims,
        # so the final answer rests on claims from memory like every other answer.
        if reads and 0 < budget - size() < _MIN_LAST_TURN:
            reads[-1] += budget - size()
        kinds: list[str] = []
        for claims in reads:
            kinds += ["read"] + ["claim"] * claims
        kinds += ["tool"] * tools + ["answer"] + writes
        return kinds

    def steps(self) -> Iterator[dict[str, Any]]:
        turn_index = 0
        while self.step_num < self.n_steps:
            yield from self._episode(turn_index, self.n_steps - self.step_num)
            turn_index += 1

    def _episode(self, turn_index: int, budget: int) -> Iterator[dict[str, Any]]:
        rng = self.rng
        self.seq += 1
        turn = f"u{turn_index + 1}"
        self.turns.append({"id": turn, "seq": self.seq, "text": rng.choice(_REQUESTS)})
        claims: list[tuple[str, _Record | None]] = []
        observations: list[str] = []
        self.episode_returned = []
        read_id = ""
        returned: list[_Record] = []
        for kind in self._skeleton(turn_index, budget):
            if kind == "read":
                returned = self._sample_pool(rng.randint(1, 4))
                step = self._step(
                    turn, "memory_read", f"retrieve memories for: {returned[0].key if returned else 'request'}",
                    [_dep(turn, "initiate"), *(_dep(r.id, "cite") for r in returned)],
                    query=" ".join(sorted({r.key for r in returned})) or "request",
                    returned=[r.id for r in returned])
                read_id = step["id"]
                self.episode_returned.extend(returned)
                for rec in returned:
                    if rec.seen is None:
                        rec.seen = step["seq"]
                yield step
            elif kind == "claim":
                yield self._claim(turn, read_id, returned, claims)
            elif kind == "tool":
                yield from self._tool_call(turn, claims, observations)
            elif kind == "answer":
                cited = [c for c, _ in claims] + observations or ([read_id] if read_id else [])
                deps = [_dep(c, "cite") for c in cited] or [_dep(turn, "initiate")]
                yield self._step(turn, "answer",
                                 f"Done: {len(claims)} facts used, {len(observations)} tool results.",
                                 deps)
            else:
                yield self._write(turn, kind, claims, returned)

    def _claim(self, turn: str, read_id: str, returned: list[_Record],
               claims: list[tuple[str, _Record | None]]) -> dict[str, Any]:
        rng = self.rng
        rec = rng.choice(returned) if returned else None
        if rec is None:
            step = self._step(turn, "claim", "The user asked for this directly.",
                              [_dep(read_id, "cite"), _dep(turn, "cite", sufficient=True)])
        else:
            step = self._step(turn, "claim", rec.text,
                              [_dep(read_id, "cite"),
                               _dep(rec.id, "cite", sufficient=rng.random() < 0.6)],
                              verified=rng.random() < 0.15, key=rec.key, value=rec.value)
        claims.append((step["id"], rec))
        return step

    def _tool_call(self, turn: str, claims: list[tuple[str, _Record | None]],
                   observations: list[str]) -> Iterator[dict[str, Any]]:
        rng = self.rng
        tool = rng.choices(_TOOLS, weights=_TOOL_WEIGHTS)[0][0]
        used = rng.sample(claims, min(len(claims), rng.randint(1, 3)))
        args = {r.key: r.value for _, r in used if r is not None} or {"request": "as asked"}
        plan = self._step(turn, "plan", f"Call {tool} with {', '.join(f'{k}={v}' for k, v in args.items())}.",
                          [_dep(turn, "initiate"), *(_dep(c, "cite") for c, _ in used)],
                          tool=tool, args=args)
        yield plan
        action = self._step(turn, "tool_action", f"{tool}(...)", [_dep(plan["id"], "produce")],
                            tool=tool, args=args)
        yield action
        failed = rng.random() < 0.03
        obs = self._step(turn, "tool_observation",
                         f"{tool} failed: timeout" if failed else f"{tool} returned {rng.randint(1, 9)} results",
                         [_dep(action["id"], "produce")],
                         **({"status": "failed"} if failed else {}),
                         output={"ok": not failed, "ref": f"R{self.seq + 1}"})
        observations.append(obs["id"])
        yield obs

    def _write(self, turn: str, op: str, claims: list[tuple[str, _Record | None]],
               returned: list[_Record]) -> dict[str, Any]:
        rng = self.rng
        basis = [_dep(rng.choice(claims)[0], "derive")] if claims else [_dep(turn, "support")]
        if op in ("add", "consolidate") and self.produce_quota <= 0:
            op = "update"
        if op == "consolidate" and len(self.pool) < 3:
            op = "add"
        if op in ("update", "delete", "failed_update") and not self.pool:
            op = "add" if self.produce_quota > 0 else ""
        if not op:
            # Nothing to write to and no record left to create: a no-op write of the turn.
            return self._step(turn, "memory_write", "nothing to remember", basis, op="add",
                              target=[], status="failed")
        if op == "add":
            self.produce_quota -= 1
            fact = self._fact()
            step = self._step(turn, "memory_write", f"remember: {fact[2]}", basis, op="add",
                              target=[f"m{len(self.records) + 1}"])
            rec = self._new_record(step["seq"], "added", fact)
            rec.deps.append((step["id"], "produce"))
            self.recent.append(rec)
            return step
        if op == "consolidate":
            self.produce_quota -= 1
            sources = self._sample_pool(rng.randint(2, 4))
            if len(sources) < 2:
                sources = self.pool[:2]
            summary_id = f"m{len(self.records) + 1}"
            step = self._step(turn, "memory_write", f"consolidate {len(sources)} memories",
                              [_dep(turn, "initiate"), *(_dep(s.id, "cite") for s in sources)],
                              op="consolidate", target=[*(s.id for s in sources), summary_id])
            text = "Summary: " + " ".join(s.text for s in sources)
            summary = self._new_record(step["seq"], "summary",
                                       (sources[0].key, sources[0].value, text))
            summary.deps.extend((s.id, "consolidate") for s in sources)
            summary.deps.append((step["id"], "produce"))
            for s in sources:
                s.deps.append((step["id"], "delete"))
                self._retire(s, "superseded")
            self.recent.append(summary)
            return step
        target = rng.choice(returned) if returned and rng.random() < 0.7 else rng.choice(self.pool)
        if target.status != "active":
            target = rng.choice(self.pool)
        if op == "delete":
            step = self._step(turn, "memory_write", f"forget: {target.text}",
                              [_dep(turn, "initiate")], op="delete", target=[target.id])
            target.deps.append((step["id"], "delete"))
            self._retire(target, "deleted")
            return step
        values, template = _FACT_BY_KEY[target.key]
        value = rng.choice(values)
        failed = op == "failed_update"
        step = self._step(turn, "memory_write", f"update {target.id}: {template.format(v=value)}",
                          basis, op="update", target=[target.id],
                          **({"status": "failed"} if failed else {}))
        target.deps.append((step["id"], "update"))
        if failed:
            self.failed_updates.append((step["seq"], target))
        else:
            target.value = value
            target.text = template.format(v=value)
            self.recent.append(target)
        return step

    # -- faults -----------------------------------------------------------------------
    def choose_faults(self, k: int) -> dict[str, str]:
        """`k` faulty records spread over the run and over kinds; record id -> fault type.

        Kinds, taken in turn: pre-existing records the run read (every other one is
        attributed to another user: wrong-user), records produced by add writes, stale
        records whose update failed, and consolidation summaries (drifted). The run is cut
        into `k` equal spans of seq and the i-th fault is a record the run first used in
        the i-th span (a stale record: where its update failed), or the nearest one, so
        faults fall early, midway and late whatever the size. The last fault is a record
        read in the final turn, so the final answer is one the faults made wrong. When the
        kinds run out, any other record makes up the count.
        """
        rng = self.rng
        by_kind: dict[str, list[tuple[int, int, _Record]]] = {
            "poisoned": [(r.seen, r.num, r) for r in self.records
                         if r.kind == "pre" and r.seen is not None],
            "produced": [(r.seen, r.num, r) for r in self.records
                         if r.kind == "added" and r.seen is not None],
            "stale": [(seq, r.num, r) for seq, r in self.failed_updates if r.status == "active"],
            "summary-drift": [(r.seen, r.num, r) for r in self.records
                              if r.kind == "summary" and r.seen is not None],
        }
        for group in by_kind.values():
            group.sort(key=lambda c: (c[0], c[1]))
        kinds = [kind for kind, group in by_kind.items() if group]
        chosen: dict[str, str] = {}
        span = max(self.seq, 1) / max(k, 1)
        pre_picked = 0
        stale = {r.num for _, _, r in by_kind["stale"]}
        final_reads = [r for r in self.episode_returned if r.status == "active"]
        if k and final_reads:
            last = rng.choice(final_reads)
            chosen[last.id] = ("stale" if last.num in stale else
                               "summary-drift" if last.kind == "summary" else "poisoned")
        for i in range(k - len(chosen)):
            if not kinds:
                break
            kind = kinds[i % len(kinds)]
            rec = self._pick_near(by_kind[kind], i * span, (i + 1) * span, chosen)
            if rec is None:
                kinds.remove(kind)
                continue
            if kind == "poisoned" and pre_picked % 2 == 1:
                rec.user_id = OTHER_USER
                chosen[rec.id] = "wrong-user"
            else:
                chosen[rec.id] = "poisoned" if kind == "produced" else kind
            pre_picked += kind == "poisoned"
        if len(chosen) < k:
            rest = [r for r in self.records if r.id not in chosen]
            rng.shuffle(rest)
            for rec in rest[: k - len(chosen)]:
                chosen[rec.id] = "poisoned"
        return chosen

    def _pick_near(self, group: list[tuple[int, int, _Record]], lo: float, hi: float,
                   chosen: dict[str, str]) -> _Record | None:
        """A random unchosen record of `group` (sorted by position) placed in [lo, hi), or
        the unchosen one nearest to that span."""
        start = bisect.bisect_left(group, lo, key=lambda c: c[0])
        stop = bisect.bisect_left(group, hi, key=lambda c: c[0])
        for _ in range(8 if stop > start else 0):
            rec = group[self.rng.randrange(start, stop)][2]
            if rec.id not in chosen:
                return rec
        middle = min(start, len(group) - 1)
        for offset in range(len(group)):
            for j in (middle - offset, middle + offset):
                if 0 <= j < len(group) and group[j][2].id not in chosen:
                    return group[j][2]
        return None

    def fill_unused_records(self) -> None:
        """Pre-existing records for the part of the write quota the run did not use."""
        while len(self.records) < self.n_memories:
            self._new_record(created_seq=None, kind="pre")


def check_synth_args(steps: int, memories: int, faults: int) -> None:
    """Raise :class:`DgrrError` naming the first bad argument."""
    if steps < 1:
        raise DgrrError(f"--steps must be at least 1, got {steps}")
    if memories < 1:
        raise DgrrError(f"--memories must be at least 1, got {memories}")
    if faults < 0:
        raise DgrrError(f"--faults must not be negative, got {faults}")
    if faults > memories:
        raise DgrrError(f"--faults {faults} is more than --memories {memories}: "
                        "faults are memory records")


def _run(steps: int, memories: int, faults: int, seed: int,
         emit: Callable[[dict[str, Any]], None]) -> tuple[_Generator, dict[str, str]]:
    check_synth_args(steps, memories, faults)
    gen = _Generator(steps, memories, seed)
    for step in gen.steps():
        emit(step)
    gen.fill_unused_records()
    return gen, gen.choose_faults(faults)


def _head(steps: int, memories: int, seed: int) -> dict[str, Any]:
    return {"format": CASE_FORMAT, "case_id": f"synth-{steps}s-{memories}m-seed{seed}",
            "domain": "synthetic", "user_id": USER}


def _tools() -> list[dict[str, str]]:
    return [{"name": n, "effect": e, "description": d} for n, e, d in _TOOLS]


def synth_case_data(steps: int, memories: int, faults: int, seed: int = 0) -> dict[str, Any]:
    """A synthetic case as JSON data (for small sizes; large ones: :func:`write_synth_case`).

    >>> data = synth_case_data(40, 10, 2, seed=1)
    >>> len(data["trajectory"]), len(data["memory"]), len(data["faults"])
    (40, 10, 2)
    """
    trajectory: list[dict[str, Any]] = []
    gen, chosen = _run(steps, memories, faults, seed, trajectory.append)
    return {**_head(steps, memories, seed), "session": gen.turns,
            "memory": [r.as_json() for r in gen.records], "trajectory": trajectory,
            "faults": list(chosen), "tools": _tools(),
            "eval": {"fault_types": chosen}}


def _dumps(item: Any) -> str:
    return json.dumps(item, ensure_ascii=False)


_PROGRESS_EVERY = 4096


def _write_list(out: IO[str], name: str, items: Iterator[Any] | list[Any], last: bool = False
                ) -> None:
    out.write(f' "{name}": [')
    first = True
    for item in items:
        out.write("\n  " if first else ",\n  ")
        out.write(_dumps(item))
        first = False
    out.write("\n ]" if not first else "]")
    out.write("\n" if last else ",\n")


def write_synth_case(path: str | Path, steps: int, memories: int, faults: int, seed: int = 0,
                     on_steps: Callable[[int], None] | None = None) -> SynthStats:
    """Write a synthetic case to `path` atomically, streaming the trajectory.

    The file is one JSON object with one list item per line; it holds the same data as
    :func:`synth_case_data` for the same arguments. `on_steps(n)` is told every few
    thousand steps how many more were generated (for progress).
    """
    target = Path(path)
    if target.is_dir():
        raise DgrrError(f"--out '{target}' is a directory, not a file")
    check_synth_args(steps, memories, faults)
    try:
        return _write(target, steps, memories, faults, seed, on_steps)
    except OSError as exc:
        raise DgrrError(f"--out '{target}': cannot write there: "
                        f"{exc.strerror or exc}") from None


def _write(target: Path, steps: int, memories: int, faults: int, seed: int,
           on_steps: Callable[[int], None] | None = None) -> SynthStats:
    with atomic_open(target) as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8", dir=target.parent) as spool:
        # Steps are spooled while they are generated; records and turns are only final at
        # the end, and the file keeps the order of the format spec.
        first = [True]

        count = [0]

        def emit(step: dict[str, Any]) -> None:
            spool.write("\n  " if first[0] else ",\n  ")
            spool.write(_dumps(step))
            first[0] = False
            count[0] += 1
            if on_steps is not None and count[0] % _PROGRESS_EVERY == 0:
                on_steps(_PROGRESS_EVERY)

        gen, chosen = _run(steps, memories, faults, seed, emit)
        head = _head(steps, memories, seed)
        out.write("{\n" + "".join(f" {_dumps(k)}: {_dumps(v)},\n" for k, v in head.items()))
        _write_list(out, "session", gen.turns)
        _write_list(out, "memory", (r.as_json() for r in gen.records))
        out.write(' "trajectory": [')
        spool.seek(0)
        shutil.copyfileobj(spool, out, 1 << 20)
        out.write("\n ],\n")
        out.write(f' "faults": {_dumps(list(chosen))},\n')
        _write_list(out, "tools", _tools())
        out.write(f' "eval": {_dumps({"fault_types": chosen})}\n}}\n')
    return SynthStats(steps=steps, records=len(gen.records), faults=len(chosen),
                      turns=len(gen.turns), deps=gen.deps_written
                      + sum(len(r.deps) for r in gen.records))
