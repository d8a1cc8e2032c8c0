"""Reason wording shared by the networkx planner (`_plan`) and the columnar planner
(`_columnar_plan`), whose reports must be byte-identical. Light on imports: the columnar
path must not pull in networkx or pydantic."""

from __future__ import annotations

from collections.abc import Sequence


def store_quarantine_reason(path: str, producers: Sequence[str], redo: Sequence[str]) -> str:
    """Why a record is quarantined under the store objective, and whether replaying its
    producers (`redo`, those of `producers` that are replayed) re-derives it.

    >>> store_quarantine_reason("m3 → s2 → m6", ["s2"], []).split(": ")[-1]
    'not re-derived, no input of its producer s2 survives the cleaning'
    """
    base = quarantine_reason(path)
    if redo:
        return (f"{base}. Objective store: re-derived by replaying {', '.join(redo)} "
                "on cleaned inputs")
    if producers:
        return (f"{base}. Objective store: not re-derived, no input of its producer "
                f"{', '.join(producers)} survives the cleaning")
    return f"{base}. Objective store: no producer in this run to re-derive it"


RESTORED = "restored to the active store with its content"
NEVER_RESTORED = "never restored, stays retired"


def quarantine_reason(path: str) -> str:
    """Why an affected record without independent support is quarantined."""
    return (f"affected via {path}; no independent support: quarantined "
            "(kept for audit, never retrieved)")


def rejecting_reason(path: str, fault: str, word: str) -> str:
    """Why an affected record without independent support that quotes a fault to reject
    it is kept, flagged, rather than quarantined (rule `suspect.rejecting-affected`)."""
    return (f"affected via {path}; no independent support, but it says {word!r} of "
            f"{fault}: it may quote the fault as what to reject (a test, a block rule, a "
            "warning, a summary saying it was ignored), so it is flagged for a reviewer, "
            "not quarantined on its own (kept; the content check lists it as not "
            "certified)")


def fault_record_reason(seed: str | None, same_inputs: Sequence[str] = ()) -> str:
    """Why a diagnosed record is deleted; `seed`: the step replayed in its place, if any;
    `same_inputs`: the inputs that hold that producing step back (`held_seed_reason`)."""
    if seed is not None and same_inputs:
        return (f"diagnosed fault: leaves the active store (its producer {seed} is not "
                f"replayed: it would read {', '.join(same_inputs)} again unchanged, so the "
                "fault is removed, not re-derived)")
    return "diagnosed fault: leaves the active store" + (
        "" if seed is None else f" (seed {seed} is replayed)")


def undone_update_reason(update: str, poisoned: str | None) -> str:
    """Why the value a faulty `update` retired is restored, or (its value being the
    fault's own, `poisoned`) stays retired."""
    return f"the value before faulty update {update}: " + (
        f"its value is the fault's own ({poisoned}): {NEVER_RESTORED}" if poisoned
        else RESTORED)


def carrier_superseded_reason(carrier: str, fault: str) -> str:
    """Why a true record that a removed carrier superseded is restored (rule
    `memory.carrier-superseded`)."""
    return (f"superseded by {carrier}, a suspected carrier of {fault} that the repair "
            f"removes: {RESTORED}")


def retired_reason(retirers: str, poisoned: str | None, restored: bool, active: bool,
                   kept_by_support: bool = False) -> str:
    """Why a record affected only through delete edges (`retirers`, joined ids) is
    restored, or kept as it is."""
    if kept_by_support:
        return f"kept by support, retired only by unsupported mutation(s) {retirers}: {RESTORED}"
    if poisoned is not None:
        return f"retired by {retirers}; its value is the fault's own ({poisoned}): {NEVER_RESTORED}"
    if restored:
        return f"retired only by unsupported mutation(s) {retirers}: {RESTORED}"
    return ("affected only through delete edges: keeps its content and status (a mutation "
            "that retired it still stands)" if not active else
            "affected only through delete edges and still active: kept")


