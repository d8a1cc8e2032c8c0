"""Judges: does a text carry a fault's content? `yes`, `no` or `unsure` (`Judgement`),
from the offline lexical judge (`LexicalJudge`, the default: the content signature's
scorer, with what it cannot settle left `unsure`) or a model asked about what the lexical
judge leaves unsure (`ModelJudge`).

A low layer: it reads the content signatures (`repair_core.content`) and the case model
only, so the verification and the commands judge by the same rule.
"""

from ._cues import NEGATIONS, RETRACTIONS, WARNINGS, cue
from ._lexical import LEXICAL, LexicalJudge, fault_words
from ._model import DEFAULT_BUDGET, PROMPT_VERSION, ModelJudge, describe_fault, parse_reply
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
    "PROMPT_VERSION",
    "describe_fault",
    "parse_reply",
    "cue",
    "NEGATIONS",
    "WARNINGS",
    "RETRACTIONS",
]
