"""What each API route needs from a personal token's scopes.

``read``: everything that only reads (GET, the streams, the sockets' reads; every scoped token
may read, so ``read`` alone makes a read-only token); ``play``: moves,
offers, resigning, aborting, claiming, chat; ``challenge``: creating and joining matches, seeks,
challenges and quick play. A write not listed here needs a full-access token (a session, guest
or login token), so a route added later is closed to scoped tokens until it is given a scope.
"""

from __future__ import annotations

import re

from starlette.requests import HTTPConnection

from app.db.models import utcnow
from app.services.errors import Forbidden, Unauthenticated
from app.services.identity import Identity

READ, PLAY, CHALLENGE = "read", "play", "challenge"
SCOPES = (READ, PLAY, CHALLENGE)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

WRITE_SCOPES: dict[tuple[str, str], str] = {
    ("POST", "/api/v1/matches"): CHALLENGE,
    ("POST", "/api/v1/matches/{match_id}/join"): CHALLENGE,
    ("POST", "/api/v1/matches/{match_id}/bots"): CHALLENGE,
    ("POST", "/api/v1/seeks"): CHALLENGE,
    ("POST", "/api/v1/seeks/{seek_id}/accept"): CHALLENGE,
    ("DELETE", "/api/v1/seeks/{seek_id}"): CHALLENGE,
    ("POST", "/api/v1/quick-play"): CHALLENGE,
    ("POST", "/api/v1/challenges"): CHALLENGE,
    ("POST", "/api/v1/challenges/{seek_id}/accept"): CHALLENGE,
    ("POST", "/api/v1/challenges/{seek_id}/decline"): CHALLENGE,
    ("POST", "/api/v1/matches/{match_id}/moves"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/resign"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/abort"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/offers/{kind}"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/offers/{kind}/accept"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/offers/{kind}/decline"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/claim-victory"): PLAY,
    ("POST", "/api/v1/matches/{match_id}/chat"): PLAY,
    ("POST", "/api/v1/bot/upgrade"): PLAY,
}


FULL_ACCESS_PREFIXES = ("/api/v1/tokens",)
"""Token management, even reading it, needs a full-access token: a token cannot mint tokens."""


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\{[^}/]+\\}", "[^/]+", re.escape(template)) + "$")


_WRITES = [(method, _pattern(template), scope) for (method, template), scope in WRITE_SCOPES.items()]


def required_scope(method: str, path: str) -> str | None:
    """The scope a call to ``path`` needs; None: only a full-access token may make it."""
    if path.startswith(FULL_ACCESS_PREFIXES):
        return None
    if method.upper() in SAFE_METHODS:
        return READ
    for wanted_method, pattern, scope in _WRITES:
        if wanted_method == method.upper() and pattern.match(path):
            return scope
    return None


def has_scope(viewer: Identity, scope: str | None) -> bool:
    """Whether ``viewer``'s token allows ``scope`` (None = full access needed)."""
    granted = getattr(viewer, "scopes", None)
    if granted is None:  # a session, guest or login token: full access
        return True
    if scope == READ:  # any scope reads; `read` alone is a read-only token
        return bool(granted)
    return scope is not None and scope in granted


def check_scope(connection: HTTPConnection, viewer: Identity | None) -> Identity | None:
    """Raise 403 ``missing_scope`` when the caller's token does not cover this route."""
    if viewer is None:
        return None
    expires_at = getattr(viewer, "expires_at", None)
    if expires_at is not None and expires_at <= utcnow():  # a cached identity outliving its token
        raise Unauthenticated("That API token has expired.", code="invalid_token")
    method = connection.scope.get("method", "GET") if connection.scope["type"] == "http" else "GET"
    needed = required_scope(method, connection.url.path)
    if not has_scope(viewer, needed):
        wanted = f"the `{needed}` scope" if needed else "a full-access token"
        raise Forbidden(f"This token lacks {wanted} for this call.", code="missing_scope")
    return viewer
