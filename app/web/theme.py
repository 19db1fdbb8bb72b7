"""The colour theme a page is drawn in: ``system`` (the default: the device's light or dark
preference, ``prefers-color-scheme``), ``light`` or ``dark``. The page's <html data-theme> carries
it before the first paint: an account's choice is read here from the server; a guest's is kept in
the browser's localStorage and set by the small inline script of templates/layout.html."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.requests import Request

from app.db.models import User
from app.db.one_hop import hop_session

Theme = Literal["system", "light", "dark"]
THEME_CHOICES: tuple[Theme, ...] = ("system", "light", "dark")
DEFAULT_THEME: Theme = "system"
STORAGE_KEY = "stepwell.theme"
"""Where a guest's browser keeps the choice (static/js/play-settings.js writes it)."""


def theme_choice(value: object) -> Theme:
    """``value`` if it is one of the choices, else the default."""
    for choice in THEME_CHOICES:
        if value == choice:
            return choice
    return DEFAULT_THEME


def account_theme(session: Session, user_id: int) -> Theme:
    """An account's stored choice (the default for one who never chose, or who is gone)."""
    return theme_choice(session.scalar(select(User.theme).where(User.id == user_id)))


def page_theme(request: Request) -> tuple[Theme, bool]:
    """The theme the page is rendered in, and whether the browser keeps the choice (a guest's or a
    visitor's: the inline script of the layout reads it before the first paint). An account's is
    read with the session of the endpoint rendering the page; a page rendered without one (an
    error page) follows the device."""
    viewer = getattr(request.state, "viewer", None)
    if viewer is None or viewer.kind != "account":
        return DEFAULT_THEME, True
    session = hop_session.get()
    if session is None:
        return DEFAULT_THEME, False
    return account_theme(session, viewer.id), False
