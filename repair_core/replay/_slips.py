"""A replayed reply that leaves out a field (rule `replay.slip.ask-again`).

A model slips: a plan drops a required argument of its tool, a claim comes back with no
value where the original step had one, a memory write comes back with no record. The
executor then asks once more, naming what is missing (the `missing` input). If the second
reply still leaves it out, the original step's value is used, but only where that value
is unaffected by the repair: the repaired evidence the step now sees (its evidence items,
its user turn and the earlier turns shown with it) still states it, and no diagnosed
fault does. A value only a fault supported is never restored this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..content._normalise import NormalisedTexts
from ..tools import ToolRegistry

__all__ = ["missing_arguments", "ask_again", "stated_by"]


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def missing_arguments(tools: ToolRegistry, tool: str | None, args: Mapping[str, Any]
                      ) -> list[str]:
    """Required parameters of `tool` that `args` leaves out or leaves empty."""
    spec = tools.get(tool) if tool else None
    if spec is None:
        return []
    return [p.name for p in spec.params if p.required and _empty(args.get(p.name))]


def ask_again(what: str, names: Iterable[str]) -> str:
    """The `missing` input of the second call."""
    return (f"your previous reply left out {what} {', '.join(repr(n) for n in names)}: "
            "reply again and give it, from the INPUT")


def _texts(item: Mapping[str, Any]) -> Iterable[tuple[str, str]]:
    """(id, text) of an evidence or request item and the turns it carries."""
    iid = str(item.get("id", ""))
    for field in ("text", "value"):
        v = item.get(field)
        if isinstance(v, str | int | float) and not isinstance(v, bool):
            yield iid, str(v)
    out = item.get("output")
    if isinstance(out, Mapping):
        for v in out.values():
            if isinstance(v, str | int | float) and not isinstance(v, bool):
                yield iid, str(v)
    for t in item.get("earlier") or ():
        yield str(t.get("id", "")), str(t.get("text", ""))


def stated_by(value: Any, items: Iterable[Mapping[str, Any]],
              normalised: NormalisedTexts | None = None) -> str | None:
    """The id of the first item (evidence, request or an earlier turn) that states
    `value` (whole words, normalised as the oracle reads facts), or None. `normalised`:
    the caller's memo of normalised texts (a replay's)."""
    if _empty(value) or isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    normalised = normalised if normalised is not None else NormalisedTexts()
    want = str(value)
    if not normalised(want):
        return None
    for item in items:
        for iid, text in _texts(item):
            if iid and normalised.fact_stated(text, want):
                return iid
    return None
