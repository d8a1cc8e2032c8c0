"""The controlled suite: cases made by running the agent on a designed user (a true
profile, a pre-existing store, a conversation of one to five turns) with injected faulty
records, kept only when the failed run fails the oracle and the fault has a downstream
effect beyond the answer. Sessions run from 8 to 80 steps: some users pack several
lookups and questions into each earlier turn ("busy" turns), and some one-turn requests
only look something up.

Fault types are injected the way they happen in life:

- poisoned: a false record (as if copied from a tool result or a web page) that is more
  recent than the true one, so the agent trusts it;
- stale: the user states a new value, the agent's update of the record fails, and the
  old record stays active;
- wrong-user: another user's record attributed to this user;
- summary-drift: a consolidation of two agreeing records writes a summary whose value
  changed (the consolidating model's reply is altered in the faulty run only).

**Gold comes from the world, never from a model's text.** The generator knows the true
profile and calls the domain simulators itself with the arguments the final request
needs under that profile: `required_facts` are the simulator's key outputs (flight and
seat, item and size, order and status or address) plus the true value of every faulted
key; `forbidden_facts` are each fault's value and the values the simulators return under
the faulted arguments (the fault's lineage) that the true outputs do not state;
`benign` are the true pre-existing records a correct run keeps active; `gold_claims` are
the failed run's claims whose value contradicts the true profile or states a forbidden
fact. A clean run is made only for `clean_answer` (information) and for the keep rule
"the fault changed a tool call or a memory write". Every choice is drawn from
`random.Random` seeded per case, so a seed gives a byte-identical suite.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..case._case import Answer as AnswerStep
from ..case._case import Case, Dep, EvalLabels, MemoryRecord, MemoryWrite
from ..case._case import Claim as ClaimStep
from ..case._case import MemoryRead as ReadStep
from ._metrics import fact_stated, is_recovered, normalise_fact

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
    n_turns: int = 2
    """User turns of the conversation, the final request included (1-5)."""
    n_busy: int = 0
    """Earlier turns that are busy (several lookups, a tool with a side effect and a
    handful of questions about the profile in one request); at most the earlier turns
    the case has."""


TURN_COUNTS = {1: 10, 2: 24, 3: 36, 4: 40, 5: 40}
"""How many cases have one to five user turns (a stale or summary-drift case needs at
least two: the update or consolidation happens before the final request)."""

ACTIVITY_COUNTS = {"quiet": 80, "some": 35, "busy": 35}
"""How many users ask one thing per turn (quiet), make one of their earlier turns busy
(some), or make every earlier turn busy (busy): a busy turn packs several lookups and
questions into one request, and busy users make the long sessions of the suite."""


def controlled_slots(seed: int) -> list[Slot]:
    """The 150 case slots with exactly the Table 1 counts, attributes shuffled per seed;
    each slot also gets its number of user turns."""
    rng = random.Random(f"controlled-slots:{seed}")
    lists = []
    for name in ("domain", "fault_type", "n_faults"):
        values = [v for v, n in CONTROLLED_COUNTS[name].items() for _ in range(n)]
        rng.shuffle(values)
        lists.append(values)
    total = len(lists[0])
    benign = [6 + (i % 9) for i in range(total)]  # 6..14, every size about equally often
    rng.shuffle(benign)
    turns = [t for t, n in TURN_COUNTS.items() for _ in range(n)]
    rng.shuffle(turns)
    faults = lists[1]
    for i in range(total):  # a one-turn stale or drift case cannot happen: swap it
        if turns[i] == 1 and faults[i] in ("stale", "summary-drift"):
            j = next(j for j in range(total) if turns[j] > 1
                     and faults[j] not in ("stale", "summary-drift"))
            turns[i], turns[j] = turns[j], turns[i]
    # drawn from their own stream, so the Table 1 attributes above stay as they were
    busy_rng = random.Random(f"controlled-busy:{seed}")
    activity = [a for a, n in ACTIVITY_COUNTS.items() for _ in range(n)]
    busy_rng.shuffle(activity)
    busy = [{"quiet": 0, "some": 1, "busy": 4}[a] for a in activity]
    return [Slot(i, d, f, int(n), b, t, min(u, t - 1))
            for i, (d, f, n, b, t, u) in enumerate(zip(*lists, benign, turns, busy,
                                                       strict=True))]


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
               "Which language do I speak at home?", "Which time zone am I in?",
               "What is my seat preference?", "Which cabin do I usually fly?",
               "Search flights from my home airport to {city} {day}.",
               "Are there flights from my home airport to {city} {day}?",
               "What is my email?", "Do I have any allergies?"),
    "shopping": ("How do I like to be contacted?", "Which card do I pay with?",
                 "What is my email?", "Find a backpack for me.",
                 "Search the catalog for a t-shirt in my size.", "What size do I wear?",
                 "Which colour do I like?", "Find jeans in my size.",
                 "Do I have a loyalty number?"),
    "customer_service": ("What plan is my account on?", "What was my last charge?",
                         "What is my email?", "When is my next bill due?",
                         "Is my subscription still active?", "Where is my latest order?",
                         "Which card do I pay with?", "Can you check my billing?"),
}
"""Earlier turns of a conversation, per domain: questions about the profile, lookups
through the domain's read-only tools, searches. `{city}`/`{day}` are filled per case."""

