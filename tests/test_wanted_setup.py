"""The scorer's setup per signature (`_match._Wanted.of`) is made in bulk (comprehensions
where no canonical form is said twice, lists shared where only read, ROT13 in one
translation): what it holds is what the plain reading below makes, on generated token
sets whose tokens share canonical forms (case, confusables, a number's national forms),
kinds and parent domains."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from repair_core.content import _match
from repair_core.content._signature import ContentSignature
from repair_core.content._tokens import parent_domains

_TOKENS = [("paypal.com", "url"), ("PAYPAL.COM", "url"), ("paypa1.com", "url"),
           ("Paypal.com", "id"), ("login.evil-pay.co.uk", "url"), ("evil-pay.co.uk", "url"),
           ("a.b.evil-pay.co.uk", "url"), ("xn--p1ai.com", "url"), ("442079460018", "number"),
           ("2079460018", "number"), ("02079460018", "account"), ("DE89370400440532013000",
                                                                  "account"),
           ("eve@evil-pay.co.uk", "email"), ("ab_1234567", "id"), ("Alice Smith", "name"),
           ("Smith", "name"), ("x1.com", "url"), ("xl.com", "url"), ("10.0.0.1", "url")]


def _plain(signature: ContentSignature) -> tuple[object, ...]:
    """The reading `_Wanted.of` made before it was made in bulk."""
    forms = _match._strong_forms(signature)
    strong: dict[str, list[tuple[int, str]]] = {}
    for at, t in enumerate(forms):
        for form in forms[t]:
            strong.setdefault(form, []).append((at, t))
    hosts = {form: [(at, t) for at, t in hits if signature.tokens[t] == "url"]
             for form, hits in strong.items()}
    hosts = {form: hits for form, hits in hosts.items() if hits}
    lines = {form: list(hits) for form, hits in hosts.items()}
    for form, hits in hosts.items():
        for parent in parent_domains(form):
            lines.setdefault(parent, []).extend(hits)
    rot13 = {_match.rot13(form): list(hits) for form, hits in hosts.items()}
    return strong, hosts, lines, rot13


def _order(mapping: dict[str, list[tuple[int, str]]]) -> list[tuple[str, list[tuple[int, str]]]]:
    return list(mapping.items())  # the keys' order too


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=12))
def test_the_scorers_setup_is_the_plain_readings(tokens):
    signature = ContentSignature(node="f", tokens=dict(tokens))
    wanted = _match._Wanted.of(signature)
    strong, hosts, lines, rot13 = _plain(signature)
    assert _order(wanted.strong) == _order(strong)
    assert _order(wanted.hosts) == _order(hosts)
    assert _order(wanted.lines) == _order(lines)
    assert _order(wanted.rot13) == _order(rot13)
    # a list extended for a parent domain is its own, not a host's
    for form, hits in wanted.lines.items():
        assert hits is not wanted.hosts.get(form) or form not in {
            p for h in wanted.hosts for p in parent_domains(h)}


def test_rot13_each_is_rot13_of_each():
    texts = ["evil-pay.com", "xn--p1ai", "рф.com", "", "a\u00e9z"]
    assert _match.rot13_each(texts) == [_match.rot13(t) for t in texts]
    assert _match.rot13_each([]) == []


def test_a_form_another_kind_gave_first_keeps_its_place_among_the_hosts():
    signature = ContentSignature(node="f", tokens={"Paypal.com": "id", "x1.com": "url",
                                                   "paypal.com": "url"})
    assert list(_match._Wanted.of(signature).hosts) == ["paypal.com", "x1.com"]
