"""The one list of routers, in the order requests are matched: the API under ``/api/v1``, the
sockets, then the pages. ``create_app`` includes exactly these; a new domain adds its routers
here (and its doors in ``docs/security.md``)."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

from app.accounts.token_routes import router as token_routes
from app.analysis.pages import router as analysis_pages
from app.analysis.routes import router as analysis_routes
from app.chat.pages import router as moderation_pages
from app.chat.routes import router as chat_routes
from app.http.errors import ERROR_RESPONSES
from app.http.health import router as health_routes
from app.http.metrics import router as metrics_routes
from app.lobby.routes import router as lobby_routes
from app.lobby.sockets import router as lobby_socket
from app.match.export_routes import router as export_routes
from app.match.routes import router as match_routes
from app.match.why_routes import router as why_routes
from app.notices.live_socket import router as live_socket
from app.notices.match_socket import router as match_socket
from app.notices.routes import router as notice_routes
from app.notices.streams import router as stream_routes
from app.people.bot_routes import router as bot_routes
from app.people.pages import router as account_pages
from app.people.platform_pages import router as platform_pages
from app.people.routes import router as account_routes
from app.protocol.routes import router as schema_routes
from app.site.pages import router as site_pages
from app.tournaments.pages import router as tournament_pages
from app.tournaments.routes import router as tournament_routes

API = "/api/v1"

API_ROUTERS: tuple[APIRouter, ...] = (match_routes, lobby_routes, account_routes, tournament_routes)
"""Routers that carry the ``/api/v1`` prefix themselves."""
API_PARTS: tuple[APIRouter, ...] = (export_routes, schema_routes, bot_routes, stream_routes,
                                    token_routes, chat_routes, notice_routes, why_routes,
                                    analysis_routes)
"""Routers mounted under ``/api/v1`` here, with the API's declared error answers."""
SOCKETS: tuple[APIRouter, ...] = (lobby_socket, live_socket, match_socket)
"""The match socket is listed for the route inventory and the docs; ``MatchSockets`` serves it."""
PAGES: tuple[APIRouter, ...] = (site_pages, platform_pages, moderation_pages, account_pages,
                                tournament_pages, analysis_pages)


def include_routers(app: FastAPI) -> None:
    app.include_router(health_routes)
    app.include_router(metrics_routes)
    app.include_router(match_routes)
    for part in API_PARTS:
        app.include_router(part, prefix=API, responses=ERROR_RESPONSES)
    for router in API_ROUTERS[1:]:
        app.include_router(router)
    for router in SOCKETS + PAGES:
        app.include_router(router)
