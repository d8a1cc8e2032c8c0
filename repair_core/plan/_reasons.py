"""Reason wording shared by the networkx planner (`_plan`) and the columnar planner
(`_columnar_plan`), whose reports must be byte-identical. Light on imports: the columnar
path must not pull in networkx or pydantic."""

from __future__ import annotations

from collections.abc import Sequence


def store_quarantine_reason(path: str, producers: Sequence[str], redo: Sequence[str]) -> str:
    """Why a record is quarantined under the store objective, and whether replaying its
    producers (`redo`, those of `producers` that are replayed) re-derives it.

    >>> store_quarantine_reason("m3 → s2 → m6", ["s2"], []).split(": ")[-1]
    'not re-derived, no input of its producer s2 survives the cleaning'
    """
    base = quarantine_reason(path)
    if redo:
        return (f"{base}. Objective store: re-derived by replaying {', '.join(redo)} "
                "on cleaned inputs")
    if producers:
        return (f"{base}. Objective store: not re-derived, no input of its producer "
                f"{', '.join(producers)} survives the cleaning")
    return f"{base}. Objective store: no producer in this run to re-derive it"


RESTORED = "restored to the active store with its content"
NEVER_RESTORED = "never restored, stays retired"


def quarantine_reason(path: str) -> str:
    """Why an affected record without independent support is quarantined."""
    return (f"affected via {path}; no independent support: quarantined "
            "(kept for audit, never retrieved)")


def fault_record_reason(seed: str | None) -> str:
    """Why a diagnosed record is deleted; `seed`: the step replayed in its place, if any."""
    return "diagnosed fault: leaves the active store" + (
        "" if seed is None else f" (seed {seed} is replayed)")


def undone_update_reason(update: str, poisoned: str | None) -> str:
    """Why the value a faulty `update` retired is restored, or (its value being the
    fault's own, `poisoned`) stays retired."""
    return f"the value before faulty update {update}: " + (
        f"its value is the fault's own ({poisoned}): {NEVER_RESTORED}" if poisoned
        else RESTORED)


def retired_reason(retirers: str, poisoned: str | None, restored: bool, active: bool,
                   kept_by_support: bool = False) -> str:
    """Why a record affected only through delete edges (`retirers`, joined ids) is
    restored, or kept as it is."""
    if kept_by_support:
        return f"kept by support, retired only by unsupported mutation(s) {retirers}: {RESTORED}"
    if poisoned is not None:
        return f"retired by {retirers}; its value is the fault's own ({poisoned}): {NEVER_RESTORED}"
    if restored:
        return f"retired only by unsupported mutation(s) {retirers}: {RESTORED}"
    return ("affected only through delete edges: keeps its content and status (a mutation "
            "that retired it still stands)" if not active else
            "affected only through delete edges and still active: kept")
