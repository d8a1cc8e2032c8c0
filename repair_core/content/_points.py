"""Points on the Earth a text states: a latitude and a longitude written in decimal degrees
("41.38739, 2.16861", "-33.8688 151.2093", "41.38739°N 2.16861°E", "41,38739; 2,16861"),
in degrees and decimal minutes ("N 41°23.243' E 2°10.117'") or in degrees, minutes and
seconds ("41°23′14.6″N 2°10′07.0″E"), read in decimal degrees with the tolerance its writing
allows: half the last written digit's step (0.000005° for five decimals of a degree,
0.05″ for tenths of a second), so the same place converted from one form to another is
one point. Only a form fine enough to name a place is read, a step of 0.001° (about
110 m) or finer: three or more decimals of a degree, two or more of a minute, or seconds.
A pair is a latitude (at most 90, N or S or no letter) then a longitude (at most 180, E
or W or no letter), separated by at most three blanks, commas, semicolons or slashes (and
a label "lon", "lng", "long" or "longitude"; WKT's "POINT(" and GeoJSON's
"coordinates" write longitude first; after a line end, the blanks or tabs indenting the next,
as indented JSON writes them); a hemisphere letter S or W makes it negative, and so does a
hemisphere word after it ("40.7128 north, 74.0060 west", "33.8688° Süd, 151.2093° Ost",
`_HEMISPHERES`). Not a distinctive token: what a record's
lineage explains is asked of it (`verify.unexplained-point`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import NamedTuple

__all__ = ["Point", "points", "readings", "same_point"]

_COORD = (
    r"(?:(?P<h1{0}>{2})[ ]?)?"
    r"(?:(?P<d{0}>\d{{1,3}})°[ ]?(?P<m{0}>\d{{1,2}})['′’][ ]?"
    r"(?P<s{0}>\d{{1,2}}(?:[.,](?P<sf{0}>\d{{1,4}}))?)(?:''|\"|″|′′|’’)"
    r"|(?P<dm{0}>\d{{1,3}})°[ ]?(?P<mm{0}>\d{{1,2}}[.,](?P<mf{0}>\d{{2,5}}))['′’]"
    r"|(?P<sign{0}>-)?(?P<dec{0}>\d{{1,3}}(?:\.(?P<df{0}>\d{{3,8}})|,(?P<dc{0}>\d{{4,8}})))"
    r"(?:°|[ ](?:{3})(?!\w))?)"
    r"(?:[ ]?(?P<h2{0}>{1})(?!\w))?")
"""One coordinate: a hemisphere letter or word before or after it or none (a letter after
one that has one before is the next coordinate's: "n 41°23.243' e 2°10.117'"; after it
`{1}`, every letter and word of `_HEMISPHERES` and "o"; before it `{2}`, those
`_BEFORE` leaves, and those words and "o" before a second coordinate only where the first
has a letter or word before it: "n 52.52437, o 13.41053"), and degrees, minutes and seconds, degrees and
decimal minutes, or decimal degrees, these maybe followed by a word for degrees (`{3}`,
`_DEGREE_WORDS`: "40.7128 degrees north") (read in canonical text: lower case, a double
prime as two primes or a quotation mark), each with a decimal point or comma ("52,52437
13,41053"); a decimal comma of degrees takes four decimals or more, so an amount's
thousands ("1,250, 2,310") are no point. Each part is bounded. `{0}` names its groups."""
_LABEL = (r"(?:[\"']?(?P<l{0}>latitude|lat|longitude|long|lng|lon)[\"']?[ :=\n]{{0,2}})?")
"""A coordinate's label, maybe quoted as a JSON key is ("lat", "\"lng\": "). `{0}` names
its group."""
_LONGITUDE_FIRST = (r"(?:(?P<lf>point ?\( ?|\"coordinates\": ?\[(?: ?|\n[ \t]{0,32})"
                    r"|coordinates\n))?")
"""The opening of a pair that formats write longitude first: WKT ("POINT(13.41053
52.52437)", its coordinates apart by blanks: "the point (52.52437, 13.41053)" is prose)
and GeoJSON ("\"coordinates\": [13.41053, 52.52437]", or indented over lines, or flattened
as a record's value is read: "coordinates\n13.41053\n52.52437")."""
_HEMISPHERES = {
    "n": "north nord norte noord norr nb",
    "s": "south sud süd sued sur sul zuid sør syd söder zb",
    "e": "east est ost este leste oost øst öst öster ol",
    "w": "west ouest oeste ovest vest väst väster wl",
}
"""The hemisphere words read with a coordinate (English, French, German, Spanish, Italian,
Portuguese, Dutch, Norwegian, Danish, Swedish; and Dutch's abbreviations of
noorderbreedte, zuiderbreedte, oosterlengte and westerlengte, "52.3676 NB, 4.9041 OL")
-> the letter they stand for. "o" is a longitude's, east in German ("Ost") and Dutch
("Oost") and west in French, Spanish, Italian and Portuguese: its side is unknown."""
_BEFORE = frozenset(["est", "este", "sur", "sul"])
"""Hemisphere words not read before a number, where prose has them as other words: French
and Italian "est" ("is"), Spanish "este" ("this"), French "sur" ("on"), Italian "sul"
("on the"): "la latitude est 48.8566, 2.3522" is no point in the east. "o" before a
number is Spanish, Italian and Portuguese "or" ("40.4168, -3.7038 o 41.3874, 2.1686"),
so it is read before a second coordinate only, when the first has a letter or word
before it ("N 52.52437, O 13.41053"), as these words are ("sud 33.8688, est 151.2093"):
before a first coordinate "o" would turn its pair round. After a number "o" is read as
before (`40.7128° N, 74.0060° O`)."""
_DEGREE_WORDS = "degrees degree deg degrés degré grad grader graad graden grados grado " \
    "gradi graus grau"
"""Words for degrees read after a decimal coordinate in place of "°", in the languages of
`_HEMISPHERES` ("40.7128 degrees north", "40,7128 Grad Nord")."""


def _forms(words: Iterable[str]) -> list[str]:
    """Each of `words` as written and as canonical text writes it (coordinates are read
    in canonical text), once, the longest first."""
    from .._canonical import canonical

    return sorted({form for word in words for form in (word, canonical(word))}, key=len,
                  reverse=True)


@cache
def _hemisphere_letters() -> tuple[dict[str, str], str, str, str]:
    """Each hemisphere word as written and as canonical text writes it -> its letter; and
    patterns of a letter or a word, the longest first: read after a number; read before
    a number (no word of `_BEFORE`, no "o"); and the words of `_BEFORE` and "o", read
    before a second coordinate where the first has a letter or word before it."""
    letters = {form: letter for letter, words in _HEMISPHERES.items()
               for form in _forms(words.split())}
    longest = sorted(letters, key=len, reverse=True)
    unclear = set(_forms(_BEFORE))
    return (letters, "|".join(map(re.escape, longest)) + "|[nsewo]",
            "|".join(re.escape(w) for w in longest if w not in unclear) + "|[nsew]",
            "|".join(re.escape(w) for w in longest if w in unclear) + "|o")


@cache
def _degree_words() -> str:
    """A pattern of the words of `_DEGREE_WORDS`, as written and as canonical text writes
    them, the longest first."""
    return "|".join(map(re.escape, _forms(_DEGREE_WORDS.split())))


@cache
def _pair() -> re.Pattern[str]:
    """Two coordinates, at most three blanks, commas, semicolons, slashes, ampersands,
    bars or line ends between, and after a line end the blanks or tabs that indent the
    next (a record's value {"lat": .., "lng": ..} is read flattened, a key and a number a
    line each, or as JSON text, one line or indented), each maybe labelled ("lat 52.52437
    lon 13.41053", "lon=13.41053&lat=52.52437", "{\"lng\": 13.41053, \"lat\": 52.52437}"),
    maybe opened as a format writing longitude first (`_LONGITUDE_FIRST`); a coordinate
    maybe after or followed by a hemisphere letter or word (`_hemisphere_letters`)."""
    _letters, after, before, unclear = _hemisphere_letters()
    degrees = _degree_words()
    # the word before a coordinate is a whole word: no letter before it but the pair's start
    return re.compile(r"(?<![\w.°'\"-])" + _LONGITUDE_FIRST + _LABEL.format("a")
                      + _COORD.format("a", after, before, degrees) + r"(?P<sep>[ ,;/&|\n]{0,3}"
                      r"(?:(?<=\n)[ \t]{1,32})?)" + _LABEL.format("b")
                      + _COORD.format("b", after,
                                      rf"(?<!\w)(?:{before}|(?(h1a)(?:{unclear})|(?!)))",
                                      degrees)
                      + r"(?![\w°'′\"])")
_LONGITUDE = frozenset(["longitude", "long", "lng", "lon"])
_SLACK = 0.00001
"""Added to the tolerances (about a metre): a conversion rounds once more."""


class Point(NamedTuple):
    """One point a text states."""

    lat: float
    lon: float
    tolerance: float
    """Half the coarser step its coordinates are written to, in degrees."""
    written: str
    """As the text writes it."""
    lat_signed: bool = True
    """Whether a hemisphere letter or a minus sign says which side of the equator it is:
    a coordinate written without either may have lost it ("33.8688, 151.2093" for
    Sydney's "33.8688°S 151.2093°E"), and is the same as its mirror (`same_point`)."""
    lon_signed: bool = True
    """The same of the longitude."""


_PARTS = ("h1", "d", "m", "s", "sf", "dm", "mm", "mf", "sign", "dec", "df", "dc", "h2")


@cache
def _at() -> dict[str, list[int]]:
    """Where each part of coordinate "a" and "b" is in a match's `groups()`."""
    return {k: [_pair().groupindex[p + k] - 1 for p in _PARTS] for k in ("a", "b")}


def _coordinate(groups: tuple[str | None, ...], k: str, given: str | None
                ) -> tuple[float, float, str | None, bool] | None:
    """(value, step, hemisphere letter, whether a letter or a sign is written) of
    coordinate `k` ("a" or "b") of a pair whose match has `groups`, or None when it is
    no coordinate. `given`: the letter the coordinate before left over, for one that
    writes none."""
    h1, d, m, sec, sf, dm, mm, mf, sign, dec, df, dc, h2 = (groups[i] for i in _at()[k])
    if d is not None and m is not None and sec is not None:
        minutes, seconds = int(m), float(sec.replace(",", "."))
        value = int(d) + minutes / 60 + seconds / 3600
        step = 10 ** -len(sf or "") / 3600
        if minutes >= 60 or seconds >= 60:
            return None
    elif dm is not None and mm is not None and mf is not None:
        decimal_minutes = float(mm.replace(",", "."))
        value = int(dm) + decimal_minutes / 60
        step = 10 ** -len(mf) / 60
        if decimal_minutes >= 60:
            return None
    elif dec is not None and (decimals := df or dc):
        value = float(dec.replace(",", "."))
        value = -value if sign else value
        step = 10 ** -len(decimals)
    else:
        return None
    written = h1 or given or h2
    letter = None if written is None else _hemisphere_letters()[0].get(written, written)
    return value, step, letter, letter not in (None, "o") or sign is not None


def points(text: str) -> list[Point]:
    """The points `text` (canonical: lower case) states, in order. Linear in the text: one
    pattern of bounded parts.

    >>> [(round(p.lat, 5), round(p.lon, 5)) for p in points(
    ...     "meet at 41°23'14.6''n 2°10'07.0''e, or -33.8688, 151.2093; not 41.4, 2.2")]
    [(41.38739, 2.16861), (-33.8688, 151.2093)]
    """
    out: list[Point] = []
    read: dict[str, Point | None] = {}  # a pair written again is read once
    for m in _pair().finditer(text):
        written = m.group(0)
        if written not in read:
            groups = m.groups()
            first = _coordinate(groups, "a", None)
            second = _coordinate(groups, "b", m.group("h2a") if m.group("h1a") else None)
            read[written] = None if first is None or second is None else \
                _paired(first, second, written, m.group("la"), m.group("lb"),
                        _longitude_first(m.group("lf"), m.group("sep")))
        point = read[written]
        if point is not None:
            out.append(point)
    return out


def _longitude_first(opening: str | None, between: str) -> bool:
    """Whether a pair opened by `opening` (`_LONGITUDE_FIRST`) with `between` between its
    coordinates is written longitude first."""
    return opening is not None and (not opening.startswith("point") or not between.strip())


def _paired(first: tuple[float, float, str | None, bool],
            second: tuple[float, float, str | None, bool], written: str,
            first_label: str | None, second_label: str | None,
            longitude_first: bool = False) -> Point | None:
    """The point of two coordinates read in the order written: a latitude, then a
    longitude, unless their hemisphere letters or labels say the other way round, the
    format writes longitude first (`longitude_first`: WKT, GeoJSON), or the first cannot
    be a latitude (over 90) and the second can."""
    (a, step_a, ha, signed_a), (b, step_b, hb, signed_b) = first, second
    labels = (first_label in _LONGITUDE if first_label else None,
              second_label in _LONGITUDE if second_label else None)
    if labels[0] is not None and labels[0] == labels[1]:
        return None  # two latitudes, or two longitudes
    if (ha in ("e", "w", "o") and hb in ("n", "s", None) or hb in ("n", "s") and ha is None
            or labels[0] or labels[1] is False
            or ha is hb is None and labels == (None, None)
            and (longitude_first or abs(a) > 90 >= abs(b))):
        (a, step_a, ha, signed_a), (b, step_b, hb, signed_b) = second, first
    if ha not in ("n", "s", None) or hb not in ("e", "w", "o", None):
        return None
    # a minus sign and a south or west letter say one thing: "-33.8688 s" is south
    lat = -abs(a) if ha == "s" else a
    lon = -abs(b) if hb == "w" else b
    step = max(step_a, step_b)
    if abs(lat) > 90 or abs(lon) > 180 or step > 0.001 + 1e-12:
        return None
    return Point(lat, lon, step / 2, written, signed_a, signed_b)


def readings(p: Point) -> list[tuple[float, float]]:
    """The (latitude, longitude) `p` may stand for: itself, and where a coordinate is
    written without a hemisphere letter or a sign, its mirror across the equator or
    the prime meridian too."""
    lats = [p.lat] if p.lat_signed or p.lat == 0 else [p.lat, -p.lat]
    lons = [p.lon] if p.lon_signed or p.lon == 0 else [p.lon, -p.lon]
    return [(lat, lon) for lat in lats for lon in lons]


def same_point(a: Point, b: Point) -> bool:
    """Whether `a` and `b` are one place, each as precisely as it is written.

    >>> p, q = points("41.38739, 2.16861 and 41°23'14.6''n 2°10'07.0''e")
    >>> same_point(p, q), same_point(p, points("41.3931, 2.1597")[0])
    (True, False)
    """
    slack = a.tolerance + b.tolerance + _SLACK
    free_lat = not (a.lat_signed and b.lat_signed)
    free_lon = not (a.lon_signed and b.lon_signed)
    return (abs(a.lat - b.lat) <= slack or free_lat and abs(abs(a.lat) - abs(b.lat)) <= slack) \
        and (abs(a.lon - b.lon) <= slack or free_lon and abs(abs(a.lon) - abs(b.lon)) <= slack)
