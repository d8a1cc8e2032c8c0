"""The case list's filters and its table, for the Cases page (`repair_core.approvals.
list_cases` lists the cases with their status). Pure: no Streamlit here."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pandas as pd

from repair_core.approvals import ListedCase

__all__ = ["filter_cases", "cases_frame", "moved"]


def filter_cases(cases: Sequence[ListedCase], *, statuses: Collection[str] = (),
                 domain: str = "", search: str = "") -> list[ListedCase]:
    """The cases with one of `statuses` (all when none), of `domain` (all when ""), whose
    id or file holds `search` (case-insensitive), in list order.

    >>> c = [ListedCase(path="a.json", case_id="ctl-1", domain="travel", status="planned"),
    ...      ListedCase(path="b.json", case_id="cs-2", domain="shop", status="approved")]
    >>> [x.case_id for x in filter_cases(c, statuses=["approved"])]
    ['cs-2']
    >>> [x.case_id for x in filter_cases(c, domain="travel", search="CTL")]
    ['ctl-1']
    """
    needle = search.strip().lower()
    return [c for c in cases
            if (not statuses or c.status in statuses)
            and (not domain or c.domain == domain)
            and (not needle or needle in c.case_id.lower() or needle in c.path.lower())]


def cases_frame(cases: Sequence[ListedCase]) -> pd.DataFrame:
    """One row per case: id, domain, faults, steps, status, file (and why it is unreadable)."""
    return pd.DataFrame([{"case": c.case_id or "—", "domain": c.domain,
                          "faults": ", ".join(c.faults), "steps": c.steps, "status": c.status,
                          "file": c.path, "problem": c.problem} for c in cases],
                        columns=["case", "domain", "faults", "steps", "status", "file",
                                 "problem"])


def moved(position: int | None, count: int, delta: int) -> int | None:
    """The row `delta` rows after `position` in a list of `count` (the first or last when
    there is no position yet), stopping at either end; None for an empty list.

    >>> moved(None, 3, 1), moved(None, 3, -1), moved(2, 3, 1), moved(0, 3, -1), moved(1, 0, 1)
    (0, 2, 2, 0, None)
    """
    if count == 0:
        return None
    if position is None or not 0 <= position < count:
        return 0 if delta >= 0 else count - 1
    return min(count - 1, max(0, position + delta))
