"""Judges: does a text carry a fault's content? `yes`, `no` or `unsure` (`Judgement`),
from the offline lexical judge (`LexicalJudge`, the default: the content signature's
scorer, with what it cannot settle left `unsure`) or a model asked about what the lexical
judge cannot settle (`ModelJudge`): each distinct question once, several to a call, within
a budget of calls, with an estimate of what it will spend made before its first call.

A low layer: it reads the content signatures (`repair_core.content`) and the case model
only, so the verification and the commands judge by the same rule.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The carrier check of every default plan reads `_cues` and `_lexical`, which load in
# milliseconds; the model judge, its estimate and the case model behind them load
# pydantic and take most of a second, so each name is imported on first use. These
# imports, for type checkers only, are the one list of the package's names (`__all__`
# and `_MODULE_OF` are read from them), which a linter cannot see being used:
# ruff: noqa: F401
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


def _public_names() -> dict[str, str]:
    """Each public name -> the submodule that defines it, read from the imports for type
    checkers above: those imports are the one list of the package's names, and this reads
    them (half a millisecond) instead of a second copy that could drift from them."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            return {alias.asname or alias.name: str(imported.module)
                    for imported in node.body if isinstance(imported, ast.ImportFrom)
                    for alias in imported.names}
    raise ImportError(f"{__name__}: no `if TYPE_CHECKING:` block of imports to read")


_MODULE_OF = _public_names()
"""The submodule that defines each public name."""

__all__ = list(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
