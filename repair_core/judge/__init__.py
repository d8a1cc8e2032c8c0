"""Judges: does a text carry a fault's content? `yes`, `no` or `unsure` (`Judgement`),
from the offline lexical judge (`LexicalJudge`, the default: the content signature's
scorer, with what it cannot settle left `unsure`) or a model asked about what the lexical
judge cannot settle (`ModelJudge`): each distinct question once, several to a call, within
a budget of calls, with an estimate of what it will spend made before its first call.

A low layer: it reads the content signatures (`repair_core.content`) and the case model
only, so the verification and the commands judge by the same rule.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The carrier check of every default plan reads `_cues` and `_lexical`, which load in
# milliseconds; the model judge, its estimate and the case model behind them load
# pydantic and take most of a second, so each name is imported on first use.
if TYPE_CHECKING:
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

_MODULE_OF = {
    "NEGATIONS": "_cues", "RETRACTIONS": "_cues", "WARNINGS": "_cues", "cue": "_cues",
    "JudgeEstimate": "_estimate", "model_price": "_estimate",
    "LEXICAL": "_lexical", "LexicalJudge": "_lexical", "fault_words": "_lexical",
    "DEFAULT_BATCH": "_model", "DEFAULT_BUDGET": "_model", "PROMPT_VERSION": "_model",
    "ModelJudge": "_model", "Question": "_model", "describe_fault": "_model",
    "parse_answers": "_model", "parse_reply": "_model",
    "RECOVERY_PROMPT_VERSION": "_recovery", "RecoveryJudge": "_recovery",
    "untrusted_lineage": "_untrusted",
    "Judge": "_verdict", "Judgement": "_verdict", "Verdict": "_verdict",
}
"""The submodule that defines each public name."""


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
