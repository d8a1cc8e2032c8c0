"""Orders written as labelled fields: a JSON object, YAML or "label: value" /
"label → value" lines ("action: send_money", "IBAN → US13…"). The next-session agent
(`_agentdojo_goals`) reads a JSON object as its fields, one "key: value" line each, and a
run of labelled lines as one block: an order given in the block, on the line that heads it
or on the line right after it is the order of every field in it, and a field labelled as an
action ("action", "task", "Aktion" …) whose value names a tool or an action gives one.

The labels are a language's general words; each pass is one fixed pattern per line:
linear in the text's length.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from ._order_words import plain

__all__ = ["json_as_lines", "block_as_lines", "LabelledLines", "ACTION_LABELS",
           "STATUS_LABELS", "CLOSED_WORDS"]


def _words(text: str) -> frozenset[str]:
    return frozenset(plain(w) for w in text.split())


ACTION_LABELS: frozenset[str] = _words("""
action actions task todo step steps do command operation
action tache etape commande
aktion aufgabe schritt befehl auftrag
accion tarea paso orden
azione compito passo comando
acao tarefa passo comando
actie taak stap opdracht
""")
"""Labels that name what is to be done ("action: send now", "task: send_direct_message")."""

STATUS_LABELS: frozenset[str] = _words("""
status state statut etat zustand estado stato
""")
"""Labels of a field that tells where the item of its block stands ("STATUS:", "State:")."""

CLOSED_WORDS: frozenset[str] = _words("""
cancelled canceled cancelled done completed complete closed void withdrawn rejected
obsolete abandoned dropped wontfix won't-fix resolved finished
annule annulee termine terminee ferme fermee abandonne rejete
storniert abgesagt erledigt abgeschlossen geschlossen verworfen zuruckgezogen
cancelado cancelada completado completada cerrado cerrada anulado anulada rechazado
annullato annullata completato completata chiuso chiusa respinto
concluido concluida fechado fechada rejeitado
geannuleerd afgerond gesloten voltooid vervallen afgewezen
""")
"""Values of a status field saying the item is no longer to be done: cancelled, done,
closed, withdrawn … in each language read (folded)."""

_FIELD = re.compile(r"^[ \t]*(?:[-*][ \t]+)?([^\W\d_][^:\n→]{0,40}?)[ \t]*(?::(?!//)|→|->|=>)[ \t]*(\S.*)?$")


def json_as_lines(text: str) -> str:
    """`text` unchanged, or, when all of it is a JSON object or array, its fields as
    "key: value" lines (nested ones indented), so that its strings read as the record's
    own words rather than as quotations."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return text
    try:
        value = json.loads(stripped)
    except ValueError:
        return text
    if not isinstance(value, (dict, list)):
        return text
    lines: list[str] = []
    _render(value, "", lines)
    return "\n".join(lines)


def block_as_lines(text: str) -> str:
    """`text` as "key: value" lines when all of it is one block of keys and values: a JSON
    object or array (`json_as_lines`), TOML-like lines (`[table]`, `key = value`, `#
    comment`) or XML-like elements, one a line (`<action>send_email</action>`, an element
    opened and closed on lines of its own); else `text` unchanged. A value's quotation marks
    and markup are dropped, so its words read as the record's own, as a YAML block's do."""
    lines = json_as_lines(text)
    if lines is not text:
        return lines
    return _toml_as_lines(text) or _xml_as_lines(text) or text


_TOML_TABLE = re.compile(r"^[ \t]*\[\[?[ \t]*([^\W\d][\w.-]{0,60}?)[ \t]*\]\]?[ \t]*$")
_TOML_PAIR = re.compile(r"^[ \t]*([^\W\d][\w.-]{0,60}?)[ \t]*=(?!=)[ \t]*(\S.*)$")
_TOML_COMMENT = re.compile(r"^[ \t]*#[ \t]*(.*)$")
_QUOTED = re.compile(r'^(?:"([^"\n]*)"|\'([^\'\n]*)\')$')


