"""The offline reference model: a deterministic policy that answers dgrr prompts.

It reads the same rendered prompts a real model reads (the stage header and the INPUT
JSON) and answers the same JSON contract. It is right when the evidence is right and is
misled the way a real agent is when it is not: it trusts the most recent matching record
of the user, copies what it trusts, and never checks a record against the world. Its
policy is documented in `docs/replay.md`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ._contracts import ReplyError, parse_prompt

__all__ = ["reference_reply", "count_tokens", "POLICIES"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_ASCII_CLASS = bytes(ord("w") if re.match(r"\w", chr(c)) else ord(" ") if re.match(r"\s", chr(c))
                     else ord("p") for c in range(128)) + bytes(128)
"""Each ASCII character as `_TOKEN` sees it: w (word), space, p (a mark of its own)."""


def count_tokens(text: str) -> int:
    """A deterministic token count (words and punctuation marks): the matches of
    `_TOKEN`. ASCII text (the prompts, mostly) is counted from its characters' classes,
    a word being a `w` not after another: the same count without a list of matches."""
    if not text:
        return 0
    if not text.isascii():
        return len(_TOKEN.findall(text))
    classes = text.encode("ascii").translate(_ASCII_CLASS)
    return (classes.count(b"p") + classes.count(b" w") + classes.count(b"pw")
            + (classes[0] == ord("w")))


def reference_reply(messages: list[dict[str, Any]]) -> str:
    """The reference model's reply (JSON text) to a rendered dgrr prompt."""
    try:
        stage, inputs = parse_prompt(messages)
    except (ReplyError, json.JSONDecodeError) as exc:
        return json.dumps({"error": f"cannot read prompt: {exc}"})
    policy = POLICIES.get(stage)
    if policy is None:
        return json.dumps({"error": f"no policy for stage {stage!r}"})
    return json.dumps(policy(inputs), ensure_ascii=False)


