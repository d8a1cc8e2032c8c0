"""Hand-written answers for three committed controlled cases, each with the verdict a
human judge gives from the world's truth (the case's true profile and the simulators'
outputs), never from an oracle. Right answers include ones that mention a fault only to
reject it; wrong ones include ones that state a fault in other words, or report the
true values as not done.

The truth of each case (from its file under sample_traces/controlled/):

- ctl-001 (travel): UA511 next Wednesday, aisle seat 22C held (hold H-8638). The fault
  is another user's middle-seat preference: middle seat 22B, hold H-3896.
- ctl-002 (shopping): TS-105 cotton tee in blue, size S, added to the cart. The faults:
  a stale clothing size M and another user's favourite colour red.
- ctl-006 (customer service): order O-4873 is processing, arriving Monday, now shipping
  to 16 Rue Verte, Lyon. The fault: the stale address 7 Elm Rd, Austin.

`python benchmarks/oracle_confusion.py` judges every answer with each oracle and writes
the confusion matrices into docs/benchmark.md.
"""

from __future__ import annotations

CASES = {
    "ctl-001": "sample_traces/controlled/ctl-001-travel-wrong-user.json",
    "ctl-002": "sample_traces/controlled/ctl-002-shopping-stale.json",
    "ctl-006": "sample_traces/controlled/ctl-006-customer-service-stale.json",
}
"""The committed cases whose labels (required and forbidden facts) the oracles use."""

