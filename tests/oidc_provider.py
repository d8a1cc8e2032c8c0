"""For sign-in tests: a small OpenID Connect provider on a free loopback port (the standard
library's HTTP server; tokens signed RS256 with joserfc, the JOSE library Authlib uses).

It implements what Streamlit's `st.login` (Authlib's client) uses: discovery, JWKS, the
authorization-code flow with PKCE (S256) and a login form listing the test users, the token
endpoint (client_secret_basic or client_secret_post) returning a signed ID token with the
request's nonce, and userinfo. Use `running_oidc_provider(users)` as a context manager.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import secrets
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey

CLIENT_ID = "dgrr-dashboard"
CLIENT_SECRET = "test-secret-" + "x" * 20


@dataclass
class Provider:
    """A running provider: its issuer URL and what it issued."""

    issuer: str
    users: Mapping[str, Mapping[str, str]]
    key: Any
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    logins: list[str] = field(default_factory=list)
    """The users who signed in, in order."""

    @property
    def metadata_url(self) -> str:
        return f"{self.issuer}/.well-known/openid-configuration"

    def metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "userinfo_endpoint": f"{self.issuer}/userinfo",
            "jwks_uri": f"{self.issuer}/jwks",
            "end_session_endpoint": f"{self.issuer}/logout",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "profile", "email"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic",
                                                      "client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
            "claims_supported": ["sub", "email", "name", "iss", "aud", "exp", "iat", "nonce"],
        }

    def claims(self, user: str) -> dict[str, Any]:
        info = self.users[user]
        return {"sub": info["sub"], "email": info["email"], "email_verified": True,
                "name": info.get("name", user)}

    def id_token(self, user: str, nonce: str | None) -> str:
        now = int(time.time())
        payload = {**self.claims(user), "iss": self.issuer, "aud": CLIENT_ID, "iat": now,
                   "exp": now + 600}
        if nonce:
            payload["nonce"] = nonce
        return jwt.encode({"alg": "RS256", "kid": self.key.kid}, payload, self.key)


def _handler(provider: Provider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, body: bytes, kind: str = "application/json",
                  headers: Mapping[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data: Any, status: int = 200) -> None:
            self._send(status, json.dumps(data).encode())

        def do_GET(self) -> None:  # noqa: N802 - the server's API
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == "/.well-known/openid-configuration":
                return self._json(provider.metadata())
            if url.path == "/jwks":
                return self._json({"keys": [provider.key.as_dict(private=False)]})
            if url.path == "/authorize":
                if query.get("client_id") != CLIENT_ID or "redirect_uri" not in query:
                    return self._json({"error": "invalid_request"}, 400)
                buttons = "".join(
                    f'<button type="submit" name="user" value="{html.escape(u)}">'
                    f"Sign in as {html.escape(u)}</button>" for u in provider.users)
                hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" '
                                 f'value="{html.escape(v)}">' for k, v in query.items())
                page = (f"<!doctype html><title>Test identity provider</title>"
                        f'<form method="post" action="/authorize">{hidden}{buttons}</form>')
                return self._send(200, page.encode(), "text/html; charset=utf-8")
            if url.path == "/userinfo":
                token = self.headers.get("Authorization", "").removeprefix("Bearer ")
                user = provider.tokens.get(token)
                if user is None:
                    return self._json({"error": "invalid_token"}, 401)
                return self._json(provider.claims(user))
            if url.path == "/logout":
                target = query.get("post_logout_redirect_uri", "/")
                return self._send(302, b"", headers={"Location": target})
            return self._json({"error": "not_found"}, 404)

        def _form(self) -> dict[str, str]:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode()
            return {k: v[0] for k, v in parse_qs(raw).items()}

        def do_POST(self) -> None:  # noqa: N802 - the server's API
            url = urlsplit(self.path)
            form = self._form()
            if url.path == "/authorize":
                user = form.get("user", "")
                if user not in provider.users:
                    return self._json({"error": "access_denied"}, 400)
                code = secrets.token_urlsafe(16)
                provider.codes[code] = {**form}
                provider.logins.append(user)
                target = form["redirect_uri"] + "?" + urlencode(
                    {"code": code, **({"state": form["state"]} if "state" in form else {})})
                return self._send(302, b"", headers={"Location": target})
            if url.path == "/token":
                client_id, secret = form.get("client_id"), form.get("client_secret")
                basic = self.headers.get("Authorization", "")
                if basic.startswith("Basic "):
                    client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
                if client_id != CLIENT_ID or secret != CLIENT_SECRET:
                    return self._json({"error": "invalid_client"}, 401)
                grant = provider.codes.pop(form.get("code", ""), None)
                if grant is None or grant.get("redirect_uri") != form.get("redirect_uri"):
                    return self._json({"error": "invalid_grant"}, 400)
                challenge = grant.get("code_challenge")
                if challenge:
                    verifier = form.get("code_verifier", "")
                    digest = base64.urlsafe_b64encode(
                        hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
                    if digest != challenge:
                        return self._json({"error": "invalid_grant",
                                           "error_description": "PKCE"}, 400)
                access = secrets.token_urlsafe(24)
                provider.tokens[access] = grant["user"]
                return self._json({"access_token": access, "token_type": "Bearer",
                                   "expires_in": 600, "scope": grant.get("scope", "openid"),
                                   "id_token": provider.id_token(grant["user"],
                                                                 grant.get("nonce"))})
            return self._json({"error": "not_found"}, 404)

    return Handler


@contextmanager
def running_oidc_provider(users: Mapping[str, Mapping[str, str]]) -> Iterator[Provider]:
    """A provider on 127.0.0.1 while the block runs. `users`: name -> {"sub", "email"}."""
    key = RSAKey.generate_key(2048, parameters={"kid": "test-key"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    provider = Provider(issuer=f"http://127.0.0.1:{server.server_address[1]}", users=users,
                        key=key)
    server.RequestHandlerClass = _handler(provider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield provider
    finally:
        server.shutdown()
        server.server_close()