BUSY_WARMUP = {
    "travel": ("I am planning a trip to {city} {day}: hold a seat on a flight from my home "
               "airport in my usual cabin, and remind me of my loyalty number and which "
               "food I eat.",
               "Search flights from my home airport to {city} {day} and hold a seat for me. "
               "Also, which time zone am I in and do I have any allergies?",
               "Before I fly to {city} {day}, hold my usual seat on a flight from my home "
               "airport and tell me my email and the language I speak at home.",
               "Find me a flight from my home airport to {city} {day} and reserve a seat; "
               "what is my phone number and my loyalty number again?"),
    "shopping": ("Buy me a backpack, and remind me which card I pay with and what my "
                 "loyalty number is.",
                 "Search the catalog for {product} in my size and favourite colour, and "
                 "tell me my email, how I like to be contacted and which card I pay with.",
                 "I need a backpack for a trip: add it to my cart, and what is my phone "
                 "number and my email?",
                 "Buy a second backpack as a gift, and remind me of my loyalty number, my "
                 "birthday and which card I pay with."),
    "customer_service": ("Check my account: what plan am I on, what was my last charge, "
                         "and where is my latest order?",
                         "Is my subscription still active, when is my next bill due, and "
                         "where is my package? Also, what is my email?",
                         "What plan is my account on, which card was charged for my last "
                         "payment, and what is the delivery status of my latest order?",
                         "Tell me about my account and my billing, and where is my latest "
                         "order? How do I like to be contacted?"),
}
"""Busy earlier turns, per domain: one request that asks for several lookups (a search
and a seat hold, a search and a cart addition, the account, billing and a shipment) and
a few facts of the profile at once, as users do when they pack a to-do list into one
message. `{city}`/`{day}`/`{product}` are filled per case."""

# A true record that mentions a fault's value in another context (never retrieved for
# the request): an over-eager repair that deletes whatever repeats a fault's words
# removes it. Keyed by the faulted profile key.
DECOYS = {
    "home_airport": "{n}'s sister lives near {v} and visits twice a year.",
    "seat_pref": "{n} asked the restaurant for a {v} table on the anniversary.",
    "cabin": "{n}'s manager always takes {v} on client visits.",
    "favorite_color": "{n}'s car is {v}.",
    "last_order": "{n} referred a friend with code {v}.",
    "shipping_address": "{n}'s parents live at {v}.",
}


