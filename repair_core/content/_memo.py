"""What is worked out once per signature and read for every text scored against it."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from ._signature import ContentSignature

__all__ = ["per_signature"]

_T = TypeVar("_T")
_KEPT = 64
"""Signatures whose results each memo keeps (a plan has a few faults and sources)."""


def per_signature(fn: Callable[[ContentSignature], _T]) -> Callable[[ContentSignature], _T]:
    """`fn` worked out once per signature object: a scan calls the scorer for each text and
    each sentence of a carrier, and what it needs of a signature is linear in the
    signature's size, so working it out again each time made the scan grow with the
    records times the fault. Keyed by the object's identity (a signature holds a dict and
    cannot be hashed); an entry holds its signature weakly and is dropped when the
    signature is collected, so neither a reused identity nor a case's texts outlive it."""
    kept: OrderedDict[int, tuple[weakref.ref[ContentSignature], _T]] = OrderedDict()
    lock = threading.Lock()  # the dashboard scores in several threads

    def forget(key: int) -> None:
        with lock:
            kept.pop(key, None)

    def once(signature: ContentSignature) -> _T:
        with lock:
            entry = kept.get(id(signature))
            if entry is not None and entry[0]() is signature:
                kept.move_to_end(id(signature))
                return entry[1]
        result = fn(signature)
        with lock:
            kept[id(signature)] = (weakref.ref(signature), result)
            kept.move_to_end(id(signature))
            if len(kept) > _KEPT:
                kept.popitem(last=False)
        # what was worked out of a case's texts goes with its signature, never outlives it
        weakref.finalize(signature, forget, id(signature))
        return result

    once.__doc__ = fn.__doc__
    once.__wrapped__ = fn  # type: ignore[attr-defined]
    return once
