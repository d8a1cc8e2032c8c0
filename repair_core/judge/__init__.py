"""Judges: does a text carry a fault's content? `yes`, `no` or `unsure` (`Judgement`),
from the offline lexical judge (`LexicalJudge`, the default: the content signature's
scorer, with what it cannot settle left `unsure`) or a model asked about what the lexical
judge cannot settle (`ModelJudge`): each distinct question once, several to a call, within
a budget of calls, with an estimate of what it will spend made before its first call.

A low layer: it reads the content signatures (`repair_core.content`) and the case model
only, so the verification and the commands judge by the same rule.
"""

from ._cues import NEGATIONS, RETRACTIONS, WARNINGS, cue
from ._estimate import JudgeEstimate, model_price
from ._lexical import LEXICAL, LexicalJudge, fault_words
from ._model import (
    DEFAULT_BATCH,
    DEFAULT_BUDGET,
    PROMPT_VERSION,
    ModelJudge,
    Question,
    describe_fault,
    parse_answers,
    parse_reply,
)
from ._recovery import RECOVERY_PROMPT_VERSION, RecoveryJudge
from ._untrusted import untrusted_lineage
from ._verdict import Judge, Judgement, Verdict

__all__ = [
    "Verdict",
    "Judgement",
    "Judge",
    "LEXICAL",
    "LexicalJudge",
    "fault_words",
    "ModelJudge",
    "DEFAULT_BUDGET",
    "DEFAULT_BATCH",
    "Question",
    "JudgeEstimate",
    "model_price",
    "parse_answers",
    "untrusted_lineage",
    "RecoveryJudge",
    "RECOVERY_PROMPT_VERSION",
    "PROMPT_VERSION",
    "describe_fault",
    "parse_reply",
    "cue",
    "NEGATIONS",
    "WARNINGS",
    "RETRACTIONS",
]
