"""create_app(settings): the one place where the service is wired together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal, TypedDict

from fastapi import FastAPI
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.middleware.sessions import SessionMiddleware

from app.accounts import AUTH_CHANNEL, IdentityCache, oauth_scheme
from app.analysis import HintPool
from app.chat import FloodLimit
from app.db.one_hop import AdmissionLimit, limit_worker_threads
from app.db.session import make_engine, make_session_factory
from app.http.cors import Cors
from app.http.docs import install_offline_docs
from app.http.drain import Drain
from app.http.errors import install_error_handlers
from app.http.live_connections import LiveConnections
from app.http.metrics import RequestIds, RequestMetrics
from app.http.openapi import install_openapi
from app.http.ratelimit import RateLimiter, RateLimitHeaders
from app.http.rebalance import Rebalancer
from app.jobs import BackgroundJobs
from app.kernel import heap, i18n, logs
from app.kernel.cancellation import cancel_and_wait
from app.kernel.settings import PROJECT_ROOT, Settings
from app.match import (
    Announced,
    MatchPublisher,
    MoveLane,
    PreviewCache,
    Relay,
    WarmMatches,
    game_schemas,
    relay_at_start,
)
from app.notices import MatchSockets, SharedMatches, vapid_key
from app.realtime.bus import InProcessBus
from app.realtime.presence import Presence, SharedPresence
from app.realtime.redis_bus import RedisBus
from app.routers import include_routers
from app.site import render_page_error
from app.web.static_files import HashedStaticFiles

SESSION_MAX_AGE = 365 * 24 * 3600
log = logging.getLogger(__name__)


class SessionOptions(TypedDict):
    """SessionMiddleware's settings, shared by the HTTP stack and the match sockets."""

    secret_key: str
    session_cookie: str
    max_age: int
    same_site: Literal["lax", "strict", "none"]
    https_only: bool


