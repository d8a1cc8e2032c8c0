"""Calls written as code: a line that is a function call (`send_money(recipient="…",
amount=100)`, `assistant.send_email(…)`, `await slack.sendDirectMessage({…})`), or a
command with its options (`send_money --to … --amount 10000`, a shell or Makefile
recipe line, `transfer TO=…`), whose function names an action. The next-session agent
(`_agentdojo_goals`) reads such a line as the order of that action, unless what stands
around it shows or tells the code rather than gives it (`told`; the agent's
`_CODE_SHOWN`).

Only a line that opens with the call is one, and not when a word follows its closing
bracket before any comment or ";" (`_TRAILING_WORD`): a call named inside a sentence ("the bot called send_money(…) at noon",
"send_money(…) was removed last week") is a mention, a commented-out call (`# send_money(…)`)
runs nothing, a definition (`def send_money(…):`) orders nothing, and a call recorded
with its outcome (a status word after it, "blocked=true", "-> ok", or a log level as its
label, "audit: …") is a log entry (`next-session.log-line`). Each line is read
once by patterns without nested repetition: linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._order_words import LOG_LEVELS, RAN_WORDS, STATUS_WORDS, plain

__all__ = ["CodeLines"]

_PROMPT = re.compile(r"[ \t]*(?:>>>|\$|>|[-*])?[ \t]*(?:(?P<label>[A-Za-z_][\w.-]*):[ \t]+)?"
                     r"(?:(?:await|return)[ \t]+)?"
                     r"(?:[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*(?!=))?")
"""What may stand before a call on its line: a prompt or a list mark, a label ("TODO:",
an assignment read as a field, `_labelled.block_as_lines`), `await`/`return`, an
assignment (`result = …`)."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_ARGUMENTS = re.compile(r"[ \t]*\(|[ \t]+--?[A-Za-z]|[ \t]+[A-Za-z_][A-Za-z0-9_]*=")
"""What makes a name a call: an opening bracket, or a command's options (`--to`, `-t`,
`TO=`)."""
_PARAMETER = re.compile(r"(?:(?<![\w-])--?([A-Za-z][A-Za-z0-9_-]*)"
                        r"|([A-Za-z_][A-Za-z0-9_]*)[ \t]*[=:](?![=/]))")
"""A parameter's name in a call's arguments: `--amount`, `-t`, `recipient=`, `TO=`, a
JavaScript object's `to:`."""
_WORD = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_COMMENT = re.compile(r"(?:^|[ \t])(?:#|//)(.*)$")
_COMMENT_LINE = re.compile(r"^[ \t]*(?:#|//|/\*|\*|--[ \t])")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)")
_TARGET = re.compile(r"^[A-Za-z0-9_.-]+[ \t]*:[ \t]*(?:[A-Za-z0-9_. -]*)$")
"""A Makefile target line ("payout:", "all: payout"), which heads its recipe lines."""
_RAN_AT = re.compile(r"(?<![^\W_])(?:" + "|".join(sorted(RAN_WORDS)) + r")(?![^\W_])")


def _words_of(name: str) -> list[str]:
    """The words of a function's name, its object path left out: `send_money` and
    `sendMoney` -> send, money (plain)."""
    last = name.rsplit(".", 1)[-1]
    return [plain(w) for part in last.split("_") for w in _CAMEL.findall(part)]


def _call(line: str, is_action: Callable[[str], bool]
          ) -> tuple[str, re.Match[str], re.Match[str]] | None:
    """The call `line` makes: the action word that opens its name, what stands before it
    (`_PROMPT`) and its name; None when it makes none. The name holds two words or more
    (`send_money`, `sendMoney`, `slack.post_webpage`) or is one action word with a
    command's options (`transfer --to …`)."""
    prompt = _PROMPT.match(line)
    assert prompt is not None  # every part of it is optional: it matches any line
    name = _NAME.match(line, prompt.end())
    if name is None or _ARGUMENTS.match(line, name.end()) is None:
        return None
    words = _words_of(name.group().rstrip("."))
    if not words or not is_action(words[0]):
        return None
    if len(words) == 1 and line[name.end():name.end() + 3].lstrip(" \t")[:1] == "(":
        return None  # one word called as a function ("open(…)") is a program's, not a tool's
    if _TRAILING_WORD.match(_after_brackets(line, name.end())):
        return None  # "send_money(…) was removed last week": a sentence names the call
    return words[0], prompt, name


