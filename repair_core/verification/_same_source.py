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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from .._text import printable
from ..case._case import Case
from ..content import ContentSignature, flatten, node_parts, signatures
from ..judge import LexicalJudge
from ..judge._untrusted import CONTENTLESS_LABELS

__all__ = ["Refetch", "header_identities", "identities", "redirects", "refetched",
           "refetched_by_replay", "url_identity", "written_from"]

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

    @property
    def whence(self) -> str:
        """What the observation is the same source as, in a why's words."""
        return (f"{self.fault} itself" if self.source == self.fault
                else f"{self.source}, which {self.fault} was written from")


def refetched(case: Case, faults: list[ContentSignature], written_at: Mapping[str, int],
              *, walked: Mapping[str, str] | None = None) -> dict[str, list[Refetch]]:
    """Each tool observation of `case` written after a fault or suspected source of
    `faults` (its seq later than `written_at` of the node) that is the same source as an
    observation the node was written from (its lineage, followed back over the edges that
    carry content, or the node itself) -> what it is the same source as, each node once,
    in the order of `faults`. An observation that is itself such an input is left out.

    `walked`: what `written_from` gives for these faults, when the caller has it."""
    return _refetches(case, faults, written_at, None, walked)


def refetched_by_replay(case: Case, faults: list[ContentSignature],
                        written_at: Mapping[str, int], fresh: Sequence[Any],
                        repaired: Mapping[str, Any], *, walked: Mapping[str, str] | None = None
                        ) -> dict[str, list[Refetch]]:
    """Each observation a repair's replay refreshed (`fresh`: steps of the repaired
    trajectory, `repaired`: its steps by id) that is the same source as an observation a
    fault or suspected source of `faults` was written from -> what it is the same source
    as, as `refetched` finds them. A refreshed observation is fetched after every fault;
    one that is such an input itself, called again, is the same call. `walked`: as for
    `refetched`."""
    return _refetches(case, faults, written_at, (list(fresh), repaired), walked)


def _refetches(case: Case, faults: list[ContentSignature], written_at: Mapping[str, int],
               fresh: tuple[list[Any], Mapping[str, Any]] | None,
               walked: Mapping[str, str] | None) -> dict[str, list[Refetch]]:
    sources = written_from(case, faults, written_at) if walked is None else walked
    if not sources:
        return {}
    steps: dict[str, Any] = {s.id: s for s in case.trajectory}
    by_node = {f.node: f for f in faults}
    at: Mapping[str, Any] = steps
    observed: list[tuple[Any, Mapping[str, Any]]] = [(s, steps) for s in case.trajectory if s.type == "tool_observation"]
    if fresh is None:
        first = min(written_at[n] for n in set(sources.values()))
        later = [s for s, _ in observed if s.seq > first and s.id not in sources
                 and s.id not in by_node]
    else:
        later = [s for s in fresh[0] if s.id not in by_node]
        at = fresh[1]
        observed += [(s, at) for s in later]
    if not later:
        return {}
    alias = redirects(observed)

    def canon(identity: tuple[str, str]) -> tuple[str, str]:
        kind, value = identity
        return (kind, alias.get(value, value)) if kind == "URL" else identity

    calls: dict[tuple[str, str], str] = {}
    known: dict[tuple[str, str], tuple[str, str]] = {}  # -> (observation, value named)
    own = _source_items(case, sources, by_node, steps)
    for obs in sources:
        call = _call(obs, steps)
        if call is not None:
            calls.setdefault(call, obs)
        for identity in own.get(obs, ()):
            known.setdefault(canon(identity), (obs, identity[1]))
    found: dict[str, list[Refetch]] = {}

    def add(obs: str, source: str, how: Literal["same-call", "same-identity", "same-text"],
            said: str, node: str | None = None) -> None:
        node = node or sources[source]
        got = found.setdefault(obs, [])
        if (fresh is not None or at[obs].seq > written_at[node]) \
                and all(r.fault != node for r in got):
            got.append(Refetch(fault=node, source=source, how=how, said=said))

    for s in later:
        call = _call(s.id, at)
        if call is not None and call in calls:
            src = calls[call]
            add(s.id, src, "same-call",
                f"an output of {printable(call[0][:SHOWN])!r} called with the same arguments "
                f"as the call that gave {src}")
        for kind, value in _identities_of(s, at):
            hit = known.get(canon((kind, value)))
            if hit is None:
                continue
            named, as_named = hit
            shown = printable(value[:SHOWN])
            add(s.id, named, "same-identity",
                f"which names the {kind} {shown!r} as {named} did" if as_named == value else
                f"which names the {kind} {shown!r}, the page {printable(as_named[:SHOWN])!r} "
                f"that {named} named leads to or from by a redirect the trace records")
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


