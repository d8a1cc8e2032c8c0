"""The controlled suite: cases made by running the reference agent clean and with
injected faulty records, kept only when the injection changes the final answer and has a
downstream effect beyond it.

Fault types are injected the way they happen in life:

- poisoned: a false record (as if copied from a tool result or a web page) that is more
  recent than the true one, so the agent trusts it;
- stale: the user states a new value, the agent's update of the record fails, and the
  old record stays active;
- wrong-user: another user's record attributed to this user;
- summary-drift: a consolidation of two agreeing records writes a summary whose value
  changed (the consolidating model's reply is altered in the faulty run only).

`eval` is filled from the clean run and the clean/faulty difference only: required facts
are what the clean answer states from its claims (and tool results the faulty answer
lost), benign ids are pre-existing records active after both runs, gold claims are the
faulty run's claims whose value differs from the clean run's. Nothing comes from the
planner. Every choice is drawn from `random.Random` seeded per case, so a seed gives a
byte-identical suite.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._case import Answer as AnswerStep
from .._case import Case, Dep, EvalLabels, MemoryRecord, MemoryWrite
from .._case import Claim as ClaimStep
from .._case import MemoryRead as ReadStep
from ._metrics import contains_required_facts

__all__ = ["CONTROLLED_COUNTS", "Slot", "controlled_slots", "build_controlled_case",
           "FAULT_TYPES", "DOMAINS"]

DOMAINS = ("shopping", "travel", "customer_service")
FAULT_TYPES = ("poisoned", "stale", "wrong-user", "summary-drift")
CONTROLLED_COUNTS: dict[str, dict[Any, int]] = {
    "domain": {"shopping": 48, "travel": 49, "customer_service": 53},
    "fault_type": {"poisoned": 42, "stale": 34, "wrong-user": 34, "summary-drift": 40},
    "n_faults": {1: 128, 2: 17, 3: 5},
}
"""The paper's Table 1 distribution of the 150-case controlled suite."""

NAMES = ("Lin", "Maya", "Omar", "Ana", "Ravi", "Sofia", "Kenji", "Lena", "Tomas", "Aisha",
         "Diego", "Mei", "Jonas", "Priya", "Noah", "Zara", "Felix", "Ines", "Hugo", "Yara")


@dataclass(frozen=True)
class Slot:
    """What one case of the suite must be: drawn before any agent runs."""

    index: int
    domain: str
    fault_type: str
    n_faults: int
    n_benign: int


def controlled_slots(seed: int) -> list[Slot]:
    """The 150 case slots with exactly the Table 1 counts, attributes shuffled per seed."""
    rng = random.Random(f"controlled-slots:{seed}")
    lists = []
    for name in ("domain", "fault_type", "n_faults"):
        values = [v for v, n in CONTROLLED_COUNTS[name].items() for _ in range(n)]
        rng.shuffle(values)
        lists.append(values)
    total = len(lists[0])
    benign = [6 + (i % 9) for i in range(total)]  # 6..14, every size about equally often
    rng.shuffle(benign)
    return [Slot(i, d, f, int(n), b)
            for i, (d, f, n, b) in enumerate(zip(*lists, benign, strict=True))]


# ---- domain knowledge -------------------------------------------------------------------

@dataclass(frozen=True)
class KeySpec:
    """A profile slot the final request depends on."""

    key: str
    values: tuple[str, ...]
    text: str  # format with {n} (name) and {v} (value)
    again: str  # a second, agreeing record (for consolidation)
    update: str  # the user's turn stating a new value


TRAVEL_KEYS = (
    KeySpec("home_airport", ("SFO", "JFK", "SEA", "BOS", "LAX", "ORD"),
            "{n}'s home airport is {v}.", "{n} usually departs from {v} airport.",
            "I have moved, so my home airport is now {v}. Please update it."),
    KeySpec("seat_pref", ("aisle", "window", "middle"),
            "{n} prefers {v} seats.", "{n} asked for a {v} seat again on the last trip.",
            "From now on I prefer {v} seats. Please update my seat preference."),
    KeySpec("cabin", ("economy", "premium economy", "business"),
            "{n} flies {v}.", "{n} booked {v} on every recent trip.",
            "My company now pays for {v}, so update my usual cabin to {v}."),
)
DESTINATIONS = ("Tokyo", "Paris", "London", "Singapore", "Sydney", "Hong Kong", "Chicago",
                "Los Angeles", "New York", "Seattle", "Boston", "San Francisco")
