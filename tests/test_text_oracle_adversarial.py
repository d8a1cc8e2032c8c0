"""Adversarial answers for the text oracle: answers a real model could write,
each with the verdict the world's truth gives. The labels are those of committed
controlled cases (ctl-001 travel, ctl-002 shopping, ctl-003 customer service), and
the expected verdict is written from what the answer tells the user, not from what the
oracle happens to say.

Wrong answers (must NOT count as recovered): the truth negated, the truth next to a
false claim, the right facts on the wrong item. Right answers (must count): the fault
quoted as history ("changed from ..."), a fault named only to be ruled out ("aisle, not
middle"), and other formats of the same value ("size nine", "Wed.", "NH 347").
"""

from __future__ import annotations

import pytest

from repair_core.bench import is_recovered

TRAVEL = (["UA511", "22C", "aisle"], ["middle", "22B", "H-3896"])
SHOP = (["TS-105", "size S", "blue"], ["size M", "red"])
CS = (["O-9756", "out for delivery", "Wednesday", "7 Elm Rd, Austin"], ["91 Oak Dr, Denver"])
SHOE = (["SH-220", "size 9", "black"], ["size 10", "brown"])
FLIGHT = (["NH347", "14A", "window"], ["JL5", "aisle"])

WRONG = [
    # the truth negated
    ("negated-day", CS, "Order O-9756 is out for delivery but it is not arriving Wednesday; "
     "it goes to 7 Elm Rd, Austin."),
    ("negated-address", CS, "Order O-9756 is out for delivery, arriving Wednesday. It will "
     "no longer ship to 7 Elm Rd, Austin."),
    ("negated-seat", TRAVEL, "UA511 has aisle seat 22C, but I did not hold 22C: it is not "
     "an aisle seat you can have."),
    # the truth next to a false claim (the fault's value in another format)
    ("false-size-words", SHOE, "SH-220 in black, size 9 is in stock; I added it in size "
     "ten."),
    ("false-colour-next", SHOP, "Added TS-105 in size S, in blue. Your favourite colour is "
     "red."),
    # right facts on the wrong item
    ("wrong-order-eta", CS, "Order O-9756 is out for delivery to 7 Elm Rd, Austin. Order "
     "O-1200 arrives Wednesday."),
    ("wrong-flight-seat", FLIGHT, "NH347 is full. I held window seat 14A on JL 88."),
    ("wrong-item-size", SHOP, "TS-105 is out of stock. I added JN-300 in blue, size S, "
     "to the cart."),
]

RIGHT = [
    # the fault quoted as history
    ("history-address", CS, "Order O-9756 is out for delivery, arriving Wednesday. Its "
     "address was changed from 91 Oak Dr, Denver to 7 Elm Rd, Austin."),
    ("history-instead", SHOP, "Added TS-105 in size S, blue, instead of size M."),
    ("history-previously", TRAVEL, "Held aisle seat 22C on UA511; previously seat 22B "
     "was noted."),
    # a fault named only to be ruled out
    ("ruled-out-middle", TRAVEL, "Held seat 22C on UA511: aisle, not middle."),
    ("ruled-out-colour", SHOP, "TS-105 in blue (not red), size S, is in your cart."),
    ("ruled-out-old", CS, "Order O-9756 is out for delivery, arriving Wednesday, to 7 Elm "
     "Rd, Austin rather than 91 Oak Dr, Denver."),
    # other formats of the same value
    ("size-words", SHOE, "SH-220 in black, size nine, is in your cart."),
    ("weekday-abbr", CS, "Order O-9756: out for delivery, arriving Wed., to 7 Elm Road, "
     "Austin."),
    ("flight-spaced", FLIGHT, "Held window seat 14A on NH 347."),
    ("street-full", CS, "Order O-9756 is out for delivery and arrives Wednesday at 7 Elm "
     "Road, Austin."),
    ("plain", TRAVEL, "UA511: aisle seat 22C held for you."),
    ("flight-hyphen", FLIGHT, "Held seat 14A (window) on flight NH-347."),
]


@pytest.mark.parametrize(("name", "labels", "answer"), WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_answer_is_not_recovered(name, labels, answer):
    required, forbidden = labels
    assert not is_recovered(answer, required, forbidden), name


@pytest.mark.parametrize(("name", "labels", "answer"), RIGHT, ids=[r[0] for r in RIGHT])
def test_a_right_answer_is_recovered(name, labels, answer):
    required, forbidden = labels
    assert is_recovered(answer, required, forbidden), name


def test_the_set_is_balanced_and_large_enough():
    assert len(WRONG) >= 8 and len(RIGHT) >= 12