# -- steps -----------------------------------------------------------------------------------

REFRESHED = "observation re-produced by replaying its action"
FINAL_ANSWER = "final answer: always regenerated"
REACHES_ANSWER = "reaches the final answer"
FAULT_STEP = "diagnosed fault: never evidence again, dropped from every replayed step's inputs"
PAST_ANSWER = "a past answer: not regenerated (objective store)"
NOT_REACHING = ("does not reach the final answer once faults are cut: invalidated, "
                "not replayed")


def kept_as_written_reason(record: str) -> str:
    """Why an unsupported step that wrote a record kept for rejecting a fault (rule
    `suspect.rejecting-affected`) is not replayed: the record is read as written.

    >>> kept_as_written_reason("m4").split(": ")[-1]
    'invalidated, not replayed'
    """
    return (f"wrote {record}, which is kept as written (it rejects a fault), so nothing "
            "needs it written again: invalidated, not replayed")


def seed_reason(fault: str) -> str:
    """Why the step that wrote a faulty record is replayed."""
    return f"seed of fault {fault}: replayed so the store gets the correct record"


def held_seed_reason(fault: str, same_inputs: Sequence[str]) -> str:
    """Why the step that wrote a faulty record is not replayed: it would read again the
    tool outputs it wrote the record from (`same_inputs`), neither refreshed nor cleared.

    >>> held_seed_reason("m1", ["s2"]).split(": ")[1]
    'not replayed'
    """
    return (f"seed of fault {fault}: not replayed: it would read again "
            f"{', '.join(same_inputs)}, the tool output(s) it wrote the fault from, neither "
            "refreshed nor cleared by a reviewer; the fault is removed, not re-derived "
            "(clear or clean those inputs to have it replayed)")


def released_seed_reason(fault: str, same_inputs: Sequence[str]) -> str:
    """Why a seed held back (`held_seed_reason`) is replayed after all: the reviewer's
    edits refresh every tool output that held it back, so it reads them anew.

    >>> released_seed_reason("m1", ["s2"]).split(": ")[1]
    'replayed on refreshed inputs'
    """
    return (f"seed of fault {fault}: replayed on refreshed inputs: the reviewer's edits call "
            f"again the tools of {', '.join(same_inputs)}, the tool output(s) it wrote the "
            "fault from, so it does not read them unchanged")


def producer_reason(record: str, *, store: bool) -> str:
    """Why a producer of a quarantined record is replayed: for the store objective, or
    because a replayed step reads the record (`store` False)."""
    if store:
        return (f"producer of quarantined record {record}: replayed on cleaned inputs so "
                "the store gets it re-derived")
    return (f"producer of quarantined record {record}, which a replayed step reads: "
            "replayed so the store gets it re-derived")


def closure_reason(puller: str) -> str:
    """Why a step is replayed only because a replayed step depends on it."""
    return f"premise of replayed step {puller} (execution closure)"


def replayed_reason(why: str, path: str | None, objective: str | None) -> str:
    """A replayed step's reason `why`, after the path it was affected by (when it has no
    independent support) and the objectives that need it (under `store` or `both`).

    >>> replayed_reason("reaches the final answer", "m3 → s5", "answer and store")
    'objective answer and store: affected via m3 → s5; no independent support; reaches the final answer'
    """
    if path is not None:
        why = f"affected via {path}; no independent support; {why}"
    return why if objective is None else f"objective {objective}: {why}"


def irreversible_note(tool: str | None) -> str:
    """What is added to the reason of a replayed action whose tool is irreversible."""
    return (f"; its tool '{tool}' is irreversible (or undeclared): the executor will not "
            "re-issue it and reports the effect")


def not_needed_reason(objective: str) -> str:
    """Why an unsupported step is invalidated, not replayed, under `store` or `both`."""
    store = ("not needed to re-derive any quarantined record (objective store): "
             "invalidated, not replayed")
    if objective == "store":
        return store
    return f"does not reach the final answer once faults are cut (objective answer) and is {store}"
