"""Signing a browser in and out: server-side sessions behind the cookie, and guests made on the
fly by the page forms."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.accounts import identity, sessions
from app.accounts.identity_cache import identities
from app.http.credentials import cookie_session
from app.http.ratelimit import client_address, limiter_for
from app.kernel.identity import Identity
from app.web.forms import page_viewer


def sign_in(request: Request, session: Session, user_id: int) -> None:
    """A new browser session for ``user_id`` (any earlier one of this browser ends: a session
    key never outlives a change of who is signed in)."""
    sign_out(request, session)
    request.session[sessions.COOKIE_KEY] = sessions.start(session, user_id)


def sign_out(request: Request, session: Session) -> None:
    """End this browser's session on the server, so every copy of the cookie stops working."""
    key = cookie_session(request).get(sessions.COOKIE_KEY)
    if isinstance(key, str) and key:
        identities(request).forget_session(sessions.end(session, key))
    request.session.pop(sessions.COOKIE_KEY, None)


def sign_out_everywhere(request: Request, session: Session, user_id: int) -> None:
    """End every browser session of ``user_id``, and the sockets they opened, on every
    instance (the user's API tokens keep working)."""
    sessions.end_all(session, user_id)
    identities(request).end_user(user_id, credential="session")
    request.session.pop(sessions.COOKIE_KEY, None)


def ensure_user(request: Request, session: Session, name: str | None) -> Identity:
    """The visitor's identity, making them a guest (browser session) when they have none yet."""
    viewer = page_viewer(request, session)
    if viewer is not None:
        if name and name.strip() and name.strip() != viewer.name:
            viewer = identity.rename(session, viewer.id, name)
            identities(request).forget_user(viewer.id)
        return viewer
    limiter_for(request.app).enforce("guests", client_address(request), request)
    viewer, _token = identity.create_guest(session, name or "")
    sign_in(request, session, viewer.id)
    return viewer
