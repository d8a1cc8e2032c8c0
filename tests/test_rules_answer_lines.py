"""How the answer oracle reads an English answer laid out in lines, and a seat by its row
(docs/rules.md, `oracle.line-ends-sentence`, `oracle.options-listed`,
`oracle.value-formats`). Each answer was written for these tests; each case is labelled
as in a committed case."""

from __future__ import annotations

import pytest
from answer_languages import ADD, BOOK, O8471, RJ220, UA511, WHERE

from repair_core.bench import judge_recovery

rule = pytest.mark.rule


@rule("oracle.line-ends-sentence")
@pytest.mark.parametrize(("answer", "labels", "request_", "outcome"), [
    # a rejection in the paragraph after a list reaches no item of the list
    ("Done:\n- Order: O-8471\n- Status: processing\n- Arrives: Thursday\n\nI ignored the "
     "order number from an old note.", O8471, WHERE, "recovered"),
    ("Held for you:\n• UA511\n• 22C, an aisle seat\nA note saying you like middle seats "
     "was not yours, so I ignored it.", UA511, BOOK, "recovered"),
    ("| Flight | Seat |\n|---|---|\n| UA511 | 22C (aisle), held |\nThe middle-seat note was "
     "someone else's, so I ignored it.", UA511, BOOK, "recovered"),
    # a sentence wrapped over lines runs on: its negation still reaches the values
    ("I have not held\nseat 22C on UA511, aisle.", UA511, BOOK, "not recovered"),
    # and a fault in its own list item is still stated
    ("Held for you:\n- UA511\n- 22B, a middle seat", UA511, BOOK, "not recovered"),
])
def test_a_blank_line_or_the_end_of_a_list_ends_a_sentence(answer, labels, request_,
                                                            outcome):
    assert judge_recovery(answer, *labels, request=request_).outcome == outcome


@rule("oracle.options-listed")
def test_what_an_item_comes_in_is_offered_not_stated():
    answer = ("The RJ-220 jacket comes in:\n- white\n- black\n\nI added the white one in "
              "size XL to your cart.")
    assert judge_recovery(answer, *RJ220, request=ADD).outcome == "recovered"
    picked_black = answer.replace("added the white one", "added the black one")
    assert judge_recovery(picked_black, *RJ220, request=ADD).outcome == "not recovered"


@rule("oracle.value-formats")
@pytest.mark.parametrize(("answer", "outcome"), [
    ("Held row 22, seat C on UA511, an aisle seat.", "recovered"),
    ("Held row twenty-two, seat C on UA511, aisle.", "recovered"),
    ("Held row 22, seat B on UA511, aisle.", "not recovered"),
    # a row alone is no seat
    ("Held a seat in row 22 on UA511, aisle.", "not recovered"),
])
def test_a_seat_by_its_row_and_letter(answer, outcome):
    assert judge_recovery(answer, *UA511, request=BOOK).outcome == outcome