CITY_OF = {"SFO": "San Francisco", "JFK": "New York", "SEA": "Seattle", "BOS": "Boston",
           "LAX": "Los Angeles", "ORD": "Chicago"}
DAYS = ("next Friday", "next Monday", "next Tuesday", "next Wednesday", "next Thursday",
        "next Saturday", "next Sunday", "tomorrow")

SIZE_KEYS = {
    "running shoes": KeySpec("shoe_size", ("7", "8", "9", "10", "11", "12"),
                             "{n} wears shoe size {v}.", "{n} bought shoes in size {v} last time.",
                             "My shoe size is now {v}. Please update it."),
    "rain jacket": KeySpec("clothing_size", ("S", "M", "L", "XL"),
                           "{n} wears clothing size {v}.",
                           "{n} returned a jacket and kept clothing size {v}.",
                           "My clothing size is now {v}. Please update it."),
    "t-shirt": KeySpec("clothing_size", ("S", "M", "L", "XL"),
                       "{n} wears clothing size {v}.",
                       "{n} ordered tops in clothing size {v} before.",
                       "My clothing size is now {v}. Please update it."),
    "jeans": KeySpec("pants_size", ("30", "32", "34", "36"),
                     "{n} wears pants size {v}.", "{n} kept the jeans in pants size {v}.",
                     "My pants size is now {v}. Please update it."),
}
COLOR_KEY = KeySpec("favorite_color", ("black", "blue", "red", "green", "white", "grey"),
                    "{n}'s favourite colour is {v}.", "{n} picked {v} again for clothes.",
                    "My favourite colour is now {v}. Please update it.")

ORDER_KEY = KeySpec("last_order", tuple(f"O-{n}" for n in range(4102, 9899, 257)),
                    "{n}'s latest order is {v}.", "{n} asked about order {v} last week.",
                    "My latest order is now {v}, please remember it.")
ADDRESS_KEY = KeySpec("shipping_address",
                      ("12 Pine St, Seattle", "48 Harbor Ave, Boston", "7 Elm Rd, Austin",
                       "230 King St, Toronto", "5 Quay Ln, Dublin", "91 Oak Dr, Denver",
                       "16 Rue Verte, Lyon", "3 Mill Way, Leeds"),
                      "{n}'s shipping address is {v}.", "{n} had a parcel delivered to {v}.",
                      "I moved. My new shipping address is {v}. Please update it.")

# Records about the user that the requests do not need (benign filler), by template.
FILLER = (
    ("email", "{n}'s email is {l}@example.org.", None),
    ("phone", "{n}'s phone number ends in {d4}.", None),
    ("birthday", "{n}'s birthday is on the {d2}th of {month}.", None),
    ("allergy", "{n} is allergic to {allergen}.", None),
    ("pet", "{n} has a {pet} called {petname}.", None),
    ("language", "{n} speaks {lang} at home.", None),
    ("loyalty", "{n}'s loyalty number is LY-{d4}.", None),
    ("newsletter", "{n} unsubscribed from the newsletter.", None),
    ("timezone", "{n} lives in the {tz} time zone.", None),
    ("meal", "{n} eats {meal} food.", None),
    ("payment", "{n} pays with a card ending {d4}.", None),
    ("hobby", "{n} enjoys {hobby} on weekends.", None),
    ("employer", "{n} works at {company}.", None),
    ("contact_pref", "{n} likes to be contacted by {channel}.", None),
    ("gym", "{n} goes to the gym on {weekday}s.", None),
    ("plant", "{n} keeps a {plantname} on the balcony.", None),
)
FILL_WORDS = {
    "month": ("March", "April", "June", "October", "December"),
    "allergen": ("peanuts", "shellfish", "penicillin", "pollen"),
    "pet": ("cat", "dog", "rabbit", "parrot"), "petname": ("Biscuit", "Mochi", "Pepper", "Kiwi"),
    "lang": ("Portuguese", "Mandarin", "Arabic", "Spanish", "German"),
    "tz": ("Pacific", "Eastern", "Central European", "Japan"),
    "meal": ("vegetarian", "halal", "kosher", "vegan"),
    "hobby": ("climbing", "chess", "baking", "sailing"),
    "company": ("Acme Labs", "Northwind", "Globex", "Initech"),
    "channel": ("email", "text message", "phone"),
    "weekday": ("Monday", "Wednesday", "Thursday"),
    "plantname": ("fern", "lemon tree", "fig", "cactus"),
}
WARMUP = {
    "travel": ("What is my loyalty number?", "Remind me which food I eat.",
               "Which language do I speak at home?"),
    "shopping": ("How do I like to be contacted?", "Which card do I pay with?",
                 "What is my email?"),
    "customer_service": ("What plan is my account on?", "What was my last charge?",
                         "What is my email?"),
}


