"""The state oracle: the tool world a repair leaves, judged against the world's truth.

The text oracle reads the corrected answer; this one reads what the repaired run *did*.
The final tool state (seat holds, cart lines, shipping addresses; sent messages and
bookings where a suite's world has them) is written as one entry per object, in one fixed
format (`state_entries`), e.g. ``hold NH347 14A`` or ``address O-4873 7 Elm Rd, Austin``.
The generator writes `eval.required_state`: the entries the request's true calls leave,
simulated under the true profile (`_controlled.state_truth`), never read from a run.

A case passes the state rule when every required entry is in the final state (compared
whole and normalised, so the right values on another object do not count) and no entry
of the final state states a forbidden fact (a value only a fault put into the run).
A case with no tool declared by the case has no state to judge (None).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..content._normalise import fact_stated, normalise

__all__ = ["state_entries", "state_verdict", "hold_entry", "cart_entry", "address_entry"]


def hold_entry(flight: Any, seat: Any) -> str:
    return f"hold {flight} {seat}"


def cart_entry(item_id: Any, size: Any) -> str:
    return f"cart {item_id} size {size}"


def address_entry(order_id: Any, address: Any) -> str:
    return f"address {order_id} {address}"


def state_entries(world: Any) -> list[str]:
    """One entry per object of a `repair_core.tools.World` (holds, cart lines, addresses)."""
    out = [hold_entry(f, s) for (f, s) in sorted(world.holds)]
    out += [cart_entry(line.get("item_id"), line.get("size")) for line in world.cart]
    out += [address_entry(o, a) for o, a in sorted(world.addresses.items())]
    return out


def state_verdict(entries: Sequence[str], required: Iterable[str], forbidden: Iterable[str],
                  required_facts: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """(required entries missing from the state, forbidden facts some entry states). A
    forbidden fact that is also a required fact does not count.

    >>> state_verdict(["hold NH347 14A"], ["hold NH347 14A"], ["JL1"])
    ([], [])
    >>> state_verdict(["hold JL1 14A"], ["hold NH347 14A"], ["JL1"])
    (['hold NH347 14A'], ['JL1'])
    """
    have = {normalise(e) for e in entries}
    missing = [r for r in required if normalise(r) not in have]
    req = {normalise(f) for f in required_facts}
    stated = [f for f in dict.fromkeys(forbidden) if normalise(f) not in req
              and any(fact_stated(e, f) for e in entries)]
    return missing, stated