DESCRIPTION = """Play stacking and stair board games; `GET /api/v1/games` lists them with their options.

Get a bearer token with `POST /api/v1/guests`, then send `Authorization: Bearer <token>`.
Errors are JSON `{code, message}`. Live updates: `WS /api/v1/matches/{id}/ws` (add `?token=`).
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    if settings.log_format is not None:
        logs.configure(settings.log_format)
    engine = make_engine(settings.database_url, settings.db_pool_size)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        limit_worker_threads(settings.db_pool_size)
        app.state.bus.bind_loop(loop)
        app.state.presence.bind_loop(loop)
        identity_changes = asyncio.create_task(apply_identity_changes())
        notes = asyncio.create_task(app.state.announced.run())
        relay = Relay(app.state.session_factory, app.state.match_publisher)
        first_relay = asyncio.create_task(relay_at_start(relay))
        jobs_task = None
        if settings.background_jobs != "off":
            app.state.jobs = BackgroundJobs(settings, app.state.session_factory, app.state.bus,
                                            app.state.presence, app.state.match_publisher,
                                            relay=relay)
            jobs_task = asyncio.create_task(app.state.jobs.run())
        heap.install()  # the collector walks what requests make, not the app (app/kernel/heap.py)
        app.state.drain.install(loop)  # SIGTERM: drain first, then uvicorn's shutdown
        rebalancing = None
        if app.state.rebalancer is not None:
            rebalancing = asyncio.create_task(app.state.rebalancer.run())
        yield
        app.state.drain.uninstall()
        if rebalancing is not None:
            rebalancing.cancel()
            await app.state.rebalancer.aclose()
        identity_changes.cancel()
        if jobs_task is not None:
            await cancel_and_wait([jobs_task], timeout=10.0)
        first_relay.cancel()
        await app.state.presence.aclose()
        await app.state.bus.aclose()
        await cancel_and_wait([notes])  # what the bus sent is noted once more as it stops
        app.state.hint_pool.shutdown()
        engine.dispose()

    app = FastAPI(title="Stepwell", version="1.0", description=DESCRIPTION, lifespan=lifespan,
                  telemetry=None if settings.telemetry else {"tracing": False, "metrics": False,
                                                             "logs": False})
    app.state.settings = settings
    vapid_key(settings.vapid_private_key)  # generated into data/ on first start, like the secret key
    app.state.engine = engine
    app.state.session_factory = make_session_factory(engine)
    app.state.warm_matches = WarmMatches()
    app.state.preview_cache = PreviewCache()
    app.state.bus = (RedisBus(settings.redis_url, settings.redis_prefix) if settings.redis_url
                     else InProcessBus())
    app.state.announced = Announced(app.state.session_factory)
    app.state.match_publisher = MatchPublisher(app.state.bus, app.state.announced)
    app.state.identities = IdentityCache(app.state.session_factory,
                                         lambda message: app.state.bus.publish(AUTH_CHANNEL, message))
    app.state.live_connections = LiveConnections(settings.max_streams_per_token,
                                                 app.state.identities.still_valid)
    app.state.drain = Drain(app.state.live_connections, settings.drain_grace_seconds,
                            settings.drain_timeout_seconds)
    app.state.rate_limiter = RateLimiter(settings)
    app.state.hint_pool = HintPool()
    app.state.chat_flood = FloodLimit()
    app.state.shared_matches = SharedMatches()
    app.state.live_ratings = {}  # match id -> the Watch page's seat ratings, read once

    if settings.redis_url:
        bus = app.state.bus
        app.state.presence = SharedPresence(
            settings.seek_grace_seconds, bus.publish, lambda: bus.command_client,
            settings.redis_prefix, bus.instance, settings.presence_heartbeat_seconds)
        bus.on_reconnect(app.state.presence.rewrite)
        app.state.rebalancer = (
            Rebalancer(app.state.live_connections, lambda: bus.command_client,
                       settings.redis_prefix, bus.instance, settings.rebalance_seconds,
                       settings.rebalance_min_excess)
            if settings.rebalance_seconds > 0 else None)
    else:
        app.state.presence = Presence(settings.seek_grace_seconds, app.state.bus.publish)
        app.state.rebalancer = None
    app.state.jobs = None

    async def apply_identity_changes() -> None:
        """Revoked tokens, ended sessions and changed users, announced by any instance, leave
        this one's cache, and the live connections that used an ended credential end."""
        async with app.state.bus.subscribe(AUTH_CHANNEL) as changes:
            async for message in changes:
                app.state.identities.apply(message)
                app.state.live_connections.apply(message)

    # Innermost: pages, API answers and static files are gzipped when the client accepts it; never
    # a live NDJSON stream (each line must leave at once, not wait in the compressor).
    app.add_middleware(GZipMiddleware, minimum_size=500,
                       exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/x-ndjson"))
    app.add_middleware(i18n.LanguageMiddleware)
    sessions: SessionOptions = {
        "secret_key": settings.secret_key, "session_cookie": "stepwell_session",
        "max_age": SESSION_MAX_AGE, "same_site": "lax", "https_only": settings.secure_cookies}
    app.add_middleware(SessionMiddleware, **sessions)
    install_error_handlers(app, render_page_error)
    install_offline_docs(app)
    include_routers(app)
    install_openapi(app, session_cookie=sessions["session_cookie"],
                    parts=[game_schemas, oauth_scheme])
    app.add_middleware(MoveLane)  # an API client's move skips the stack (app/match/move_lane.py)
    app.add_middleware(RateLimitHeaders)  # RateLimit-* on every answer that counted a limit
    app.add_middleware(AdmissionLimit, limit=settings.max_pending_requests)
    # Around the stack (a 503 carries CORS headers too); cookies from other sites' pages are
    # dropped here, before the session middleware or the move lane could read them.
    app.add_middleware(Cors, trusted_origins=settings.trusted_origins)
    app.add_middleware(RequestMetrics)
    app.add_middleware(RequestIds)
    # Outermost: match sockets skip the stack, which would live as long as each socket.
    app.add_middleware(MatchSockets, sessions=SessionMiddleware(app, **sessions))
    app.mount("/static", HashedStaticFiles(directory=str(PROJECT_ROOT / "static")), name="static")
    return app
