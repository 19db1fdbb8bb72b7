"""Who is calling, resolved the same way for every door: one function, one :class:`Principal`.

A bearer token (header, or ``?token=`` on a websocket) wins over the cookie; pages look only at
the cookie. An unknown, revoked or expired token is an error (401 ``invalid_token``), never a
silent downgrade to anonymous; a cookie whose browser session has ended is simply anonymous.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from app.http import scopes
from app.http.credentials import SESSION_COOKIE_KEY, bearer_token, cookie_session, secret_hash
from app.kernel.errors import Unauthenticated
from app.kernel.identity import Identity
from app.kernel.timesource import now

Credential = Literal["anonymous", "session", "token"]


class Credentials(Protocol):
    """Where the gate looks credentials up (``app.state.identities``, the accounts' cache):
    blocking calls on a cache miss, and ``answerable`` to tell when no lookup is needed."""

    def user_for_token(self, token: str, session: Session | None = None) -> Identity | None: ...

    def user_for_session(self, key: str, session: Session | None = None) -> Identity | None: ...

    def answerable(self, token: str | None, session_key: str | None) -> bool: ...

    def is_moderator(self, user_id: int) -> bool:
        """Whether the user is a moderator now (asked afresh: a blocking query)."""
        ...


def credentials(connection: HTTPConnection) -> Credentials:
    found: Credentials = connection.app.state.identities
    return found


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
        return self.expires_at is not None and self.expires_at <= now()


ANONYMOUS = Principal(None, "anonymous")


def _invalid_token(message: str = "That API token is not valid.") -> Unauthenticated:
    return Unauthenticated(message, code="invalid_token")


def _from_token(connection: HTTPConnection, token: str, session: Session | None) -> Principal:
    user = credentials(connection).user_for_token(token, session)
    if user is None:
        raise _invalid_token()
    principal = Principal(user, "token", user.scopes, secret_hash(token),
                          expires_at=user.expires_at)
    if principal.expired():  # a cached identity outliving its token
        raise _invalid_token("That API token has expired.")
    return principal


def _from_cookie(connection: HTTPConnection, session: Session | None) -> Principal:
    key = cookie_session(connection).get(SESSION_COOKIE_KEY)
    if not isinstance(key, str) or not key:
        return ANONYMOUS
    user = credentials(connection).user_for_session(key, session)
    if user is None:
        return ANONYMOUS
    return Principal(user, "session", session_hash=secret_hash(key))


def resolve_principal(connection: HTTPConnection, session: Session | None = None, *,
                      tokens: bool = True) -> Principal:
    """The caller; ``tokens=False`` (pages) looks only at the browser session. Blocking on a
    cache miss: from async code use :func:`resolve_principal_async`."""
    token = bearer_token(connection) if tokens else None
    if token is not None:
        return _from_token(connection, token, session)
    return _from_cookie(connection, session)


def _answerable_from_cache(connection: HTTPConnection, tokens: bool) -> bool:
    token = bearer_token(connection) if tokens else None
    key = cookie_session(connection).get(SESSION_COOKIE_KEY) if token is None else None
    return credentials(connection).answerable(token, key if isinstance(key, str) else None)


async def resolve_principal_async(connection: HTTPConnection, *, tokens: bool = True
                                  ) -> Principal:
    """The caller without blocking the loop: from the cache, or one short worker-thread lookup
    that opens and closes its own session (so no connection is held across thread hops).
    Resolved once per request: the rate limit and the door both ask."""
    resolved: dict[bool, Principal] = connection.state.__dict__.setdefault("principals", {})
    if tokens in resolved:
        return resolved[tokens]
    if _answerable_from_cache(connection, tokens):
        principal = resolve_principal(connection, tokens=tokens)
    else:
        principal = await asyncio.to_thread(resolve_principal, connection, tokens=tokens)
    resolved[tokens] = principal
    return principal
