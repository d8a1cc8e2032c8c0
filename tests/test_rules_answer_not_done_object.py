"""An action not done to the noun the request names (docs/rules.md, `oracle.not-done`).
Each answer was written for these tests; the labels are those of ctl-005."""

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
