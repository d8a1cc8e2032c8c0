"""Model replies must not put a diagnosed fault back: a replayed claim, answer or memory
write that states a fault's value is flagged (writes are refused from the active store).

"States" is the benchmark oracle's match (:func:`repair_core.content._normalise.fact_stated`:
case-folded, punctuation-blind, whole words), so a paraphrase such as "Lin prefers WINDOW
seats!" counts, and a value the repaired store still supports independently (an active
record that is not a fault and holds or states the same value) is not flagged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..case._case import Case, MemoryRecord
from ..content._normalise import NormalisedTexts

__all__ = ["FaultValues"]


def _value_text(value: Any, normalised: NormalisedTexts) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str | int | float):
        text = str(value).strip()
        return text if normalised(text) else None
    return None


class FaultValues:
    """The diagnosed faults' values that nothing else in the repaired store supports."""

    def __init__(self, case: Case, faults: Iterable[str], active: Iterable[MemoryRecord],
                 normalised: NormalisedTexts | None = None) -> None:
        self.normalised = normalised if normalised is not None else NormalisedTexts()
        """The normalised texts (the replay's memo)."""
        normalise, fact_stated = self.normalised, self.normalised.fact_stated
        fault_ids = set(faults)
        records = {m.id: m for m in case.memory}
        wanted: list[tuple[str, str]] = []
        for fid in sorted(fault_ids):
            rec = records.get(fid)
            if rec is None:
                continue
            value = _value_text(rec.value, normalise)
            wanted.append((fid, value if value is not None else rec.text))
        kept = [m for m in active if m.id not in fault_ids]
        self.values = [(fid, v) for fid, v in wanted if not any(
            _value_text(m.value, normalise) is not None and normalise(str(m.value)) == normalise(v)
            or fact_stated(m.text, v) for m in kept)]
        """(fault id, value) pairs a replayed output must not state."""

    def stated(self, text: Any, value: Any = None) -> tuple[str, str] | None:
        """The (fault id, value) that `text` states or `value` equals, if any."""
        normalise, fact_stated = self.normalised, self.normalised.fact_stated
        shown = _value_text(value, normalise)
        for fid, v in self.values:
            if shown is not None and normalise(shown) == normalise(v):
                return fid, v
            if isinstance(text, str) and fact_stated(text, v):
                return fid, v
        return None

    def in_record(self, rec: Mapping[str, Any]) -> tuple[str, str] | None:
        return self.stated(rec.get("text"), rec.get("value"))