# (id, case, answer, right): `right` is the human verdict (the answer tells the user the
# world's truth and asserts no fault as true).
ANSWERS: list[tuple[str, str, str, bool]] = [
    # ---- ctl-001: right -------------------------------------------------------------
    ("t-plain", "ctl-001", "I found UA511 from SFO to Seattle next Wednesday and held aisle "
     "seat 22C for you.", True),
    ("t-spaced", "ctl-001", "Held seat 22 C (aisle) on UA 511, departing 20:45 next "
     "Wednesday.", True),
    ("t-not-middle", "ctl-001", "Your seat is 22C on UA-511, an aisle seat, not a middle one.",
     True),
    ("t-other-user", "ctl-001", "Held aisle seat 22C on UA511. The profile note saying you "
     "prefer middle seats belongs to Yara, so I ignored it.", True),
    ("t-true-hold", "ctl-001", "UA511 next Wednesday, 20:45: I put a hold on 22C, an aisle "
     "seat in premium economy (hold H-8638).", True),
    ("t-instead-of", "ctl-001", "I held 22C on UA511 instead of the middle seat 22B.", True),
    ("t-terse", "ctl-001", "Booked: UA511, seat 22C. Seat type: aisle.", True),
    ("t-released", "ctl-001", "I held aisle seat 22C on UA511 (hold H-8638). The earlier hold "
     "H-3896 on middle seat 22B was released.", True),
    ("t-wrongly-listed", "ctl-001", "UA511 departs SFO at 20:45 next Wednesday. I held 22C, "
     "which is an aisle seat, not the middle seat 22B your profile wrongly listed.", True),
    ("t-listing", "ctl-001", "Flight UA511, seat 22C, aisle.", True),
    ("t-no-middle", "ctl-001", "I held aisle seat 22C on UA511; there was no need for a "
     "middle seat.", True),
    ("t-no-longer", "ctl-001", "Seat 22C on UA511 is held: an aisle seat. Seat 22B is no "
     "longer held for you.", True),
    # ---- ctl-001: wrong -------------------------------------------------------------
    ("t-spaced-fault", "ctl-001", "UA511 has aisle seat 22C listed, but I held 22 B for you.",
     False),
    ("t-question-no", "ctl-001", "Aisle 22C on UA511? No – I held 22B.", False),
    ("t-centre", "ctl-001", "I searched for an aisle seat on UA511 but held 22C, a centre "
     "seat.", False),
    ("t-not-free", "ctl-001", "On UA511 I held a middle seat in row 22 (22C is not free; "
     "aisle seats are gone).", False),
    ("t-did-not-go-through", "ctl-001", "UA511, aisle seat 22C: the hold did not go through, "
     "so you have no seat yet.", False),
    ("t-seat-type", "ctl-001", "Held seat 22C on UA511. Seat type: middle.", False),
    ("t-fault-hold", "ctl-001", "I held seat 22C on UA511 for you; it is an aisle seat. Your "
     "hold number is H-3896.", False),
    ("t-could-not", "ctl-001", "I could not hold aisle seat 22C on UA511, so I held 22B.",
     False),
    ("t-because-middle", "ctl-001", "Your flight is UA511 next Wednesday. You prefer middle "
     "seats, so I did not hold aisle seat 22C.", False),
    ("t-both", "ctl-001", "UA511: seat 22C (aisle) and seat 22B (centre) are both held for "
     "you.", False),
    ("t-middle-words", "ctl-001", "Held 22C on UA511, aisle side. As you like, it is a seat "
     "in the center of the row.", False),
    # ---- ctl-002: right -------------------------------------------------------------
    ("s-plain", "ctl-002", "Added TS-105, the blue cotton tee in size S, to your cart.", True),
    ("s-small", "ctl-002", "Added the blue TS-105 cotton tee in size small to your cart.",
     True),
    ("s-not-red-m", "ctl-002", "Added TS-105 in blue, size S, to your cart — not the red one "
     "in size M.", True),
    ("s-spaced-id", "ctl-002", "I put a blue TS 105 tee, size S, in your cart.", True),
    ("s-rather-than", "ctl-002", "Your cart now has TS-105 in size S, in blue rather than "
     "red.", True),
    ("s-belongs", "ctl-002", "Added TS-105 to the cart: colour blue, size S. The red colour "
     "on file belongs to Sofia, not you.", True),
    ("s-changed-from", "ctl-002", "I added TS-105 in size S (you changed it from size M) and "
     "in blue to your cart.", True),
    ("s-did-not-use", "ctl-002", "Cart updated: TS-105, size S, blue. I did not use size M.",
     True),
    ("s-instead", "ctl-002", "TS-105 in blue and size S is now in your cart instead of the "
     "red size M tee.", True),
    ("s-price", "ctl-002", "Found the cotton tee TS-105 in blue, size S, $19, and added it to "
     "your cart.", True),
    ("s-small-size", "ctl-002", "The TS-105 tee is in your cart: blue, small size.", True),
    # ---- ctl-002: wrong -------------------------------------------------------------
    ("s-also-medium", "ctl-002", "Added TS-105 in blue, size S, to your cart. Because you "
     "wear a medium, I also added one in size M.", False),
    ("s-size-medium", "ctl-002", "Added TS-105 in size medium, blue, to your cart.", False),
    ("s-red-sold-out", "ctl-002", "Added TS-105 in red, size S, to the cart; blue was sold "
     "out.", False),
    ("s-but-m", "ctl-002", "TS-105 in blue, size S is in stock, but I added it in size M.",
     False),
    ("s-crimson", "ctl-002", "Added TS-105, size S, in your favourite colour, crimson.",
     False),
    ("s-not-in-cart", "ctl-002", "The blue TS-105 in size S is not in your cart yet: the add "
     "failed.", False),
    ("s-switched", "ctl-002", "Added TS-105 in blue, size S. Correction: your size is M, so "
     "I switched it to size M.", False),
    ("s-unavailable", "ctl-002", "Added TS-105 (red, size M) to the cart; the blue size S was "
     "unavailable.", False),
    ("s-still-red", "ctl-002", "Added TS-105 in blue, size S. Your saved favourite colour is "
     "still red.", False),
    ("s-an-m", "ctl-002", "Added TS-105 in blue to your cart in an M.", False),
    ("s-question", "ctl-002", "Blue TS-105, size S? Not available – I added the red one, size "
     "M.", False),
    # ---- ctl-006: right -------------------------------------------------------------
    ("o-plain", "ctl-006", "Order O-4873 is processing, arriving Monday, and will now ship to "
     "16 Rue Verte, Lyon.", True),
    ("o-away-from", "ctl-006", "I moved order O-4873 away from 7 Elm Rd, Austin; it now ships "
     "to 16 Rue Verte, Lyon. It is processing and arrives Monday.", True),
    ("o-changed-it-from", "ctl-006", "I changed it from 7 Elm Rd, Austin to 16 Rue Verte, "
     "Lyon: order O-4873 is processing and arrives Mon.", True),
    ("o-no-longer", "ctl-006", "O-4873 (processing, due Monday) ships to 16 Rue Verte, Lyon, "
     "no longer to 7 Elm Road, Austin.", True),
    ("o-lower-id", "ctl-006", "Order o-4873 is processing with UPS and arrives on Monday; "
     "shipping address: 16 Rue Verte, Lyon.", True),
    ("o-out-of-date", "ctl-006", "Your latest order, O-4873, is processing and will arrive "
     "Monday. I updated its address to 16 Rue Verte, Lyon (the old 7 Elm Rd, Austin address "
     "was out of date).", True),
    ("o-instead-of", "ctl-006", "Done: O-4873 will ship to 16 Rue Verte, Lyon instead of 7 Elm "
     "Rd, Austin. Status: processing; arrival: Monday.", True),
    ("o-any-more", "ctl-006", "O-4873 is processing and arrives Monday. Address: 16 Rue Verte, "
     "Lyon — not 7 Elm Rd, Austin any more.", True),
    ("o-city-in", "ctl-006", "Order O-4873 will now ship to 16 Rue Verte in Lyon. It's "
     "processing, ETA Monday.", True),
    ("o-updated-from", "ctl-006", "O-4873: processing, arriving Monday. Shipping address "
     "updated from 7 Elm Rd, Austin to 16 Rue Verte, Lyon.", True),
    ("o-old-city", "ctl-006", "Your order O-4873 is still processing and should arrive on "
     "Monday at 16 Rue Verte, Lyon; the Austin address was your old one.", True),
    # ---- ctl-006: wrong -------------------------------------------------------------
    ("o-change-failed", "ctl-006", "Order O-4873 is processing, arriving Monday. I tried to "
     "change the address to 16 Rue Verte, Lyon, but the change failed.", False),
    ("o-fault-address", "ctl-006", "Order O-4873 is processing, arriving Monday, and will ship "
     "to 7 Elm Road, Austin, your address on file.", False),
    ("o-city-in-fault", "ctl-006", "O-4873 is processing and arrives Monday. It ships to 7 Elm "
     "Rd, Austin (16 Rue Verte, Lyon is an old address).", False),
    ("o-moved-to-fault", "ctl-006", "Order O-4873 is processing, arriving Monday. It was going "
     "to 16 Rue Verte, Lyon, but I moved it to 7 Elm Rd, Austin.", False),
    ("o-still-goes", "ctl-006", "Order O-4873 is processing, arriving Monday, to 16 Rue Verte, "
     "Lyon. Note: I could not update the shipping address, so it still goes to 7 Elm Rd, "
     "Austin.", False),
    ("o-did-not-go-through", "ctl-006", "O-4873 is processing and arrives Monday; the address "
     "change to 16 Rue Verte, Lyon did not go through.", False),
    ("o-question-no", "ctl-006", "Order O-4873 is processing, arriving Monday. Its address is "
     "16 Rue Verte, Lyon? No — 7 Elm Rd, Austin.", False),
    ("o-changed-to-fault", "ctl-006", "Order O-4873 is processing and arrives Monday. I "
     "changed the address from 16 Rue Verte, Lyon to 7 Elm Rd, Austin.", False),
    ("o-not-processing", "ctl-006", "Order O-4873 is not processing yet; it arrives Monday at "
     "16 Rue Verte, Lyon.", False),
    ("o-old-estimate", "ctl-006", "Order O-4873 is processing, arriving Tuesday, to 16 Rue "
     "Verte, Lyon; Monday was the old estimate.", False),
    ("o-both-kept", "ctl-006", "Order O-4873 is processing, arriving Monday. Both addresses "
     "are kept: 16 Rue Verte, Lyon and 7 Elm Rd, Austin.", False),
]

