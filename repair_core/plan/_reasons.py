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
    base = (f"affected via {path}; no independent support: quarantined "
            "(kept for audit, never retrieved)")
    if redo:
        return (f"{base}. Objective store: re-derived by replaying {', '.join(redo)} "
                "on cleaned inputs")
    if producers:
        return (f"{base}. Objective store: not re-derived, no input of its producer "
                f"{', '.join(producers)} survives the cleaning")
    return f"{base}. Objective store: no producer in this run to re-derive it"
