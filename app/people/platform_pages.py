"""Pages of the bot-and-program platform: the protocol messages, the bots, your API tokens; and
your play settings."""

from __future__ import annotations

import json
import re
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup, escape

from app.accounts import (
    CONFIRM_CHOICES,
    checked_theme,
    confirm_moves_of,
    create_personal_token,
    forget_revoked,
    list_personal_tokens,
    revoke_personal_token,
    set_confirm_moves,
    set_theme,
)
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.schemas import RowId
from app.kernel import i18n
from app.kernel.errors import ServiceError
from app.kernel.identity import Identity
from app.mail import mail_enabled
from app.match import vacation_status
from app.people.bots import list_bots
from app.protocol import message_catalog as catalog
from app.web.forms import check_csrf, form_int, page_viewer
from app.web.templating import render
from app.web.theme import THEME_CHOICES

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])


def _with_code(text: str) -> Markup:
    """Docstring text with its `backticked` words as <code>, everything else escaped."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


@router.get("/docs/messages")
def protocol_messages(request: Request, session: SessionDep) -> Response:
    """Every socket and stream message with an example, for people writing clients."""
    page_viewer(request, session)
    shown = catalog()
    for message in shown["messages"]:
        message["example_text"] = json.dumps(message["example"], indent=2, ensure_ascii=False)
        message["description"] = _with_code(message["description"])
    for channel in shown["channels"]:
        channel["description"] = _with_code(channel["description"])
    return render(request, "api_messages.html", catalog=shown)


@router.get("/bots")
def bots_page(request: Request, session: SessionDep) -> Response:
    """The built-in bots and the bot accounts, each marked BOT."""
    page_viewer(request, session)
    return render(request, "bots.html", bots=list_bots(session))


def _tokens_page(request: Request, session: SessionDep, viewer: Identity, status_code: int = 200,
                 new_token: str | None = None, error: str | None = None) -> Response:
    days = request.app.state.settings.vacation_days_per_year
    return render(request, "account_tokens.html", status_code=status_code, new_token=new_token,
                  error=error, tokens=list_personal_tokens(session, viewer),
                  vacation=vacation_status(session, viewer.id, days).to_json(),
                  email_enabled=mail_enabled(request.app.state.settings))


def _account_viewer(request: Request, session: SessionDep) -> Identity | None:
    viewer = page_viewer(request, session)
    return viewer if viewer is not None and viewer.kind in ("account", "bot") else None


@router.get("/account/tokens")
def tokens_page(request: Request, session: SessionDep) -> Response:
    """Create and revoke personal API tokens (accounts only)."""
    viewer = _account_viewer(request, session)
    if viewer is None:
        return RedirectResponse("/login?next=/account/tokens", status_code=303)
    return _tokens_page(request, session, viewer)


@router.post("/account/tokens")
def create_token_from_form(request: Request, session: SessionDep, csrf: str = Form(""),
                           description: str = Form(""), scopes: Annotated[list[str] | None, Form()] = None,
                           expires_in: str = Form("")) -> Response:
    check_csrf(request, csrf)
    viewer = _account_viewer(request, session)
    if viewer is None:
        return RedirectResponse("/login?next=/account/tokens", status_code=303)
    try:
        _listing, token = create_personal_token(
            session, viewer, description, scopes or [], form_int(expires_in, minimum=0))
    except ServiceError as error:
        return _tokens_page(request, session, viewer, 422, error=i18n.gettext(error.message))
    return _tokens_page(request, session, viewer, 201, new_token=token)


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token_from_form(token_id: RowId, request: Request, session: SessionDep,
                           csrf: str = Form("")) -> Response:
    check_csrf(request, csrf)
    viewer = _account_viewer(request, session)
    if viewer is None:
        return RedirectResponse("/login?next=/account/tokens", status_code=303)
    forget_revoked(request, revoke_personal_token(session, viewer, token_id))
    return RedirectResponse("/account/tokens", status_code=303)


PLAY_PAGE = "/account/play"


@router.get(PLAY_PAGE)
def play_settings_page(request: Request, session: SessionDep) -> Response:
    """How moves are played: "Confirm moves" (always / on phones only / never), and the colour
    theme (system / light / dark). An account's
    choice is kept on the server; anyone else's in this browser (static/js/play-settings.js)."""
    viewer = _account_viewer(request, session)
    current = confirm_moves_of(session, viewer.id) if viewer is not None else None
    return render(request, "account_play.html", choices=CONFIRM_CHOICES, current=current,
                  themes=THEME_CHOICES, saved=request.query_params.get("saved") == "1")


@router.post(PLAY_PAGE)
def save_play_settings(request: Request, session: SessionDep, csrf: str = Form(""),
                       confirm_moves: str = Form(""), theme: str = Form("")) -> Response:
    check_csrf(request, csrf)
    viewer = _account_viewer(request, session)
    if viewer is None:  # a guest's choice stays in the browser: only the page's script keeps it
        return RedirectResponse(PLAY_PAGE, status_code=303)
    if theme:  # a form from before the theme was a setting sends none: the stored one stays
        checked_theme(theme)  # refused before anything is kept
    set_confirm_moves(session, viewer.id, confirm_moves)
    if theme:
        set_theme(session, viewer.id, theme)
    return RedirectResponse(f"{PLAY_PAGE}?saved=1", status_code=303)
