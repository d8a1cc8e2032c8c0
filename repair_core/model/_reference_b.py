"""`dgrr/reference-b`: a second offline policy, written apart from `dgrr/reference`.

It answers the same prompt contracts (`_contracts.py`) but reads and decides differently,
so a benchmark that generates failed runs with one policy and repairs with the other
does not score a policy against itself:

- it reads the whole conversation: the request's `earlier` user turns as well as the
  current one. A value the user stated in this conversation outranks memory (the user's
  own word is the newest evidence there is), and is cited by its turn id;
- among memory it takes the value most items agree on (a tie goes to the newest), and
  cites up to two agreeing items for one claim (the newest is its `support`);
- it fills a tool argument with an allowed value the user named (newest turn first),
  else a tool result, else a value the user stated, else a claim;
- it phrases answers its own way (claims first, as "your <slot>: <value>", then tool
  results) and writes street names out ("7 Elm Rd" -> "7 Elm Road", see
  `_paraphrase.py`); the benchmark's matcher tolerates exactly that rewrite;
- as auditor it flags a record whose value a majority of same-key records contradict, or
  that belongs to another user; as judge (the open prompt) it reads the trajectory and
  store by its own reading and chooses delete / restore / revise per record.

Nothing here imports `_reference.py`'s policies.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from ._contracts import ReplyError, parse_prompt
from ._paraphrase import paraphrase

__all__ = ["reference_b_reply", "B_POLICIES", "stated_in_conversation"]

_SENTENCE = re.compile(r"[^.!?]+(?:[.!?](?=\s|$)|$)")
_FILLERS = ("now", "the", "my", "to", "be", "set to")


def reference_b_reply(messages: list[dict[str, Any]]) -> str:
    """`dgrr/reference-b`'s reply (JSON text) to a rendered dgrr prompt."""
    try:
        stage, inputs = parse_prompt(messages)
    except (ReplyError, json.JSONDecodeError) as exc:
        return json.dumps({"error": f"cannot read prompt: {exc}"})
    policy = B_POLICIES.get(stage)
    if policy is None:
        return json.dumps({"error": f"reference-b has no policy for stage {stage!r}"})
    return json.dumps(policy(inputs), ensure_ascii=False)


# ---- reading the conversation ----------------------------------------------------------