# ---- the scripted agent ---------------------------------------------------------------

def _agent_class() -> type:
    from ..agent import Agent

    class ScriptedAgent(Agent):  # type: ignore[misc, valid-type]
        """The reference agent plus two scripted episodes it does not do on its own: a
        turn where the user states a new value and the agent updates the record (which
        can be made to fail), and a consolidation of one key after a turn (whose
        summary can be made to drift)."""

        def __init__(self, *, updates: dict[int, tuple[str, Any, str]] | None = None,
                     fail_update: bool = False,
                     consolidate_after: dict[int, str] | None = None,
                     drift: Any = None, drift_text: str | None = None, **kw: Any) -> None:
            super().__init__(**kw)
            self.updates = updates or {}
            self.fail_update = fail_update
            self.consolidate_after = consolidate_after or {}
            self.drift, self.drift_text = drift, drift_text

        def _turn(self, rec: Any, turn: Any, user_id: str, store: Any, domain: Any,
                  world: Any, created: set[str], used: list[str]) -> None:
            n = len(rec.turns)
            if n in self.updates:
                self._update_turn(rec, turn, user_id, store, created, *self.updates[n])
            else:
                super()._turn(rec, turn, user_id, store, domain, world, created, used)
            if n in self.consolidate_after:
                self._consolidate_key(rec, turn, user_id, store, created,
                                      self.consolidate_after[n])

        def _update_turn(self, rec: Any, turn: Any, user_id: str, store: Any,
                         created: set[str], key: str, value: Any, text: str) -> None:
            old = [r for r in store.active() if r.user_id == user_id and r.key == key]
            claim = rec.step(ClaimStep, turn, type="claim", text=text, key=key, value=value,
                             deps=[Dep(id=turn.id, label="support")])
            read = rec.step(ReadStep, turn, type="memory_read",
                            text=f"retrieve the stored {key.replace('_', ' ')}",
                            query=key.replace("_", " "), returned=[r.id for r in old],
                            deps=[Dep(id=turn.id, label="initiate"),
                                  *(Dep(id=r.id, label="cite") for r in old)])
            target = [r.id for r in old]
            status = "failed" if self.fail_update else "ok"
            new_id = None if self.fail_update else store.new_id()
            write = rec.step(MemoryWrite, turn, type="memory_write", op="update",
                             target=[*target, *([new_id] if new_id else [])],
                             text=f"update {key.replace('_', ' ')} to {value}"
                                  + (" (failed: the store rejected the write)"
                                     if self.fail_update else ""),
                             status=status,
                             deps=[Dep(id=claim.id, label="derive"),
                                   Dep(id=read.id, label="cite")])
            for r in old:
                if self.fail_update:
                    r.deps = [*r.deps, Dep(id=write.id, label="update")]
                else:
                    r.status = "superseded"
                    r.deps = [*r.deps, Dep(id=write.id, label="delete")]
            if new_id:
                store.add(MemoryRecord(id=new_id, user_id=user_id, text=text, key=key,
                                       value=value, status="active", created_seq=write.seq,
                                       deps=[Dep(id=write.id, label="update")]))
                created.add(new_id)
            rec.step(AnswerStep, turn, type="answer",
                     text=f"Done: I have updated your {key.replace('_', ' ')} to {value}.",
                     deps=[Dep(id=turn.id, label="initiate"), Dep(id=claim.id, label="cite")])

        def _consolidated(self, value: Any, text: str) -> tuple[Any, str]:
            if self.drift is not None:  # the consolidating model changed the value
                return self.drift, self.drift_text or text
            return value, text

    return ScriptedAgent