def written_from(case: Case, faults: list[ContentSignature], written_at: Mapping[str, int]
                 ) -> dict[str, str]:
    """Each tool observation a fault or suspected source of `faults` written at a known
    seq (`written_at`) was written from — the node itself, or one its recorded lineage
    reaches over edges that carry content (`CONTENTLESS_LABELS` left out) — -> the first
    such node. One walk over all of them (each node entered once), over the whole case:
    a caller asking `refetched` and `refetched_by_replay` of the same faults hands it to
    both (`walked`) rather than walking again."""
    return _sources(case, [f.node for f in faults if f.node in written_at])


def _sources(case: Case, nodes: list[str]) -> dict[str, str]:
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


HEADERS: Mapping[str, str] = {"from": "sender", "sender": "sender", "subject": "subject",
                              "message-id": "message_id", "message_id": "message_id"}
"""An e-mail header line's name (case folded) -> the field of `identities` it gives."""
_HEADER_NAME = max(map(len, HEADERS)) + 1


def header_identities(text: str) -> list[list[tuple[str, str]]]:
    r"""The identities of the e-mails a text shows by their header lines ("From: …",
    "Subject: …", "Message-ID: …", each at the start of a line), one list per message: a
    header named again starts the next message (a listing of several). Read line by
    line, each once.

    >>> header_identities("From: Ann <a@x.example>\nSubject: Bank details\n\nPay now."
    ...                   "\nFrom: b@y.example\nMessage-ID: <K7@y>\nhi")
    [[('sender and subject', 'a@x.example / bank details')], [('message', 'k7@y')]]
    """
    return [found for found, _text in _header_blocks(text)]


def _header_blocks(text: str) -> list[tuple[list[tuple[str, str]], str]]:
    """(identities, its lines) of each message `header_identities` finds in a text; the
    lines before the first header belong to the first message."""
    if ":" not in text:
        return []
    blocks: list[tuple[dict[str, str], list[str]]] = []
    block: dict[str, str] = {}
    lines: list[str] = []
    for line in text.splitlines():
        colon = line.find(":", 0, _HEADER_NAME)
        field = HEADERS.get(line[:colon].strip().casefold()) if colon > 0 else None
        if field is not None and field in block:
            blocks.append((block, lines))
            block, lines = {}, []
        if field is not None:
            block[field] = line[colon + 1:]
        lines.append(line)
    blocks.append((block, lines))
    return [(found, "\n".join(b_lines)) for b, b_lines in blocks
            if (found := list(identities(b)))]


