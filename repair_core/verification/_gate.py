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
from collections.abc import Mapping
from typing import Any

from .._errors import DgrrError
from .._text import printable
from ..case._case import Case
from ._store_after_apply import AppliedRecord, StoreAfterApply, store_after_apply

__all__ = ["InconsistentResult", "gated_store", "text_problem"]

_DONE_BY = (("deleted", "delete"), ("quarantined", "quarantine"), ("restored", "restore"))
_REPLAYED = ("replay", "refresh")


class InconsistentResult(DgrrError):
    """A repair result that does not say what applying it would do."""

    def __init__(self, rule: str, field: str, record: str, why: str) -> None:
        self.rule = rule
        """The gate rule it breaks (docs/rules.md)."""
        self.record = record
        """The first record id that differs."""
        super().__init__(f"RESULT: {field}: record {printable(record[:120])!r} {why} "
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