# ---- one case ---------------------------------------------------------------------------

@dataclass
class _Design:
    """Everything about a case before the agent runs."""

    user: str
    name: str
    domain: str
    turns: list[str]
    records: list[dict[str, Any]]  # pre-existing store, in store order
    faults: list[str]
    fault_types: dict[str, str]
    updates: dict[int, tuple[str, Any, str]] = field(default_factory=dict)
    consolidate_after: dict[int, str] = field(default_factory=dict)
    drift: Any = None
    drift_text: str | None = None
    benign: list[str] = field(default_factory=list)


def _other(rng: random.Random, values: Sequence[str], not_: Any) -> str:
    return rng.choice([v for v in values if v != not_])


def _filler_text(rng: random.Random, template: str, name: str) -> str:
    words = {k: rng.choice(v) for k, v in FILL_WORDS.items()}
    return template.format(n=name, l=name.lower(), d4=rng.randint(1000, 9999),
                           d2=rng.randint(4, 28), **words)


def _request(rng: random.Random, domain: str, profile: dict[str, KeySpec]) -> str:
    if domain == "travel":
        home = profile["home_airport"]
        city = rng.choice([c for c in DESTINATIONS if c != CITY_OF.get(str(home))])
        return f"Book me a flight from my home airport to {city} {rng.choice(DAYS)}."
    if domain == "shopping":
        product = str(profile["product"])
        return (f"Find {product} in my size and favourite colour and add it to my cart."
                if "favorite_color" in profile else
                f"Find {product} in my size and add it to my cart.")
    if "shipping_address" in profile:
        return rng.choice(("Please ship my latest order to my shipping address.",
                           "Send my latest order to my shipping address, please."))
    return rng.choice(("Where is my latest order?", "Where is my order right now?"))


