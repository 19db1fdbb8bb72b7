"""Who is calling: bearer tokens, the signed session cookie, CSRF — the one place for auth.

API, page and websocket code all import from here (no transport imports another). Token and
user lookups are cached in memory per app, so an authenticated request costs no query and no
write: ``api_tokens.last_used_at`` is written at most once a minute per token, off the request.
Cached entries live ``CACHE_SECONDS``; ``forget_token`` / ``forget_user`` drop one at once (token
revocation, renames), and other instances learn of it through the bus (see ``listen_for_changes``).
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import HTTPConnection, Request

from app.services import identity
from app.services.errors import Forbidden, Unauthenticated
from app.services.identity import Identity

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
CACHE_SECONDS = 60.0
TOUCH_EVERY_SECONDS = 60.0
AUTH_CHANNEL = "auth"
"""Bus channel on which instances announce revoked tokens and changed users."""


@dataclass
class _Entry:
    identity: Identity | None
    fetched: float
    touched: float = 0.0


class IdentityCache:
    """Token hash -> Identity and user id -> Identity, each entry trusted for ``CACHE_SECONDS``.

    Thread-safe: page routes resolve viewers in worker threads, sockets on the event loop.
    """

    def __init__(self, session_factory: sessionmaker[Session],
                 announce: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.session_factory = session_factory
        self.announce = announce or (lambda message: None)
        self._tokens: dict[str, _Entry] = {}
        self._users: dict[int, _Entry] = {}
        self._lock = threading.Lock()

    # -- lookups ----------------------------------------------------------------------------------

    def cached_token(self, token: str) -> _Entry | None:
        entry = self._tokens.get(identity.hash_token(token))
        return entry if entry and time.monotonic() - entry.fetched < CACHE_SECONDS else None

    def cached_user(self, user_id: int) -> _Entry | None:
        entry = self._users.get(user_id)
        return entry if entry and time.monotonic() - entry.fetched < CACHE_SECONDS else None

    def user_for_token(self, token: str, session: Session | None = None) -> Identity | None:
        """The token's user (None: no such token). Blocking on a miss: call from a worker thread."""
        entry = self.cached_token(token)
        if entry is None:
            entry = self._load_token(token, session)
        if entry.identity is not None and time.monotonic() - entry.touched > TOUCH_EVERY_SECONDS:
            entry.touched = time.monotonic()
            self._touch(identity.hash_token(token), session)
        return entry.identity

    def user(self, user_id: int, session: Session | None = None) -> Identity | None:
        entry = self.cached_user(user_id)
        if entry is None:
            found = self._with_session(session, lambda s: identity.user_by_id(s, user_id))
            entry = _Entry(found, time.monotonic())
            with self._lock:
                self._users[user_id] = entry
        return entry.identity

    def _load_token(self, token: str, session: Session | None) -> _Entry:
        found = self._with_session(session, lambda s: identity.user_for_token(s, token))
        entry = _Entry(found, time.monotonic())
        with self._lock:
            self._tokens[identity.hash_token(token)] = entry
        return entry

    def _touch(self, token_hash: str, session: Session | None) -> None:
        self._with_session(session, lambda s: identity.touch_token(s, token_hash))

    def _with_session(self, session: Session | None, work: Callable[[Session], Any]) -> Any:
        if session is not None:
            return work(session)
        with self.session_factory() as own:
            return work(own)

    # -- invalidation -----------------------------------------------------------------------------

    def forget_token(self, token_hash: str, *, everywhere: bool = True) -> None:
        with self._lock:
            self._tokens.pop(token_hash, None)
        if everywhere:
            self.announce({"type": "forget_token", "token_hash": token_hash})

    def forget_user(self, user_id: int, *, everywhere: bool = True) -> None:
        """A user changed (renamed, upgraded, tokens revoked): drop every entry naming them."""
        with self._lock:
            self._users.pop(user_id, None)
            for key in [k for k, e in self._tokens.items()
                        if e.identity is not None and e.identity.id == user_id]:
                del self._tokens[key]
        if everywhere:
            self.announce({"type": "forget_user", "user_id": user_id})

    def apply(self, message: dict[str, Any]) -> None:
        """A change announced by another instance (or this one) on ``AUTH_CHANNEL``."""
        if message.get("type") == "forget_token":
            self.forget_token(str(message.get("token_hash")), everywhere=False)
        elif message.get("type") == "forget_user" and isinstance(message.get("user_id"), int):
            self.forget_user(message["user_id"], everywhere=False)


def identities(connection: HTTPConnection) -> IdentityCache:
    return connection.app.state.identities


def bearer_token(connection: HTTPConnection) -> str | None:
    """The caller's token: ``Authorization: Bearer …``, or ``?token=`` on a websocket (browsers
    cannot set headers there)."""
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    if connection.scope["type"] == "websocket":
        return connection.query_params.get("token") or None
    return None


def csrf_token(request: Request) -> str:
    """The session's CSRF token, created on first use (pages embed it, forms and JS send it)."""
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return token


def csrf_ok(request: Request, sent: str | None) -> bool:
    """Whether ``sent`` is this session's CSRF token (constant-time comparison)."""
    return bool(sent) and secrets.compare_digest(sent or "", request.session.get("csrf", ""))


def resolve_viewer(connection: HTTPConnection, session: Session | None = None) -> Identity | None:
    """Who is calling, for HTTP requests and websockets alike; a bad token is an error.

    Blocking only on a cache miss; from async code use :func:`resolve_viewer_async`.
    """
    cache = identities(connection)
    token = bearer_token(connection)
    if token is not None:
        user = cache.user_for_token(token, session)
        if user is None:
            raise Unauthenticated("That API token is not valid.", code="invalid_token")
        return user
    user_id = connection.session.get("uid")
    return cache.user(user_id, session) if isinstance(user_id, int) else None


def _answerable_from_cache(connection: HTTPConnection) -> bool:
    cache = identities(connection)
    token = bearer_token(connection)
    if token is not None:
        entry = cache.cached_token(token)
        return entry is not None and time.monotonic() - entry.touched <= TOUCH_EVERY_SECONDS
    user_id = connection.session.get("uid")
    return not isinstance(user_id, int) or cache.cached_user(user_id) is not None


async def resolve_viewer_async(connection: HTTPConnection) -> Identity | None:
    """The viewer without blocking the loop: from the cache, or one short worker-thread lookup
    that opens and closes its own session (so no connection is held across thread hops)."""
    if _answerable_from_cache(connection):
        return resolve_viewer(connection)
    return await asyncio.to_thread(resolve_viewer, connection)


def require_user(request: Request, viewer: Identity | None) -> Identity:
    """The signed-in caller; cookie-authenticated writes must also carry the CSRF token."""
    if viewer is None:
        raise Unauthenticated(
            "Sign in first: POST /api/v1/guests gives a guest a token.", code="unauthenticated"
        )
    cookie_write = bearer_token(request) is None and request.method not in SAFE_METHODS
    if cookie_write and not csrf_ok(request, request.headers.get("x-csrf-token")):
        raise Forbidden("Missing or wrong CSRF token; reload the page.", code="csrf_failed")
    return viewer
