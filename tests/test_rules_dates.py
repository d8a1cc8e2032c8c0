"""Calendar days a record states that its lineage does not: a fault's date restated in
another notation is not certified clean (`verify.unexplained-date`)."""

from __future__ import annotations

import pytest

from tests.test_rules_judge import (
    _clean_but_its_words,
    _loaded,
    _read_then_written,
    _whys_not_certified,
)

rule = pytest.mark.rule


def _visit_case(tmp_path, note: str, known: str = "Gas meter reading: 12 marca 2027, 10.30."):
    """A gas-meter visit a fake text moves to 19 March 2027 (the fault m_moved, seq 5) and,
    at seq 7, a note saying `note`, written with a support edge only to the user's own
    record m_visit (saying `known`)."""
    sms = "PGNiG: wizyta inkasenta przeniesiona na 19 marca 2027 godz. 10:30."
    raw = {
        "format": "dgrr.case/v1", "case_id": "visit", "domain": "utilities",
        "user_id": "ola",
        "session": [{"id": "u1", "seq": 1, "text": "Co to za SMS?"},
                    {"id": "u2", "seq": 6, "text": "Napisz mamie kartkę."}],
        "memory": [
            {"id": "m_visit", "user_id": "ola", "status": "active", "created_seq": None,
             "deps": [], "text": known},
            {"id": "m_moved", "user_id": "ola", "status": "active", "created_seq": 5,
             "deps": [{"id": "s2", "label": "produce"}],
             "text": "Wizyta gazowni przeniesiona na 19 marca 2027, 10:30."},
            {"id": "m_note", "user_id": "ola", "status": "active", "created_seq": 7,
             "deps": [{"id": "s3", "label": "produce"}], "text": note},
        ],
        "trajectory": _read_then_written("read_sms", sms, "m_moved", "m_note", "m_visit",
                                         "Kartka gotowa."),
        "faults": ["m_moved"],
        "tools": [{"name": "read_sms", "effect": "pure", "description": "The texts."}],
    }
    return _loaded(tmp_path, "visit", raw)


@rule("verify.unexplained-date")
def test_a_record_stating_a_faults_day_in_another_notation_is_not_certified(tmp_path):
    from repair_core import plan_case
    from repair_core._canonical import canonical
    from repair_core.content._dates import days, same_day
    from repair_core.replay import repair

    def read(text: str) -> list[tuple[int, int, int | None]]:
        return [(d.month, d.day, d.year) for d in days(canonical(text))]

    # one day in every notation read
    for written in ("19 marca 2027", "19.III.2027", "19. III. 2027", "19 III 2027",
                    "2027-03-19", "2027-W11-5", "2027-w11-5t09:40", "2027-078", "19.03.2027",
                    "19 March 2027", "March 19, 2027", "le 19 mars 2027",
                    "19 de março de 2027", "19. März 2027", "the 19th of March, 2027"):
        assert (3, 19, 2027) in read(written), written
    # digits that can be day-month or month-day are both; no year, no four-digit year
    assert read("09/12/2026") == [(12, 9, 2026), (9, 12, 2026)]
    assert read("19 March") == read("am 19.3. um 10:30") == [(3, 19, None)]
    assert read("sort code 20-32-06, call 0161 496 0734, version 1.2.3, host 10.0.3.19.") == []
    # a three-letter name month first is a word unless a year follows
    assert read("you may 5 times") == [] and read("May 5, 2027") == [(5, 5, 2027)]
    # no such day
    assert read("2027-02-30, 2027-W54-1, 2027-400, 31.IV.2027") == []
    [moved] = days("2027-03-19")
    assert same_day(moved, days("19 march")[0]) and not same_day(moved, days("19 march 2026")[0])
    # the visit the text moved, restated in a note with the month in Roman numerals,
    # as an ISO week date or as digits, with an edge only to the true visit
    for note in ("Mamo, gazownia przyjdzie 19.III.2027 o g. 10.30.",
                 "Gas: 2027-W11-5 10:30, have 50 zł ready.",
                 "Gazownia: 19/03/2027, 10.30.", "Gas: am 19.3. um 10:30."):
        for why in _whys_not_certified(lambda: _visit_case(tmp_path, note),  # noqa: B023
                                       "m_note:m_moved", "unexplained-token"):
            assert "it states the day" in why
            assert "of m_moved, which nothing in its recorded lineage states" in why
    # the true visit's own day, in another notation, is its lineage's: clean
    # (its Polish words are in no text of its lineage: verify.unexplained-words holds it)
    case = _visit_case(tmp_path, "Mamo, gazownia przyjdzie 12.III.2027 o g. 10.30.")
    assert _clean_but_its_words(repair(case, plan_case(case)).verification)
    # a lineage stating the moved day explains it
    case = _visit_case(tmp_path, "Mamo, dentysta 19.III.2027.", known="Dentist 19 March 2027.")
    assert repair(case, plan_case(case)).verification.outcome == "clean"