def _design(slot: Slot, seed: int, attempt: int) -> _Design:
    rng = random.Random(f"controlled:{seed}:{slot.index}:{attempt}")
    name = rng.choice(NAMES)
    user = f"{name.lower()}-{rng.randint(100, 999)}"
    domain = slot.domain
    keys: list[KeySpec]
    chosen: dict[str, Any] = {}
    if domain == "travel":
        keys = list(TRAVEL_KEYS)
    elif domain == "shopping":
        product = rng.choice(sorted(SIZE_KEYS))
        chosen["product"] = product
        keys = [SIZE_KEYS[product], COLOR_KEY]
    else:
        keys = [ORDER_KEY, ADDRESS_KEY] if rng.random() < 0.6 or slot.fault_type == "stale" \
            else [ORDER_KEY]
        if slot.fault_type == "stale" and ADDRESS_KEY not in keys:
            keys.append(ADDRESS_KEY)
    values = {k.key: rng.choice(k.values) for k in keys}
    spec_of = {k.key: k for k in keys}

    # The faults: the primary one on a key the request needs, extras on other keys where
    # there are any (two faults on one key otherwise).
    fault_keys = [rng.choice(keys if slot.fault_type != "stale" or domain != "customer_service"
                             else [ADDRESS_KEY]).key]
    others = [k.key for k in keys if k.key != fault_keys[0]]
    rng.shuffle(others)
    for i in range(1, slot.n_faults):
        fault_keys.append(others[i - 1] if i - 1 < len(others) else rng.choice(list(values)))
    extra_types = [rng.choice(("poisoned", "wrong-user")) for _ in fault_keys[1:]]
    types = [slot.fault_type, *extra_types]

    # Pre-existing store: true records for every key, filler, and the injected faults.
    records: list[dict[str, Any]] = []

    def add(text: str, key: str | None, value: Any, trust: float, tag: str) -> dict[str, Any]:
        r = {"text": text, "key": key, "value": value, "trust": round(trust, 2), "tag": tag}
        records.append(r)
        return r

    for k in keys:
        add(k.text.format(n=name, v=values[k.key]), k.key, values[k.key],
            rng.uniform(0.6, 0.95), "true")
    drift_key = fault_keys[0] if slot.fault_type == "summary-drift" else None
    if drift_key:  # a second agreeing record, so there is something to consolidate
        k = spec_of[drift_key]
        add(k.again.format(n=name, v=values[drift_key]), drift_key, values[drift_key],
            rng.uniform(0.6, 0.95), "true")
    n_true_active = len(keys) - (1 if slot.fault_type in ("stale", "summary-drift") else 0)
    n_fill = max(0, slot.n_benign - n_true_active)
    fillers = rng.sample(FILLER, min(n_fill, len(FILLER)))
    for key, template, _ in fillers:
        add(_filler_text(rng, template, name), key, None, rng.uniform(0.5, 0.95), "true")
    rng.shuffle(records)

    design = _Design(user=user, name=name, domain=domain, turns=[], records=records,
                     faults=[], fault_types={})
    fault_records: list[tuple[dict[str, Any], str]] = []
    for i, (fkey, ftype) in enumerate(zip(fault_keys, types, strict=True)):
        k = spec_of[fkey]
        if i == 0 and ftype == "stale":
            new = _other(rng, k.values, values[fkey])
            design.updates[1] = (fkey, new, k.text.format(n=name, v=new))
            design.turns.append(k.update.format(v=new))
            values[fkey] = new
            old = next(r for r in records if r["key"] == fkey and r["tag"] == "true")
            old["tag"] = "fault"
            fault_records.append((old, ftype))
            continue
        if i == 0 and ftype == "summary-drift":
            design.drift = _other(rng, k.values, values[fkey])
            design.drift_text = k.text.format(n=name, v=design.drift)
            design.consolidate_after[1] = fkey
            design.turns.append(rng.choice(WARMUP[domain]))
            continue
        wrong = _other(rng, k.values, values[fkey])
        if ftype == "wrong-user":
            other_name = rng.choice([n for n in NAMES if n != name])
            text = k.text.format(n=other_name, v=wrong)
        else:
            source = rng.choice(("a product page", "a travel forum", "a shared email",
                                 "a tool result", "a web page"))
            text = k.text.format(n=name, v=wrong).rstrip(".") + f" (noted from {source})."
        r = {"text": text, "key": fkey, "value": wrong, "trust": round(rng.uniform(0.3, 0.8), 2),
             "tag": "fault"}
        # after the true record of the key, so the agent (which trusts the most recent)
        # picks it up, but not always last in the store
        after = max(j for j, x in enumerate(records) if x["key"] == fkey)
        records.insert(rng.randint(after + 1, len(records)), r)
        fault_records.append((r, ftype))

    if not design.turns and rng.random() < 0.35:
        design.turns.append(rng.choice(WARMUP[domain]))
    profile: dict[str, Any] = {**chosen, **values}
    design.turns.append(_request(rng, domain, profile))

    for i, r in enumerate(records, start=1):
        r["id"] = f"m{i}"
    for r, ftype in fault_records:
        design.faults.append(str(r["id"]))
        design.fault_types[str(r["id"])] = ftype
    design.benign = [r["id"] for r in records if r["tag"] == "true"]
    return design


def _store(design: _Design, faulty: bool) -> Any:
    from ..agent import MemoryStore

    recs = []
    for r in design.records:
        if not faulty and r["tag"] == "fault" and design.fault_types.get(r["id"]) != "stale":
            continue
        recs.append(MemoryRecord(id=r["id"], user_id=design.user, text=r["text"], key=r["key"],
                                 value=r["value"], status="active", trust=r["trust"]))
    return MemoryStore(recs)


def _run(design: _Design, faulty: bool, case_id: str, model: str) -> Case:
    cls = _agent_class()
    drifting = faulty and design.drift is not None
    agent = cls(model=model, updates=design.updates, fail_update=faulty,
                consolidate_after=design.consolidate_after,
                drift=design.drift if drifting else None,
                drift_text=design.drift_text if drifting else None)
    store = _store(design, faulty)
    faults = design.faults if faulty else []
    case = agent.run_session(design.user, design.turns, store, case_id=case_id,
                             domain=design.domain, faults=faults)
    if drifting:  # the drifted summary is only known once the run has written it
        summary = [m.id for m in case.memory if m.created_seq is not None
                   and m.key == design.consolidate_after[1] and m.value == design.drift]
        case = case.model_copy(update={"faults": [*summary, *case.faults]})
    return case


