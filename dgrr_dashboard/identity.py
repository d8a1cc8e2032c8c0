"""Who the reviewer is: signed in through OpenID Connect when the dashboard is configured for
it (`[auth]` in Streamlit's secrets, `st.login`), else a name typed in the sidebar.

With sign-in configured, the approvals log and the queue record the identity provider's
issuer, subject and e-mail (`reviewer_label`: issuer and subject whole, or their digest),
never a typed name, and nothing can be approved or claimed before signing in; the label is
shown whole. Two names are one reviewer when they are equal case-folded
(`repair_core.approvals.same_reviewer`). See docs/queue.md, "Reviewers who are who they
say".
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dgrr_dashboard.text import md
from repair_core.queue import reviewer_label

__all__ = ["Reviewer", "auth_configured", "is_signed_in", "reviewer_identity"]

_TYPED = "dgrr_w_reviewer_name"  # the sidebar field (Streamlit drops it on a page change)
_NAME = "dgrr_reviewer_name"  # the name typed, kept across pages


@dataclass(frozen=True)
class Reviewer:
    """The person deciding."""

    name: str
    """What the log and the queue record as the reviewer."""
    authenticated: bool
    """True when the identity provider vouched for it (OIDC sign-in)."""
    email: str | None = None
    """The provider's e-mail claim (signed in only)."""
    subject: str | None = None
    """The provider's subject claim (signed in only)."""


def _remember() -> None:
    st.session_state[_NAME] = st.session_state.get(_TYPED, "")


def auth_configured() -> bool:
    """True when Streamlit's secrets carry an `[auth]` section (OIDC sign-in is on)."""
    try:
        return "auth" in st.secrets
    except Exception:  # no secrets file at all: Streamlit raises its own error type
        return False


def is_signed_in() -> bool:
    """True when sign-in is configured and this session's visitor has signed in."""
    return auth_configured() and bool(st.user.is_logged_in)


def reviewer_identity() -> Reviewer:
    """The reviewer of this session; stops the page with a sign-in button (OIDC) or a name
    field (no sign-in configured) until there is one."""
    if auth_configured():
        if not st.user.is_logged_in:
            st.info("Sign in to review: decisions are recorded under the identity your "
                    "provider vouches for.")
            st.button("Sign in", type="primary", on_click=st.login, key="dgrr_w_login")
            st.stop()
        email = str(st.user.get("email") or "")
        subject = str(st.user.get("sub") or "")
        issuer = str(st.user.get("iss") or "")
        label = reviewer_label(issuer=issuer, subject=subject, email=email)
        with st.sidebar:
            st.caption(f"Signed in as {md(label)}")
            st.button("Sign out", on_click=st.logout, key="dgrr_w_logout")
        return Reviewer(name=label, authenticated=True, email=email or None,
                        subject=subject or None)
    # The field is set from the kept name on every run (Streamlit resets a widget that a
    # new page draws again) and copies an edit back into it.
    st.session_state[_TYPED] = st.session_state.get(_NAME, "")
    st.sidebar.text_input("Your name (reviewer)", key=_TYPED, on_change=_remember,
                          help="No sign-in is configured on this dashboard: the name "
                               "you type is recorded as given.")
    name = str(st.session_state.get(_NAME, ""))
    if not name.strip():
        st.info("Type your name in the sidebar to claim and decide requests.")
        st.stop()
    return Reviewer(name=name.strip(), authenticated=False)
