"""Verified clean: a repair's corrected answer, replayed outputs and repaired store checked
by content against every fault's and suspected source's signature (`dgrr verify`)."""

from ._check import BLOCKED, FaultSignatures, carrier_id, result_sources, verify_result
from ._models import BlockedWrite, Carrier, Checked, FaultCheck, Verification

__all__ = [
    "BLOCKED",
    "BlockedWrite",
    "Carrier",
    "Checked",
    "FaultCheck",
    "FaultSignatures",
    "Verification",
    "carrier_id",
    "result_sources",
    "verify_result",
]