def _turns_newest_first(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    request = inputs.get("request") or {}
    earlier = [t for t in request.get("earlier") or [] if isinstance(t, dict)]
    current = [request] if request.get("text") else []
    return list(reversed(earlier + current))


def _slot_words(slot: str) -> list[str]:
    """Phrases a user may call a slot by: `shipping_address` -> shipping address,
    address; `seat_pref` -> seat preference, seat."""
    words = slot.replace("_", " ").replace("pref", "preference").replace(
        "favorite", "favourite").replace("color", "colour").split()
    phrases = [" ".join(words)]
    if len(words) > 1:
        phrases.append(words[-1])
    if slot.endswith("_pref"):
        phrases.append(words[0])
    return [p for p in dict.fromkeys(phrases) if len(p) >= 3]


def _tail_value(rest: str, phrase: str) -> str | None:
    rest = rest.strip(" ,;:")
    for filler in _FILLERS:
        if rest.lower().startswith(filler + " "):
            rest = rest[len(filler) + 1:]
    rest = rest.rstrip(" .!?")
    for word in phrase.split():  # "aisle seats" -> "aisle"
        rest = re.sub(rf"\s+{re.escape(word)}s?$", "", rest, flags=re.I)
    rest = re.split(r",\s+(?:so|and|but|please)\b|\s+(?:please|thanks)\b", rest, flags=re.I)[0]
    return rest.strip(" ,") or None


def stated_in_conversation(inputs: dict[str, Any], slot: str) -> tuple[str, str] | None:
    """(value, turn id) of the newest user statement of `slot` in the conversation: a
    sentence naming the slot and saying what it "is", what to update it "to", or what the
    user "prefers".

    >>> stated_in_conversation({"request": {"id": "u2", "text": "Ship it.", "earlier": [
    ...     {"id": "u1", "text": "I moved. My new shipping address is 7 Elm Rd, Austin."}]}},
    ...     "shipping_address")
    ('7 Elm Rd, Austin', 'u1')
    >>> stated_in_conversation({"request": {"id": "u1",
    ...     "text": "From now on I prefer aisle seats. Please update my seat preference."}},
    ...     "seat_pref")
    ('aisle', 'u1')
    """
    phrases = _slot_words(slot)
    for turn in _turns_newest_first(inputs):
        found = None
        for sentence in _SENTENCE.findall(str(turn.get("text") or "")):
            low = sentence.lower()
            for phrase in phrases:
                if not re.search(rf"\b{re.escape(phrase)}", low):
                    continue
                m = (re.search(rf"\b{re.escape(phrase)}\w*\s+(?:is|are)\s+(.+)$", sentence, re.I)
                     or re.search(rf"\b(?:update|change|set)\b.*\b{re.escape(phrase)}\w*\s+to\s+(.+)$",
                                  sentence, re.I)
                     or re.search(r"\bprefer\s+(.+)$", sentence, re.I))
                if m and (value := _tail_value(m.group(1), phrase)):
                    found = value
                    break
        if found is not None:
            return found, str(turn.get("id"))
    return None


# ---- claims ----------------------------------------------------------------------------

def _speaks(item: dict[str, Any], slot: str) -> tuple[bool, Any]:
    kind = item.get("kind")
    if kind == "observation":
        out = item.get("output")
        if isinstance(out, dict):
            if slot in out:
                return True, out[slot]
            for row in out.get("items") or []:
                if isinstance(row, dict) and slot in row:
                    return True, row[slot]
        return False, None
    if kind in ("record", "claim"):
        if item.get("key") == slot:
            return True, item.get("value")
        value = item.get("value")
        if isinstance(value, dict) and slot in value:
            return True, value[slot]
    return False, None


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True).casefold()