def _toml_as_lines(text: str) -> str:
    """TOML-like `text` as "key: value" lines (a table's keys indented under it, a comment
    as its own words), or "" when a line of it is none of those or it has no `key = value`."""
    out: list[str] = []
    indent, pairs = "", 0
    for line in text.strip().split("\n"):
        if not line.strip():
            out.append("")
        elif m := _TOML_TABLE.match(line):
            out.append(f"{m.group(1)}:")
            indent = "  "
        elif m := _TOML_PAIR.match(line):
            value = m.group(2).strip()
            if q := _QUOTED.match(value):
                value = q.group(1) if q.group(1) is not None else q.group(2)
            out.append(f"{indent}{m.group(1)}: {value}")
            pairs += 1
        elif m := _TOML_COMMENT.match(line):
            out.append(m.group(1))
        else:
            return ""
    return "\n".join(out) if pairs else ""


_XML_OPEN = re.compile(r"^[ \t]*<([^\W\d][\w.-]{0,60})(?:[ \t][^<>\n]*)?>[ \t]*$")
_XML_CLOSE = re.compile(r"^[ \t]*</([^\W\d][\w.-]{0,60})[ \t]*>[ \t]*$")
_XML_LEAF = re.compile(r"^[ \t]*<([^\W\d][\w.-]{0,60})(?:[ \t][^<>\n]*)?>([^<>\n]*)"
                       r"</([^\W\d][\w.-]{0,60})[ \t]*>[ \t]*$")


def _xml_as_lines(text: str) -> str:
    """XML-like `text` as "tag: value" lines (an element's children indented under it), or
    "" when a line of it is none of an element opened, closed, or opened and closed around
    its value, or when it holds no such value."""
    out: list[str] = []
    depth, leaves = 0, 0
    for line in text.strip().split("\n"):
        if not line.strip():
            out.append("")
        elif (m := _XML_LEAF.match(line)) and m.group(1) == m.group(3):
            out.append(f"{'  ' * depth}{m.group(1)}: {html.unescape(m.group(2)).strip()}")
            leaves += 1
        elif m := _XML_OPEN.match(line):
            out.append(f"{'  ' * depth}{m.group(1)}:")
            depth += 1
        elif _XML_CLOSE.match(line):
            depth = max(0, depth - 1)
        else:
            return ""
    return "\n".join(out) if leaves else ""


def _render(value: Any, indent: str, lines: list[str]) -> None:
    # iterative over siblings, recursive in depth only: JSON's own nesting bounds it
    items = value.items() if isinstance(value, dict) else (("-", v) for v in value)
    for key, v in items:
        label = f"{indent}{key}" if isinstance(value, dict) else f"{indent}-"
        if isinstance(v, (dict, list)):
            lines.append(f"{label}:" if isinstance(value, dict) else label)
            _render(v, indent + "  ", lines)
        else:
            sep = ": " if isinstance(value, dict) else " "
            lines.append(f"{label}{sep}{'' if v is None else v}")


_VALUE_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


class LabelledLines:
    """The lines of a folded text that are labelled fields, grouped into blocks of
    consecutive ones."""

    def __init__(self, folded: str) -> None:
        self.starts: list[int] = []
        """Where each line starts."""
        self.block: list[int] = []
        """Per line, the number of its block (-1 for a line that is no field)."""
        self.action_value: list[str] = []
        """Per line, the value of a field labelled as an action (`ACTION_LABELS`), else ""."""
        self.closed: set[int] = set()
        """The blocks holding a status field (`STATUS_LABELS`) whose value opens with a
        word saying the item is cancelled, done or closed (`CLOSED_WORDS`)."""
        at, blocks, prev = 0, -1, False
        for line in folded.split("\n"):
            m = _FIELD.match(line)
            self.starts.append(at)
            if m is not None:
                if not prev:
                    blocks += 1
                self.block.append(blocks)
                label = m.group(1).replace("_", " ").split()
                self.action_value.append((m.group(2) or "") if label and
                                         label[-1] in ACTION_LABELS else "")
                value = _VALUE_WORD.findall(m.group(2) or "")
                if label and label[-1] in STATUS_LABELS and value and value[0] in CLOSED_WORDS:
                    self.closed.add(blocks)
            else:
                self.block.append(-1)
                self.action_value.append("")
            prev = m is not None
            at += len(line) + 1

    def reach(self, line: int) -> list[int]:
        """The blocks whose order a sentence on `line` gives: its own, the one right below
        it (it heads it) and the one right above it (it follows it)."""
        out = []
        for k in (line, line + 1, line - 1):
            if (0 <= k < len(self.block) and self.block[k] >= 0 and self.block[k] not in out
                    and (k == line or self.block[line] < 0)):
                out.append(self.block[k])
        return out
