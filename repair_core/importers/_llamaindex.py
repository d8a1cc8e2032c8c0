"""What OpenInference's LlamaIndex instrumentor records of an index's documents.

A node parser's CHAIN span (`SentenceSplitter.__call__`) names the documents it was given
(`input.value` `{"nodes": ["<Document(id_=mem-seat)>", ...]}`) and the nodes it made
(`output.value` `["<TextNode(id_=caf3...)>", ...]`), and each
`split_text_metadata_aware` call below it the text of one document (`{"text", "metadata_str"}`).
From these:

- a retrieved node id is the id of the document it was made from (one node per
  document, in order; otherwise the node id stays);
- a parser run that is a trace of its own (`index.insert`) is an insert of those
  documents: after a turn, a memory write of the agent's store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..case._json import json_or_text
from ._otlp import Span

__all__ = ["Insert", "node_documents", "inserts"]

_DOC = re.compile(r"<Document\(id_=([^)\s]+)\)>")
_NODE = re.compile(r"<(?:TextNode|ImageNode|IndexNode)\(id_=([^)\s]+)\)>")


@dataclass(frozen=True)
class Insert:
    """Documents a node parser turned into nodes, in a trace of its own."""

    span: Span
    """The parser's root span."""
    documents: tuple[tuple[str, str], ...]
    """(document id, its text), in order."""


def _parsed(span: Span) -> tuple[list[str], list[str]]:
    a = span.attributes
    if str(a.get("openinference.span.kind", "")).upper() != "CHAIN":
        return [], []
    given, made = a.get("input.value"), a.get("output.value")
    if not isinstance(given, str) or not isinstance(made, str) or "<Document(" not in given:
        return [], []
    return _DOC.findall(given), _NODE.findall(made)


def node_documents(spans: Iterable[Span]) -> dict[str, str]:
    """Node id -> the id of the document it was made from, where a parser made exactly one
    node per document."""
    out: dict[str, str] = {}
    for span in spans:
        docs, nodes = _parsed(span)
        if docs and len(docs) == len(nodes):
            out.update(zip(nodes, docs, strict=True))
    return out


def _text_of(span: Span) -> str | None:
    value = json_or_text(span.attributes.get("input.value"))
    if isinstance(value, Mapping) and set(value) >= {"text", "metadata_str"} \
            and isinstance(value["text"], str):
        return str(value["text"])
    return None


def inserts(spans: Iterable[Span]) -> list[Insert]:
    """Each root parser span's documents with their texts (one text per document, in
    order; a run whose texts cannot be told apart is left out)."""
    roots: dict[str, Span] = {}
    texts: dict[str, list[tuple[int, str]]] = {}
    for span in spans:
        if span.parent_id is None and _parsed(span)[0]:
            roots[span.trace_id] = span
        text = _text_of(span)
        if text is not None:
            texts.setdefault(span.trace_id, []).append((span.start, text))
    out = []
    for trace, root in roots.items():
        docs = _parsed(root)[0]
        found: list[Any] = [t for _, t in sorted(texts.get(trace, []))]
        if len(found) == len(docs):
            out.append(Insert(root, tuple(zip(docs, found, strict=True))))
    return out
