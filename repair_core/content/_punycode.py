"""Punycode (RFC 3492) written for speed: the standard library's codec builds a bytearray
per variable-length integer, a sorted set and a search per code point and a call per
step, about 10 µs for a short label; a megabyte of distinct hosts beyond ASCII has a
hundred thousand labels to write. The encoding is the same (`tests/test_punycode.py`
compares it with the codec's on generated text)."""

from __future__ import annotations

__all__ = ["punycode"]

_DIGITS = "abcdefghijklmnopqrstuvwxyz0123456789"
_BASE, _TMIN, _TMAX, _SKEW, _DAMP, _INITIAL_BIAS, _INITIAL_N = 36, 1, 26, 38, 700, 72, 128


def punycode(text: str) -> str:
    """`text` in punycode, as `text.encode("punycode").decode("ascii")` writes it: its
    ASCII characters in order, a hyphen when there were any, then where each other
    character goes as variable-length integers (RFC 3492, section 6.3).

    >>> punycode("münchen"), punycode("ф1"), punycode("рф"), punycode("abc")
    ('mnchen-3ya', '1-dub', 'p1ai', 'abc-')
    """
    if text.isascii():
        return text + "-" if text else ""
    basic = text.encode("ascii", "ignore").decode("ascii")
    b = len(basic)
    codes = [*map(ord, text)]
    out = [basic, "-"] if b else []
    digits = _DIGITS
    n, delta, bias, h = _INITIAL_N, 0, _INITIAL_BIAS, b
    for m in map(ord, sorted(set(text).difference(basic))):  # the others, by code point
        delta += (m - n) * (h + 1)
        for c in codes:
            if c < m:
                delta += 1
            elif c == m:
                # delta as a variable-length integer with thresholds from the bias
                q, k = delta, _BASE
                while True:
                    t = k - bias
                    t = _TMIN if t < _TMIN else _TMAX if t > _TMAX else t
                    if q < t:
                        break
                    out.append(digits[t + (q - t) % (_BASE - t)])
                    q = (q - t) // (_BASE - t)
                    k += _BASE
                out.append(digits[q])
                # the bias adapted to this delta (section 6.1)
                d = delta // _DAMP if h == b else delta // 2
                h += 1
                d += d // h
                k = 0
                while d > ((_BASE - _TMIN) * _TMAX) // 2:
                    d //= _BASE - _TMIN
                    k += _BASE
                bias = k + (_BASE - _TMIN + 1) * d // (d + _SKEW)
                delta = 0
        delta += 1
        n = m + 1
    return "".join(out)
