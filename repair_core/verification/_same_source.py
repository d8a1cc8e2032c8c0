"""Which tool observations written after a fault are the untrusted input the fault was
written from, fetched again.

An agent that wrote a fault from an e-mail, a web page or a tool's result may fetch that
input once more later on and write a new record from the fresh copy. The new record's
lineage reaches the fresh observation only, never the fault nor what the fault was
written from, so asking whether a lineage reaches a fault finds nothing. An observation
is the same source as an input a fault (or suspected source) was written from when it is
(a) an output of the same tool called with the same arguments (canonical JSON), (b) the
same document or message where the trace records its identity (a URL, a message id, a
sender with a subject, a file path or a document id, in the call's arguments or the
output's fields), or (c) a text in which the lexical judge finds (yes or unsure) the
content of the fault or of the input it was written from.

Every observation is read once; the faults' lineages are walked once together.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .._text import printable
from ..case._case import Case
from ..content import ContentSignature, flatten, node_parts, signatures
from ..judge import LexicalJudge
from ..judge._untrusted import CONTENTLESS_LABELS

__all__ = ["Refetch", "refetched", "identities"]

IDENTITY_FIELDS: Mapping[str, str] = {
    "url": "URL", "uri": "URL", "href": "URL", "link": "URL",
    "path": "file", "file": "file", "file_path": "file", "filepath": "file",
    "filename": "file", "file_id": "file",
    "document_id": "document", "doc_id": "document",
    "message_id": "message", "email_id": "message", "mail_id": "message"}
"""A field of a call's arguments or of an output's object -> what kind of identity its
value is (its name read case-folded)."""
SENDER_FIELDS = ("sender", "from")
SUBJECT_FIELDS = ("subject",)
"""A sender and a subject name a message together (either alone names many)."""
SHOWN = 80
"""The most characters of an identity a why quotes."""


@dataclass(frozen=True)
class Refetch:
    """An observation that is the same source as an input of a fault, and why."""

    fault: str
    """The fault or suspected source whose input it is again."""
    source: str
    """The observation that fault was written from (the fault itself, for one)."""
    how: Literal["same-call", "same-identity", "same-text"]
    """Which test found it: (a) the same call, (b) the same identity, (c) the text."""
    said: str
    """The words a why gives for it."""


def refetched(case: Case, faults: list[ContentSignature], written_at: Mapping[str, int]
              ) -> dict[str, list[Refetch]]:
    """Each tool observation of `case` written after a fault or suspected source of
    `faults` (its seq later than `written_at` of the node) that is the same source as an
    observation the node was written from (its lineage, followed back over the edges that
    carry content, or the node itself) -> what it is the same source as, each node once,
    in the order of `faults`. An observation that is itself such an input is left out."""
    sources = _sources(case, [f.node for f in faults if f.node in written_at])
    if not sources:
        return {}
    steps = {s.id: s for s in case.trajectory}
    by_node = {f.node: f for f in faults}
    first = min(written_at[n] for n in set(sources.values()))
    later = [s for s in case.trajectory if s.type == "tool_observation"
             and s.seq > first and s.id not in sources and s.id not in by_node]
    if not later:
        return {}
    calls: dict[tuple[str, str], str] = {}
    known: dict[tuple[str, str], str] = {}
    own = _source_items(case, sources, by_node, steps)
    for obs in sources:
        call = _call(obs, steps)
        if call is not None:
            calls.setdefault(call, obs)
        for identity in own.get(obs, ()):
            known.setdefault(identity, obs)
    found: dict[str, list[Refetch]] = {}

    def add(obs: str, source: str, how: Literal["same-call", "same-identity", "same-text"],
            said: str, node: str | None = None) -> None:
        node = node or sources[source]
        seq = steps[obs].seq
        got = found.setdefault(obs, [])
        if seq > written_at[node] and all(r.fault != node for r in got):
            got.append(Refetch(fault=node, source=source, how=how, said=said))

    for s in later:
        call = _call(s.id, steps)
        if call is not None and call in calls:
            src = calls[call]
            add(s.id, src, "same-call",
                f"an output of {printable(call[0][:SHOWN])!r} called with the same arguments "
                f"as the call that gave {src}")
        for kind, value in _identities_of(s, steps):
            named = known.get((kind, value))
            if named is not None:
                add(s.id, named, "same-identity",
                    f"which names the {kind} {printable(value[:SHOWN])!r} as {named} did")
    # (c): the texts, against the faults' signatures and their sources' own
    first_of: dict[str, str] = {}  # node -> the first observation it was written from
    for obs, n in sources.items():
        first_of.setdefault(n, obs)
    sourced = set(first_of)
    own_sigs = signatures(case, list(sources))
    screened = [*(f for f in faults if f.node in sourced),
                *(sig for n, sig in own_sigs.items() if n not in by_node)]
    texts = [node_parts(s)[0] for s in later]
    for i, sig, j in LexicalJudge().screen(screened, texts):
        node = sig.node if sig.node in by_node else sources[sig.node]
        source = sig.node if sig.node in sources else first_of[node]
        add(later[i].id, source, "same-text",
            f"in which the lexical judge finds the content of {sig.node} "
            f"({j.verdict})", node)
    return {obs: got for obs, got in found.items() if got}


def _sources(case: Case, nodes: list[str]) -> dict[str, str]:
    """Each tool observation a node of `nodes` was written from — the node itself, or
    one its recorded lineage reaches over edges that carry content (`CONTENTLESS_LABELS`
    left out) — -> the first such node. One walk over all of them (each node entered
    once)."""
    by_id: dict[str, Any] = {m.id: m for m in case.memory}
    by_id.update((s.id, s) for s in case.trajectory)
    out: dict[str, str] = {}
    seen: set[str] = set()
    for node in nodes:
        stack = [node]
        while stack:
            n = stack.pop()
            if n in seen or n not in by_id:
                continue
            seen.add(n)
            item = by_id[n]
            if getattr(item, "type", None) == "tool_observation":
                out.setdefault(n, node)
            stack.extend(d.id for d in item.deps if d.label not in CONTENTLESS_LABELS)
    return out


def _call(obs: str, steps: Mapping[str, Any]) -> tuple[str, str] | None:
    """The tool and canonical JSON arguments of the call that produced `obs`, or None."""
    for action in _producers(steps[obs], steps):
        tool = getattr(action, "tool", None)
        if tool:
            args = getattr(action, "args", None) or {}
            return str(tool), json.dumps(args, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False, default=str)
    return None


def _producers(obs: Any, steps: Mapping[str, Any]) -> Iterator[Any]:
    """The steps of `steps` an observation's "produce" deps name: the call it is the
    output of."""
    for d in obs.deps:
        action = steps.get(d.id) if d.label == "produce" else None
        if action is not None:
            yield action


def identities(value: Any) -> Iterator[tuple[str, str]]:
    """(kind, normalised value) of each identity an object names in its own fields
    (`IDENTITY_FIELDS`, and a sender with a subject); nothing for anything else.

    >>> sorted(identities({"URL": "HTTPS://Shop.example/a/", "sender": "Ann <a@x.example>",
    ...                    "subject": " Hi "}))
    [('URL', 'shop.example/a'), ('sender and subject', 'a@x.example / hi')]
    """
    if not isinstance(value, Mapping):
        return
    sender = subject = None
    for key, v in value.items():
        if not isinstance(v, str) or not v.strip():
            continue
        name = str(key).casefold()
        kind = IDENTITY_FIELDS.get(name)
        if kind is not None:
            yield kind, _normal(kind, v)
        elif name in SENDER_FIELDS:
            sender = _address(v)
        elif name in SUBJECT_FIELDS:
            subject = " ".join(v.split()).casefold()
    if sender and subject:
        yield "sender and subject", f"{sender} / {subject}"


def _identities_of(obs: Any, steps: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """The identities an observation names: its call's arguments', its output's (an
    object, or each object of a list)."""
    for action in _producers(obs, steps):
        yield from identities(getattr(action, "args", None))
    yield from _output_identities(getattr(obs, "output", None))


def _output_identities(output: Any) -> Iterator[tuple[str, str]]:
    if isinstance(output, list):
        for item in output:
            yield from identities(item)
    else:
        yield from identities(output)


def _source_items(case: Case, sources: Mapping[str, str],
                  by_node: Mapping[str, ContentSignature], steps: Mapping[str, Any]
                  ) -> dict[str, list[tuple[str, str]]]:
    """Each source observation -> the identities it names: its call's arguments' and
    its output object's; of an output that is a list (an inbox, search results), only
    those of the items in which the lexical judge finds the content of the fault the
    observation is a source of (the other messages of a listing are other sources)."""
    out: dict[str, list[tuple[str, str]]] = {}
    listed: list[tuple[str, Any]] = []
    for obs in sources:
        got = out.setdefault(obs, [])
        for action in _producers(steps[obs], steps):
            got.extend(identities(getattr(action, "args", None)))
        output = getattr(steps[obs], "output", None)
        if isinstance(output, list):
            listed.extend((obs, item) for item in output if isinstance(item, Mapping))
        else:
            got.extend(identities(output))
    if listed:
        faults = [by_node[n] for n in dict.fromkeys(sources[o] for o, _ in listed)
                  if n in by_node]
        texts = [flatten(item) for _, item in listed]
        for i, sig, _j in LexicalJudge().screen(faults, texts):
            obs, item = listed[i]
            if sources[obs] == sig.node:
                out[obs].extend(identities(item))
    return out


def _normal(kind: str, value: str) -> str:
    """An identity as compared: blanks trimmed and case folded; a URL without its
    scheme, a leading "www." and a trailing slash; a message id without its <>."""
    v = value.strip().casefold()
    if kind == "URL":
        for scheme in ("https://", "http://"):
            if v.startswith(scheme):
                v = v[len(scheme):]
                break
        v = v.removeprefix("www.").split("#", 1)[0].rstrip("/")
    elif kind == "message":
        v = v.strip("<>").strip()
    elif kind == "file":
        v = v.rstrip("/")
    return v


def _address(sender: str) -> str:
    """A sender's e-mail address (the part inside <> when there is one), case folded."""
    s = sender.strip()
    if s.endswith(">") and "<" in s:
        s = s[s.rindex("<") + 1:-1]
    return s.strip().casefold()

