"""Helpers shared by the page routes: who the visitor is, CSRF on form posts, signing in and out.

Every page router declares the page door (``app.http.doors.PageDoor``): it resolves the visitor
from the browser session only and checks the CSRF token of every form post; ``page_viewer``
reads what it found.
"""

from __future__ import annotations

from urllib.parse import urlparse

from fastapi import Request
from sqlalchemy.orm import Session

from app.http.credentials import csrf_ok
from app.http.doors import principal_of
from app.kernel import i18n
from app.kernel.errors import Forbidden
from app.kernel.identity import Identity


def page_viewer(request: Request, session: Session | None = None) -> Identity | None:
    """The visitor the page door admitted (None: not signed in)."""
    viewer = principal_of(request).user
    request.state.viewer = viewer
    return viewer


def check_csrf(request: Request, sent: str) -> None:
    if not csrf_ok(request, sent):
        raise Forbidden(i18n.gettext("Your session expired: please reload the page and retry."),
                        code="csrf_failed")


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


def safe_next(target: str) -> str:
    """Only same-site paths: never redirect a visitor to another site."""
    return target if target.startswith("/") and not urlparse(target).netloc else "/"
