"""Every open websocket and NDJSON stream of this instance, with the credential it opened with.

A door only checks its caller once, when the connection opens; a connection can then live for
hours. So each one registers here, and ends as soon as its credential does: a revoked token
(``forget_token``), a logged-out browser session (``forget_session``), every browser session of a
user (``end_user``, "log out everywhere"), all announced on ``AUTH_CHANNEL`` and so heard by every
instance, the announcing one included; and a token's expiry, by a timer. ``forget_user`` (a
rename, an upgrade) only refreshes caches and ends nothing. Anonymous connections never end here.

An announcement made while this instance's Redis connection was down never arrives; so when the
bus comes back (``RESYNC`` on ``AUTH_CHANNEL``) every credential still in use here is looked up
again (``lookup``: a query per batch of credentials, not one per connection) and the connections
whose token or browser session is gone end exactly as if the announcement had arrived.

Sockets close with :data:`CLOSE_CREDENTIAL_ENDED` after an error message; streams end.
When the instance shuts down (:meth:`LiveConnections.drain`), every connection, anonymous ones
included, ends for the reason ``restart``: a socket once its moves in flight are acknowledged,
with :data:`CLOSE_RESTART` and no message; a stream simply ends. Clients reconnect (to another
instance behind the load balancer) and resynchronise.
One token may hold at most ``max_per_token`` connections at a time (more: 429 ``rate_limited``,
a socket closes with :data:`CLOSE_TOO_MANY`). The count is per instance: behind a load balancer
spreading N instances, a token may hold up to N times as many.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection

from app.http.messages import ErrorMessage
from app.http.principal import Principal
from app.http.ratelimit import RateLimited
from app.kernel.metrics import CREDENTIAL_RECHECKS, OPEN_CONNECTIONS
from app.kernel.timesource import now
from app.realtime.bus import RESYNC

log = logging.getLogger(__name__)

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
CLOSE_RESTART = 1012
CLOSE_TRY_AGAIN = 1013
"""Socket close code (the standard "Try Again Later"), after an error message with
``retry_after``: the database cannot answer now (a restart); reconnect after that delay."""
"""Socket close code (the standard "Service Restart"): this instance is shutting down; reconnect
after a short random delay (the browser client waits 200–1500 ms) and resynchronise. uvicorn's
own shutdown closes any socket still open with the same code."""
RETRY_AFTER_SECONDS = 5.0
RECHECK_TRIES = 5
RECHECK_RETRY_SECONDS = 1.0
"""After a bus outage the database may be away too: the re-check is tried this often, this far
apart."""

Reason = str
"""Why a connection ended: ``revoked``, ``logged_out``, ``expired`` or ``restart``."""
RESTART: Reason = "restart"
Lookup = Callable[[Collection[str], Collection[str]], tuple[set[str], set[str]]]
"""(token hashes, browser-session hashes) -> those of each that are still valid. Blocking (it
asks the database): called in a worker thread."""
DRAIN_POLL_SECONDS = 0.05


@dataclass(eq=False, slots=True)
class Live:
    """One open connection: its principal, and how to end it (called once, on the loop)."""

    principal: Principal
    end: Callable[[Reason], None]
    ended: Reason | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    moving: int = 0
    """Moves of this socket being played and not yet answered."""
    answered: asyncio.Future[None] | None = field(default=None, repr=False)
    """Made by a drain waiting for ``moving`` to fall to 0."""

    def start_move(self) -> bool:
        """A move arrived: False when the connection is closing for a restart (the move is
        not played: the client, seeing the socket close without an answer, plays it again
        elsewhere); else it counts as in flight until :meth:`finish_move`."""
        if self.ended == RESTART:
            return False
        self.moving += 1
        return True

    def finish_move(self) -> None:
        """The move's answer (ack or error) has been sent."""
        self.moving -= 1
        if not self.moving and self.answered is not None and not self.answered.done():
            self.answered.set_result(None)


