"""Token, browser-session and user lookups, cached in memory per app.

An authenticated request costs no query and no write: ``api_tokens.last_used_at`` is written at
most once a minute per token, off the request. Cached entries live ``CACHE_SECONDS``;
``forget_token`` / ``forget_session`` / ``forget_user`` drop entries at once (revocation, logout,
renames), and other instances learn of it through the bus (``AUTH_CHANNEL``), where the live
connections that used the credential are also ended. When the bus comes back after an outage
(announcements may have been missed) the caches are dropped and :meth:`IdentityCache.still_valid`
tells the live connections which of their credentials still exist.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import HTTPConnection

from app.accounts import identity, sessions
from app.db.models import ApiToken, BrowserSession, User
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.realtime.bus import RESYNC

CACHE_SECONDS = 60.0
CHECK_BATCH = 500
"""Credentials looked up per query by :meth:`IdentityCache.still_valid` (an IN list)."""
TOUCH_EVERY_SECONDS = 60.0
AUTH_CHANNEL = "auth"
"""Bus channel on which instances announce revoked tokens, ended sessions and changed users:
``{"type": "forget_token", "token_hash"}``, ``{"type": "forget_session", "session_hash"}``,
``{"type": "forget_user", "user_id"}`` (the user changed: caches only),
``{"type": "end_user", "user_id", "credential"}`` (the user's credentials of that kind ended —
``"session"``: logged out everywhere; null: all of them). Every message but ``forget_user`` also
ends the live connections that used the credential (app/http/live_connections.py)."""


@dataclass
class _Entry:
    identity: Identity | None
    fetched: float
    touched: float = 0.0


class IdentityCache:
    """Token hash, browser-session hash or user id -> Identity, each trusted for ``CACHE_SECONDS``.

    Thread-safe: page routes resolve viewers in worker threads, sockets on the event loop.
    """

    def __init__(self, session_factory: sessionmaker[Session],
                 announce: Callable[[JSONObject], None] | None = None) -> None:
        self.session_factory = session_factory
        self.announce = announce or (lambda message: None)
        self._tokens: dict[str, _Entry] = {}
        self._users: dict[int, _Entry] = {}
        self._sessions: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    # -- lookups ----------------------------------------------------------------------------------

    def cached_token(self, token: str) -> _Entry | None:
        entry = self._tokens.get(identity.hash_token(token))
        return entry if entry and time.monotonic() - entry.fetched < CACHE_SECONDS else None

    def cached_user(self, user_id: int) -> _Entry | None:
        entry = self._users.get(user_id)
        return entry if entry and time.monotonic() - entry.fetched < CACHE_SECONDS else None

    def answerable(self, token: str | None, session_key: str | None) -> bool:
        """Whether resolving these credentials needs no lookup: a fresh cached token (its
        ``last_used_at`` written recently), a cached browser session, or neither given."""
        if token is not None:
            entry = self.cached_token(token)
            return entry is not None and time.monotonic() - entry.touched <= TOUCH_EVERY_SECONDS
        return session_key is None or self.cached_session(session_key) is not None

    def user_for_token(self, token: str, session: Session | None = None) -> Identity | None:
        """The token's user (None: no such token). Blocking on a miss: call from a worker thread."""
        entry = self.cached_token(token)
        if entry is None:
            entry = self._load_token(token, session)
        if entry.identity is not None and time.monotonic() - entry.touched > TOUCH_EVERY_SECONDS:
            entry.touched = time.monotonic()
            self._touch(identity.hash_token(token), session)
        return entry.identity

    def cached_session(self, key: str) -> _Entry | None:
        entry = self._sessions.get(sessions.hash_key(key))
        return entry if entry and time.monotonic() - entry.fetched < CACHE_SECONDS else None

    def user_for_session(self, key: str, session: Session | None = None) -> Identity | None:
        """The browser session's user (None: logged out or never existed). Blocking on a miss."""
        entry = self.cached_session(key)
        if entry is None:
            found = self._with_session(session, lambda s: sessions.user_for_key(s, key))
            entry = _Entry(found, time.monotonic())
            with self._lock:
                self._sessions[sessions.hash_key(key)] = entry
        return entry.identity

    def user(self, user_id: int, session: Session | None = None) -> Identity | None:
        entry = self.cached_user(user_id)
        if entry is None:
            found = self._with_session(session, lambda s: identity.user_by_id(s, user_id))
            entry = _Entry(found, time.monotonic())
            with self._lock:
                self._users[user_id] = entry
        return entry.identity

    def is_moderator(self, user_id: int) -> bool:
        """Whether the user is a moderator (an open account with ``is_moderator``), asked of
        the database every time: roles are never cached, so a grant or a revocation made by
        the command line (which tells no instance) counts at once everywhere. Blocking."""
        with self.session_factory() as session:
            return bool(session.scalar(select(User.is_moderator).where(
                User.id == user_id, User.closed_at.is_(None))))

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

    def still_valid(self, token_hashes: Collection[str], session_hashes: Collection[str]
                    ) -> tuple[set[str], set[str]]:
        """Which of these token and browser-session hashes still exist (a revoked token's row
        and an ended session's row are deleted): one query per ``CHECK_BATCH`` of each, however
        many connections use them. Blocking: call from a worker thread."""
        tokens, browser = list(token_hashes), list(session_hashes)
        valid_tokens: set[str] = set()
        valid_sessions: set[str] = set()
        with self.session_factory() as session:
            for start in range(0, len(tokens), CHECK_BATCH):
                valid_tokens.update(session.scalars(select(ApiToken.token_hash).where(
                    ApiToken.token_hash.in_(tokens[start:start + CHECK_BATCH]))))
            for start in range(0, len(browser), CHECK_BATCH):
                valid_sessions.update(session.scalars(select(BrowserSession.key_hash).where(
                    BrowserSession.key_hash.in_(browser[start:start + CHECK_BATCH]))))
        return valid_tokens, valid_sessions

    # -- invalidation -----------------------------------------------------------------------------

    def forget_token(self, token_hash: str, *, everywhere: bool = True) -> None:
        with self._lock:
            self._tokens.pop(token_hash, None)
        if everywhere:
            self.announce({"type": "forget_token", "token_hash": token_hash})

    def forget_session(self, session_hash: str, *, everywhere: bool = True) -> None:
        with self._lock:
            self._sessions.pop(session_hash, None)
        if everywhere:
            self.announce({"type": "forget_session", "session_hash": session_hash})

    def forget_user(self, user_id: int, *, everywhere: bool = True) -> None:
        """A user changed (renamed, upgraded): drop every entry naming them. Their open
        connections stay open (see :meth:`end_user`)."""
        with self._lock:
            self._users.pop(user_id, None)
            for entries in (self._tokens, self._sessions):
                for key in [k for k, e in entries.items()
                            if e.identity is not None and e.identity.id == user_id]:
                    del entries[key]
        if everywhere:
            self.announce({"type": "forget_user", "user_id": user_id})

    def end_user(self, user_id: int, credential: str | None = None) -> None:
        """The user's credentials of kind ``credential`` ended (``"session"``: every browser
        session, "log out everywhere"; None: all): like :meth:`forget_user`, and every instance
        also ends the user's live connections that used them."""
        self.forget_user(user_id, everywhere=False)
        self.announce({"type": "end_user", "user_id": user_id, "credential": credential})

    def apply(self, message: JSONObject) -> None:
        """A change announced by another instance (or this one) on ``AUTH_CHANNEL``."""
        if message.get("type") == "forget_token":
            self.forget_token(str(message.get("token_hash")), everywhere=False)
        elif message.get("type") == "forget_session":
            self.forget_session(str(message.get("session_hash")), everywhere=False)
        elif (message.get("type") in ("forget_user", "end_user")
              and isinstance(message.get("user_id"), int)):
            self.forget_user(message["user_id"], everywhere=False)
        elif message.get("type") == RESYNC:  # announcements may have been missed: ask again
            with self._lock:
                self._tokens.clear()
                self._sessions.clear()
                self._users.clear()


def identities(connection: HTTPConnection) -> IdentityCache:
    cache: IdentityCache = connection.app.state.identities
    return cache
