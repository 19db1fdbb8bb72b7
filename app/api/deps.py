"""Request dependencies: the database session, who is calling, and the match service.

A caller is known by a bearer token (API clients) or by the signed session cookie (the browser).
Cookie-authenticated writes must carry the session's CSRF token in ``X-CSRF-Token``, so another
site cannot make a visitor's browser play or resign for them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from app.realtime.bus import publish_match
from app.services import identity
from app.services.errors import Forbidden, Unauthenticated
from app.services.identity import Identity
from app.services.lobby import LobbyService
from app.services.matches import MatchService
from app.services.records import MatchRecord

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.session_factory() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


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


def resolve_viewer(connection: HTTPConnection, session: Session) -> Identity | None:
    """Who is calling, for HTTP requests and websockets alike; a bad token is an error."""
    token = bearer_token(connection)
    if token is not None:
        user = identity.user_for_token(session, token)
        if user is None:
            raise Unauthenticated("That API token is not valid.", code="invalid_token")
        return user
    user_id = connection.session.get("uid")
    return identity.user_by_id(session, user_id) if isinstance(user_id, int) else None


def optional_viewer(request: Request, session: SessionDep) -> Identity | None:
    return resolve_viewer(request, session)


def current_user(request: Request, session: SessionDep) -> Identity:
    user = resolve_viewer(request, session)
    if user is None:
        raise Unauthenticated(
            "Sign in first: POST /api/v1/guests gives a guest a token.", code="unauthenticated"
        )
    cookie_write = bearer_token(request) is None and request.method not in SAFE_METHODS
    if cookie_write and not csrf_ok(request, request.headers.get("x-csrf-token")):
        raise Forbidden("Missing or wrong CSRF token; reload the page.", code="csrf_failed")
    return user


Viewer = Annotated[Identity | None, Depends(optional_viewer)]
CurrentUser = Annotated[Identity, Depends(current_user)]


def match_service(request: Request, session: SessionDep) -> MatchService:
    bus = request.app.state.bus

    def publish(record: MatchRecord) -> None:
        publish_match(bus, record)

    return MatchService(session, publish)


Matches = Annotated[MatchService, Depends(match_service)]


def lobby_service(request: Request, session: SessionDep, matches: Matches) -> LobbyService:
    return LobbyService(session, matches, request.app.state.bus.publish,
                        request.app.state.presence.watch)


Lobby = Annotated[LobbyService, Depends(lobby_service)]