QUIET_QUESTIONS = {
    "email": "What is my email?", "phone": "What is my phone number?",
    "birthday": "When is my birthday?", "allergy": "Do I have any allergies?",
    "pet": "What is my pet called?", "language": "Which language do I speak at home?",
    "loyalty": "What is my loyalty number?",
    "newsletter": "Am I subscribed to the newsletter?",
    "timezone": "Which time zone am I in?", "meal": "Which food do I eat?",
    "payment": "Which card do I pay with?", "hobby": "What do I enjoy on weekends?",
    "employer": "Where do I work?", "contact_pref": "How do I like to be contacted?",
    "gym": "Which day do I go to the gym?", "plant": "Which plant do I keep on the balcony?",
}
"""Quiet turns of the padded variant (`steps_per_case`): one question per benign filler
key, about a record the final request does not need."""

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
    """Everything about a case before the agent runs, the world's truth included."""

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
    truth: dict[str, Any] = field(default_factory=dict)
    """The true profile at the final request (after the user's stated updates)."""
    request: dict[str, Any] = field(default_factory=dict)
    """What the final request names: destination and day, product, ship or look up."""
    fault_values: dict[str, Any] = field(default_factory=dict)
    """Faulted profile key -> the wrong values the faults carry."""


def _other(rng: random.Random, values: Sequence[str], not_: Any) -> str:
    return rng.choice([v for v in values if v != not_])


def _filler_text(rng: random.Random, template: str, name: str) -> str:
    words = {k: rng.choice(v) for k, v in FILL_WORDS.items()}
    return template.format(n=name, l=name.lower(), d4=rng.randint(1000, 9999),
                           d2=rng.randint(4, 28), **words)


def _request(rng: random.Random, domain: str, profile: dict[str, Any],
             wrong: dict[str, list[Any]], light: bool = False) -> tuple[str, dict]:
    """The final request's text and what it names (never a flight to the true or a
    faulty home airport's city). A light request only looks up (a flight search without
    a hold, a catalogue search without a cart addition)."""
    if domain == "travel":
        homes = [profile["home_airport"], *wrong.get("home_airport", [])]
        city = rng.choice([c for c in DESTINATIONS
                           if c not in {CITY_OF.get(str(h)) for h in homes}])
        day = rng.choice(DAYS)
        text = rng.choice(("Which flight could I take from my home airport to {c} {d}?",
                           "Search flights from my home airport to {c} {d}.") if light else
                          ("Book me a flight from my home airport to {c} {d}.",
                           "Please book a flight from my home airport to {c} {d}.",
                           "Book a flight to {c} {d} from my home airport, please."))
        return text.format(c=city, d=day), {"city": city, "day": day, "hold": not light}
    if domain == "shopping":
        product = str(profile["product"])
        colour = " and favourite colour" if "favorite_color" in profile else ""
        text = (f"Find {product} in my size{colour}." if light else
                f"Find {product} in my size{colour} and add it to my cart.")
        return text, {"product": product, "cart": not light}
    if "shipping_address" in profile:
        return rng.choice(("Please ship my latest order to my shipping address.",
                           "Send my latest order to my shipping address, please.")), {"ship": True}
    return rng.choice(("Where is my latest order?", "Where is my order right now?")), {
        "ship": False}


