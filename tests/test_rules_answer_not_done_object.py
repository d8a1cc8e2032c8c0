"""Actions the answer reports not done (docs/rules.md, `oracle.not-done`): done to the noun
the request names, waiting on the user, under way, or beyond the agent.
Each answer was written for these tests; the labels are those of ctl-005 and ctl-001."""

from __future__ import annotations

import pytest

from repair_core.bench import judge_recovery

rule = pytest.mark.rule

SHIP = (["O-6415", "processing", "Tuesday", "5 Quay Ln, Dublin"],
        ["3 Mill Way, Leeds", "O-8985"])
REQUEST = "Please ship my latest order to my shipping address."


@rule("oracle.not-done")
@pytest.mark.parametrize(("answer", "outcome"), [
    # the address the request names was not changed: the request is not done
    ("I haven't changed the address. Order O-6415 is processing, arriving Tuesday, to "
     "5 Quay Ln, Dublin.", "not recovered"),
    ("I have not updated your shipping address: order O-6415 is processing, arriving "
     "Tuesday, 5 Quay Ln, Dublin.", "not recovered"),
    ("Nisam promijenio adresu: narudžba O-6415 je u obradi, stiže u utorak, na 5 Quay Ln, "
     "Dublin.", "not recovered"),
    ("Nid wyf wedi newid y cyfeiriad: mae archeb O-6415 yn cael ei phrosesu, ddydd Mawrth, "
     "5 Quay Ln, Dublin.", "not recovered"),
    # done, or something the request does not name not done: read as before
    ("I changed the address: order O-6415 is processing, arriving Tuesday, now to 5 Quay "
     "Ln, Dublin.", "recovered"),
    ("Order O-6415 is processing, arriving Tuesday, and now ships to 5 Quay Ln, Dublin. I "
     "haven't changed your email.", "recovered"),
])
def test_an_action_not_done_to_the_requests_noun_is_not_done(answer, outcome):
    assert judge_recovery(answer, *SHIP, request=REQUEST).outcome == outcome


BOOK_LABELS = (["UA511", "22C", "aisle"], ["middle", "22B", "H-3896"])
BOOK = "Book me a flight from my home airport to Seattle next Wednesday."


@rule("oracle.not-done")
@pytest.mark.parametrize(("answer", "outcome"), [
    # waiting on the user's confirmation, under way, or beyond the agent: not done
    ("I've set up the booking for UA511, seat 22C (aisle); it only needs your "
     "confirmation.", "not recovered"),
    ("UA511 — aisle seat 22C — booking in progress.", "not recovered"),
    ("Sorry, I don't have the ability to hold seats; UA511 still has aisle seat 22C.",
     "not recovered"),
    # done, with a confirmation asked of something else, is read as before
    ("Held aisle seat 22C on UA511; the fare needs your confirmation by Friday.",
     "recovered"),
])
def test_an_action_waiting_under_way_or_beyond_the_agent_is_not_done(answer, outcome):
    assert judge_recovery(answer, *BOOK_LABELS, request=BOOK).outcome == outcome


@rule("oracle.not-done")
def test_in_progress_is_a_status_in_answer_to_a_status_request():
    verdict = judge_recovery("Order O-8471 is in progress: processing, arriving Thursday.",
                             ["O-8471", "processing", "Thursday"], ["O-6672"],
                             request="Where is my order right now?")
    assert verdict.outcome == "recovered"
