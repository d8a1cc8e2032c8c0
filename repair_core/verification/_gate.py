"""The gate before a repair result is certified, approved or written: the result must say
what the apply would do.

`dgrr apply` acts on a result's `report.store_changes` (`store_after_apply`); what a
reviewer reads and what `dgrr verify` scans must be that same store. A result whose store
changes leave out a record its decisions delete, whose `store.quarantine` holds a record
the decisions do not quarantine, or whose `store.active` is not the store the apply would
leave, is refused, naming the rule and the first record that differs. So is a result with
text no store or terminal should take (a NUL character, a lone surrogate).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .._errors import DgrrError
from .._reference_model import REFERENCE_MODEL
from .._text import printable
from ..case._case import Case
from ._store_after_apply import AppliedRecord, StoreAfterApply, store_after_apply

__all__ = ["InconsistentResult", "added_writers", "gated_store", "rederived_from",
           "replay_recomputable", "text_problem"]

_DONE_BY = (("deleted", "delete"), ("quarantined", "quarantine"), ("restored", "restore"))
_REPLAYED = ("replay", "refresh")


class InconsistentResult(DgrrError):
    """A repair result that does not say what applying it would do."""

    def __init__(self, rule: str, field: str, record: str, why: str, *,
                 what: str = "record") -> None:
        self.rule = rule
        """The gate rule it breaks (docs/rules.md)."""
        self.record = record
        """The first record (or step) id that differs."""
        super().__init__(f"RESULT: {field}: {what} {printable(record[:120])!r} {why} "
                         f"(rule {rule}: the result is not what the apply would write; "
                         "refused)")


def gated_store(case: Case, result: Mapping[str, Any]) -> StoreAfterApply:
    """The store applying `result` (untrusted `dgrr repair --json` data) to `case` would
    leave, once the result is found to say just that: its text is valid
    (`gate.valid-text`), its store changes are its record decisions
    (`gate.store-changes-match-decisions`), its quarantine is the records they quarantine
    (`gate.quarantine-matches-plan`) and its active store is the recomputed one
    (`gate.active-matches-plan`). Otherwise a DgrrError naming the field (and the rule
    and first differing record id)."""
    bad = text_problem(result)
    if bad is not None:
        raise DgrrError(f"RESULT: {printable(bad[:300])} (rule gate.valid-text; refused)")
    after = store_after_apply(case, result)
    _check_steps(case, result.get("trajectory"))
    said = _decisions(result)
    decided = {m.id: said[m.id] for m in case.memory if m.id in said}
    changes = result["report"]["store_changes"]
    order = {m.id: i for i, m in enumerate(case.memory)}
    for kind, action in _DONE_BY:
        listed = [r for r in changes.get(kind, []) if isinstance(r, str)]
        wanted = [rid for rid, a in decided.items() if a == action]
        first = _first_difference(wanted, listed, order)
        if first is not None:
            rid, missing = first
            raise InconsistentResult(
                "gate.store-changes-match-decisions", f"report.store_changes.{kind}", rid,
                f"is decided '{action}' but not listed" if missing else
                f"is listed, but decided '{decided.get(rid, 'nothing')}'")
    records = {m.id: m for m in case.memory}
    seen: set[str] = set()
    for rid in changes.get("added", []):
        if isinstance(rid, str) and rid in seen:
            raise InconsistentResult(
                "gate.store-changes-match-decisions", "report.store_changes.added", rid,
                "is listed twice (one record, written once)")
        if isinstance(rid, str):
            seen.add(rid)
        if isinstance(rid, str) and rid in records:
            # a replayed write's record always gets a new id, so this would give a record
            # of the case a text the result chose while the scan took it for the new one
            raise InconsistentResult(
                "gate.store-changes-match-decisions", "report.store_changes.added", rid,
                "is a record of the case, not one a replayed write created")
    _check_writers(case, result, [r for r in changes.get("added", [])
                                  if isinstance(r, str) and r not in records], said)
    for rid in changes.get("retired", []):
        m = records.get(rid) if isinstance(rid, str) else None
        if m is not None and not any(said.get(d.id) in _REPLAYED for d in m.deps):
            # the replay retires only what a replayed write wrote or its original retired
            raise InconsistentResult(
                "gate.store-changes-match-decisions", "report.store_changes.retired", rid,
                "is listed, but no step the decisions replay wrote or retired it")
    quarantine = _ids(result["store"].get("quarantine"))
    wanted = [rid for rid, a in decided.items() if a == "quarantine"]
    first = _first_difference(wanted, quarantine, order)
    if first is not None:
        rid, missing = first
        raise InconsistentResult(
            "gate.quarantine-matches-plan", "store.quarantine", rid,
            "is quarantined by the decisions but not listed" if missing else
            "is listed, but the decisions do not quarantine it")
    _check_active(after.active, result["store"].get("active"), order)
    return after


SUPPLIED_BY_HAND = "observation supplied by hand"
"""The detail of a replayed action's outcome whose observation the replay's caller gave
(`repair(..., observations=)`), as the replay writes it."""


def replay_recomputable(result: Any) -> bool:
    """Whether `result` (untrusted `dgrr repair --json` data) is one the gate makes again:
    made by the offline reference model, and adding records (whose writers and texts are
    what the lineage of what the apply writes starts from)."""
    report = result.get("report") if isinstance(result, Mapping) else None
    if not isinstance(report, Mapping) or report.get("model") != REFERENCE_MODEL:
        return False
    changes = report.get("store_changes")
    return isinstance(changes, Mapping) and bool(changes.get("added"))


def _check_steps(case: Case, trajectory: Any) -> None:
    """Rule gate.steps-of-case: the repaired trajectory holds the case's steps, each
    once, in the case's order, each of the case's type. The replay keeps every step and
    its id; a step renamed, added or left out would give the lineage the gate reads a
    node the case does not have (or lose one)."""
    rule = "gate.steps-of-case"
    steps = trajectory.get("trajectory") if isinstance(trajectory, Mapping) else None
    if not isinstance(steps, list):
        raise DgrrError("RESULT: trajectory.trajectory: expected the list of the repaired "
                        f"trajectory's steps, got {type(steps).__name__}")
    for i, (step, want) in enumerate(zip(steps, case.trajectory, strict=False)):
        sid = step.get("id") if isinstance(step, Mapping) else None
        kind = step.get("type") if isinstance(step, Mapping) else None
        if sid != want.id:
            raise InconsistentResult(
                rule, f"trajectory.trajectory[{i}].id", str(sid),
                f"stands where the case has step {printable(want.id[:120])!r}", what="step")
        if kind != want.type:
            raise InconsistentResult(
                rule, f"trajectory.trajectory[{i}].type", want.id,
                f"is given as {printable(str(kind)[:40])!r}, the case's step is a "
                f"{want.type}", what="step")
    if len(steps) != len(case.trajectory):
        i = min(len(steps), len(case.trajectory))
        extra = steps[i] if len(steps) > i else None
        sid = extra.get("id") if isinstance(extra, Mapping) else None
        raise InconsistentResult(
            rule, f"trajectory.trajectory[{i}]",
            str(sid) if extra is not None else case.trajectory[i].id,
            "is not a step of the case" if extra is not None
            else "is a step of the case the result leaves out", what="step")


def rederived_from(rid: str) -> str | None:
    """The record id a replayed write's record `rid` was re-derived from (`m6` for
    `m6~r1`), None when `rid` has no `~rN` ending."""
    base, sep, n = rid.rpartition("~r")
    return base if sep and base and n.isdigit() else None


def added_writers(case: Case, rids: Iterable[str]) -> dict[str, list[str]]:
    """Each record id of `rids` -> the memory writes of the case whose replay would
    name its new record so: `<base>~rN` (`rederived_from`), where base is a record of
    the case the write targets, or `<write>.m` (`replay._memory`). An id of neither
    form has none."""
    wanted = {rid: base for rid in rids if (base := rederived_from(rid)) is not None}
    if not wanted:
        return {}
    bases = set(wanted.values())
    by_base: dict[str, list[str]] = {}
    for s in case.trajectory:
        if s.type != "memory_write":
            continue
        for t in [*getattr(s, "target", ()), f"{s.id}.m"]:
            if t in bases and s.id not in by_base.setdefault(t, []):
                by_base[t].append(s.id)
    return {rid: by_base.get(base, []) for rid, base in wanted.items()}


def _check_writers(case: Case, result: Mapping[str, Any], added: list[str],
                   said: Mapping[str, str]) -> None:
    """Rule gate.added-by-replayed-write: each record the result adds is named as a
    replayed write of the case names its record (`added_writers`), by a write its
    decisions replay, and no step or record deps of the result give it another writer.
    Which write made a record is what its lineage starts from: the gate takes it from
    the case, and refuses a result that says otherwise."""
    if not added:
        return
    rule = "gate.added-by-replayed-write"
    writers = added_writers(case, added)
    for rid in added:
        own = writers.get(rid, [])
        if not own:
            raise InconsistentResult(
                rule, "report.store_changes.added", rid,
                "is not named as a replayed write of the case names its record "
                "(<record it targets>~rN or <write>.m~rN)")
        if not any(said.get(w) == "replay" for w in own):
            raise InconsistentResult(
                rule, "report.store_changes.added", rid,
                f"is the record of {printable(own[0][:120])!r}, which the decisions do "
                "not replay")
    store = result["store"]
    for part in ("active", "quarantine"):
        for i, m in enumerate(store.get(part) or []):
            held = m.get("id") if isinstance(m, Mapping) else None
            if not isinstance(held, str) or held not in writers:
                continue
            rid, deps = held, m.get("deps")
            for k, d in enumerate(deps if isinstance(deps, list) else []):
                if isinstance(d, Mapping) and d.get("label") in ("produce", "update") \
                        and d.get("id") not in writers[rid]:
                    raise InconsistentResult(
                        rule, f"store.{part}[{i}].deps[{k}].id", rid,
                        f"is said to be written by {printable(str(d.get('id'))[:120])!r}, "
                        f"not by {printable(writers[rid][0][:120])!r}, the write of the "
                        "case that names it so")
    for i, step in enumerate(result["trajectory"]["trajectory"]):
        target = step.get("target")
        if not isinstance(target, list):
            continue
        for rid in target:
            if isinstance(rid, str) and rid in writers and step["id"] not in writers[rid]:
                raise InconsistentResult(
                    rule, f"trajectory.trajectory[{i}].target", rid,
                    f"is given to step {printable(step['id'][:120])!r}, not to "
                    f"{printable(writers[rid][0][:120])!r}, the write of the case that "
                    "names it so")


def _check_active(expected: list[AppliedRecord], given: Any, order: dict[str, int]) -> None:
    """Rule gate.active-matches-plan: `store.active` holds the records of the recomputed
    store, each once, with their text, key and value."""
    rule, field = "gate.active-matches-plan", "store.active"
    items = given if isinstance(given, list) else []
    listed = _ids(items)
    first = _first_difference([r.id for r in expected], listed, order)
    if first is not None:
        rid, missing = first
        raise InconsistentResult(rule, field, rid,
                                 "stays active after the apply but is not listed" if missing
                                 else "is listed, but the apply leaves no such record active")
    by_id = {r.id: r for r in expected}
    seen: set[str] = set()
    for i, item in enumerate(items):
        rid = item["id"]
        if rid in seen:
            raise InconsistentResult(rule, f"{field}[{i}]", rid, "is listed twice")
        seen.add(rid)
        want = by_id[rid]
        for name in ("text", "key", "value"):
            if item.get(name) != getattr(want, name):
                raise InconsistentResult(rule, f"{field}[{i}].{name}", rid,
                                         f"has another {name} than the record the apply "
                                         "leaves")


def _decisions(result: Mapping[str, Any]) -> dict[str, str]:
    """The result's decision on each record and step (`report.decisions`), id -> action;
    a bad decision is a named error."""
    decisions = result["report"].get("decisions")
    if not isinstance(decisions, list):
        raise DgrrError("RESULT: report.decisions: expected a list of decisions, got "
                        f"{type(decisions).__name__}")
    said: dict[str, str] = {}
    for i, d in enumerate(decisions):
        if not isinstance(d, Mapping) or not isinstance(d.get("id"), str) or \
                not isinstance(d.get("action"), str):
            raise DgrrError(f"RESULT: report.decisions[{i}]: expected an object with a text "
                            "id and action")
        said[d["id"]] = d["action"]
    return said


def _ids(items: Any) -> list[str]:
    """The ids of a list of records already checked to hold ids (`result_parts`)."""
    return [m["id"] for m in items] if isinstance(items, list) else []


def _first_difference(wanted: list[str], listed: list[str], order: dict[str, int]
                      ) -> tuple[str, bool] | None:
    """The first id in one list and not the other (by the case's store order, then the
    listed order) and whether it is missing from `listed`; None when both hold the same
    ids."""
    have, want = set(listed), set(wanted)
    missing = [r for r in wanted if r not in have]
    extra = [r for r in listed if r not in want]
    if not missing and not extra:
        return None
    rank = len(order)
    candidates = [(order.get(r, rank), n, r, True) for n, r in enumerate(missing)]
    candidates += [(order.get(r, rank), n, r, False) for n, r in enumerate(extra)]
    _, _, rid, is_missing = min(candidates)
    return rid, is_missing


def text_problem(data: Any) -> str | None:
    """The first string in `data` (any JSON value, keys included) holding a NUL character
    or a lone surrogate, as `FIELD: what it holds`; None when there is none. No
    recursion; the field is looked for only when the JSON text shows there is one."""
    try:  # the whole value as JSON text, in C: a NUL shows as its escape, a surrogate raw
        dumped = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        dumped = None
    if dumped is not None and "\\u0000" not in dumped and _bad_text(dumped) is None:
        return None
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            what = _bad_text(value)
            if what is not None:
                return f"{path or '(the result)'}: {what}"
        elif isinstance(value, Mapping):
            items = list(value.items())
            for key, _ in items:
                what = _bad_text(key) if isinstance(key, str) else None
                if what is not None:
                    return f"{path or '(the result)'}: a key {what}"
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in reversed(items))
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return None


def _bad_text(text: str) -> str | None:
    if "\x00" in text:
        return f"holds a NUL character at offset {text.index(chr(0))}"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"holds a lone surrogate at offset {exc.start} (not valid Unicode text)"
    return None
