"""create_app(settings): the one place where the service is wired together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

from app import timesource
from app.api.errors import install_error_handlers
from app.api.lobby_routes import router as lobby_router
from app.api.people_routes import router as people_router
from app.api.routes import router as api_router
from app.db.session import make_engine, make_session_factory
from app.realtime.bot_runner import BotRunner
from app.realtime.bus import InProcessBus, publish_match
from app.realtime.live_socket import router as live_socket_router
from app.realtime.lobby_socket import router as lobby_socket_router
from app.realtime.match_socket import router as socket_router
from app.realtime.presence import Presence
from app.realtime.redis_bus import RedisBus
from app.services.lobby import LobbyService
from app.services.matches import MatchService
from app.services.records import MatchRecord
from app.services.timeouts import flag_overdue, next_deadline
from app.settings import PROJECT_ROOT, Settings
from app.web import i18n
from app.web.account_pages import router as account_page_router
from app.web.pages import render_page_error
from app.web.pages import router as page_router

SESSION_MAX_AGE = 365 * 24 * 3600
QUICK_PLAY_INTERVAL_SECONDS = 2.0
CLOCK_POLL_SECONDS = 1.0
log = logging.getLogger(__name__)

DESCRIPTION = """Play Stairs, Sight, Scalas and Town of Stairs.

Get a bearer token with `POST /api/v1/guests`, then send `Authorization: Bearer <token>`.
Errors are JSON `{code, message}`. Live updates: `WS /api/v1/matches/{id}/ws` (add `?token=`).
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    engine = make_engine(settings.database_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        app.state.bus.bind_loop(loop)
        app.state.presence.bind_loop(loop)
        background = [asyncio.create_task(pair_quick_play_forever()),
                      asyncio.create_task(keep_clocks_forever())]
        bots = None
        if settings.bots_enabled:
            bots = BotRunner(app.state.session_factory, publish_record, settings.bot_workers)
            background.append(asyncio.create_task(bots.run(app.state.bus)))
        app.state.bots = bots
        yield
        for task in background:
            task.cancel()
        if bots is not None:
            bots.shutdown()
        engine.dispose()

    app = FastAPI(title="Stepwell", version="1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    app.state.engine = engine
    app.state.session_factory = make_session_factory(engine)
    app.state.bus = RedisBus(settings.redis_url) if settings.redis_url else InProcessBus()

    def expire_seeks(user_id: int) -> None:
        with app.state.session_factory() as session:
            LobbyService(session, MatchService(session), app.state.bus.publish).expire_user(user_id)

    def on_offline(user_id: int) -> None:
        asyncio.get_running_loop().run_in_executor(None, expire_seeks, user_id)

    app.state.presence = Presence(settings.seek_grace_seconds, on_offline)

    def pair_quick_play() -> None:
        with app.state.session_factory() as session:
            LobbyService(session, MatchService(session, publish_record),
                         app.state.bus.publish).pair_waiting()

    def publish_record(record: MatchRecord) -> None:
        publish_match(app.state.bus, record)

    async def keep_clocks_forever() -> None:
        """Flag overdue players even when nobody is connected; at start-up this catches up on
        every deadline that passed while the server was down."""
        while True:
            try:
                await asyncio.to_thread(flag_overdue, app.state.session_factory, publish_record)
                upcoming = await asyncio.to_thread(next_deadline, app.state.session_factory)
            except Exception:  # keep watching clocks whatever one sweep hit
                log.exception("clock sweep failed")
                upcoming = None
            delay = CLOCK_POLL_SECONDS
            if upcoming is not None:
                delay = min(delay, max(0.02, (upcoming - timesource.now()).total_seconds()))
            await asyncio.sleep(delay)

    async def pair_quick_play_forever() -> None:
        """Pairing windows widen with waiting time, so waiting seekers are re-paired often."""
        while True:
            await asyncio.sleep(QUICK_PLAY_INTERVAL_SECONDS)
            try:
                await asyncio.to_thread(pair_quick_play)
            except Exception:  # a failed round must not stop pairing; the next round retries
                log.exception("quick-play pairing failed")

    @app.middleware("http")
    async def language(request: Request, call_next: Callable[[Request], Awaitable[Response]]
                       ) -> Response:
        token = i18n.current_language.set(i18n.choose_language(request))
        try:
            return await call_next(request)
        finally:
            i18n.current_language.reset(token)

    app.add_middleware(SessionMiddleware, secret_key=settings.secret_key,
                       session_cookie="stepwell_session", max_age=SESSION_MAX_AGE,
                       same_site="lax", https_only=settings.secure_cookies)
    install_error_handlers(app, render_page_error)
    app.include_router(api_router)
    app.include_router(lobby_router)
    app.include_router(people_router)
    app.include_router(socket_router)
    app.include_router(lobby_socket_router)
    app.include_router(live_socket_router)
    app.include_router(page_router)
    app.include_router(account_page_router)
    app.mount("/static", StaticFiles(directory=str(PROJECT_ROOT / "static")), name="static")
    return app
