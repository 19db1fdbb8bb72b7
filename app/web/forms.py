"""Helpers shared by the page routes: who the visitor is, CSRF on form posts, signing in and out.

Every page router declares the page door (``app.http.doors.PageDoor``): it resolves the visitor
from the browser session only and checks the CSRF token of every form post; ``page_viewer``
reads what it found.
"""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.accounts import identity, sessions
from app.accounts.identity_cache import identities
from app.http.credentials import cookie_session, csrf_ok
from app.http.doors import principal_of
from app.kernel import i18n
from app.kernel.errors import Forbidden
from app.kernel.identity import Identity
from app.ratelimit import client_address, limiter_for


def page_viewer(request: Request, session: Session | None = None) -> Identity | None:
    """The visitor the page door admitted (None: not signed in)."""
    viewer = principal_of(request).user
    request.state.viewer = viewer
    return viewer


def check_csrf(request: Request, sent: str) -> None:
    if not csrf_ok(request, sent):
        raise Forbidden(i18n.gettext("Your session expired: please reload the page and retry."),
                        code="csrf_failed")


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
    limiter_for(request.app).enforce("guests", client_address(request))
    viewer, _token = identity.create_guest(session, name or "")
    sign_in(request, session, viewer.id)
    return viewer


def form_int(raw: object, minimum: int | None = None) -> int | None:
    """A form field's whole number, or None: ASCII digits only (``str.isdigit`` also accepts
    "²" and "١٢", which ``int`` refuses), at most nine of them (no id or count is larger), an
    optional minus sign; None below ``minimum``."""
    text = str(raw)
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
        return None
    number = int(text)
    return None if minimum is not None and number < minimum else number