def _agreed(items: list[tuple[dict[str, Any], Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """The value most items give (a tie goes to the newest such value) and its items,
    newest first."""
    counts = Counter(_key(v) for _, v in items)
    newest_index = {_key(v): i for i, (_, v) in enumerate(items)}
    best = max(counts, key=lambda k: (counts[k], newest_index[k]))
    agreeing = [(it, v) for it, v in items if _key(v) == best]
    return agreeing[-1][1], [it for it, _ in reversed(agreeing)]


def claim_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """The user's own statement in the conversation, else the value most of the user's
    evidence agrees on; cites up to two agreeing items."""
    slot, user = inputs.get("slot"), inputs.get("user_id")
    label = str(slot or "request").replace("_", " ")
    if slot:
        said = stated_in_conversation(inputs, slot)
        if said is not None:
            value, turn = said
            return {"text": f"You told me your {label} is {paraphrase(value)}.", "key": slot,
                    "value": value, "cites": [turn], "support": turn}
    mine = [e for e in inputs.get("evidence") or []
            if e.get("user_id") in (None, user) and e.get("kind") != "request"]
    items = ([(e, v) for e in mine for ok, v in [_speaks(e, slot)] if ok and v is not None]
             if slot else [(e, e.get("value")) for e in mine if e.get("kind") == "record"])
    if not items:
        return {"text": f"I have nothing on record about your {label}.", "key": slot,
                "value": None, "cites": [], "support": None}
    value, agreeing = _agreed(items)
    cites = [e["id"] for e in agreeing[:2]]
    shown = paraphrase(value) if isinstance(value, str) else json.dumps(value)
    return {"text": f"Your {label} is {shown}.",
            "key": slot if slot else agreeing[0].get("key"), "value": value, "cites": cites,
            "support": cites[0]}


# ---- plans -----------------------------------------------------------------------------

def _word_at(text: str, phrase: str) -> int:
    m = re.search(rf"(?<!\w){re.escape(str(phrase).lower())}(?!\w)", text.lower())
    return m.start() if m else -1


def _choose_tool(inputs: dict[str, Any]) -> dict[str, Any] | None:
    tools = [t for t in inputs.get("tools") or [] if isinstance(t, dict)]
    hint = inputs.get("tool_hint")
    if hint:
        return next((t for t in tools if t.get("name") == hint),
                    {"name": hint, "params": [{"name": n} for n in inputs.get("arg_names") or []]})
    text = str((inputs.get("request") or {}).get("text") or "")
    done = set(inputs.get("done") or [])
    named = [(min(p for kw in t.get("keywords") or [] if (p := _word_at(text, kw)) >= 0), i, t)
             for i, t in enumerate(tools) if t.get("name") not in done
             and any(_word_at(text, kw) >= 0 for kw in t.get("keywords") or [])]
    return min(named, key=lambda x: (x[0], x[1]))[2] if named else None


def _named_in_turns(param: dict[str, Any], inputs: dict[str, Any]) -> tuple[Any, str] | None:
    """An allowed value (a choice or its synonym, or the parameter's pattern) the user
    named, newest turn first."""
    for turn in _turns_newest_first(inputs):
        text = str(turn.get("text") or "")
        hits = [(p, value) for value, syns in (param.get("choices") or {}).items()
                for phrase in [value, *syns] if (p := _word_at(text, phrase)) >= 0]
        if hits:
            return min(hits, key=lambda h: h[0])[1], str(turn.get("id"))
        if param.get("pattern") and (m := re.search(param["pattern"], text, re.I)):
            return m.group(0), str(turn.get("id"))
    return None


def _said_in_turns(param: dict[str, Any], inputs: dict[str, Any]) -> tuple[Any, str] | None:
    """A value the user stated for one of the parameter's slots."""
    for slot in param.get("slots") or []:
        if (said := stated_in_conversation(inputs, slot)) is not None:
            return said
    return None


def _from_evidence(param: dict[str, Any], inputs: dict[str, Any],
                   kind: str) -> tuple[Any, str] | None:
    items = [e for e in inputs.get("evidence") or [] if e.get("kind") == kind]
    for slot in dict.fromkeys([*(param.get("slots") or []), str(param.get("name") or "")]):
        for item in reversed(items):
            ok, value = _speaks(item, slot)
            if ok and value is not None:
                return value, item["id"]
    name = str(param.get("name") or "")
    for item in reversed(items):  # a jacket_size claim fills `size`
        if kind == "claim" and str(item.get("key") or "").endswith("_" + name) \
                and item.get("value") is not None:
            return item["value"], item["id"]
    return None


def plan_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """The hinted tool, else the unused tool the request names first; each argument is
    an allowed value the user named, else a tool result, else a value the user stated,
    else a claim, else the user's id or the default."""
    tool = _choose_tool(inputs)
    if tool is None:
        return {"tool": None, "args": {}, "text": "Nothing more to call.", "cites": []}
    args: dict[str, Any] = {}
    cites: list[str] = []
    for param in tool.get("params") or []:
        name = param.get("name")
        got = (_named_in_turns(param, inputs) or _from_evidence(param, inputs, "observation")
               or _said_in_turns(param, inputs) or _from_evidence(param, inputs, "claim"))
        if got is None and name == "user_id" and inputs.get("user_id"):
            got = (inputs["user_id"], "")
        if got is None and param.get("default") is not None:
            got = (param["default"], "")
        if got is None:
            continue
        args[name] = got[0]
        if got[1] and got[1] not in cites:
            cites.append(got[1])
    shown = "; ".join(f"{k}: {v}" for k, v in args.items())
    return {"tool": tool["name"], "args": args,
            "text": f"Using {tool['name']} with {shown or 'no arguments'}.", "cites": cites}


# ---- answers, writes, consolidation ---------------------------------------------------

def _end(text: str) -> str:
    text = " ".join(str(text).split())
    return text if text.endswith((".", "!", "?")) else text + "."


def answer_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """What it knows about the user first, then what the tools returned."""
    evidence = list(inputs.get("evidence") or [])
    claims = [e for e in evidence if e.get("kind") == "claim" and e.get("value") is not None]
    obs = [e for e in evidence if e.get("kind") == "observation"]
    if not claims and not obs:
        return {"text": "Sorry, I don't have what I need to help with that yet.", "cites": []}
    parts = []
    for c in claims:
        value = c.get("value")
        shown = paraphrase(value) if isinstance(value, str) else json.dumps(value)
        parts.append(f"Your {str(c.get('key') or 'detail').replace('_', ' ')}: {shown}.")
    parts += [_end(paraphrase(str(o.get("text") or ""))) for o in obs]
    return {"text": "Here is what I have. " + " ".join(dict.fromkeys(parts)),
            "cites": [e["id"] for e in claims + obs]}


def memory_write_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """With a slot: the conversation's value, else the value the evidence agrees on,
    else, for a remembered tool result (`last_<tool>`), that tool's latest result (a
    replayed write re-deriving the record). Without: one record per new tool result."""
    slot, user = inputs.get("slot"), inputs.get("user_id")
    evidence = [e for e in inputs.get("evidence") or [] if e.get("kind") != "request"]
    if slot is not None:
        said = stated_in_conversation(inputs, slot)
        if said is not None:
            return {"records": [{"text": f"{user}'s {slot.replace('_', ' ')} is {said[0]}.",
                                 "key": slot, "value": said[0], "cites": [said[1]],
                                 "derive": said[1]}]}
        items = [(e, v) for e in evidence for ok, v in [_speaks(e, slot)] if ok]
        tool = slot[len("last_"):] if str(slot).startswith("last_") else None
        results = [e for e in evidence if e.get("kind") == "observation"
                   and e.get("tool") == tool]
        if not items and results:  # rewriting a remembered tool result: the new result
            e = results[-1]
            return {"records": [{"text": f"Result of {tool} for {user}: "
                                         f"{_end(e.get('text', ''))}", "key": slot,
                                 "value": e.get("output"), "cites": [e["id"]],
                                 "derive": e["id"]}]}
        if not items:
            return {"records": []}
        value, agreeing = _agreed(items)
        return {"records": [{"text": f"{user}'s {slot.replace('_', ' ')} is {value}.",
                             "key": slot, "value": value, "cites": [agreeing[0]["id"]],
                             "derive": agreeing[0]["id"]}]}
    have = {(m.get("key"), _key(m.get("value"))) for m in inputs.get("memory") or []}
    records = []
    for e in evidence:
        if e.get("kind") != "observation":
            continue
        key = f"last_{e.get('tool') or 'tool'}"
        if (key, _key(e.get("output"))) in have:
            continue
        records.append({"text": f"Result of {e.get('tool') or 'a tool'} for {user}: "
                                f"{_end(e.get('text', ''))}", "key": key,
                        "value": e.get("output"), "cites": [e["id"]], "derive": e["id"]})
    return {"records": records}


def consolidate_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """Per key, the value most records agree on (ties to the newest)."""
    records = [r for r in inputs.get("records") or [] if isinstance(r, dict)]
    if not records:
        return {"text": "", "key": inputs.get("key"), "value": None, "cites": []}
    by_key: dict[Any, list[tuple[dict[str, Any], Any]]] = {}
    for r in records:
        by_key.setdefault(r.get("key"), []).append((r, r.get("value")))
    values = {k: _agreed(v)[0] for k, v in by_key.items()}
    cites = [r["id"] for r in records]
    if len(values) == 1:
        (key, value), = values.items()
        return {"text": f"Current {str(inputs.get('key') or key).replace('_', ' ')}: {value}.",
                "key": inputs.get("key") or key, "value": value, "cites": cites}
    return {"text": " ".join(f"{str(k).replace('_', ' ')}: {v}." for k, v in values.items()),
            "key": inputs.get("key") or "summary",
            "value": {str(k): v for k, v in values.items()}, "cites": cites}


# ---- baselines' stages -----------------------------------------------------------------

def audit_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """Flag another user's record, or one whose value most same-key records of the user
    contradict (with no majority, the less trusted one)."""
    record = inputs.get("record") or {}
    user = inputs.get("user_id")
    if record.get("user_id") not in (None, user):
        return {"suspicious": True, "cites": [],
                "reason": f"this record is about {record.get('user_id')}"}
    if record.get("key") is None:
        return {"suspicious": False, "reason": "nothing structured to compare", "cites": []}
    peers = [o for o in inputs.get("store") or [] if o.get("key") == record.get("key")
             and o.get("user_id") in (None, user) and o.get("id") != record.get("id")]
    differ = [o for o in peers if _key(o.get("value")) != _key(record.get("value"))]
    agree = len(peers) - len(differ)
    if not differ:
        return {"suspicious": False, "reason": "no record contradicts it", "cites": []}
    if len(differ) > agree + 1 or (len(differ) == agree + 1 and all(
            (o.get("trust") or 0.0) > (record.get("trust") or 0.0) for o in differ)):
        return {"suspicious": True, "cites": [o["id"] for o in differ][:2],
                "reason": f"outvoted on {record.get('key')}"}
    return {"suspicious": False, "reason": "it holds its own against the rest", "cites": []}


def judge_b(inputs: dict[str, Any]) -> dict[str, Any]:
    """The open judge (`judge.v2`) by its own reading: every flagged record is deleted,
    unless the user's own words in the trajectory confirm its value; a retired record
    that a flagged record replaced (its `retired_by` names a step that wrote a flagged
    record) is restored; a record repeating a flagged record's key and value is deleted;
    it redoes from the first step that read a flagged record or repeated its value."""
    flagged = [f for f in inputs.get("flagged") or inputs.get("faults") or []
               if isinstance(f, dict)]
    memory = [m for m in inputs.get("memory") or [] if isinstance(m, dict)]
    retired = [m for m in inputs.get("retired") or [] if isinstance(m, dict)]
    steps = [s for s in inputs.get("trajectory") or [] if isinstance(s, dict)]
    flagged_ids = {f["id"] for f in flagged}
    values = {_key(f.get("value")) for f in flagged if f.get("value") not in (None, "")}
    texts = [str(f.get("value")) for f in flagged if isinstance(f.get("value"), str)
             and len(str(f.get("value"))) >= 3]
    user_said = " ".join(str(s.get("text") or "") for s in steps if s.get("type") == "turn")
    decisions = []
    delete: list[str] = []
    for f in flagged:
        if isinstance(f.get("value"), str) and f["value"] and _word_at(user_said, f["value"]) >= 0:
            decisions.append({"id": f["id"], "action": "keep"})
            continue
        delete.append(f["id"])
    for m in memory:
        if m["id"] in flagged_ids:
            continue
        if any(m.get("key") == f.get("key") and _key(m.get("value")) == _key(f.get("value"))
               for f in flagged if f.get("key") is not None):
            delete.append(m["id"])
    writers = {f.get("written_by") for f in flagged if f["id"] in delete} - {None}
    restore = [m["id"] for m in retired if m.get("retired_by") in writers]
    decisions += [{"id": r, "action": "delete"} for r in delete]
    decisions += [{"id": r, "action": "restore"} for r in restore]
    first = None
    for s in steps:
        if s.get("type") == "turn":
            continue
        touched = (flagged_ids & set(s.get("returned") or [])
                   or (s.get("value") is not None and _key(s.get("value")) in values)
                   or any(_word_at(str(s.get("text") or ""), t) >= 0 for t in texts))
        if touched:
            first = s["id"]
            break
    return {"records": decisions, "redo_from": first,
            "reason": f"{len(delete)} record(s) out, {len(restore)} back"
                      + (f"; redo from {first}" if first else ""),
            "cites": sorted(flagged_ids)}


B_POLICIES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "claim": claim_b,
    "plan": plan_b,
    "answer": answer_b,
    "memory_write": memory_write_b,
    "consolidate": consolidate_b,
    "audit": audit_b,
    "judge": judge_b,
}
