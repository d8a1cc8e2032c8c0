"""The content check of records that share only names, references and a sender with a
fault: an older true record of the user's store is no carrier, and a later one whose own
lineage holds what it shares is not certified rather than a carrier."""

from __future__ import annotations

import copy
import json

import pytest

rule = pytest.mark.rule

_SENDER = "bursar@stmarys-school.org.uk"
_FAKE = "GB12 SRLG 6083 7138 2519 46"
_TRUE = "GB29 NWBK 6016 1331 9268 19"


def _school_case(old_text: str = f"St Mary's bursar ({_SENDER}): Year 6 trip fee £180 to "
                                 f"{_TRUE}, ref TRIP-Y6.",
                 old_seq: int | None = None) -> dict:
    """The bursar's mailbox was compromised: the e-mail of seq 4 (the suspected source)
    gives the attacker's IBAN under the same reference as the true record `m_trip_old`
    (written at `old_seq`, None: before the run), and the record `m_bank_change` (seq 5,
    the fault) keeps it. A later mail from the same sender (seq 14) says the trip is on
    Friday; `m_friday` (seq 15) is written from it alone."""
    return {
        "format": "dgrr.case/v1", "case_id": "names-only", "domain": "education",
        "user_id": "claire",
        "session": [{"id": "u1", "seq": 1, "text": "Mail from the school bursar?"},
                    {"id": "u3", "seq": 11, "text": "Any news from the bursar?"}],
        "memory": [
            {"id": "m_trip_old", "user_id": "claire", "text": old_text, "key": "trip_fee",
             "value": "£180", "status": "active", "created_seq": old_seq, "deps": []},
            {"id": "m_bank_change", "user_id": "claire",
             "text": f"St Mary's bursar: trip fee now to {_FAKE}, ref TRIP-Y6.",
             "key": "trip_fee_account", "value": _FAKE, "status": "active",
             "created_seq": 5, "deps": [{"id": "t1w4", "label": "produce"}]},
            {"id": "m_friday", "user_id": "claire",
             "text": f"St Mary's bursar ({_SENDER}): the Year 6 trip leaves on Friday at "
                     "8:15, ref TRIP-Y6.",
             "key": "trip_day", "value": "Friday", "status": "active", "created_seq": 15,
             "deps": [{"id": "t3w4", "label": "produce"}]},
        ],
        "trajectory": [
            {"id": "t1a2", "type": "tool_action", "text": f"read_email(from={_SENDER})",
             "tool": "read_email", "args": {"from": _SENDER}, "status": "ok", "seq": 3,
             "turn": "u1", "deps": [{"id": "u1", "label": "initiate"}]},
            {"id": "t1o3", "type": "tool_observation", "status": "ok", "seq": 4,
             "turn": "u1",
             "text": f"St Mary's bursar ({_SENDER}): the school bank has changed; pay the "
                     f"Year 6 trip fee to {_FAKE}, ref TRIP-Y6.",
             "output": f"St Mary's bursar ({_SENDER}): the school bank has changed; pay "
                       f"the Year 6 trip fee to {_FAKE}, ref TRIP-Y6.",
             "deps": [{"id": "t1a2", "label": "produce"}]},
            {"id": "t1w4", "type": "memory_write", "text": "add: m_bank_change",
             "op": "add", "target": ["m_bank_change"], "seq": 5, "turn": "u1",
             "deps": [{"id": "t1o3", "label": "cite"}, {"id": "u1", "label": "initiate"}]},
            {"id": "t1x5", "type": "answer", "text": "Noted.", "seq": 6, "turn": "u1",
             "deps": [{"id": "t1o3", "label": "cite"}]},
            {"id": "t3a2", "type": "tool_action", "text": f"read_email(from={_SENDER})",
             "tool": "read_email", "args": {"from": _SENDER}, "status": "ok", "seq": 13,
             "turn": "u3", "deps": [{"id": "u3", "label": "initiate"}]},
            {"id": "t3o3", "type": "tool_observation", "status": "ok", "seq": 14,
             "turn": "u3",
             "text": f"St Mary's bursar ({_SENDER}): the Year 6 trip leaves on Friday at "
                     "8:15, ref TRIP-Y6.",
             "output": f"St Mary's bursar ({_SENDER}): the Year 6 trip leaves on Friday "
                       "at 8:15, ref TRIP-Y6.",
             "deps": [{"id": "t3a2", "label": "produce"}]},
            {"id": "t3w4", "type": "memory_write", "text": "add: m_friday", "op": "add",
             "target": ["m_friday"], "seq": 15, "turn": "u3",
             "deps": [{"id": "t3o3", "label": "cite"}, {"id": "u3", "label": "initiate"}]},
            {"id": "t3x5", "type": "answer", "text": "The trip is on Friday.", "seq": 16,
             "turn": "u3", "deps": [{"id": "m_friday", "label": "cite"}]},
        ],
        "faults": ["m_bank_change"],
        "tools": [{"name": "read_email", "effect": "pure",
                   "description": "Read the user's e-mail."}],
    }


def _checked(tmp_path, raw: dict):
    from repair_core import load_case, plan_case
    from repair_core.replay import repair

    where = tmp_path / f"case-{len(list(tmp_path.iterdir()))}.json"
    where.write_text(json.dumps(raw))
    case = load_case(str(where))
    # under `answer` the plan keeps every record but the fault: each is checked
    return repair(case, plan_case(case, objective="answer")).verification


def _found(v, where: str) -> dict[str, str]:
    """Item id -> 'carrier' or the uncertain reason, for the items of record `where`."""
    out = {c.id: "carrier" for c in v.carriers if c.where == where}
    out.update((u.id, u.reason) for u in v.uncertain if u.where == where)
    return out