def _own_identities(obs: Any, steps: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The identities an observation names in its call's arguments and its output's
    fields (an object, or each object of a list)."""
    found: list[tuple[str, str]] = []
    for action in _producers(obs, steps):
        found.extend(identities(getattr(action, "args", None)))
    found.extend(_output_identities(getattr(obs, "output", None)))
    return found


def _by_message(found: list[tuple[str, str]]) -> bool:
    """Whether identities name a message (its id, or its sender with its subject)."""
    return any(kind in ("message", "sender and subject") for kind, _ in found)


def _identities_of(obs: Any, steps: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The identities an observation names: its call's arguments', its output's (an
    object, or each object of a list), and, where those name no message, those of the
    e-mail header lines of its text (`header_identities`)."""
    found = _own_identities(obs, steps)
    if not _by_message(found):
        found.extend(i for block in header_identities(_text_of(obs)) for i in block)
    return found


def _text_of(obs: Any) -> str:
    """An observation's text, and its output when that is text the text does not hold."""
    return node_parts(obs)[0]


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
    its output object's, or, where those name no message, its text's e-mail headers'
    (`header_identities`); of an output that is a list (an inbox, search results), or a
    text showing several messages, only those of the items in which the lexical judge
    finds the content of the fault the observation is a source of (the other messages
    of a listing are other sources)."""
    out: dict[str, list[tuple[str, str]]] = {}
    listed: list[tuple[str, list[tuple[str, str]], str]] = []
    for obs in sources:
        got = out.setdefault(obs, [])
        for action in _producers(steps[obs], steps):
            got.extend(identities(getattr(action, "args", None)))
        output = getattr(steps[obs], "output", None)
        items = [(obs, list(identities(item)), flatten(item)) for item in output
                 if isinstance(item, Mapping)] if isinstance(output, list) else []
        listed.extend(items)
        if not isinstance(output, list):
            got.extend(identities(output))
        if _by_message(got) or any(_by_message(ids) for _, ids, _ in items):
            continue
        blocks = _header_blocks(_text_of(steps[obs]))
        if len(blocks) == 1:
            got.extend(blocks[0][0])
        else:
            listed.extend((obs, found, text) for found, text in blocks)
    if listed:
        faults = [by_node[n] for n in dict.fromkeys(sources[o] for o, _, _ in listed)
                  if n in by_node]
        texts = [text for _, _, text in listed]
        for i, sig, _j in LexicalJudge().screen(faults, texts):
            obs, found, _text = listed[i]
            if sources[obs] == sig.node:
                out[obs].extend(found)
    return out


REQUESTED = ("from", "url", "uri", "short_url", "original_url", "source_url", "request_url")
"""Fields of an observation's output naming the URL a redirect was read for."""
RESOLVED = ("to", "location", "resolved_url", "expanded_url", "final_url", "long_url",
            "redirect_url", "redirected_to", "destination", "target_url", "effective_url")
"""Fields of an observation's output (or of its step, or its step's `metadata`, or its
output's `headers`) naming where a URL leads."""
_WORDY = ("from", "to", "location", "destination")
"""Of those, the ones that name other things too (a sender, a place): read only with
an http(s) scheme."""
_STATUS_FIELDS = ("status", "status_code", "code")


def redirects(observations: Iterable[tuple[Any, Mapping[str, Any]]]) -> dict[str, str]:
    """URL identity (`url_identity`) -> one identity standing for every URL the trace
    records leading to the same page: an observation whose output (an object) names a
    requested URL (its call's URL argument, the call found in the observation's `steps`,
    or `REQUESTED`) and where it leads
    (`RESOLVED`: a short link's expansion, a redirect's `Location`), or whose text is an
    HTTP 3xx response with a `Location:` line (`observations`: pairs of an observation
    and the steps by id its call is found in). Every URL read together so is the same
    page. Each observation is read once, its text line by line.

    >>> from types import SimpleNamespace as S
    >>> obs = S(output={"from": "https://bit.ly/3x", "to": "https://evil.example/p"},
    ...         deps=[], text="")
    >>> sorted(redirects([(obs, {})]).items())
    [('bit.ly/3x', 'bit.ly/3x'), ('evil.example/p', 'bit.ly/3x')]
    """
    parent: dict[str, str] = {}

    def root(u: str) -> str:
        parent.setdefault(u, u)
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    for obs, steps in observations:
        asked, led = _redirect_of(obs, steps)
        if not led:
            continue
        ids = [url_identity(u) for u in [*asked, *led]]
        ids = [u for u in ids if u]
        for u in ids[1:]:
            a, b = root(ids[0]), root(u)
            if a != b:
                parent[b] = a
    return {u: root(u) for u in parent}


def _redirect_of(obs: Any, steps: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """(the URLs asked for, where they lead) as one observation records them."""
    output = getattr(obs, "output", None)
    fields = output if isinstance(output, Mapping) else {}
    extra = getattr(obs, "__pydantic_extra__", None) or {}
    places = [fields, extra]
    for holder, key in ((fields, "headers"), (extra, "metadata")):
        inner = holder.get(key)
        if isinstance(inner, Mapping):
            places.append(inner)
    led = [v for place in places for key, v in place.items()
           if str(key).casefold() in RESOLVED and _web(v, str(key).casefold())]
    if not led:
        led = _location_line(_text_of(obs), fields)
    if not led:
        return [], []
    asked = [v for action in _producers(obs, steps)
             for key, v in (getattr(action, "args", None) or {}).items()
             if IDENTITY_FIELDS.get(str(key).casefold()) == "URL" and _web(v, "")]
    asked += [v for key, v in fields.items()
              if str(key).casefold() in REQUESTED and _web(v, str(key).casefold())]
    return asked, led


def _web(value: Any, key: str) -> bool:
    """Whether a field's value reads as a web URL: no blanks, an http(s) scheme or (but
    for `_WORDY` fields) a host with a dot and no "@"."""
    if not isinstance(value, str) or not value.strip() or len(value.split()) != 1:
        return False
    v = value.strip().casefold()
    if v.startswith(("http://", "https://")):
        return True
    host = v.split("/", 1)[0]
    return key not in _WORDY and "." in host and "@" not in host and ":" not in host


def _location_line(text: str, fields: Mapping[Any, Any]) -> list[str]:
    """The URL of a `Location:` line of an HTTP 3xx response shown as text (a status line
    "HTTP/… 3xx", or a 3xx `status` field of the output)."""
    status = any(isinstance(fields.get(k), int | str) and str(fields.get(k)).strip()[:1] == "3"
                 and str(fields.get(k)).strip()[:3].isdigit() for k in _STATUS_FIELDS)
    found: list[str] = []
    for line in text.splitlines() if ":" in text else ():
        head = line.lstrip()[:16].casefold()
        if head.startswith("http/"):
            code = line.split(None, 2)[1:2]
            status = status or (bool(code) and len(code[0]) == 3 and code[0][0] == "3"
                                and code[0].isdigit())
        elif head.startswith("location:"):
            value = line.split(":", 1)[1].strip()
            if _web(value, "location"):
                found.append(value)
    return found if status else []


def _normal(kind: str, value: str) -> str:
    """An identity as compared: blanks trimmed and case folded (a URL as `url_identity`
    reads it); a message id without its <>."""
    if kind == "URL":
        return url_identity(value)
    v = value.strip().casefold()
    if kind == "message":
        v = v.strip("<>").strip()
    elif kind == "file":
        v = v.rstrip("/")
    return v


WEB_SCHEMES = ("http", "https")


def url_identity(value: str) -> str:
    """The page a web URL names, as compared: its host case folded, without a leading
    "www.", a trailing dot or the default port, then its path with %-escapes read and
    no trailing slash, its case kept; the scheme, the user, the query string (tracking
    parameters and all) and the fragment left out. A URL of another scheme (mailto:,
    file:, urn:) is trimmed and case folded whole, without its fragment.

    >>> url_identity("HTTP://WWW.Shop.example:80/Rooms/?utm_source=x&fbclid=1#top")
    'shop.example/Rooms'
    >>> url_identity("shop.example/Rooms%20A") == url_identity("https://shop.example/Rooms A/")
    True
    >>> url_identity("https://shop.example/rooms") == url_identity("https://shop.example/Rooms")
    False
    """
    v = value.strip()
    head = v.split("/", 1)[0]
    if "://" not in v and ":" in head and not head.rsplit(":", 1)[1].isdigit():
        return v.casefold().split("#", 1)[0]  # mailto:, urn:, tel:
    if v.startswith("/") and not v.startswith("//"):  # a path on no named host
        return unquote(v.split("#", 1)[0].split("?", 1)[0]).rstrip("/")
    try:
        parts = urlsplit(v if "://" in v or v.startswith("//") else "//" + v)
        port = parts.port
        host = parts.hostname or ""
    except ValueError:  # a port that is no number, a bracket left open
        return v.casefold().split("#", 1)[0].split("?", 1)[0].rstrip("/")
    if parts.scheme and parts.scheme.casefold() not in WEB_SCHEMES:
        return v.casefold().split("#", 1)[0]
    host = host.casefold().rstrip(".").removeprefix("www.")
    if port is not None and port not in (80, 443):
        host = f"{host}:{port}"
    return host + unquote(parts.path).rstrip("/")


def _address(sender: str) -> str:
    """A sender's e-mail address (the part inside <> when there is one), case folded."""
    s = sender.strip()
    if s.endswith(">") and "<" in s:
        s = s[s.rindex("<") + 1:-1]
    return s.strip().casefold()

