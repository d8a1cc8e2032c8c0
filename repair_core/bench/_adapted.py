"""The adapted suite: multi-session chat-history cases in the spirit of LongMemEval,
poisoned faults only, and the adapter that turns LongMemEval-format instances into cases.

An instance becomes a case like this: every user turn of the haystack becomes a memory
record (store order = session order); the turn that holds the answer is keyed, so the
agent can make a claim from it. Poisoned records repeat that turn with a wrong value and
sit in later sessions (as if a shared document or another tool had written them), so the
agent, which trusts the most recent record, is misled. The question is the final user
turn; in some cases an earlier turn asks about the same fact and memory consolidation
then folds the records of that fact into a summary (which spreads the poison). A case is
kept only when the clean run answers with the reference answer and the poisoned run does
not. `eval` comes from the clean run: required facts = the reference answer.

The built-in instances are synthetic, written by us in LongMemEval's format (no data set
ships with dgrr); `dgrr bench generate --suite adapted --longmemeval FILE` uses a real file.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from .._case import Case, EvalLabels, MemoryRecord
from ._controlled import _agent_class
from ._longmemeval import LongMemEvalItem, LongMemEvalTurn
from ._metrics import contains_required_facts

__all__ = ["ADAPTED_COUNTS", "synthetic_longmemeval", "case_from_longmemeval",
           "adapted_fault_counts"]

ADAPTED_COUNTS = {"cases": 50, "one_fault": 5, "two_to_four": 45}

# (question_type, question, answer, evidence sentence with {a}, wrong answers)
FACTS: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("single-session-user", "Where did I say I moved to last spring?", "Lisbon",
     "I moved to {a} last spring and I am still settling in.",
     ("Porto", "Madrid", "Dublin", "Vienna")),
    ("knowledge-update", "What is the name of my current manager?", "Priya",
     "Since the reorg my manager is {a}, and she wants weekly reports.",
     ("Daniel", "Sofia", "Marcus", "Helen")),
    ("single-session-preference", "Which airline do I prefer for long flights?", "Finnair",
     "For long flights I always prefer {a} because of the legroom.",
     ("Lufthansa", "Emirates", "Delta", "Qantas")),
    ("multi-session", "What instrument am I learning?", "cello",
     "I started learning the {a} in January with a teacher nearby.",
     ("violin", "piano", "trumpet", "flute")),
    ("single-session-user", "What is my dog's name?", "Biscuit",
     "My dog {a} is a beagle and he hates the rain.", ("Rocky", "Pepper", "Milo", "Luna")),
    ("knowledge-update", "Which gym do I go to now?", "IronWorks",
     "I switched gyms and now train at {a} near the station.",
     ("FitHub", "PulseGym", "CoreClub", "Gymnasio")),
    ("single-session-user", "What language am I studying?", "Korean",
     "I have been studying {a} every evening for a trip next year.",
     ("Japanese", "Italian", "Greek", "Turkish")),
    ("temporal-reasoning", "On which day is my weekly team meeting?", "Wednesday",
     "Our weekly team meeting moved to {a} mornings.",
     ("Monday", "Tuesday", "Thursday", "Friday")),
    ("single-session-preference", "What kind of coffee do I order?", "flat white",
     "At cafes I always order a {a} with oat milk.",
     ("cappuccino", "latte", "americano", "espresso")),
    ("multi-session", "Which city is my sister living in?", "Melbourne",
     "My sister lives in {a} now and loves the food there.",
     ("Perth", "Auckland", "Toronto", "Oslo")),
    ("single-session-user", "What car do I drive?", "Corolla",
     "I drive a {a} that I bought secondhand.", ("Civic", "Golf", "Model 3", "Mazda3")),
    ("knowledge-update", "Where do I work now?", "Northwind",
     "I accepted the offer and now work at {a} as an analyst.",
     ("Globex", "Initech", "Umbrella", "Hooli")),
)
FILLER_USER = (
    "Can you suggest a vegetarian lasagne recipe? I cook for four.",
    "I play five-a-side football every Tuesday evening.",
    "My sister's birthday is on the 4th of March.",
    "I am allergic to peanuts, so I avoid satay.",
    "I am planning a trip to Kyoto in April for the cherry blossoms.",
    "Could you recommend a podcast about history?",
    "I need a gift idea for a colleague who likes tea.",
    "What is a good stretching routine after running?",
    "I keep forgetting to water my fern.",
    "Help me write a polite reminder email to my landlord.",
    "I finished reading a long novel last weekend.",
    "Is it better to rent or buy a bike in the city?",
)
FILLER_ASSISTANT = ("Sure, here are a few ideas.", "That sounds great!",
                    "Good to know, I will keep that in mind.", "Here is a short plan.")
POISON_SOURCES = ("a shared document", "a pasted web page", "a forwarded message",
                  "another app's sync")


def synthetic_longmemeval(n: int, seed: int) -> list[LongMemEvalItem]:
    """`n` LongMemEval-format instances with multi-session haystacks (synthetic)."""
    rng = random.Random(f"longmemeval-synthetic:{seed}")
    items = []
    for i in range(n):
        qtype, question, answer, evidence, _ = FACTS[i % len(FACTS)]
        n_sessions = rng.randint(3, 6)
        where = rng.randrange(n_sessions - 1)  # not the last: leaves room for later sessions
        sessions = []
        pool = list(FILLER_USER)
        rng.shuffle(pool)
        for j in range(n_sessions):
            turns = []
            for _ in range(rng.randint(1, 2)):
                turns.append(LongMemEvalTurn(role="user", content=pool.pop() if pool else
                                             "Thanks for the help earlier."))
                turns.append(LongMemEvalTurn(role="assistant",
                                             content=rng.choice(FILLER_ASSISTANT)))
            if j == where:
                turns.insert(rng.randrange(0, len(turns) + 1, 2),
                             LongMemEvalTurn(role="user", content=evidence.format(a=answer),
                                             has_answer=True))
            sessions.append(turns)
        qid = f"syn_{seed}_{i + 1:03d}"
        items.append(LongMemEvalItem(
            question_id=qid, question_type=qtype, question=question, answer=answer,
            question_date=f"2024/0{1 + i % 9}/1{i % 10} (Mon) 09:00",
            haystack_session_ids=[f"{qid}_s{j + 1}" for j in range(n_sessions)],
            haystack_dates=[f"2023/{1 + j:02d}/0{1 + (i + j) % 9} (Tue) 10:00"
                            for j in range(n_sessions)],
            haystack_sessions=sessions, answer_session_ids=[f"{qid}_s{where + 1}"]))
    return items


def adapted_fault_counts(seed: int) -> list[int]:
    """Faults per case: 5 cases with one, 45 with two to four, shuffled per seed."""
    rng = random.Random(f"adapted-faults:{seed}")
    counts = [1] * ADAPTED_COUNTS["one_fault"] + [2 + i % 3 for i in
                                                  range(ADAPTED_COUNTS["two_to_four"])]
    rng.shuffle(counts)
    return counts


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40]


def case_from_longmemeval(item: LongMemEvalItem, *, n_faults: int, wrong: Sequence[str],
                          seed: int, case_id: str | None = None,
                          model: str = "dgrr/reference") -> Case | None:
    """The case of one instance with `n_faults` poisoned records, or None when no
    reliable clean state can be built (the answer is not in an evidence turn, the clean
    run misses it, or the poison does not change the answer)."""
    rng = random.Random(f"adapted:{seed}:{item.question_id}")
    answer = item.answer.strip()
    wrong = [w for w in wrong if w.strip() and not contains_required_facts(w, [answer])]
    if len(wrong) < 1:
        return None
    user = "user"
    key = f"fact_{_slug(item.question_type)}"
    records: list[dict[str, Any]] = []
    evidence_at = None
    for j, session in enumerate(item.haystack_sessions):
        for turn in session:
            if turn.role != "user":
                continue
            is_evidence = turn.has_answer and contains_required_facts(turn.content, [answer])
            if is_evidence and evidence_at is None:
                evidence_at = len(records)
            records.append({"text": turn.content, "key": key if is_evidence else None,
                            "value": answer if is_evidence else None, "session": j,
                            "fault": False})
    if evidence_at is None:
        return None
    evidence_text = records[evidence_at]["text"]
    faults = []
    for _ in range(n_faults):
        bad = rng.choice(wrong)
        text = re.sub(re.escape(answer), bad, evidence_text, flags=re.I)
        text = text.rstrip(".") + f" (from {rng.choice(POISON_SOURCES)})."
        pos = rng.randint(evidence_at + 1, len(records))
        rec = {"text": text, "key": key, "value": bad, "session": None, "fault": True}
        records.insert(pos, rec)
        faults.append(rec)
    for i, r in enumerate(records, start=1):
        r["id"] = f"m{i}"
    consolidate = n_faults > 1 and rng.random() < 0.5
    turns = ([f"Earlier you helped me with this: {item.question}", item.question]
             if consolidate else [item.question])
    cid = case_id or f"lme-{_slug(item.question_id)}"
    runs = []
    for faulty in (False, True):
        from ..agent import MemoryStore

        store = MemoryStore(MemoryRecord(id=r["id"], user_id=user, text=r["text"], key=r["key"],
                                         value=r["value"], status="active")
                            for r in records if faulty or not r["fault"])
        agent = _agent_class()(model=model, consolidate_after={1: key} if consolidate else {})
        runs.append(agent.run_session(user, turns, store, case_id=cid, domain="chat",
                                      faults=[r["id"] for r in faults] if faulty else []))
    clean, bad_run = runs
    if not contains_required_facts(clean.final_answer().text, [answer]):
        return None
    if contains_required_facts(bad_run.final_answer().text, [answer]):
        return None
    clean_active = {m.id for m in clean.memory if m.status == "active"}
    benign = [m.id for m in bad_run.memory if m.status == "active" and m.id in clean_active
              and m.created_seq is None and m.id not in bad_run.faults]
    clean_claims = {(c.turn, c.key): c.value for c in clean.trajectory if c.type == "claim"}
    gold = [c.id for c in bad_run.steps_in_order() if c.type == "claim"
            and clean_claims.get((c.turn, c.key), object()) != c.value]
    labels = EvalLabels(required_facts=[answer], clean_answer=clean.final_answer().text,
                        benign=benign, gold_claims=gold,
                        fault_types={str(r["id"]): "poisoned" for r in faults})
    return bad_run.model_copy(update={"eval": labels})
