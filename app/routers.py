"""The one list of routers, in the order requests are matched: the API under ``/api/v1``, the
sockets, then the pages. ``create_app`` includes exactly these; a new domain adds its routers
here (and its doors in ``docs/security.md``)."""

from __future__ import annotations

import functools

from fastapi import APIRouter, FastAPI
from starlette.routing import BaseRoute

from app.accounts import oauth_page_router as oauth_pages
from app.accounts import oauth_router as oauth_routes
from app.accounts import token_router as token_routes
from app.analysis import analysis_page_router as analysis_pages
from app.analysis import analysis_router as analysis_routes
from app.chat import chat_router as chat_routes
from app.daily import daily_page_router as daily_pages
from app.daily import daily_router as daily_routes
from app.http.errors import ERROR_RESPONSES
from app.http.health import router as health_routes
from app.http.metrics import router as metrics_routes
from app.lobby import lobby_router as lobby_routes
from app.lobby import lobby_socket_router as lobby_socket
from app.luck import luck_router as luck_routes
from app.mail import mail_page_router as mail_pages
from app.mail import mail_router as mail_routes
from app.match import conditional_router as conditional_routes
from app.match import export_router as export_routes
from app.match import match_router as match_routes
from app.match import preview_router as preview_routes
from app.match import vacation_page_router as vacation_pages
from app.match import vacation_router as vacation_routes
from app.match import why_router as why_routes
from app.moderation import moderation_notice_page_router as moderation_notice_pages
from app.moderation import moderation_page_router as moderation_pages
from app.moderation import moderation_router as moderation_routes
from app.notices import live_socket_router as live_socket
from app.notices import match_socket_router as match_socket
from app.notices import notice_router as notice_routes
from app.notices import push_page_router as push_pages
from app.notices import push_router as push_routes
from app.notices import stream_router as stream_routes
from app.people import account_page_router as account_pages
from app.people import account_router as account_routes
from app.people import archive_page_router as archive_pages
from app.people import archive_router as archive_routes
from app.people import bot_router as bot_routes
from app.people import follow_router as follow_routes
from app.people import platform_page_router as platform_pages
from app.protocol import schema_router as schema_routes
from app.puzzles import puzzle_page_router as puzzle_pages
from app.puzzles import puzzle_router as puzzle_routes
from app.site import pwa_router as pwa_pages
from app.site import site_router as site_pages
from app.tournaments import tournament_page_router as tournament_pages
from app.tournaments import tournament_router as tournament_routes

API = "/api/v1"

API_ROUTERS: tuple[APIRouter, ...] = (match_routes, lobby_routes, account_routes, tournament_routes,
                                      archive_routes, daily_routes)
"""Routers that carry the ``/api/v1`` prefix themselves."""
API_PARTS: tuple[APIRouter, ...] = (export_routes, schema_routes, bot_routes, stream_routes,
                                    token_routes, chat_routes, notice_routes, why_routes,
                                    preview_routes,
                                    analysis_routes, mail_routes, conditional_routes,
                                    vacation_routes, push_routes, moderation_routes,
                                    puzzle_routes,
                                    follow_routes, luck_routes)
"""Routers mounted under ``/api/v1`` here, with the API's declared error answers."""
SOCKETS: tuple[APIRouter, ...] = (lobby_socket, live_socket, match_socket)
"""The match socket is listed for the route inventory and the docs; ``MatchSockets`` serves it."""
OAUTH: tuple[APIRouter, ...] = (oauth_routes,)
"""OAuth's metadata, token and revocation endpoints (full paths: ``/.well-known/…``, ``/api/v1/oauth/…``)."""
PAGES: tuple[APIRouter, ...] = (site_pages, platform_pages, moderation_pages,
                                moderation_notice_pages, account_pages, tournament_pages,
                                analysis_pages, mail_pages, vacation_pages, push_pages, pwa_pages,
                                oauth_pages, puzzle_pages, archive_pages, daily_pages)


def _include_all(router: APIRouter) -> None:
    router.include_router(health_routes)
    router.include_router(metrics_routes)
    router.include_router(match_routes)
    for part in API_PARTS:
        router.include_router(part, prefix=API, responses=ERROR_RESPONSES)
    for included in API_ROUTERS[1:] + OAUTH:
        router.include_router(included)
    for included in SOCKETS + PAGES:
        router.include_router(included)


@functools.cache
def _route_table() -> tuple[BaseRoute, ...]:
    """The included routers, built once per process and shared by every app it creates.

    FastAPI builds an included route's handler (its dependant, its body and response models)
    on the first request that reaches it, once per app: about 0.3 s of CPU for Stepwell's
    routes. A process normally creates one app, but the tests create one per database, and
    nothing here differs between them: no app overrides a dependency (the table is built on a
    plain router, whose ``dependency_overrides_provider`` is None, so ``app.dependency_overrides``
    does not reach these routes)."""
    table = APIRouter()
    _include_all(table)
    return tuple(table.routes)


def include_routers(app: FastAPI) -> None:
    app.router.routes.extend(_route_table())
