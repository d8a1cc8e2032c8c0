"""Who a reviewer signed in through OpenID Connect is: the provider's issuer and subject,
recorded whole (or as their digest), never cut; names compared case-folded."""

from __future__ import annotations

from repair_core.approvals import reviewer_key, same_reviewer
from repair_core.queue import reviewer_label

ISSUER = "https://id.example"


def test_a_long_email_never_makes_two_subjects_one_label():
    mail = "a" * 170 + "@example.org"
    one = reviewer_label(issuer=ISSUER, subject="u-1", email=mail)
    two = reviewer_label(issuer=ISSUER, subject="u-2", email=mail)
    assert one != two
    assert one.endswith(f"<oidc:{ISSUER}#u-1>") and two.endswith(f"<oidc:{ISSUER}#u-2>")
    assert len(one) <= 200


def test_a_long_subject_is_recorded_as_its_digest_not_cut():
    one = reviewer_label(issuer=ISSUER, subject="s" * 300 + "1", email="a@example.org")
    two = reviewer_label(issuer=ISSUER, subject="s" * 300 + "2", email="a@example.org")
    assert one != two and len(one) <= 200
    assert "oidc-sha256:" in one


def test_one_person_has_one_label_however_the_provider_spells_the_email():
    assert (reviewer_label(issuer=ISSUER, subject="u-1", email="Ana@Example.ORG")
            == reviewer_label(issuer=ISSUER, subject="u-1", email="ana@example.org"))


def test_names_are_compared_case_folded():
    assert same_reviewer("ana", "Ana") and same_reviewer("ANA ", "ana")
    assert same_reviewer("Straße", "STRASSE")
    assert not same_reviewer("ana", "anna") and not same_reviewer(None, None)
    assert reviewer_key("Ana") == reviewer_key("ana")
