"""The model layer: prompt contracts, the one call wrapper, and the offline reference model.

Importing this package does not import litellm; the first call does.
"""

from ._builtin import POLICIES, builtin_salt, parse_builtin, resolve_builtin
from ._client import CallRecord, ModelClient
from ._contracts import (
    OUTPUT_SCHEMAS,
    PROMPT_VERSION,
    STAGE_VERSIONS,
    STAGES,
    AnswerOut,
    AuditOut,
    ClaimOut,
    ConsolidateOut,
    JudgeOut,
    MemoryWriteOut,
    PlanOut,
    ReplyError,
    WrittenRecord,
    evidence_ids,
    parse_prompt,
    render_prompt,
    template,
    validate_reply,
)
from ._inputs import audit_inputs, judge_inputs
from ._provider import REFERENCE_MODEL, import_litellm, register_provider
from ._reference import count_tokens, reference_reply
from ._reference_b import reference_b_reply

__all__ = [
    "OUTPUT_SCHEMAS",
    "POLICIES",
    "PROMPT_VERSION",
    "REFERENCE_MODEL",
    "STAGE_VERSIONS",
    "STAGES",
    "AnswerOut",
    "AuditOut",
    "CallRecord",
    "ClaimOut",
    "ConsolidateOut",
    "JudgeOut",
    "MemoryWriteOut",
    "ModelClient",
    "PlanOut",
    "ReplyError",
    "WrittenRecord",
    "audit_inputs",
    "count_tokens",
    "evidence_ids",
    "import_litellm",
    "judge_inputs",
    "builtin_salt",
    "parse_builtin",
    "parse_prompt",
    "reference_b_reply",
    "reference_reply",
    "resolve_builtin",
    "register_provider",
    "render_prompt",
    "template",
    "validate_reply",
]
