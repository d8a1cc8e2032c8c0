"""Suspects: what the lineage does not name but the content says (method.md, "Suspects").

One module for both planners (`_plan`, the networkx planner, and `_columnar_plan`), which
hand it the same plain inputs (ids, contents, times) and apply what it returns:

- a **suspected source** of a diagnosed record is an input of the record's producer (an
  observation, a document, a user turn or a record, not itself diagnosed) that carries
  the record's content (`repair_core.content.match` against the record's signature, at
  the lower bar `SOURCE_THRESHOLD`: the candidates are the few inputs the producer wrote
  the record from).
  Replaying the producer on that input would write the fault again, so by default
  (`quarantine`) the plan cleans it like a diagnosed fault (rule `suspect.source`);
- a **suspected carrier** is a record, observation or step outside the affected set whose
  content carries a diagnosed fault's (and that is not earlier than the fault's time
  bound: the fault may have copied it). It is listed; under the store and both
  objectives an active record that the plan keeps is quarantined by default (rule
  `suspect.carrier`).

`--suspects flag` lists both and changes nothing; `off` looks for neither. A reviewer
un-marks a suspect by naming it (`not_suspect`).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..content import SOURCE_THRESHOLD, ContentSignature, match, scan

__all__ = ["SuspectMode", "SUSPECT_MODES", "Suspected", "find_sources", "find_carriers",
           "source_reason", "carrier_reason", "CONTENT_KINDS"]

SuspectMode = Literal["quarantine", "flag", "off"]
SUSPECT_MODES: tuple[str, ...] = SuspectMode.__args__  # type: ignore[attr-defined]
CONTENT_KINDS = ("record", "tool_observation", "turn")
"""What can be a suspected source: what can be diagnosed (a record, a tool observation
or document, a user turn)."""


@dataclass(frozen=True)
class Suspected:
    """A node the lineage does not name that carries a diagnosed fault's content (a
    frozen dataclass, so that the columnar planner starts without pydantic; the plan
    report, a pydantic model, validates and serialises it)."""

    id: str
    """The suspected node (record, step or turn id)."""
    kind: Literal["record", "step", "turn"]
    """What the node is."""
    role: Literal["source", "carrier"]
    """`source`: an input of the fault's producer that carries the fault's content;
    `carrier`: a node outside the affected set that carries it."""
    fault: str
    """The diagnosed fault whose content it carries."""
    action: Literal["clean", "quarantine", "flag"]
    """What the plan does: `clean` (a source cleaned like a diagnosed fault),
    `quarantine` (a carrier record) or `flag` (listed only)."""
    evidence: str
    """What matched, as one line of plain text (tokens, slot, markers, shared runs)."""
    score: float
    """The match's score (at least the scorer's threshold)."""


def find_sources(signatures: Mapping[str, ContentSignature],
                 inputs: Mapping[str, Sequence[tuple[str, str, str]]],
                 diagnosed: Container[str], not_suspect: Container[str],
                 mode: SuspectMode) -> dict[str, Suspected]:
    """The suspected sources: for each diagnosed record (a key of `inputs`, in fault
    order), its producers' inputs `(id, kind, content)` (kind: record, step or turn) that
    carry its signature at the source bar (`content.SOURCE_THRESHOLD`: the producer wrote
    the fault from these inputs, so a shorter shared run says where it came from), each
    mapped to the first fault it is found for. Inputs that are diagnosed or un-marked are
    skipped."""
    found: dict[str, Suspected] = {}
    if mode == "off":
        return found
    for fault, candidates in inputs.items():
        sig = signatures.get(fault)
        if sig is None:
            continue
        for node, kind, content in candidates:
            if node in found or node in diagnosed or node in not_suspect:
                continue
            hit = match(sig, content, threshold=SOURCE_THRESHOLD)
            if hit is not None:
                found[node] = Suspected(
                    id=node, kind=kind, role="source", fault=fault,  # type: ignore[arg-type]
                    action="clean" if mode == "quarantine" else "flag",
                    evidence=hit.evidence(), score=hit.score)
    return found


def find_carriers(signatures: Mapping[str, ContentSignature], bounds: Mapping[str, float],
                  ids: Sequence[str], kinds: Sequence[str], times: Sequence[float],
                  contents: Sequence[str], slots: Mapping[int, tuple[str | None, Any]],
                  quarantinable: Container[int], mode: SuspectMode
                  ) -> list[Suspected]:
    """The suspected carriers among the candidates (`ids`, each with its kind, time and
    content; the caller leaves out what the lineage covers), in the candidates' order.
    A candidate earlier than a fault's time bound (`bounds`) does not carry that fault;
    one that carries several is listed for the best-scoring (the first on a tie).
    `quarantinable`: the candidates (by index) the plan quarantines when `mode` is
    `quarantine` (the caller's: active records the plan keeps, under the store and
    both objectives); the rest are flagged."""
    if mode == "off" or not signatures:
        return []
    sigs = list(signatures.values())
    best: dict[int, tuple[float, int, Any]] = {}
    order = {s.node: k for k, s in enumerate(sigs)}
    for i, hit in scan(sigs, contents, slots):
        if times[i] < bounds.get(hit.node, float("-inf")):
            continue
        rank = (hit.score, -order[hit.node])
        if i not in best or rank > best[i][:2]:
            best[i] = (*rank, hit)
    out: list[Suspected] = []
    for i in sorted(best):
        hit = best[i][2]
        out.append(Suspected(
            id=ids[i], kind=kinds[i], role="carrier", fault=hit.node,  # type: ignore[arg-type]
            action="quarantine" if mode == "quarantine" and i in quarantinable else "flag",
            evidence=hit.evidence(), score=hit.score))
    return out


def source_reason(s: Suspected, producers: Iterable[str]) -> str:
    """The reason line of a suspected source."""
    by = ", ".join(producers)
    head = (f"suspected source of {s.fault}: an input of its producer {by} that the diagnosis "
            f"did not mark carries its content ({s.evidence})")
    if s.action == "clean":
        return (head + "; cleaned like a diagnosed fault: never evidence again, dropped from "
                "every replayed step's inputs, so no replay writes the fault again from it")
    return head + "; flagged only (--suspects flag)"


def carrier_reason(s: Suspected) -> str:
    """The reason line of a quarantined suspected carrier."""
    return (f"suspected carrier of {s.fault}: no recorded lineage from it, but it carries its "
            f"content ({s.evidence}): quarantined (kept for audit, never retrieved)")
