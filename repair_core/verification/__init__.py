"""Verified clean: a repair's corrected answer, replayed outputs and repaired store checked
by content against every fault's and suspected source's signature (`dgrr verify`)."""

from ._check import BLOCKED, FaultSignatures, carrier_id, result_sources, verify_result
from ._gate import (
    InconsistentResult,
    gated_store,
    rederived_from,
    replay_recomputable,
    text_problem,
)
from ._models import (
    BlockedWrite,
    Carrier,
    Checked,
    FaultCheck,
    JudgeUse,
    Outcome,
    Uncertain,
    Verification,
    judged_by,
)

__all__ = [
    "BLOCKED",
    "BlockedWrite",
    "Carrier",
    "Checked",
    "FaultCheck",
    "FaultSignatures",
    "InconsistentResult",
    "JudgeUse",
    "Outcome",
    "Uncertain",
    "Verification",
    "carrier_id",
    "gated_store",
    "judged_by",
    "rederived_from",
    "replay_recomputable",
    "result_sources",
    "text_problem",
    "verify_result",
]