def _final_turn_steps(case: Case, types: tuple[str, ...]) -> list[Any]:
    turn = case.final_answer().turn
    return [s for s in case.steps_in_order() if s.turn == turn and s.type in types]


def _effects(case: Case) -> list[tuple[str, str]]:
    """What the run did beyond its answer: tool calls and memory writes, as text."""
    out = []
    for s in case.steps_in_order():
        if s.type == "tool_action":
            out.append(("tool", f"{s.tool} {sorted(s.args.items())}"))
        elif s.type == "memory_write":
            texts = [m.text for m in case.memory if m.id in s.target and m.created_seq == s.seq]
            out.append(("write", f"{s.op} {s.status} {texts}"))
    return out


def _scalar_values(output: Any) -> list[str]:
    if isinstance(output, dict):
        return [str(v) for v in output.values() if isinstance(v, (str, int, float))
                and not isinstance(v, bool)]
    return []


def _words_in(fact: str, text: str) -> bool:
    return contains_required_facts(text, [fact])


def _labels(design: _Design, clean: Case, faulty: Case) -> dict[str, Any] | None:
    """`eval` from the clean run and the clean/faulty difference, or None to reject."""
    clean_answer, faulty_answer = clean.final_answer().text, faulty.final_answer().text
    if " ".join(clean_answer.split()).casefold() == " ".join(faulty_answer.split()).casefold():
        return None  # the injection did not change the final answer
    if _effects(clean) == _effects(faulty):
        return None  # no downstream effect beyond the answer
    facts: list[str] = []
    for c in _final_turn_steps(clean, ("claim",)):
        v = getattr(c, "value", None)
        if v not in (None, "") and _words_in(str(v), clean_answer):
            facts.append(str(v))
    for o in _final_turn_steps(clean, ("tool_observation",)):
        for v in _scalar_values(o.output):
            if len(v) > 1 and _words_in(v, clean_answer) and not _words_in(v, faulty_answer):
                facts.append(v)
    facts = list(dict.fromkeys(facts))
    if not facts or contains_required_facts(faulty_answer, facts):
        return None  # the oracle could not tell the failed answer from the clean one
    if not contains_required_facts(clean_answer, facts):
        return None
    clean_claims = {}
    turn_index = {t.id: i for i, t in enumerate(clean.session)}
    for c in clean.trajectory:
        if c.type == "claim":
            clean_claims[(turn_index[c.turn], c.key)] = c.value
    f_turn_index = {t.id: i for i, t in enumerate(faulty.session)}
    gold = sorted((c.id for c in faulty.trajectory if c.type == "claim"
                   and clean_claims.get((f_turn_index[c.turn], c.key), object()) != c.value),
                  key=lambda s: int(re.sub(r"\D", "", s) or 0))
    clean_active = {m.id for m in clean.memory if m.status == "active"}
    faulty_active = {m.id for m in faulty.memory if m.status == "active"}
    benign = [b for b in design.benign if b in clean_active and b in faulty_active]
    fault_types = dict(design.fault_types)
    if design.drift is not None:
        if len(faulty.faults) != len(design.faults) + 1:
            return None  # the drifted summary was not written
        fault_types = {faulty.faults[0]: "summary-drift", **fault_types}
    if not 6 <= len(benign) <= 14:
        return None
    return {"required_facts": facts, "clean_answer": clean_answer, "benign": benign,
            "gold_claims": gold, "fault_types": fault_types}


def build_controlled_case(slot: Slot, seed: int, *, model: str = "dgrr/reference",
                          max_attempts: int = 40) -> tuple[Case, int]:
    """The case of `slot`: designs are drawn until one passes the keep rules. Returns the
    case and the number of designs tried."""
    from .._errors import DgrrError

    case_id = f"ctl-{slot.index + 1:03d}-{slot.domain.replace('_', '-')}-{slot.fault_type}"
    for attempt in range(max_attempts):
        design = _design(slot, seed, attempt)
        clean = _run(design, False, case_id, model)
        faulty = _run(design, True, case_id, model)
        labels = _labels(design, clean, faulty)
        if labels is None:
            continue
        case = faulty.model_copy(update={"eval": EvalLabels(**labels)})
        return case, attempt + 1
    raise DgrrError(f"controlled suite: no design for slot {slot} passed the keep rules in "
                    f"{max_attempts} attempts")
