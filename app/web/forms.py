"""Helpers shared by the page routes: who the visitor is, CSRF on form posts, becoming a guest."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from app.auth import csrf_ok, identities, resolve_viewer
from app.ratelimit import client_address, limiter_for
from app.services import identity
from app.services.errors import Forbidden
from app.services.identity import Identity
from app.web import i18n


def page_viewer(request: Request, session: Session) -> Identity | None:
    viewer = resolve_viewer(request, session)
    request.state.viewer = viewer
    return viewer


def check_csrf(request: Request, sent: str) -> None:
    if not csrf_ok(request, sent):
        raise Forbidden(i18n.gettext("Your session expired: please reload the page and retry."),
                        code="csrf_failed")


def ensure_user(request: Request, session: Session, name: str | None) -> Identity:
    """The visitor's identity, making them a guest (cookie session) when they have none yet."""
    viewer = resolve_viewer(request, session)
    if viewer is not None:
        if name and name.strip() and name.strip() != viewer.name:
            viewer = identity.rename(session, viewer.id, name)
            identities(request).forget_user(viewer.id)
        return viewer
    limiter_for(request.app).enforce("guests", client_address(request))
    viewer, _token = identity.create_guest(session, name or "")
    request.session["uid"] = viewer.id
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

