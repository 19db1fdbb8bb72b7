"""Who is calling, resolved the same way for every door: one function, one :class:`Principal`.

A bearer token (header, or ``?token=`` on a websocket) wins over the cookie; pages look only at
the cookie. An unknown, revoked or expired token is an error (401 ``invalid_token``), never a
silent downgrade to anonymous; a cookie whose browser session has ended is simply anonymous.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from app.accounts import identity, sessions
from app.accounts.identity_cache import TOUCH_EVERY_SECONDS, identities
from app.db.models import utcnow
from app.http import scopes
from app.http.credentials import bearer_token, cookie_session
from app.kernel.errors import Unauthenticated
from app.kernel.identity import Identity

Credential = Literal["anonymous", "session", "token"]


@dataclass(frozen=True)
class Principal:
    """The caller of one request or connection: the user (None: anonymous), how they proved it,
    and what that credential allows. Live connections keep it to be ended on revocation."""

    user: Identity | None
    credential: Credential
    scopes: frozenset[str] | None = None
    """A personal token's scopes; None: full access (a browser session, guest or login token)."""
    token_hash: str | None = None
    session_hash: str | None = None
    expires_at: datetime | None = None

    def allows(self, scope: str) -> bool:
        if scope == scopes.PAGE:
            return self.credential != "token"
        return scopes.grants(self.scopes if self.credential == "token" else None, scope)

    def expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= utcnow()


ANONYMOUS = Principal(None, "anonymous")


def _invalid_token(message: str = "That API token is not valid.") -> Unauthenticated:
    return Unauthenticated(message, code="invalid_token")


def _from_token(connection: HTTPConnection, token: str, session: Session | None) -> Principal:
    user = identities(connection).user_for_token(token, session)
    if user is None:
        raise _invalid_token()
    principal = Principal(user, "token", user.scopes, identity.hash_token(token),
                          expires_at=user.expires_at)
    if principal.expired():  # a cached identity outliving its token
        raise _invalid_token("That API token has expired.")
    return principal


def _from_cookie(connection: HTTPConnection, session: Session | None) -> Principal:
    key = cookie_session(connection).get(sessions.COOKIE_KEY)
    if not isinstance(key, str) or not key:
        return ANONYMOUS
    user = identities(connection).user_for_session(key, session)
    if user is None:
        return ANONYMOUS
    return Principal(user, "session", session_hash=sessions.hash_key(key))


def resolve_principal(connection: HTTPConnection, session: Session | None = None, *,
                      tokens: bool = True) -> Principal:
    """The caller; ``tokens=False`` (pages) looks only at the browser session. Blocking on a
    cache miss: from async code use :func:`resolve_principal_async`."""
    token = bearer_token(connection) if tokens else None
    if token is not None:
        return _from_token(connection, token, session)
    return _from_cookie(connection, session)


def _answerable_from_cache(connection: HTTPConnection, tokens: bool) -> bool:
    cache = identities(connection)
    token = bearer_token(connection) if tokens else None
    if token is not None:
        entry = cache.cached_token(token)
        return entry is not None and time.monotonic() - entry.touched <= TOUCH_EVERY_SECONDS
    key = cookie_session(connection).get(sessions.COOKIE_KEY)
    return not isinstance(key, str) or cache.cached_session(key) is not None


async def resolve_principal_async(connection: HTTPConnection, *, tokens: bool = True
                                  ) -> Principal:
    """The caller without blocking the loop: from the cache, or one short worker-thread lookup
    that opens and closes its own session (so no connection is held across thread hops)."""
    if _answerable_from_cache(connection, tokens):
        return resolve_principal(connection, tokens=tokens)
    return await asyncio.to_thread(resolve_principal, connection, tokens=tokens)
