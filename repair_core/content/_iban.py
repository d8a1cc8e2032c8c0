"""Whether an account number is a valid IBAN, as python-stdnum decides, at a fraction of
its cost per number: `stdnum.iban.is_valid` looks the country up in its registry, builds
the country's structure pattern and converts each character with `int(x, 36)` on every
call, about 20 µs; a megabyte of distinct IBANs holds forty thousand. The country's
pattern and module are looked up once, and the checksum is read by one translation and
one `int`. `tests/test_iban_valid.py` compares it with stdnum's on generated numbers."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from .._spelled import _MOD97  # an upper-case letter as its base-36 value (A is 10)

__all__ = ["iban_is_valid"]


def iban_is_valid(number: str) -> bool:
    """`stdnum.iban.is_valid(number)`: its ISO 7064 mod 97-10 checksum, a country in the
    IBAN registry, the country's structure and the country's own check where stdnum has
    one. A number that is not upper-case ASCII letters and digits alone (stdnum cleans
    separators, reads any Unicode digit and raises on other characters) is left to
    stdnum.

    >>> iban_is_valid("DE89370400440532013000"), iban_is_valid("DE89370400440532013001")
    (True, False)
    """
    if len(number) < 5 or not (number.isascii() and number.isalnum()) \
            or number != number.upper():
        from stdnum import iban

        return iban.is_valid(number)
    if int((number[4:] + number[:4]).translate(_MOD97)) % 97 != 1:
        return False
    country = _country(number[:2])
    if country is None:
        return False
    structure, module = country
    if not structure.match(number[4:]):
        return False
    if module is not None:
        from stdnum.exceptions import ValidationError

        try:
            module.validate(number)
        except ValidationError:
            return False
    return True


@cache
def _country(code: str) -> tuple[re.Pattern[str], Any] | None:
    """(the pattern of the country's BBAN, its stdnum module or None) for a country of the
    IBAN registry, as `stdnum.iban.validate` finds them; None for any other code."""
    from stdnum import iban

    props = iban._ibandb.info(code)[0][1]
    if not props:
        return None
    return iban._struct_to_re(props.get("bban", "")), iban._get_cc_module(code)
