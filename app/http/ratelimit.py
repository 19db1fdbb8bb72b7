"""Rate limits: how often one address, account, user or token may do each costly or guessable thing.

Every limit is a setting (``rate_<name>`` in app/kernel/settings.py, in the ``limits`` notation, e.g.
``"10/second;600/minute"``) counted in a moving window by the ``limits`` library: in Redis when
``REDIS_URL`` is set (so several instances share the counts), in this process's memory otherwise.
Failed logins also lock the account for a time that doubles with each failure past a threshold,
so guessing a password stays slow even from many addresses.

Routes use ``Depends(rate_limit(name))``; websockets call ``limiter_for(app).check(name, key)``.
Over a limit the caller gets 429 ``rate_limited`` with ``Retry-After`` (app/http/errors.py).

Moves are counted per caller *per match*, and only the refused ones (a stale ply, not your
turn, an illegal move…): a program moves only on its turn, so however fast it plays, in however
many matches, it never meets the limit, while a flood of moves at one match is refused
(``move_quota``, for the REST route, the API clients' move lane and the match socket). Asking
why a move is refused and setting conditional moves count in the same per-match count.

Every HTTP answer that counted a limit carries its state in ``RateLimit-Limit``,
``RateLimit-Remaining``, ``RateLimit-Reset`` (seconds) and ``RateLimit-Policy`` (every window:
``20;w=1, 600;w=60``), for the window closest to refusing (``RateLimitHeaders``).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.http.principal import Principal, resolve_principal_async
from app.kernel.errors import ServerBusy, ServiceError, Unauthenticated
from app.kernel.settings import Settings

log = logging.getLogger(__name__)

KeyKind = Literal["address", "account", "user", "token", "game"]

# name -> what a caller is counted by. The counts themselves are settings (``rate_<name>``).
LIMITS: dict[str, KeyKind] = {
    "guests": "address",
    "accounts": "address",
    "login_address": "address",
    "login_account": "account",  # counted by login_guard, keyed by the lower-cased name
    "matches": "user",
    "seeks": "user",
    "challenges": "user",
    "follows": "user",
    "moves": "game",  # per caller per match: refused moves (move_quota), why and conditionals
    "previews": "token",
    "chat": "token",
    "analysis": "token",
    "hints": "token",
    "board": "token",
    "exports": "token",
    "password_reset": "address",
    "password_reset_email": "account",  # keyed by the lower-cased address asked about
    "email_change": "user",
    "oauth": "address",
}
FAILURES_REMEMBERED_SECONDS = 24 * 3600
STORAGE_TIMEOUT_SECONDS = 0.25
"""Limits are counted on the event loop (a Redis call takes well under a millisecond), so a dead
Redis must fail fast; after a failure the limits are skipped for ``STORAGE_RETRY_SECONDS``."""
STORAGE_RETRY_SECONDS = 5.0
QUOTA_STATE = "rate_limit_quota"
"""Where a request's counted limit waits for its answer's headers (in the ASGI scope's state)."""


@dataclass(frozen=True, slots=True)
class Quota:
    """What is left of a limit after a request: its window closest to refusing."""

    limit: int
    remaining: int
    reset_seconds: int
    policy: str

    def headers(self) -> list[tuple[bytes, bytes]]:
        return [(b"ratelimit-limit", str(self.limit).encode()),
                (b"ratelimit-remaining", str(self.remaining).encode()),
                (b"ratelimit-reset", str(self.reset_seconds).encode()),
                (b"ratelimit-policy", self.policy.encode())]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One look at a limit: ``wait`` seconds when over it (else None), and its ``quota``."""

    wait: float | None
    quota: Quota


class RateLimited(ServiceError):
    """Too many requests; ``retry_after_seconds``: when one more will be allowed."""

    code = "rate_limited"

    def __init__(self, retry_after: float, message: str | None = None) -> None:
        self.retry_after_seconds = max(1, math.ceil(retry_after))
        super().__init__(message or f"Too many requests: try again in {self.retry_after_seconds} s.")


def _scaled(item: RateLimitItem, scale: float) -> RateLimitItem:
    amount = max(1, math.ceil(item.amount * scale))
    return type(item)(amount, item.multiples, item.namespace)


class RateLimiter:
    """The limits of one app, over one storage."""

    def __init__(self, settings: Settings, storage: Storage | None = None) -> None:
        self.enabled = settings.rate_limit_scale > 0
        scale = settings.rate_limit_scale or 1.0
        if storage is None:
            if settings.redis_url:
                found = storage_from_string(settings.redis_url,
                                            key_prefix=settings.rate_limit_prefix,
                                            socket_timeout=STORAGE_TIMEOUT_SECONDS,
                                            socket_connect_timeout=STORAGE_TIMEOUT_SECONDS)
            else:
                found = storage_from_string("memory://")
            assert isinstance(found, Storage)  # a plain redis:// or memory:// URL is not async
            storage = found
        self.storage: Storage = storage
        self.window = MovingWindowRateLimiter(storage)
        self.items = {name: [_scaled(item, scale) for item in parse_many(getattr(settings,
                                                                                  f"rate_{name}"))]
                      for name in LIMITS}
        self.policies = {name: ", ".join(f"{item.amount};w={item.get_expiry()}" for item in items)
                         for name, items in self.items.items()}
        self.lockout_after = max(1, math.ceil(settings.login_lockout_after * scale))
        self.lockout_seconds = settings.login_lockout_seconds
        self.lockout_max_seconds = settings.login_lockout_max_seconds
        self._storage_down_until = 0.0

    def _usable(self) -> bool:
        return self.enabled and time.monotonic() >= self._storage_down_until

    def _storage_failed(self, what: str) -> None:
        log.exception("rate limit storage failed (%s); limits skipped for %s s", what,
                      STORAGE_RETRY_SECONDS)
        self._storage_down_until = time.monotonic() + STORAGE_RETRY_SECONDS

    # -- moving windows -------------------------------------------------------------------------

    def count(self, name: str, key: str) -> Verdict | None:
        """Count one request of ``name`` by ``key``; None when limits are off.

        A storage failure (Redis down) lets the request through: limits protect the service, they
        must not take it down."""
        return self._look(name, key, hit=True)

    def peek(self, name: str, key: str) -> Verdict | None:
        """Whether ``key`` is over the limit ``name`` now, counting nothing."""
        return self._look(name, key, hit=False)

    def _look(self, name: str, key: str, hit: bool) -> Verdict | None:
        if not self._usable():
            return None
        try:
            now = time.time()
            tightest: Quota | None = None
            for item in self.items[name]:
                allowed = self.window.hit(item, name, key) if hit else True
                reset_time, remaining = self.window.get_window_stats(item, name, key)
                quota = Quota(item.amount, remaining, max(0, math.ceil(reset_time - now)),
                              self.policies[name])
                if not allowed or (remaining <= 0 and not hit):
                    return Verdict(max(1.0, reset_time - now),
                                   Quota(item.amount, 0, max(1, quota.reset_seconds), quota.policy))
                if tightest is None or quota.remaining < tightest.remaining:
                    tightest = quota
        except Exception:  # any storage error: fail open, loudly
            self._storage_failed(name)
            return None
        assert tightest is not None  # every limit has a window
        return Verdict(None, tightest)

    def check(self, name: str, key: str) -> float | None:
        """Count one request of ``name`` by ``key``: None if allowed, else seconds to wait."""
        verdict = self.count(name, key)
        return None if verdict is None else verdict.wait

    def enforce(self, name: str, key: str, connection: HTTPConnection | None = None) -> None:
        """Count one request (its quota noted for ``connection``'s answer); 429 over the limit."""
        verdict = self.count(name, key)
        if connection is not None:
            note_quota(connection, verdict)
        if verdict is not None and verdict.wait is not None:
            raise RateLimited(verdict.wait)

    # -- login lock-out --------------------------------------------------------------------------

    def _lock_remaining(self, account: str) -> float | None:
        if not self._usable():
            return None
        try:
            if self.storage.get(f"login_lock/{account}") <= 0:
                return None
            return max(1.0, self.storage.get_expiry(f"login_lock/{account}") - time.time())
        except Exception:
            self._storage_failed("login lock")
            return None

    def login_failed(self, account: str) -> None:
        """One more consecutive failure; from ``lockout_after`` on, each locks the account for
        twice as long as the one before (capped)."""
        if not self._usable():
            return
        try:
            failures = self.storage.incr(f"login_failures/{account}", FAILURES_REMEMBERED_SECONDS)
            beyond = failures - self.lockout_after
            if beyond >= 0:
                seconds = min(self.lockout_max_seconds, self.lockout_seconds * 2 ** min(beyond, 30))
                self.storage.clear(f"login_lock/{account}")
                self.storage.incr(f"login_lock/{account}", max(1, math.ceil(seconds)))
        except Exception:
            self._storage_failed("login failure")

    def login_succeeded(self, account: str) -> None:
        if not self._usable():
            return
        try:
            self.storage.clear(f"login_failures/{account}")
        except Exception:
            self._storage_failed("login success")

    @contextmanager
    def login_guard(self, address: str, username: str,
                    connection: HTTPConnection | None = None) -> Iterator[None]:
        """Around one password check: refuse when the address or the account is over its limit
        or locked; count a failure (``Unauthenticated``) or clear the count on success."""
        account = username.strip().lower()[:64]
        self.enforce("login_address", address, connection)
        self.enforce("login_account", account, connection)
        locked = self._lock_remaining(account)
        if locked is not None:
            raise RateLimited(locked, f"Too many failed logins for this account: try again in "
                                      f"{math.ceil(locked)} s.")
        try:
            yield
        except Unauthenticated:
            self.login_failed(account)
            raise
        self.login_succeeded(account)


def limiter_for(app: Any) -> RateLimiter:
    """The app's limiter (``create_app`` makes it with the app)."""
    limiter: RateLimiter = app.state.rate_limiter
    return limiter


def note_quota(connection: HTTPConnection, verdict: Verdict | None) -> None:
    """Keep a counted limit's quota for the answer's headers (the one closest to refusing, when
    a request counts several)."""
    if verdict is None:
        return
    state = connection.scope.setdefault("state", {})
    noted = state.get(QUOTA_STATE)
    if noted is None or verdict.quota.remaining <= noted.remaining:
        state[QUOTA_STATE] = verdict.quota


class RateLimitHeaders:
    """Pure ASGI middleware: the ``RateLimit-*`` headers on every answer whose request counted a
    limit (``note_quota``), the 429 itself included. Outside every door that counts one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                quota = state.get(QUOTA_STATE)
                if quota is not None:
                    headers = MutableHeaders(scope=message)
                    for name, value in quota.headers():
                        headers.append(name.decode(), value.decode())
            await send(message)

        await self.app(scope, receive, with_headers)


def client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "unknown"


def principal_key(connection: HTTPConnection, principal: Principal | None) -> str:
    """Whom to count, from the *verified* caller only: a valid token's hash, else the browser
    session, else the address (so a made-up token never earns a fresh bucket)."""
    if principal is not None and principal.token_hash is not None:
        return "t:" + principal.token_hash[:32]
    if principal is not None and principal.session_hash is not None:
        return "s:" + principal.session_hash[:32]
    return "a:" + client_address(connection)


def token_key(connection: HTTPConnection) -> str:
    """The key of a connection whose door already admitted its caller (sockets, streams)."""
    return principal_key(connection, getattr(connection.state, "principal", None))


def game_key(connection: HTTPConnection, principal: Principal | None, match_id: str) -> str:
    """A caller's key in one match (limits counted per match)."""
    return f"{principal_key(connection, principal)}/m:{match_id[:40]}"


def check(connection: HTTPConnection, name: str, key: str | None = None) -> float | None:
    """For websockets: count one ``name`` event (keyed by the connection's verified caller
    unless ``key`` is given); None if allowed, else the seconds to wait."""
    return limiter_for(connection.app).check(name, key or token_key(connection))


MOVES = "moves"
REFUSALS = (ServiceError, RequestValidationError)
"""What counts against the move quota: every refusal of the move, not a busy server's 503."""


@contextmanager
def move_quota(connection: HTTPConnection, principal: Principal | None,
               match_id: str) -> Iterator[None]:
    """Around one move of ``principal`` in ``match_id``: 429 at once while its refused moves
    in that match are over the ``moves`` limit; a refused move is counted (the module's
    docstring says why only those)."""
    limiter = limiter_for(connection.app)
    key = game_key(connection, principal, match_id)
    verdict = limiter.peek(MOVES, key)
    note_quota(connection, verdict)
    if verdict is not None and verdict.wait is not None:
        raise RateLimited(verdict.wait)
    try:
        yield
    except REFUSALS as refused:
        if not isinstance(refused, RateLimited | ServerBusy):
            note_quota(connection, limiter.count(MOVES, key))
        raise


def moves_limited() -> Callable[..., Any]:
    """The ``move_quota`` of a route with a ``match_id`` path parameter, as a dependency."""
    async def per_match(request: Request) -> AsyncIterator[None]:
        principal = await _verified(request, MOVES)
        with move_quota(request, principal, str(request.path_params.get("match_id", ""))):
            yield
    return per_match


async def _verified(request: Request, name: str) -> Principal:
    """The caller, or — for a token that does not verify — one hit on the address's count
    before the 401, so guessing tokens is limited like everything else."""
    try:
        return await resolve_principal_async(request)
    except Unauthenticated:
        limiter_for(request.app).enforce(name, "a:" + client_address(request), request)
        raise


def count_verified(connection: HTTPConnection, name: str, principal: Principal) -> float | None:
    """Count one ``name`` request of a verified caller by what the limit is keyed on: None if
    allowed, else the seconds to wait. (The ``rate_limit`` dependency, for user and token limits.)"""
    kind = LIMITS[name]
    if kind == "user":
        if principal.user is None:  # anonymous callers are refused by the door
            return None
        verdict = limiter_for(connection.app).count(name, f"u:{principal.user.id}")
    elif kind == "token":
        verdict = limiter_for(connection.app).count(name, principal_key(connection, principal))
    else:
        raise ValueError(f"{name} is not counted by the caller")
    note_quota(connection, verdict)
    return None if verdict is None else verdict.wait


def rate_limit(name: str) -> Callable[..., Any]:
    """A dependency counting one ``name`` request; put it in the route's ``dependencies``."""
    kind = LIMITS[name]
    if kind == "account":
        raise ValueError(f"{name} is counted by login_guard, not by a dependency")
    if kind == "game":  # every request counts in the caller's count for the match
        async def in_match(request: Request) -> None:
            principal = await _verified(request, name)
            match_id = str(request.path_params.get("match_id", ""))
            limiter_for(request.app).enforce(name, game_key(request, principal, match_id),
                                             request)
        return in_match
    if kind in ("user", "token"):
        async def by_caller(request: Request) -> None:
            wait = count_verified(request, name, await _verified(request, name))
            if wait is not None:
                raise RateLimited(wait)
        by_caller.__name__ = f"by_{kind}"
        return by_caller

    async def by_address(request: Request) -> None:
        limiter_for(request.app).enforce(name, client_address(request), request)
    return by_address


def login_guard(request: Request, username: str) -> Any:
    """``with login_guard(request, username): accounts.authenticate(...)``"""
    return limiter_for(request.app).login_guard(client_address(request), username, request)
