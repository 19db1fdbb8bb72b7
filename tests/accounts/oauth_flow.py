"""The OAuth flow as an app and a person's browser drive it, for the OAuth tests: PKCE computed
here (RFC 7636's S256, not the server's code), the authorization URL, the consent form, the
code exchange."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

REDIRECT_URI = "http://127.0.0.1:8765/callback"
APP_NAME = "Board Viewer"
TOKEN_PATH = "/api/v1/oauth/token"
REVOKE_PATH = "/api/v1/oauth/revoke"


def pkce_pair() -> tuple[str, str]:
    """(verifier, S256 challenge): BASE64URL(SHA256(verifier)) without padding."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass
class AppRequest:
    """One authorization request of an app, with the verifier it keeps to itself."""

    scope: str = "read"
    client_id: str = APP_NAME
    redirect_uri: str = REDIRECT_URI
    state: str = field(default_factory=lambda: secrets.token_urlsafe(8))
    verifier: str = ""
    challenge: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.verifier:
            self.verifier, self.challenge = pkce_pair()

    def params(self) -> dict[str, str]:
        return {"response_type": "code", "client_id": self.client_id,
                "redirect_uri": self.redirect_uri, "scope": self.scope, "state": self.state,
                "code_challenge": self.challenge, "code_challenge_method": "S256", **self.extra}

    def exchange(self, http: httpx.Client | Any, code: str, **override: str) -> httpx.Response:
        """The app's token request (no cookie: ``http`` is the app's own client)."""
        data = {"grant_type": "authorization_code", "code": code,
                "redirect_uri": self.redirect_uri, "client_id": self.client_id,
                "code_verifier": self.verifier, **override}
        return http.post(TOKEN_PATH, data=data)  # type: ignore[no-any-return]


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found, "the page embeds its CSRF token"
    return found.group(1)


def sign_up(browser: httpx.Client | Any, username: str) -> str:
    """A new account signed in in ``browser``; returns the session's CSRF token."""
    csrf = csrf_of(browser.get("/signup").text)
    signed = browser.post("/signup", data={"csrf": csrf, "username": username,
                                           "password": "correct horse"}, follow_redirects=False)
    assert signed.status_code == 303, signed.text
    return csrf


def redirect_query(response: httpx.Response) -> dict[str, str]:
    """The query of a redirect back to the app, one value per name."""
    assert response.status_code in (302, 303), response.text
    location = response.headers["location"]
    return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}


def decide(browser: httpx.Client | Any, request: AppRequest, csrf: str,
           decision: str = "approve") -> httpx.Response:
    """Open the consent page, then press Allow (or Deny)."""
    page = browser.get("/oauth/authorize", params=request.params(), follow_redirects=False)
    assert page.status_code == 200, page.text
    return browser.post("/oauth/authorize",  # type: ignore[no-any-return]
                        data={**request.params(), "csrf": csrf, "decision": decision},
                        follow_redirects=False)


def code_for(browser: httpx.Client | Any, request: AppRequest, csrf: str) -> str:
    answer = redirect_query(decide(browser, request, csrf))
    assert answer["state"] == request.state
    return answer["code"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
