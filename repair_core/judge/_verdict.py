"""What a judge answers: does a text carry a fault's content? `yes`, `no` or `unsure`,
with one line of evidence and the judge that decided."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel

from ..content import ContentSignature

__all__ = ["Verdict", "Judgement", "Judge"]

Verdict = Literal["yes", "no", "unsure"]
"""yes: the text carries the fault's content; no: it shares nothing with it; unsure: a
judge could not tell (it is flagged for a reviewer, never quarantined on its own)."""


class Judgement(BaseModel):
    """One judge's answer about one text and one fault."""

    verdict: Verdict
    """Does the text carry the fault's content?"""
    evidence: str
    """One line of plain text: what the text shares with the fault, or why the judge could
    not tell (untrusted words in it are quoted, never rendered)."""
    judge: str
    """Who decided: `lexical`, or `model:<litellm model string>`."""
    unasked: bool = False
    """The model judge was to be asked but its budget was spent first: the verdict is
    the lexical judge's, `unsure`, and the text is not certified for that reason."""


class Judge(Protocol):
    """Anything that tells whether a text carries a fault's content."""

    name: str
    """`lexical` or `model:<litellm model string>` (what `Judgement.judge` says)."""

    def carries(self, text: str, fault: ContentSignature) -> Judgement:
        """The judgement of `text` against `fault`'s content signature."""
        ...
