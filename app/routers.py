"""The one list of routers, in the order requests are matched: the API under ``/api/v1``, the
sockets, then the pages. ``create_app`` includes exactly these; a new domain adds its routers
here (and its doors in ``docs/security.md``)."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

from app.accounts import token_router as token_routes
from app.analysis import analysis_page_router as analysis_pages
from app.analysis import analysis_router as analysis_routes
from app.chat import chat_router as chat_routes
from app.chat import moderation_router as moderation_pages
from app.http.errors import ERROR_RESPONSES
from app.http.health import router as health_routes
from app.http.metrics import router as metrics_routes
from app.lobby import lobby_router as lobby_routes
from app.lobby import lobby_socket_router as lobby_socket
from app.match import export_router as export_routes
from app.match import match_router as match_routes
from app.match import why_router as why_routes
from app.notices import live_socket_router as live_socket
from app.notices import match_socket_router as match_socket
from app.notices import notice_router as notice_routes
from app.notices import stream_router as stream_routes
from app.people import account_page_router as account_pages
from app.people import account_router as account_routes
from app.people import bot_router as bot_routes
from app.people import platform_page_router as platform_pages
from app.protocol import schema_router as schema_routes
from app.site import site_router as site_pages
from app.tournaments import tournament_page_router as tournament_pages
from app.tournaments import tournament_router as tournament_routes

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