def _evidence(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    return list(inputs.get("evidence") or [])


def _of_user(item: dict[str, Any], user_id: str | None) -> bool:
    return item.get("user_id") in (None, user_id)


def _value_for(item: dict[str, Any], slot: str) -> tuple[bool, Any]:
    """Whether an evidence item speaks about `slot`, and the value it gives."""
    if item.get("kind") == "observation":
        out = item.get("output")
        if isinstance(out, dict) and slot in out:
            return True, out[slot]
        items = out.get("items") if isinstance(out, dict) else None
        if isinstance(items, list) and items and isinstance(items[0], dict) and slot in items[0]:
            return True, items[0][slot]
        return False, None
    if item.get("kind") not in ("record", "claim"):
        return False, None
    key, value = item.get("key"), item.get("value")
    if key == slot:
        return True, value
    if isinstance(value, dict) and slot in value:  # a summary record folding several keys
        return True, value[slot]
    return False, None


def claim_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """Trust the most recent evidence item of the user that speaks about the slot."""
    slot, user = inputs.get("slot"), inputs.get("user_id")
    chosen: tuple[dict[str, Any], Any] | None = None
    for item in _evidence(inputs):
        if not _of_user(item, user):
            continue
        if slot is None:
            if item.get("kind") == "record":
                chosen = (item, item.get("value"))
            continue
        speaks, value = _value_for(item, slot)
        if speaks:
            chosen = (item, value)
    if chosen is None:
        return {"text": f"Nothing in the evidence says {slot or 'what the request needs'}.",
                "key": slot, "value": None, "cites": [], "support": None}
    item, value = chosen
    text = item.get("text") or f"{slot} is {value}."
    if isinstance(item.get("value"), dict) and item.get("key") != slot:
        text = f"{str(slot).replace('_', ' ').capitalize()}: {value}."
    if item.get("kind") == "observation":
        text = f"{slot} is {value} (from {item.get('tool', 'a tool')})."
    return {"text": text, "key": slot if slot is not None else item.get("key"), "value": value,
            "cites": [item["id"]], "support": item["id"]}


def _mentions(text: str, phrase: str) -> int:
    """Position of `phrase` as whole words in `text` (case-insensitive), or -1."""
    m = re.search(rf"(?<!\w){re.escape(phrase.lower())}(?!\w)", text.lower())
    return m.start() if m else -1


def _pick_tool(inputs: dict[str, Any]) -> dict[str, Any] | None:
    tools = list(inputs.get("tools") or [])
    hint = inputs.get("tool_hint")
    if hint:
        for t in tools:
            if t.get("name") == hint:
                return t
        return {"name": hint, "params": [{"name": n} for n in inputs.get("arg_names") or []]}
    request = (inputs.get("request") or {}).get("text", "")
    done = set(inputs.get("done") or [])
    for t in tools:
        if t.get("name") in done:
            continue
        if any(_mentions(request, kw) >= 0 for kw in t.get("keywords") or []):
            return t
    return None


def _fill(param: dict[str, Any], inputs: dict[str, Any]) -> tuple[bool, Any, str | None]:
    """(found, value, cited id) for one parameter."""
    request = (inputs.get("request") or {}).get("text", "")
    best: tuple[int, Any] | None = None
    for value, synonyms in (param.get("choices") or {}).items():
        for phrase in [value, *synonyms]:
            pos = _mentions(request, str(phrase))
            if pos >= 0 and (best is None or pos < best[0]):
                best = (pos, value)
    if best is None and param.get("pattern"):
        m = re.search(param["pattern"], request, re.I)
        if m:
            best = (m.start(), m.group(0))
    if best is not None:
        return True, best[1], (inputs.get("request") or {}).get("id")
    slots = list(dict.fromkeys([*(param.get("slots") or []), param.get("name", "")]))
    items = [e for e in _evidence(inputs) if e.get("kind") != "record"]
    found: tuple[Any, str] | None = None
    for slot in slots:  # the most specific slot first; within it, the latest evidence
        for item in items:
            speaks, value = _value_for(item, slot)
            if speaks and value is not None:
                found = (value, item["id"])
        if found is not None:
            break
    if found is None:
        suffix = "_" + param.get("name", "")
        for item in items:  # e.g. a jacket_size claim fills `size`
            if item.get("kind") == "claim" and str(item.get("key") or "").endswith(suffix) \
                    and item.get("value") is not None:
                found = (item["value"], item["id"])
    if found is not None:
        return True, found[0], found[1]
    if param.get("name") == "user_id" and inputs.get("user_id"):
        return True, inputs["user_id"], None
    if param.get("default") is not None:
        return True, param["default"], None
    return bool(param.get("required", True)), None, None


def plan_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """Plan the hinted tool (or the first unused tool the request names) and fill each
    parameter: a choice the request names, else the most recent claim or observation for
    its slot, else the user's id or the declared default."""
    tool = _pick_tool(inputs)
    if tool is None:
        return {"tool": None, "args": {}, "text": "No further tool call is needed.", "cites": []}
    args: dict[str, Any] = {}
    cites: list[str] = []
    for param in tool.get("params") or []:
        found, value, cited = _fill(param, inputs)
        if found:
            args[param["name"]] = value
        if cited and cited not in cites:
            cites.append(cited)
    shown = ", ".join(f"{k}={v}" for k, v in args.items())
    return {"tool": tool["name"], "args": args, "text": f"Call {tool['name']}({shown}).",
            "cites": cites}


def answer_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """Report every observation, then every claim that has a value, in input order; then
    say which slot could not be determined because the repair removed the only record of
    it (`removed`, a slot no reported claim covers)."""
    obs = [e for e in _evidence(inputs) if e.get("kind") == "observation"]
    claims = [e for e in _evidence(inputs)
              if e.get("kind") == "claim" and e.get("value") is not None]
    used = obs + claims
    removed = (inputs.get("removed") or {}).get("items") or []
    undetermined = _undetermined(removed, {c.get("key") for c in claims})
    if not used and not undetermined:
        return {"text": "I could not find the information needed to answer that.", "cites": []}
    sentences = list(dict.fromkeys(_sentence(e.get("text", "")) for e in used))
    return {"text": " ".join([*sentences, *undetermined]), "cites": [e["id"] for e in used]}


def _undetermined(removed: list[dict[str, Any]], covered: set[Any]) -> list[str]:
    """One sentence per slot the repair's removals left without a value."""
    by_slot: dict[str, list[dict[str, Any]]] = {}
    for item in removed:
        key = item.get("key")
        if key not in covered:
            by_slot.setdefault(str(key or ""), []).append(item)
    sentences = []
    for key, items in by_slot.items():
        reasons = "; ".join(dict.fromkeys(f"{i.get('id')}: {i.get('why')}" for i in items))
        if key:
            held = "the only record of it was" if len(items) == 1 else "the records of it were"
            what = f"the {key.replace('_', ' ')}"
        else:
            held = "the only record it rested on was" if len(items) == 1 else \
                "the records it rested on were"
            what = "this from memory"
        sentences.append(f"I could not determine {what}: {held} removed ({reasons}).")
    return sentences


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if text.endswith((".", "!", "?")) else text + "."


def memory_write_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """With a slot: rewrite the record for that slot from the most recent evidence that
    speaks about it (else from the last claim or observation). Without: remember the
    outcome of each tool observation as `last_<tool>`, unless memory already has it."""
    slot, user = inputs.get("slot"), inputs.get("user_id")
    items = [e for e in _evidence(inputs) if e.get("kind") != "request"]
    if slot is not None:
        chosen = None
        for item in items:
            speaks, value = _value_for(item, slot)
            if speaks:
                chosen = (item, value)
        if chosen is None and items:
            last = items[-1]  # an observation's value is its output
            chosen = (last, last.get("output") if last.get("kind") == "observation"
                      else last.get("value"))
        if chosen is None:
            return {"records": []}
        item, value = chosen
        return {"records": [{"text": item.get("text", ""), "key": slot, "value": value,
                             "cites": [item["id"]], "derive": item["id"]}]}
    known = {(m.get("key"), json.dumps(m.get("value"), sort_keys=True))
             for m in inputs.get("memory") or []}
    records = []
    for item in items:
        if item.get("kind") != "observation":
            continue
        key = f"last_{item.get('tool', 'tool')}"
        value = item.get("output")
        if (key, json.dumps(value, sort_keys=True)) in known:
            continue
        records.append({"text": f"{user}'s last {item.get('tool', 'tool')}: "
                                f"{_sentence(item.get('text', ''))}",
                        "key": key, "value": value, "cites": [item["id"]],
                        "derive": item["id"]})
    return {"records": records}


def consolidate_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """Keep the most recent record's content as current; cite every record folded in."""
    records = list(inputs.get("records") or [])
    if not records:
        return {"text": "", "key": inputs.get("key"), "value": None, "cites": []}
    latest_by_key: dict[Any, dict[str, Any]] = {}
    for r in records:
        latest_by_key.pop(r.get("key"), None)
        latest_by_key[r.get("key")] = r
    latest = records[-1]
    if len(latest_by_key) == 1:
        return {"text": latest.get("text", ""), "key": inputs.get("key") or latest.get("key"),
                "value": latest.get("value"), "cites": [r["id"] for r in records]}
    kept = list(latest_by_key.values())
    return {"text": " ".join(_sentence(r.get("text", "")) for r in kept),
            "key": inputs.get("key") or "summary",
            "value": {str(r.get("key")): r.get("value") for r in kept},
            "cites": [r["id"] for r in records]}


def audit_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """Flag a record of another user, or one that contradicts a record of the same key
    and has the lower trust (the later one on a tie)."""
    record = inputs.get("record") or {}
    if record.get("user_id") not in (None, inputs.get("user_id")):
        return {"suspicious": True, "cites": [],
                "reason": f"attributed to {record.get('user_id')}, not {inputs.get('user_id')}"}
    if record.get("key") is None:
        return {"suspicious": False, "reason": "no structured fact to check", "cites": []}
    mine = (record.get("trust") or 0.0, record.get("position", 0))
    for other in inputs.get("store") or []:
        if (other.get("id") == record.get("id") or other.get("key") != record.get("key")
                or other.get("user_id") != record.get("user_id")
                or json.dumps(other.get("value"), sort_keys=True)
                == json.dumps(record.get("value"), sort_keys=True)):
            continue
        theirs = (other.get("trust") or 0.0, other.get("position", 0))
        if mine[0] < theirs[0] or (mine[0] == theirs[0] and mine[1] > theirs[1]):
            return {"suspicious": True, "cites": [other["id"]],
                    "reason": f"contradicts {other['id']} on {record.get('key')} and is "
                              "less trusted"}
    return {"suspicious": False, "reason": "consistent with the rest of the store", "cites": []}


_MIN_MARK = 3  # a shorter token (the `o` of an order id `O-5387`, a size `S`) marks nothing


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _meaningful(text: str) -> set[str]:
    from ..content._lexical import tokens

    return {t for t in tokens(text) if len(t) >= _MIN_MARK}


def _fault_marks(fault: dict[str, Any], others: list[dict[str, Any]]) -> set[str]:
    """What distinguishes one fault: the meaningful tokens of its value that no other
    record shares, except records that repeat the whole value under another key (copies
    the fault spread to). A record of the same key with another value (`premium economy`
    beside a faulty `economy`) is a rival, never a copy, so its words mark nothing. With
    no such value token, the meaningful tokens of its text that no other record has."""
    value = fault.get("value")
    own = _meaningful(_value_text(value)) if value not in (None, "") else set()
    if own:
        copies = [m for m in others if m.get("key") != fault.get("key")
                  and own <= _meaningful(m.get("text", ""))]
        common = set().union(*(_meaningful(m.get("text", "")) for m in others
                               if m not in copies))
        if own - common:
            return own - common
    common = set().union(*(_meaningful(m.get("text", "")) for m in others))
    return _meaningful(fault.get("text", "")) - common


def _repeats(record: dict[str, Any], fault: dict[str, Any]) -> bool:
    """The same fact: the fault's key with the fault's value."""
    return (fault.get("key") is not None and record.get("key") == fault.get("key")
            and _value_text(record.get("value")).casefold()
            == _value_text(fault.get("value")).casefold())


def judge_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """Each fault is marked by its distinguishing content (`_fault_marks`): meaningful
    tokens (three characters or more, not stop words) of its value that other records do
    not share, else of its text. Delete the faults, records stating the same key and
    value, and records carrying a mark; revise steps carrying a mark and reads that
    returned a fault."""
    faults = list(inputs.get("faults") or [])
    fault_ids = {f["id"] for f in faults}
    others = [m for m in inputs.get("memory") or [] if m.get("id") not in fault_ids]
    marks: set[str] = set()
    for f in faults:
        marks |= _fault_marks(f, others)
    revise = [s["id"] for s in inputs.get("trajectory") or []
              if _meaningful(s.get("text", "")) & marks
              or fault_ids & set(s.get("returned") or [])]
    delete = [f["id"] for f in faults] + [
        m["id"] for m in others
        if _meaningful(m.get("text", "")) & marks or any(_repeats(m, f) for f in faults)]
    return {"delete": delete, "revise": revise, "cites": sorted(fault_ids),
            "reason": f"the faults are marked by {', '.join(sorted(marks)) or 'nothing distinctive'}"}


def open_judge_policy(inputs: dict[str, Any]) -> dict[str, Any]:
    """judge/v2 (the open prompt), by this model's own reading: a flagged record is
    wrong, so delete it; what it replaced is what was right, so restore the retired
    records of its key that the step writing it retired; the run went wrong where it
    first read a flagged record, so redo from that read."""
    flagged = [f for f in inputs.get("flagged") or [] if isinstance(f, dict)]
    ids = {f["id"] for f in flagged}
    verdicts = [{"id": f["id"], "action": "delete", "reason": "flagged as suspect"}
                for f in flagged]
    for r in inputs.get("retired") or []:
        if any(r.get("key") == f.get("key") and r.get("retired_by") is not None
               and r.get("retired_by") == f.get("written_by") for f in flagged):
            verdicts.append({"id": r["id"], "action": "restore",
                             "reason": "replaced by a flagged record"})
    first = next((s["id"] for s in inputs.get("trajectory") or []
                  if ids & set(s.get("returned") or [])), None)
    return {"records": verdicts, "redo_from": first, "cites": sorted(ids),
            "reason": f"the run first read a flagged record at {first}" if first
            else "no step read a flagged record"}


def _judge(inputs: dict[str, Any]) -> dict[str, Any]:
    """judge/v2 inputs carry `flagged`; judge/v1 inputs carry `faults`."""
    return open_judge_policy(inputs) if "flagged" in inputs else judge_policy(inputs)


POLICIES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "claim": claim_policy,
    "plan": plan_policy,
    "answer": answer_policy,
    "memory_write": memory_write_policy,
    "consolidate": consolidate_policy,
    "audit": audit_policy,
    "judge": _judge,
}
