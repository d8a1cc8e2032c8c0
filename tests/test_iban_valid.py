"""`content._iban.iban_is_valid` decides as python-stdnum's `iban.is_valid` on any number:
valid IBANs of every registry country, one character changed, unknown countries, lower
case, separators, Unicode digits, too short and too long, a country's own check (Belgium,
Spain, France, ... have one in stdnum)."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import iban

from repair_core._spelled import iban_formats
from repair_core.content._iban import iban_is_valid

_COUNTRIES = sorted(iban_formats())


def _valid(country: str, body: str) -> str:
    """An IBAN of `country` with BBAN `body` and the check digits that make it pass."""
    return country + iban.calc_check_digits(country + "00" + body) + body


@st.composite
def _numbers(draw: st.DrawFn) -> str:
    country = draw(st.sampled_from([*_COUNTRIES, "XX", "D1", "de", "QQ"]))
    shape = iban_formats().get(country.upper(), "aann" + "n" * 18)[4:]
    body = "".join(draw(st.sampled_from({"n": string.digits, "a": string.ascii_uppercase,
                                          "c": string.digits + string.ascii_uppercase}[k]))
                   for k in shape)
    number = _valid(country, body) if draw(st.booleans()) else country + "00" + body
    # one of: as made, a character changed, cut, lengthened, spaced, lower case, a
    # Unicode digit put in, a character no IBAN holds
    edit = draw(st.integers(0, 7))
    at = draw(st.integers(0, len(number) - 1))
    if edit == 1:
        number = number[:at] + draw(st.sampled_from(string.digits + "AZ")) + number[at + 1:]
    elif edit == 2:
        number = number[:at]
    elif edit == 3:
        number += draw(st.sampled_from(["0", "A", "00"]))
    elif edit == 4:
        number = number[:at] + " " + number[at:]
    elif edit == 5:
        number = number.lower()
    elif edit == 6:
        number = number[:at] + "\u0663" + number[at + 1:]
    elif edit == 7:
        number = number[:at] + draw(st.sampled_from("_\n.-é")) + number[at + 1:]
    return number


@settings(max_examples=4000, deadline=None)
@given(_numbers())
def test_a_number_is_valid_exactly_when_stdnum_says_so(number):
    assert iban_is_valid(number) == iban.is_valid(number), number


def test_examples():
    for country in _COUNTRIES:  # every country, valid and with its checksum broken
        good = _valid(country, "".join(
            {"n": "1", "a": "B", "c": "7"}[k] for k in iban_formats()[country][4:]))
        bad = good[:2] + ("01" if good[2:4] != "01" else "02") + good[4:]
        assert iban_is_valid(good) == iban.is_valid(good), good
        assert iban_is_valid(bad) == iban.is_valid(bad) is False, bad
    assert iban_is_valid("DE89370400440532013000") and iban_is_valid("GB82WEST12345698765432")
    assert not iban_is_valid("DE89370400440532013001")