class LiveConnections:
    """The registry (one per app). Used on the event loop only."""

    def __init__(self, max_per_token: int, lookup: Lookup | None = None) -> None:
        """``lookup``: how credentials are checked again after a bus outage (None: never)."""
        self.max_per_token = max_per_token
        self.lookup = lookup
        self._by_token: dict[str, set[Live]] = {}
        self._by_session: dict[str, set[Live]] = {}
        self._by_user: dict[int, set[Live]] = {}
        self._ended: dict[str, float] = {}
        self._rechecks: set[asyncio.Task[int]] = set()
        self._open: set[Live] = set()
        self.closing = False
        """True once :meth:`drain` began: a socket that opens now is told to go elsewhere."""

    def open(self, principal: Principal, end: Callable[[Reason], None]) -> Live:
        """Register a connection that has just been admitted; raises :class:`RateLimited` when
        its token holds too many already."""
        token = principal.token_hash
        if token is not None and len(self._by_token.get(token, ())) >= self.max_per_token:
            raise RateLimited(RETRY_AFTER_SECONDS, (
                f"This token already holds {self.max_per_token} open streams and sockets, the "
                "most it may: close one first."))
        live = Live(principal, end)
        self._open.add(live)
        if self.closing:  # shutting down: the client is to go to another instance
            live.ended = RESTART
            live.end(RESTART)
            return live
        if principal.user is None:
            return live  # anonymous: only a restart ends it
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
        self._open.discard(live)
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
        if kind == RESYNC and self.lookup is not None:  # announcements may have been missed
            task = asyncio.get_running_loop().create_task(self.recheck())
            self._rechecks.add(task)
            task.add_done_callback(self._rechecks.discard)
        return 0

    async def recheck(self) -> int:
        """Look every credential in use here up again and end the connections of those that are
        gone (revoked, logged out); returns how many connections ended."""
        assert self.lookup is not None
        tokens, sessions = set(self._by_token), set(self._by_session)
        if not tokens and not sessions:
            return 0
        for attempt in range(RECHECK_TRIES):
            try:
                valid_tokens, valid_sessions = await asyncio.to_thread(
                    self.lookup, tokens, sessions)
                break
            except Exception:
                log.warning("re-checking %d credentials failed (try %d of %d)",
                            len(tokens) + len(sessions), attempt + 1, RECHECK_TRIES,
                            exc_info=True)
                await asyncio.sleep(RECHECK_RETRY_SECONDS)
        else:
            CREDENTIAL_RECHECKS.labels("failed").inc()
            return 0
        CREDENTIAL_RECHECKS.labels("done").inc()
        ended = sum(self._end_all(self._by_token, token, "revoked")
                    for token in tokens - valid_tokens)
        ended += sum(self._end_all(self._by_session, session, "logged_out")
                     for session in sessions - valid_sessions)
        if ended:
            log.info("%d live connection(s) ended: their credential ended while the bus was away",
                     ended)
        return ended
    @property
    def open_count(self) -> int:
        """Connections open on this instance, anonymous ones included."""
        return len(self._open)

    def shed(self, count: int) -> int:
        """End up to ``count`` connections chosen at random among those with no move in flight,
        for a restart (their clients reconnect, through the load balancer, perhaps elsewhere);
        returns how many."""
        if count <= 0 or self.closing:
            return 0
        idle = [live for live in self._open if live.ended is None and not live.moving]
        chosen = random.sample(idle, min(count, len(idle)))
        for live in chosen:
            live.ended = RESTART
            if live.timer is not None:
                live.timer.cancel()
                live.timer = None
            live.end(RESTART)
        return len(chosen)

    async def drain(self, timeout: float) -> int:
        """End every open connection for a restart and wait (at most ``timeout`` seconds) until
        they are gone; returns how many were still open at the deadline.

        Each connection is marked first, so none starts another move; one with moves in flight
        is ended once they are answered, so an acknowledged move is never lost to the close."""
        self.closing = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        ending = [live for live in self._open if live.ended is None]
        for live in ending:
            live.ended = RESTART
            if live.timer is not None:
                live.timer.cancel()
                live.timer = None

        answered: list[asyncio.Future[None]] = []
        for live in ending:
            if not live.moving:
                live.end(RESTART)
                continue
            future = live.answered = loop.create_future()
            future.add_done_callback(_end_for_restart(live))
            answered.append(future)
        if answered:
            await asyncio.wait(answered, timeout=timeout)
            for future in answered:  # still unanswered at the deadline: closed all the same
                if not future.done():
                    future.set_result(None)
        while self._open and loop.time() < deadline:
            await asyncio.sleep(DRAIN_POLL_SECONDS)
        return len(self._open)

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


def _end_for_restart(live: Live) -> Callable[[asyncio.Future[None]], None]:
    def end(_: asyncio.Future[None]) -> None:
        live.end(RESTART)

    return end


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
