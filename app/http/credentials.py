"""What a caller presents: a bearer token, the signed session cookie, the CSRF token, an Origin."""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_COOKIE_KEY = "sid"
"""The field of the signed session cookie that names the server-side browser session."""
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf"


def secret_hash(secret: str) -> str:
    """How a token or a browser-session key is stored and looked up: its SHA-256, never itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def bearer_token(connection: HTTPConnection) -> str | None:
    """The caller's token: ``Authorization: Bearer …``, or ``?token=`` on a websocket (browsers
    cannot set headers there)."""
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    if connection.scope["type"] == "websocket":
        return connection.query_params.get("token") or None
    return None


def cookie_session(connection: HTTPConnection) -> dict[str, object]:
    """The signed session cookie's content ({} when there is none or no middleware ran)."""
    return connection.session if "session" in connection.scope else {}


def csrf_token(request: HTTPConnection) -> str:
    """The session's CSRF token, created on first use (pages embed it, forms and JS send it)."""
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return str(token)


def csrf_ok(connection: HTTPConnection, sent: str | None) -> bool:
    """Whether ``sent`` is this session's CSRF token (constant-time comparison)."""
    expected = str(cookie_session(connection).get("csrf", ""))
    return bool(sent) and bool(expected) and secrets.compare_digest(sent or "", expected)


async def sent_csrf(request: Request) -> str | None:
    """The CSRF token a write carries: the ``X-CSRF-Token`` header, or a form's ``csrf`` field."""
    header = request.headers.get(CSRF_HEADER)
    if header:
        return header
    content_type = request.headers.get("content-type", "")
    if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        value = (await request.form()).get(CSRF_FIELD)
        return value if isinstance(value, str) else None
    return None


def origin_allowed(connection: HTTPConnection, trusted: list[str] | tuple[str, ...]) -> bool:
    """Whether a browser's ``Origin`` is this site (same host) or a trusted one; a client that
    sends no Origin is not a browser acting for a visitor."""
    origin = connection.headers.get("origin")
    if origin is None or origin in trusted:
        return True
    return urlsplit(origin).netloc == connection.headers.get("host", "")
