"""A case file's head: its id, domain, faults and sizes, read without building the case
(one msgspec pass that skips what it does not keep), for a list of many cases. It says
nothing of whether the case is valid beyond these fields: opening the case loads it
whole, with every check.

>>> head_of(b'{"format": "dgrr.case/v1", "case_id": "c1", "domain": "travel", "user_id": "u",'
...         b' "session": [], "memory": [{}], "trajectory": [{}, {}], "faults": ["m1"]}')
CaseHead(case_id='c1', domain='travel', faults=['m1'], steps=2, records=1)
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from .._errors import CaseError
from .._io import map_input

__all__ = ["CaseHead", "NotACase", "head_of", "read_case_head"]


class NotACase(CaseError):
    """JSON that does not claim to be a case (no `format` of `dgrr.case/v1`): a manifest,
    a saved result, anything else a folder of cases holds beside them."""


class CaseHead(msgspec.Struct, frozen=True):
    """What a list of cases shows of one case."""

    case_id: str
    """The case's id."""
    domain: str | None
    """Its domain, when it names one."""
    faults: list[str]
    """The diagnosed faults."""
    steps: int
    """Trajectory steps."""
    records: int
    """Memory records."""


class _Item(msgspec.Struct, gc=False):
    """A step or record, counted: every field is skipped (and nothing of the buffer held)."""


class _Head(msgspec.Struct):
    format: str
    case_id: str
    faults: list[str]
    domain: str | None = None
    trajectory: list[_Item] = []
    memory: list[_Item] = []


class _Format(msgspec.Struct):
    format: object = None


_DECODER = msgspec.json.Decoder(_Head)
_FORMAT = msgspec.json.Decoder(_Format)


def head_of(data: bytes | memoryview, source: str = "case") -> CaseHead:
    """The head of a case given as its JSON bytes: :class:`NotACase` for JSON that does
    not claim the format, :class:`CaseError` naming the field when the bytes are not JSON
    or a case's head is not of its shape."""
    try:
        head = _DECODER.decode(data)
    except msgspec.ValidationError as exc:
        try:
            claimed = _FORMAT.decode(data).format
        except msgspec.DecodeError:  # not an object at all
            claimed = None
        if claimed != "dgrr.case/v1":
            raise NotACase(["not a dgrr.case/v1 case"], source=source) from None
        raise CaseError([f"not a dgrr.case/v1 case: {exc}"], source=source) from None
    except msgspec.DecodeError as exc:
        raise CaseError([f"not JSON: {exc}"], source=source) from None
    if head.format != "dgrr.case/v1":
        raise NotACase([f"format: expected 'dgrr.case/v1', got {head.format!r}"],
                       source=source)
    return CaseHead(case_id=head.case_id, domain=head.domain, faults=head.faults,
                    steps=len(head.trajectory), records=len(head.memory))


def read_case_head(path: str | Path) -> CaseHead:
    """The head of the case file at `path` (mapped, not copied)."""
    data = map_input(path)
    if isinstance(data, bytes):
        return head_of(data, source=str(path))
    try:
        with memoryview(data) as view:  # released before the mapping is closed
            return head_of(view, source=str(path))
    finally:
        data.close()