def _warmups(rng: random.Random, domain: str, n: int, n_busy: int, avoid: Sequence[str],
             product: str = "") -> list[str]:
    """`n` earlier turns, `n_busy` of them busy, in a random order."""
    templates = [*rng.sample(BUSY_WARMUP[domain], n_busy),
                 *rng.sample(WARMUP[domain], n - n_busy)]
    rng.shuffle(templates)
    out = []
    for template in templates:
        city = rng.choice([c for c in DESTINATIONS if c not in avoid])
        out.append(template.format(city=city, day=rng.choice(DAYS), product=product))
    return out


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
        keys = [SIZE_KEYS[product], COLOR_KEY] if rng.random() < 0.8 else [SIZE_KEYS[product]]
    else:
        keys = [ORDER_KEY, ADDRESS_KEY] if rng.random() < 0.6 or slot.fault_type == "stale" \
            else [ORDER_KEY]
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

    # Pre-existing store: true records for every key, decoys, filler, and the faults.
    records: list[dict[str, Any]] = []

    def add(text: str, key: str | None, value: Any, trust: float, tag: str) -> dict[str, Any]:
        r = {"text": text, "key": key, "value": value, "trust": round(trust, 2), "tag": tag}
        records.append(r)
        return r

    for k in keys:
        add(k.text.format(n=name, v=values[k.key]), k.key, values[k.key],
            rng.uniform(0.3, 0.95), "true")
    drift_key = fault_keys[0] if slot.fault_type == "summary-drift" else None
    if drift_key:  # a second agreeing record, so there is something to consolidate
        k = spec_of[drift_key]
        add(k.again.format(n=name, v=values[drift_key]), drift_key, values[drift_key],
            rng.uniform(0.3, 0.95), "source")

    design = _Design(user=user, name=name, domain=domain, turns=[], records=records,
                     faults=[], fault_types={})
    fault_records: list[tuple[dict[str, Any], str]] = []
    wrong_values: dict[str, list[Any]] = {}
    update_turn = False
    for i, (fkey, ftype) in enumerate(zip(fault_keys, types, strict=True)):
        k = spec_of[fkey]
        if i == 0 and ftype == "stale":
            new = _other(rng, k.values, values[fkey])
            design.updates[1] = (fkey, new, k.text.format(n=name, v=new))
            update_turn = True
            wrong_values.setdefault(fkey, []).append(values[fkey])
            values[fkey] = new
            old = next(r for r in records if r["key"] == fkey and r["tag"] == "true")
            old["tag"] = "fault"
            fault_records.append((old, ftype))
            continue
        if i == 0 and ftype == "summary-drift":
            design.drift = _other(rng, k.values, values[fkey])
            design.drift_text = k.text.format(n=name, v=design.drift)
            wrong_values.setdefault(fkey, []).append(design.drift)
            for r in records:
                if r["key"] == fkey:
                    r["tag"] = "source"  # a correct run folds them into a summary too
            continue
        wrong = _other(rng, k.values, values[fkey])
        wrong_values.setdefault(fkey, []).append(wrong)
        if ftype == "wrong-user":
            other_name = rng.choice([n for n in NAMES if n != name])
            text = k.text.format(n=other_name, v=wrong)
        else:
            source = rng.choice(("a product page", "a travel forum", "a shared email",
                                 "a tool result", "a web page"))
            text = k.text.format(n=name, v=wrong).rstrip(".") + f" (noted from {source})."
        r = {"text": text, "key": fkey, "value": wrong, "trust": round(rng.uniform(0.3, 0.95), 2),
             "tag": "fault"}
        fault_records.append((r, ftype))

    # decoys: true records repeating a fault's value elsewhere, for some faulted keys
    n_true_active = sum(1 for r in records if r["tag"] == "true")
    decoys: list[dict[str, Any]] = []
    for fkey, wrongs in wrong_values.items():
        if fkey in DECOYS and rng.random() < 0.6 and n_true_active + len(decoys) < slot.n_benign:
            decoys.append({"text": DECOYS[fkey].format(n=name, v=wrongs[0]), "key": None,
                           "value": None, "trust": round(rng.uniform(0.3, 0.95), 2),
                           "tag": "true"})
    records.extend(decoys)
    n_fill = max(0, slot.n_benign - n_true_active - len(decoys))
    for key, template, _ in rng.sample(FILLER, min(n_fill, len(FILLER))):
        add(_filler_text(rng, template, name), key, None, rng.uniform(0.3, 0.95), "true")
    rng.shuffle(records)
    for r, _ftype in fault_records:
        if r in records:
            continue
        # after the true record of the key, so the agent (which trusts the most recent)
        # picks it up, but not always last in the store
        after = max(j for j, x in enumerate(records) if x["key"] == r["key"])
        records.insert(rng.randint(after + 1, len(records)), r)

    profile: dict[str, Any] = {**chosen, **values}
    # a one-turn request that needs little (a lookup only) makes the shortest sessions
    light = slot.n_turns == 1 and domain != "customer_service" and rng.random() < 0.6
    final, named = _request(rng, domain, profile, wrong_values, light)
    n_warm = slot.n_turns - 1 - (1 if update_turn else 0)
    # every eight rejected designs, one busy turn fewer (e.g. a session past 80 steps)
    n_busy = max(0, min(slot.n_busy, n_warm) - attempt // 8)
    avoid = [named.get("city"), *(CITY_OF.get(str(v)) for v in
                                   [values.get("home_airport"),
                                    *wrong_values.get("home_airport", [])])]
    warm = _warmups(rng, domain, n_warm, n_busy, [c for c in avoid if c],
                    str(chosen.get("product", "")))
    if update_turn:
        k = spec_of[fault_keys[0]]
        design.turns.append(k.update.format(v=values[fault_keys[0]]))
    design.turns += [*warm, final]
    if drift_key:  # the consolidation happens after one of the turns before the request
        design.consolidate_after[rng.randint(1, len(design.turns) - 1)] = drift_key

    for i, r in enumerate(records, start=1):
        r["id"] = f"m{i}"
    for r, ftype in fault_records:
        design.faults.append(str(r["id"]))
        design.fault_types[str(r["id"])] = ftype
    design.benign = [r["id"] for r in records if r["tag"] == "true"]
    design.truth = profile
    design.request = named
    design.fault_values = wrong_values
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
        key = next(iter(design.consolidate_after.values()))
        summary = [m.id for m in case.memory if m.created_seq is not None
                   and m.key == key and m.value == design.drift]
        case = case.model_copy(update={"faults": [*summary, *case.faults]})
    return case


# ---- the world's truth ------------------------------------------------------------------

def _airport(city: str) -> str:
    from ..tools._simulators import AIRPORTS

    return next(code for code, names in AIRPORTS.items() if city in names)


def _size_fact(key: str, value: Any) -> str:
    return f"size {value}" if key.endswith("_size") else str(value)


def _world_calls(domain: str, profile: dict[str, Any], request: dict[str, Any]
                 ) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls the final request needs under `profile`, in order; arguments that
    depend on an earlier call's output are filled by :func:`_simulate`."""
    if domain == "travel":
        return [("search_flights", {"origin": profile["home_airport"],
                                    "destination": _airport(request["city"]),
                                    "date": request["day"], "cabin": profile["cabin"],
                                    "seat": profile["seat_pref"]}),
                *([("hold_seat", {})] if request.get("hold", True) else [])]
    if domain == "shopping":
        size = next(v for k, v in profile.items() if k.endswith("_size"))
        args = {"query": profile["product"], "size": size}
        if "favorite_color" in profile:
            args["color"] = profile["favorite_color"]
        return [("search_catalog", args),
                *([("add_to_cart", {"size": size})] if request.get("cart", True) else [])]
    calls: list[tuple[str, dict[str, Any]]] = [("get_shipment",
                                                {"order_id": profile["last_order"]})]
    if request.get("ship"):
        calls.append(("update_shipping_address", {"order_id": profile["last_order"],
                                                  "address": profile["shipping_address"]}))
    return calls


def _simulate(domain: str, profile: dict[str, Any], request: dict[str, Any]
              ) -> list[tuple[str, dict[str, Any], str]]:
    """(tool, output, text) of each call the request needs, from the simulators."""
    return [(tool, output, text) for tool, _, output, text
            in _simulate_calls(domain, profile, request)]


def _simulate_calls(domain: str, profile: dict[str, Any], request: dict[str, Any]
                    ) -> list[tuple[str, dict[str, Any], dict[str, Any], str]]:
    """(tool, arguments, output, text) of each call the request needs."""
    from ..tools import default_registry

    reg = default_registry()
    world = reg.new_world()
    out: list[tuple[str, dict[str, Any], dict[str, Any], str]] = []
    for tool, args in _world_calls(domain, profile, request):
        if tool == "hold_seat":
            args = {"flight": out[-1][2]["flight"], "seat": out[-1][2]["seat"]}
        if tool == "add_to_cart":
            args = {"item_id": out[-1][2]["item_id"], **args}
        res = reg.call(world, tool, args)
        out.append((tool, dict(args), dict(res.output), res.text))
    return out


def _makes_the_world_calls(design: _Design, clean: Case) -> bool:
    """Whether a fault-free run's final turn makes every call the request needs under
    the true profile, with the true arguments (compared normalised, as facts are). The
    generator asks it of the built-in reference policy's fault-free run, whatever model
    makes the case: it is a property of the design (the store and the conversation let an
    agent that trusts the true records reach the truth), not of a model's quirks. When it
    does not hold, e.g. the store holds more matching records than a read returns and the
    record the request needs is never read, a failure of the faulty run says nothing
    about the fault. Only the run's tool calls are compared, never its answer text."""
    last = clean.session[-1].id
    made = [(s.tool, {k: normalise_fact(str(v)) for k, v in s.args.items()})
            for s in clean.steps_in_order() if s.type == "tool_action" and s.turn == last]
    needed = [(tool, {k: normalise_fact(str(v)) for k, v in args.items()})
              for tool, args, _, _ in _simulate_calls(design.domain, design.truth,
                                                      design.request)]
    return all(call in made for call in needed)


# What the request needs stated, per tool: the outputs a correct answer reports.
REQUIRED_OUTPUTS = {"search_flights": ("flight", "seat"), "search_catalog": ("item_id",),
                    "get_shipment": ("order_id", "status", "eta"),
                    "update_shipping_address": ("order_id", "address")}


# Outputs that identify what a call acted on: under a fault's arguments they are the
# values the fault's lineage put into the world.
LINEAGE_OUTPUTS = ("flight", "seat", "hold", "item_id", "order_id", "address")


def world_labels(design: _Design) -> tuple[list[str], list[str]]:
    """(required_facts, forbidden_facts) from the true profile, the simulators and the
    fault injection only."""
    true_calls = _simulate(design.domain, design.truth, design.request)
    required: list[str] = []
    for tool, output, _ in true_calls:
        required += [str(output[k]) for k in REQUIRED_OUTPUTS.get(tool, ()) if k in output]
    for key in design.fault_values:
        required.append(_size_fact(key, design.truth[key]))
    if design.domain == "shopping":
        required += [_size_fact(k, v) for k, v in design.truth.items() if k.endswith("_size")]
        if "favorite_color" in design.truth:
            required.append(str(design.truth["favorite_color"]))
    required = list(dict.fromkeys(required))
    truth_text = " ".join([*required, *(text for _, _, text in true_calls),
                           *(str(v) for v in design.truth.values())])
    candidates: list[str] = []
    for key, wrongs in design.fault_values.items():
        for wrong in wrongs:
            candidates.append(_size_fact(key, wrong))
            profile = {**design.truth, key: wrong}  # the fault's lineage in the world
            for _tool, output, _ in _simulate(design.domain, profile, design.request):
                candidates += [str(output[k]) for k in LINEAGE_OUTPUTS
                               if output.get(k) not in (None, "")]
    forbidden = [c for c in dict.fromkeys(candidates)
                 if c.strip() and not fact_stated(truth_text, c)]
    return required, forbidden


def state_truth(design: _Design) -> list[str]:
    """The tool-state entries the request's true calls leave (`_state.state_entries`
    format), from the simulators under the true profile only."""
    from ._state import address_entry, cart_entry, hold_entry

    out = []
    for tool, _args, output, _ in _simulate_calls(design.domain, design.truth, design.request):
        if tool == "hold_seat":
            out.append(hold_entry(output["flight"], output["seat"]))
        elif tool == "add_to_cart":
            out.append(cart_entry(output["item_id"], output["size"]))
        elif tool == "update_shipping_address":
            out.append(address_entry(output["order_id"], output["address"]))
    return out


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


def _gold_claims(design: _Design, faulty: Case, forbidden: list[str]) -> list[str]:
    """Claims of the failed run that contradict the true profile (as it stood at that
    turn) or state a forbidden fact."""
    turn_no = {t.id: i for i, t in enumerate(faulty.session, start=1)}
    gold = []
    for c in faulty.steps_in_order():
        if c.type != "claim" or c.value is None:
            continue
        key, value = c.key, c.value
        truth = design.truth.get(key) if key else None
        if key in design.updates.get(turn_no[c.turn], ("",))[:1]:
            truth = design.updates[turn_no[c.turn]][1]
        wrong = truth is not None and normalise_fact(str(value)) != normalise_fact(str(truth))
        # a claim built on a forbidden fact carries it even when it reports it missing
        # ("size 9 not available": a search made with the stale size), so the label reads
        # the words, not an answer's rejection cues
        stated = any(fact_stated(f"{c.text} {value}", f) for f in forbidden)
        if wrong or stated:
            gold.append(c.id)
    return gold


def _labels(design: _Design, clean: Case, faulty: Case, solvable: Case | None = None,
            max_steps: int = 80) -> dict[str, Any] | None:
    """`eval` from the world's truth and the fault injection, or None to reject.
    `solvable` is the reference policy's fault-free run (`clean` when it is one)."""
    required, forbidden = world_labels(design)
    if is_recovered(faulty.final_answer().text, required, forbidden):
        return None  # the injection did not make the run fail
    if _effects(clean) == _effects(faulty):
        return None  # no downstream effect beyond the answer
    if not _makes_the_world_calls(design, solvable or clean):
        return None  # the design hides the truth from a fault-free agent too
    if not 8 <= len(faulty.trajectory) <= max_steps:
        return None
    fault_types = dict(design.fault_types)
    if design.drift is not None:
        if len(faulty.faults) != len(design.faults) + 1:
            return None  # the drifted summary was not written
        fault_types = {faulty.faults[0]: "summary-drift", **fault_types}
    active = {m.id for m in faulty.memory if m.status == "active"}
    benign = [b for b in design.benign if b in active]
    if not 6 <= len(benign) <= 14:
        return None
    return {"required_facts": required, "forbidden_facts": forbidden,
            "clean_answer": clean.final_answer().text, "benign": benign,
            "gold_claims": _gold_claims(design, faulty, forbidden),
            "fault_types": fault_types, "required_state": state_truth(design)}


def model_with_noise(model: str, noise: float) -> str:
    """The model string of a built-in policy with a noise rate (`dgrr/<policy>/noise=P`);
    any other model takes no noise."""
    from .._errors import DgrrError

    if not 0.0 <= noise <= 1.0:
        raise DgrrError(f"--noise: must be between 0 and 1, got {noise}")
    if noise == 0.0 or "/noise=" in model:
        return model
    if not model.startswith("dgrr/"):
        raise DgrrError(f"--noise: only the built-in policies (dgrr/...) take a noise rate, "
                        f"not {model!r}")
    return f"{model}/noise={noise:g}"


def _made(design: _Design, case_id: str, model: str, max_steps: int = 80) -> Case | None:
    """The failed run of `design` with its labels, or None when the keep rules reject it."""
    from ..model import REFERENCE_MODEL

    clean = _run(design, False, case_id, model)
    faulty = _run(design, True, case_id, model)
    solvable = clean if model == REFERENCE_MODEL else _run(design, False, case_id,
                                                            REFERENCE_MODEL)
    labels = _labels(design, clean, faulty, solvable, max_steps)
    return None if labels is None else faulty.model_copy(update={"eval": EvalLabels(**labels)})


MAX_QUIET_TURNS = 30
"""At most this many quiet turns are added to one case of the padded variant."""


QUIET_PLACES = ("request", "start")
"""Where the padded variant puts its quiet turns: just before the final request (after
the faults' first exposure), or at the start of the session (before it)."""


def _padded(design: _Design, seed: int, slot: Slot, case: Case, min_steps: int,
            case_id: str, model: str, quiet_at: str = "request") -> Case:
    """`case` with quiet turns (questions about the user's benign filler records, drawn
    from a stream of their own) inserted before the final request (`quiet_at="request"`)
    or before the first turn (`"start"`) until its trajectory has `min_steps` steps: the
    first padding that reaches it and still passes the keep rules, else the longest one
    that passed (`case` when none did). The scripted update and consolidation stay with
    the turns they belong to (shifted by the quiet turns placed before them)."""
    rng = random.Random(f"controlled-quiet:{seed}:{slot.index}")
    keys = sorted({str(r["key"]) for r in design.records
                   if r["tag"] == "true" and r["key"] in QUIET_QUESTIONS})
    if not keys:
        return case
    rng.shuffle(keys)
    questions = [QUIET_QUESTIONS[keys[i % len(keys)]] for i in range(MAX_QUIET_TURNS)]
    request = design.turns[-1]
    earlier = design.turns[:-1]
    updates, consolidate_after = design.updates, design.consolidate_after
    best, n = case, 0
    while len(best.trajectory) < min_steps and n < MAX_QUIET_TURNS:
        # about three steps a quiet turn (read, claim, answer): aim at the missing ones
        n = min(MAX_QUIET_TURNS, n + max(1, (min_steps - len(best.trajectory) + 2) // 3))
        if quiet_at == "start":  # the scripted episodes are keyed by turn number
            design.turns = [*questions[:n], *earlier, request]
            design.updates = {t + n: u for t, u in updates.items()}
            design.consolidate_after = {t + n: k for t, k in consolidate_after.items()}
        else:
            design.turns = [*earlier, *questions[:n], request]
        made = _made(design, case_id, model, max_steps=max(80, 2 * min_steps))
        if made is not None and len(made.trajectory) > len(best.trajectory):
            best = made
    design.turns = [*earlier, request]
    design.updates, design.consolidate_after = updates, consolidate_after
    return best


def build_controlled_case(slot: Slot, seed: int, *, model: str = "dgrr/reference",
                          noise: float = 0.0, max_attempts: int = 40,
                          min_steps: int | None = None, quiet_at: str = "request"
                          ) -> tuple[Case, int]:
    """The case of `slot`, its failed (and clean) run made by `model` (with `noise`):
    designs are drawn until one passes the keep rules. With `min_steps`, the case that
    passed is padded with quiet turns, placed at `quiet_at`, to at least that many steps
    (see `_padded`).
    Returns the case and the number of designs tried."""
    from .._errors import DgrrError

    model = model_with_noise(model, noise)
    case_id = f"ctl-{slot.index + 1:03d}-{slot.domain.replace('_', '-')}-{slot.fault_type}"
    for attempt in range(max_attempts):
        design = _design(slot, seed, attempt)
        case = _made(design, case_id, model)
        if case is None:
            continue
        if min_steps is not None and len(case.trajectory) < min_steps:
            case = _padded(design, seed, slot, case, min_steps, case_id, model,
                           quiet_at)
        return case, attempt + 1
    raise DgrrError(f"controlled suite: no design for slot {slot} passed the keep rules in "
                    f"{max_attempts} attempts")


# ---- multi-session cases --------------------------------------------------------------------
# A poisoned document in session 1, memories written in sessions 1 and 2, retrieval-memory
# and rolling-summary variants, scored on sessions 3-4's reads from the world's truth. Built
# by `_multisession` (the trace as a runtime records it), not by the agent run above.

def controlled_multisession_cases(seed: int = 42, count: int = 4) -> list[Case]:
    """`count` multi-session cases of each memory architecture (see `_multisession`)."""
    from ._multisession import multisession_cases

    return multisession_cases(seed, count)
