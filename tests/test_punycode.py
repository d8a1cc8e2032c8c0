"""The punycode writer of `content._punycode` gives the standard library codec's answer on
any text: every plane, lone surrogates, ASCII alone, no ASCII, repeated and unordered
characters, labels far longer than a DNS name allows (the codec writes those too; the
IDNA path refuses them after, `tests/test_host_ascii_form.py`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content._punycode import punycode
from repair_core.content._tokens import ace_form

_CHARS = st.one_of(
    st.characters(max_codepoint=0x7F),  # ASCII, controls included
    st.characters(min_codepoint=0x80, max_codepoint=0x7FF),
    st.sampled_from("фрдёЁЖщαβγΣςßÄäöüÉé中文字İıǅ\u0301\u00ad\u200d\U0001f600"),
    st.integers(0xD800, 0xDFFF).map(chr),  # lone surrogates: the codec writes them too
    st.characters(min_codepoint=0x800),  # the rest of the planes
)


def _by_codec(text: str) -> str:
    return text.encode("punycode").decode("ascii")


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=_CHARS, max_size=80))
def test_any_text_is_written_as_the_codec_writes_it(text):
    assert punycode(text) == _by_codec(text)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=_CHARS, min_size=100, max_size=300))
def test_a_long_text_is_written_as_the_codec_writes_it(text):
    # long runs take the bias through its adaptation's loop and many digits a delta
    assert punycode(text) == _by_codec(text)


def test_examples():
    for text in ["", "a", "abc", "münchen", "ф1", "рф", "ü" * 300, "\U0010ffff\x00a",
                 "中文" * 50 + "x", "b\u00fc\u00e4a\u00fc", "\ud800", "ÄäÄ-x"]:
        assert punycode(text) == _by_codec(text), text
    # a host's label beyond ASCII: "xn--" and its punycode; an ASCII label as it is
    assert ace_form("рф") == "xn--p1ai" and ace_form("apple-unlock") == "apple-unlock"

