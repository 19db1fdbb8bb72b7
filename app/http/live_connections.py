"""Every open websocket and NDJSON stream of this instance, with the credential it opened with.

A door only checks its caller once, when the connection opens; a connection can then live for
hours. So each one registers here, and ends as soon as its credential does: a revoked token
(``forget_token``), a logged-out browser session (``forget_session``), every browser session of a
user (``end_user``, "log out everywhere"), all announced on ``AUTH_CHANNEL`` and so heard by every
instance, the announcing one included; and a token's expiry, by a timer. ``forget_user`` (a
rename, an upgrade) only refreshes caches and ends nothing. Anonymous connections never end here.

Sockets close with :data:`CLOSE_CREDENTIAL_ENDED` after an error message; streams end.
One token may hold at most ``max_per_token`` connections at a time (more: 429 ``rate_limited``,
a socket closes with :data:`CLOSE_TOO_MANY`). The count is per instance: behind a load balancer
spreading N instances, a token may hold up to N times as many.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection

from app.http.messages import ErrorMessage
from app.http.principal import Principal
from app.http.ratelimit import RateLimited
from app.kernel.metrics import OPEN_CONNECTIONS
from app.kernel.timesource import now

CLOSE_CREDENTIAL_ENDED = 4401
"""Socket close code: the credential was refused, revoked, expired or logged out."""
CLOSE_FORBIDDEN = 4403
"""Socket close code: another site's page (Origin, before the handshake completes), a token
without the door's scope (``missing_scope``), a sealed match (``match_sealed``)."""
CLOSE_TOO_MANY = 4429
"""Socket close code: the token already holds as many live connections as it may."""
ENDED_REMEMBERED_SECONDS = 120.0
"""How long an ended token or session is remembered, so a connection that resolved it just
before the announcement and registers just after is still ended (longer than any cache entry)."""
RETRY_AFTER_SECONDS = 5.0

Reason = str
"""Why a connection ended: ``revoked``, ``logged_out`` or ``expired``."""


@dataclass(eq=False, slots=True)
class Live:
    """One open connection: its principal, and how to end it (called once, on the loop)."""

    principal: Principal
    end: Callable[[Reason], None]
    ended: Reason | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class LiveConnections:
    """The registry (one per app). Used on the event loop only."""

    def __init__(self, max_per_token: int) -> None:
        self.max_per_token = max_per_token
        self._by_token: dict[str, set[Live]] = {}
        self._by_session: dict[str, set[Live]] = {}
        self._by_user: dict[int, set[Live]] = {}
        self._ended: dict[str, float] = {}

    def open(self, principal: Principal, end: Callable[[Reason], None]) -> Live:
        """Register a connection that has just been admitted; raises :class:`RateLimited` when
        its token holds too many already."""
        token = principal.token_hash
        if token is not None and len(self._by_token.get(token, ())) >= self.max_per_token:
            raise RateLimited(RETRY_AFTER_SECONDS, (
                f"This token already holds {self.max_per_token} open streams and sockets, the "
                "most it may: close one first."))
        live = Live(principal, end)
        if principal.user is None:
            return live  # anonymous: nothing can end it
        for key, index in ((token, self._by_token), (principal.session_hash, self._by_session)):
            if key is not None:
                index.setdefault(key, set()).add(live)
        self._by_user.setdefault(principal.user.id, set()).add(live)
        OPEN_CONNECTIONS.inc()
        ended = next((key for key in (token, principal.session_hash) if key in self._ended), None)
        if ended is not None:
            self._end(live, "revoked" if ended == token else "logged_out")
        elif principal.expires_at is not None:
            delay = (principal.expires_at - now()).total_seconds()
            live.timer = asyncio.get_running_loop().call_later(
                max(0.0, delay), self._end, live, "expired")
        return live

    def close(self, live: Live) -> None:
        """The connection went away (idempotent)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        principal = live.principal
        if principal.user is None:
            return
        if live in self._by_user.get(principal.user.id, ()):
            OPEN_CONNECTIONS.dec()
        for key, index in ((principal.token_hash, self._by_token),
                           (principal.session_hash, self._by_session),
                           (principal.user.id, self._by_user)):
            if key is not None:
                _discard(index, key, live)

    def apply(self, message: dict[str, Any]) -> int:
        """An identity change announced on ``AUTH_CHANNEL``; returns how many connections
        ended."""
        kind = message.get("type")
        if kind == "forget_token" and isinstance(message.get("token_hash"), str):
            return self._end_all(self._by_token, message["token_hash"], "revoked")
        if kind == "forget_session" and isinstance(message.get("session_hash"), str):
            return self._end_all(self._by_session, message["session_hash"], "logged_out")
        if kind == "end_user" and isinstance(message.get("user_id"), int):
            credential = message.get("credential")
            ending = [live for live in self._by_user.get(message["user_id"], ())
                      if credential is None or live.principal.credential == credential]
            for live in ending:
                self._end(live, "logged_out")
            return len(ending)
        return 0

    def _end_all(self, index: dict[Any, set[Live]], key: str, reason: Reason) -> int:
        self._remember(key)
        ending = list(index.get(key, ()))
        for live in ending:
            self._end(live, reason)
        return len(ending)

    def _remember(self, key: str) -> None:
        moment = time.monotonic()
        for old in [k for k, at in self._ended.items() if moment - at > ENDED_REMEMBERED_SECONDS]:
            del self._ended[old]
        self._ended[key] = moment

    def _end(self, live: Live, reason: Reason) -> None:
        if live.ended is not None:
            return
        live.ended = reason
        self.close(live)
        live.end(reason)


def _discard(index: dict[Any, set[Live]], key: Any, live: Live) -> None:
    found = index.get(key)
    if found is not None:
        found.discard(live)
        if not found:
            del index[key]


def live_connections(connection: HTTPConnection) -> LiveConnections:
    registry: LiveConnections = connection.app.state.live_connections
    return registry


ENDED_MESSAGES = {
    "revoked": "Your API token was revoked.",
    "logged_out": "You were logged out.",
    "expired": "Your API token has expired.",
}


def ended_message(reason: Reason) -> ErrorMessage:
    """The last message of a socket whose credential ended."""
    return ErrorMessage(type="error", code="credential_ended", reason=reason,
                        message=ENDED_MESSAGES.get(reason, "Your credential ended."))
