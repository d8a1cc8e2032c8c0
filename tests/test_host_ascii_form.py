"""A host beyond ASCII is read in the IDNA codec's ASCII form: the fast path that skips the
codec's per-character nameprep where it would change nothing gives the codec's answer on
every host, valid or not (right-to-left letters, unassigned code points, fullwidth and
compatibility characters, the other IDNA dots, the ACE prefix, labels too long)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content._tokens import _ZEROS, _ace_host, _punycode, _url_spans

_PIECES = ["abz09-", "фрдёЁЖщ", "αβγΣς", "ßÄäöüÉé", "ＡＢｃ１", "שלוםא", "مرحبا", "中文字",
           "\u0301\u00ad\u200d", "İıǅǈǉ", "ﬁ", "\U0001f600", "\u0378\u08a0", "。．｡", "ᏚᎢ",
           "\u0660\u06f1", "0123456789ф"]


def _by_codec(host: str) -> str:
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


_LABEL = st.lists(st.sampled_from(_PIECES).flatmap(
    lambda piece: st.text(alphabet=piece, max_size=9)), min_size=1, max_size=3).map("".join)
_HOST = st.tuples(st.sampled_from(["", "xn--", "a" * 62, "b" * 64 + "."]),
                  st.lists(_LABEL, min_size=1, max_size=4)).map(
    lambda parts: parts[0] + ".".join(parts[1]))


@settings(max_examples=3000, deadline=None)
@given(_HOST)
def test_a_host_is_in_the_codecs_ascii_form(host):
    assert _punycode(host) == _by_codec(host)


def test_examples():
    assert _punycode("stadtwerke-münchen.de") == "xn--stadtwerke-mnchen-e3b.de"
    assert _punycode("apple-unlock.рф") == "apple-unlock.xn--p1ai"
    assert _punycode("faß.de") == _by_codec("faß.de") == "fass.de"  # nameprep maps it
    assert _punycode("ＡＢＣ.рф") == "abc.xn--p1ai"
    assert _punycode("שלום.com") == _by_codec("שלום.com")  # right to left: the codec's
    assert _punycode("a..рф") == "a..рф"  # no valid name: as written


def test_hosts_that_differ_in_their_digits_alone_each_get_their_own_form():
    # a label's form is worked out once per shape (its ASCII digits read as 0): the
    # digits it holds are still its own, wherever they stand
    hosts = ["ф0.рф", "ф17.рф", "ф42.рф", "7ф3.рф", "1ф.рф", "ф1\u0301.рф", "1\u0301ф.рф",
             "a1ф.рф", "ф\u0660.рф", "ф1-2.рф", "xn--ф1.рф", "ф" + "1" * 58 + ".рф",
             "ф" + "1" * 60 + ".рф"]
    for host in hosts + hosts[::-1]:
        assert _punycode(host) == _by_codec(host), host


_CHUNK_PIECES = ["http://", "https://", "hTTp://", "www.", "WWW.", ".", "..", "-", "_", "/", "?",
                 "#", ":", "@", ",", "'", "(", "0", "17", "9", "a", "com", "рф", "ф", "İ",
                 "\u212a", "\u0660", "Ж", "ς", "\u0301", "中", ".рф/", "ф1.рф", "x."]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_CHUNK_PIECES), min_size=1, max_size=12).map("".join))
def test_a_chunks_host_spans_do_not_depend_on_which_digits_it_holds(chunk):
    # `_urls` reads the spans of a chunk beyond ASCII once per shape, its digits as 0
    assert _url_spans(chunk) == _url_spans(chunk.translate(_ZEROS))


@settings(max_examples=1500, deadline=None)
@given(_HOST, st.lists(st.text(alphabet="0123456789", min_size=12, max_size=12), min_size=1,
                       max_size=4))
def test_a_hosts_form_made_from_its_shapes_is_the_codecs(host, digit_sets):
    # `_ace_host` writes a host's form from the first host of its shape (ASCII digits
    # read as 0) with its own digits put in: hosts that differ in their digits alone,
    # read one after another with one memo, each get the codec's form
    def with_digits(digits: str) -> str:
        it = iter(digits * 30)
        return "".join(next(it) if c in "0123456789" else c for c in host)

    aces: dict = {}
    for variant in [host, *map(with_digits, digit_sets), host]:
        assert _ace_host(variant, aces, variant.translate(_ZEROS)) == _by_codec(variant), \
            (variant, aces)


def test_the_digits_of_a_host_beyond_ascii_go_where_they_stand():
    aces: dict = {}
    hosts = ["ф0.рф", "ф17.рф", "7ф3.рф", "ф42.рф", "a1ф2.b3.рф4", "a9ф8.b7.рф6", "ф\u0660.рф",
             "ф1-2.рф", "ф9-9.рф", "ф" + "1" * 58 + ".рф", "ф" + "2" * 58 + ".рф",
             "ф" + "1" * 60 + ".рф"]
    for host in hosts + hosts[::-1]:
        assert _ace_host(host, aces, host.translate(_ZEROS)) == _by_codec(host), host