@rule("verify.older-record-names")
def test_an_older_true_record_sharing_reference_name_and_sender_is_no_carrier(tmp_path):
    v = _checked(tmp_path, _school_case())
    assert _found(v, "m_trip_old") == {}, v.carriers
    # the same record written during the run but before the e-mail (seq 2): still older
    v = _checked(tmp_path, _school_case(old_seq=2))
    assert _found(v, "m_trip_old") == {}
    # written after the e-mail it is no longer older: the shared reference and sender
    # make it a carrier again, as before the rule
    later = _school_case(old_seq=7)
    assert _found(_checked(tmp_path, later), "m_trip_old") != {}
    # an older record that holds the attacker's IBAN is a carrier whatever its age
    v = _checked(tmp_path, _school_case(old_text=f"St Mary's bursar ({_SENDER}): Year 6 "
                                                 f"trip fee £180 to {_FAKE}, ref TRIP-Y6."))
    assert set(_found(v, "m_trip_old").values()) == {"carrier"}, v.carriers


@rule("verify.older-record-names")
def test_no_record_is_older_than_a_fault_that_predates_the_run(tmp_path):
    raw = _school_case()
    fault = next(m for m in raw["memory"] if m["id"] == "m_bank_change")
    fault["created_seq"], fault["deps"] = None, []
    raw["trajectory"] = [s for s in raw["trajectory"] if s["id"] != "t1w4"]
    assert set(_found(_checked(tmp_path, raw), "m_trip_old").values()) == {"carrier"}


@rule("verify.own-lineage-names")
def test_a_later_record_whose_own_lineage_holds_the_shared_names_is_not_certified(tmp_path):
    v = _checked(tmp_path, _school_case())
    found = _found(v, "m_friday")
    assert found and set(found.values()) == {"judge-unsure"}, found
    [why] = {u.why for u in v.uncertain if u.id == "m_friday:m_bank_change"}
    assert why.startswith("shares only 'trip-y6', 'St Mary' with m_bank_change") or \
        why.startswith("shares only 'St Mary', 'trip-y6' with m_bank_change"), why
    assert "reaches no fault or suspected source" in why
    assert v.outcome == "not_certified"
    # cut the cite of the later e-mail: its lineage no longer holds the sender and the
    # reference, and the lexical judge's yes stands
    raw = _school_case()
    write = next(s for s in raw["trajectory"] if s["id"] == "t3w4")
    write["deps"] = [{"id": "u3", "label": "initiate"}, {"id": "m_trip_old", "label": "cite"}]
    mail = copy.deepcopy(raw)
    next(m for m in mail["memory"] if m["id"] == "m_trip_old")["text"] = "Year 6 trip: £180."
    assert set(_found(_checked(tmp_path, mail), "m_friday").values()) == {"carrier"}
    # a lineage that reaches the suspected source explains nothing
    raw = _school_case()
    write = next(s for s in raw["trajectory"] if s["id"] == "t3w4")
    write["deps"].append({"id": "t1o3", "label": "cite"})
    assert "judge-unsure" not in _found(_checked(tmp_path, raw), "m_friday").values()


@rule("verify.own-lineage-names")
def test_a_record_is_never_explained_by_its_own_text(tmp_path):
    # the later mail no longer names the sender or the reference; a later update of
    # `m_friday` (it failed) was made from a read of `m_friday` itself, so the record's
    # lineage comes back to it, and only its own text holds what it shares with the
    # fault: a carrier, as before the rule
    raw = _school_case()
    mail = next(s for s in raw["trajectory"] if s["id"] == "t3o3")
    mail["text"] = mail["output"] = "The Year 6 trip leaves on Friday at 8:15."
    next(m for m in raw["memory"] if m["id"] == "m_friday")["deps"].append(
        {"id": "t3w7", "label": "update"})
    raw["trajectory"] += [
        {"id": "t3r6", "type": "memory_read", "text": "read m_friday", "seq": 17,
         "turn": "u3", "deps": [{"id": "m_friday", "label": "cite"}]},
        {"id": "t3w7", "type": "memory_write", "text": "update m_friday: 8:30.",
         "op": "update", "target": ["m_friday"], "status": "failed", "seq": 18,
         "turn": "u3", "deps": [{"id": "t3r6", "label": "derive"}]}]
    assert set(_found(_checked(tmp_path, raw), "m_friday").values()) == {"carrier"}


@rule("verify.own-lineage-names")
@pytest.mark.parametrize(("hops", "found"), [(10, "judge-unsure"), (300, "carrier")])
def test_the_lineage_read_for_what_a_record_shares_is_bounded(tmp_path, hops, found):
    # the mail that holds the sender and the reference sits `hops` relays behind the
    # write: read within `LINEAGE_READ` nodes it explains them; past it the record keeps
    # the verdict it had, a carrier, so a deep chain costs no more than the bound
    from repair_core.verification._check import LINEAGE_READ

    assert 10 < LINEAGE_READ < 300
    raw = _school_case()
    write = next(s for s in raw["trajectory"] if s["id"] == "t3w4")
    before = "t3o3"
    for k in range(hops):
        raw["trajectory"].append({
            "id": f"relay{k}", "type": "claim", "text": "Noted.", "seq": 1000 + k,
            "turn": "u3", "deps": [{"id": before, "label": "derive"}]})
        before = f"relay{k}"
    write["deps"] = [{"id": before, "label": "cite"}, {"id": "u3", "label": "initiate"}]
    write["seq"] = 2000
    next(m for m in raw["memory"] if m["id"] == "m_friday")["created_seq"] = 2000
    next(s for s in raw["trajectory"] if s["id"] == "t3x5")["seq"] = 2001
    assert set(_found(_checked(tmp_path, raw), "m_friday").values()) == {found}
