"""Which observations and records carry a diagnosed fault's text.

A poisoned document or tool result is often copied, whole or in part, into what the
agent observed or remembered without a recorded edge saying so. A node *carries* a fault
when the fault's text, or a window of `SPAN_TOKENS` consecutive words of it, appears in
the node's text (case and punctuation ignored). Carrying is harm, never support: a
carrier is affected and is never kept by inheritance from a clean parent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._carried import (
    MIN_TOKENS,
    SPAN_TOKENS,
    _hits,
    _index,
    carries,
    folded_words,
    text_hits,
    text_of,
)

if TYPE_CHECKING:
    from ..case._case import Case

__all__ = ["SPAN_TOKENS", "MIN_TOKENS", "carriers", "fault_texts", "carries", "text_hits"]


def fault_texts(case: Case) -> dict[str, str]:
    """Each diagnosed fault -> its text (a record's, a step's or a user turn's)."""
    by_id: dict[str, Any] = {m.id: m for m in case.memory}
    by_id.update((s.id, s) for s in case.trajectory)
    by_id.update((t.id, t) for t in case.session)
    return {f: text_of(by_id[f]) for f in case.faults if f in by_id}


def carriers(case: Case, bounds: Mapping[str, float] | None = None
             ) -> Iterable[tuple[str, str]]:
    """`(node, fault)` for every tool observation and record that carries a diagnosed
    fault's text, other than the fault itself, in case order. A step earlier than the
    fault's time bound (`bounds`: fault -> seq) does not carry it, nor does a record
    created before it (a record older than the run counts as created before every step):
    the fault may have copied such a record, not the other way round.
    """
    bounds = bounds or {}
    faults = set(case.faults)
    out: list[tuple[str, str]] = []
    nodes: list[tuple[str, Any, float]] = [
        (s.id, s, s.seq) for s in case.steps_in_order() if s.type == "tool_observation"]
    nodes += [(m.id, m, m.created_seq if m.created_seq is not None else float("-inf"))
              for m in case.memory]
    nodes = [node for node in nodes if node[0] not in faults]
    # the index is made only when some node may carry a fault: a megabyte fault's windows
    # took a quarter of a second to index for a case with nothing else to search
    index = _index(fault_texts(case)) if nodes else {}
    if not index:
        return []
    for node_id, node, seq in nodes:
        for fault in sorted(_hits(folded_words(text_of(node)), index)):
            if seq < bounds.get(fault, float("-inf")):
                continue
            out.append((node_id, fault))
    return out