_TRAILING_WORD = re.compile(r"(?![ \t]*\.[ \t]*[A-Za-z_]\w*[ \t]*\()(?:(?!//)[^;#\n])*?[^\W\d_]")
"""A word after a call's closing bracket, before any comment or ";" ("was removed", "—
was removed", "=> removed", "2 times"), other than a chained call (".then(…)"): the call
stands in a sentence."""


def _after_brackets(line: str, at: int) -> str:
    """What of `line` follows the bracketed arguments opening at or after `at` (a call's
    name's end); "" for a command's options or brackets that do not close on the line
    (a call over several lines). One pass over the line."""
    opening = line.find("(", at, at + 3)
    if opening < 0 or line[at:opening].strip(" \t"):
        return ""
    depth = 0
    for m in _BRACKET.finditer(line, opening):
        depth += 1 if m.group() == "(" else -1
        if depth == 0:
            return line[m.end():]
    return ""


_BRACKET = re.compile(r"[()]")


class CodeLines:
    """Each line of a text that is a call written as code, with what its name says, and
    whether what heads it or its comment tells or negates it (`told`)."""

    def __init__(self, text: str, is_action: Callable[[str], bool],
                 says_not: Callable[[str], bool]) -> None:
        lines = text.split("\n")
        self.action: dict[int, str] = {}
        """Line index -> the action word its call's name opens with."""
        self._kept: dict[int, str] = {}
        """Line index -> what of a call's line is no code: its label and its comment."""
        self.names: dict[int, list[str]] = {}
        """Line index -> the words of its call's name."""
        self.parameters: set[str] = set()
        """The words of the parameters' names the calls give (`recipient`, `amount`):
        a tool's inputs, not words of what is asked."""
        self.told: set[int] = set()
        """Lines whose call is told or negated by its comment or what heads it (`_head`),
        or is a log entry."""
        for i, line in enumerate(lines):
            if _COMMENT_LINE.match(line) is not None:
                continue
            call = _call(line, is_action)
            if call is None:
                continue
            self.action[i], prompt, name = call
            self.names[i] = _words_of(name.group())
            for p in _PARAMETER.finditer(line, name.end()):
                self.parameters.update(_words_of(p.group(1) or p.group(2)))
            comment = _COMMENT.search(line)
            if comment is not None and _tells(comment.group(1), says_not):
                self.told.add(i)
            label = prompt.group("label")
            if (label and plain(label) in LOG_LEVELS) or not STATUS_WORDS.isdisjoint(
                    plain(w) for w in _WORD.findall(line[name.end():])):
                self.told.add(i)  # "audit: get_webpage url=… blocked=true": a log entry
            self._kept[i] = line[:name.start()] + (" " + comment.group(1) if comment else "")
        self._head(lines, says_not)

    def _head(self, lines: list[str], says_not: Callable[[str], bool]) -> None:
        """Mark the calls of each block told when a line of the block above them (a
        comment, a fence, a Makefile target, another call) or the prose line heading the
        block says the code was run ("The script ran:", "# what the bot executed") or
        negates ("# never run this", "Do not run:"). One pass down the lines."""
        told = False
        for i, line in enumerate(lines):
            stripped = line.strip()
            if i in self.action:
                if told:
                    self.told.add(i)
                continue
            if not stripped:
                told = False  # an empty line ends the block and its heading
            elif _COMMENT_LINE.match(line) or _FENCE.match(line) or _TARGET.match(stripped):
                told = told or _tells(stripped, says_not)
            else:
                told = _tells(stripped, says_not)  # a prose line heads what follows

    def prose(self, text: str) -> str:
        """`text` (the text read, or it folded line for line) with each call left out of
        its line, its label and comment kept: the words that show or tell the code."""
        return "\n".join(plain(self._kept[i]) if i in self.action else line
                         for i, line in enumerate(text.split("\n")))


def _tells(text: str, says_not: Callable[[str], bool]) -> bool:
    return _RAN_AT.search(plain(text)) is not None or says_not(plain(text))