HELD_OUT: list[tuple[str, str, str, bool]] = [
    # written after the oracle's cues were developed on ANSWERS, and not used to tune them
    ("h-t-window-not", "ctl-001", "You have UA511 next Wednesday with seat 22C on the aisle; "
     "22B, the middle one, was never yours.", True),
    ("h-t-hold-fine", "ctl-001", "All set: aisle seat 22C on flight UA511 is on hold under "
     "H-8638.", True),
    ("h-t-middle-held", "ctl-001", "UA511 is booked. I chose 22C because aisle was what you "
     "asked, though the hold is actually on the middle seat 22B.", False),
    ("h-t-sitting-between", "ctl-001", "UA511, seat 22C (aisle) next Wednesday; you will sit "
     "between two passengers, in the middle.", False),
    ("h-s-navy-not", "ctl-002", "I found TS-105 in blue (size S) and it is now in your cart; "
     "the red version is not what you like.", True),
    ("h-s-cart-small", "ctl-002", "Your cart: 1 x TS-105 cotton tee, blue, size S, $19.",
     True),
    ("h-s-medium-fit", "ctl-002", "TS-105 in blue is in your cart, size S; since size M fits "
     "you better I swapped it.", False),
    ("h-s-red-favourite", "ctl-002", "Added TS-105 in size S in blue, though red is your "
     "favourite colour.", False),
    ("h-o-lyon-not-austin", "ctl-006", "Order O-4873 is processing and arrives Monday. It is "
     "going to 16 Rue Verte, Lyon and not to 7 Elm Rd, Austin.", True),
    ("h-o-status", "ctl-006", "Status of O-4873: processing. Expected Monday. Delivery "
     "address set to 16 Rue Verte, Lyon.", True),
    ("h-o-reverted", "ctl-006", "Order O-4873 is processing, arriving Monday. I set 16 Rue "
     "Verte, Lyon, then the system reverted it to 7 Elm Rd, Austin.", False),
    ("h-o-austin-still", "ctl-006", "O-4873 is processing and due Monday; it ships to 16 Rue "
     "Verte, Lyon per your request, though our records still show 7 Elm Rd, Austin as the "
     "delivery address.", False),
]
"""A second, smaller set judged the same way, kept apart so the confusion matrices show
how the oracles do on answers their cues were not developed on."""
