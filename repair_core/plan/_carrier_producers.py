"""A carrier that folds a fault into other facts, written again by its producer.

A suspected carrier record holding a fault beside true facts (`_suspects.folded_facts`:
a summary holding the attacker's account with the rent and the electricity bill) would
take those facts out of the store if it were quarantined whole. Under the store and both
objectives with `--suspects quarantine`, when one memory write produced it and nothing
else, and read something besides the user's turn, that write is replayed instead: the record is quarantined for audit and its
producer writes it again from its inputs, which hold the true facts and not the fault
(rule `suspect.carrier-rederive`). The write is replayed only where its inputs cannot
give the fault back (rule `suspect.no-rederive`'s reading, applied to a carrier): none
carries the fault's content at the source bar, and none is a tool output a reviewer has
not cleared (the fault may be in it in words the scorer does not see). Otherwise the
carrier stays flagged with its facts quoted, and its evidence says which inputs held the
replay back.

Both planners hand over the same plain inputs (`CarrierProducer`), so their reports are
the same byte for byte.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from ..content import SOURCE_THRESHOLD, ContentSignature, match

__all__ = ["WriterInput", "CarrierProducer", "writes_from", "held_back_by", "rederived_line",
           "not_rederived_line", "rederive_reason"]


@dataclass(frozen=True)
class WriterInput:
    """An input of a carrier record's producer, as both planners hand it over."""

    id: str
    """The input: a premise of the producer (record, step or turn), or a record a
    `memory_read` premise returned."""
    tool_output: bool
    """Whether it is a tool observation or document (the replay would read it again
    unchanged: the producer is unaffected, so nothing refreshes it)."""
    content: str
    """Its content (`node_content`)."""
    user_turn: bool = False
    """Whether it is a user turn (the one that started the write, typically): a write
    that read nothing else has nothing to write the other facts from."""


@dataclass(frozen=True)
class CarrierProducer:
    """The one memory write that produced a carrier record, and what it read."""

    step: str
    """The producing memory write (its only `produce` edge goes to the carrier)."""
    inputs: tuple[WriterInput, ...]
    """Its inputs, in the order it lists its premises (a read's records where the read
    stands)."""


def writes_from(producer: CarrierProducer | None) -> CarrierProducer | None:
    """`producer` when it read something besides user turns (replaying it can write the
    other facts again), else None: a write whose one premise is the turn that started it
    has no recorded evidence, and its replay would write nothing."""
    if producer is None or all(x.user_turn for x in producer.inputs):
        return None
    return producer


def held_back_by(fault: ContentSignature, producer: CarrierProducer,
                 not_suspect: Container[str]) -> tuple[str, ...]:
    """The inputs of `producer` that would give `fault` back if it were replayed, in
    its order (empty: it may be replayed): a tool output a reviewer has not cleared
    (`not_suspect`), or an input whose content carries the fault at the source bar
    (`content.SOURCE_THRESHOLD`)."""
    return tuple(x.id for x in producer.inputs
                 if (x.tool_output and x.id not in not_suspect)
                 or match(fault, x.content, threshold=SOURCE_THRESHOLD) is not None)


def rederived_line(facts_line: str, producer: str) -> str:
    """The evidence words of a folding carrier that its producer writes again."""
    return (f"{facts_line}: quarantined and written again without the fault by replaying "
            f"its producer {producer}, so they stay in the store")


def not_rederived_line(facts_line: str, producer: str, inputs: tuple[str, ...]) -> str:
    """The evidence words of a folding carrier whose producer the inputs hold back."""
    return (f"{facts_line}: flagged, not quarantined, so they stay in the store until a "
            f"reviewer decides; its producer {producer} is not replayed: it would read "
            f"{', '.join(inputs)} again, which may give the fault back")


def rederive_reason(record: str, fault: str) -> str:
    """The reason of a replayed producer of a folding carrier."""
    return (f"objective store: producer of {record}, a suspected carrier that folds {fault} "
            "into other facts: replayed on its inputs (none carries the fault or is a tool "
            "output read again), so the store gets the record again with those facts and "
            "without the fault")
