"""The account's notifications page: this device's opt-in button, the devices that receive web
push (each removable), and the switch of each notification kind. The device list and the
switches are also forms, so they work without scripts; opting in needs the script (the browser's
permission prompt and ``PushManager.subscribe`` are scripts' APIs), and asks only after a click.
"""

from __future__ import annotations

import contextlib
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.schemas import RowId
from app.kernel.errors import NotFound
from app.kernel.i18n import N_
from app.mail import mail_enabled
from app.notices.preferences import DEFAULTS, KINDS, preferences_of, set_preferences
from app.notices.push_subscriptions import devices, unsubscribe
from app.web.forms import check_csrf, page_viewer
from app.web.templating import render

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])
PAGE = "/account/notifications"

KIND_LABELS = {
    "yourTurn": N_("Your turn (when no page of that game is open)"),
    "challenge": N_("A challenge to you"),
    "gameOver": N_("A game of yours ended"),
    "tournament": N_("A tournament game of yours starts"),
    "clockReminder": N_("A correspondence clock of yours is running out"),
    "followedGame": N_("A person you follow started a game (when you asked to hear of them)"),
}


@router.get(PAGE)
def notifications_page(request: Request, session: SessionDep) -> Response:
    """Devices and switches of the signed-in person."""
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse(f"/login?next={PAGE}", status_code=303)
    mail_kinds = list(DEFAULTS["mail"]) if mail_enabled(request.app.state.settings) else []
    return render(request, "account_notifications.html", devices=devices(session, viewer.id),
                  preferences=preferences_of(session, viewer.id), kinds=KINDS,
                  mail_kinds=mail_kinds, kind_labels=KIND_LABELS)


@router.post(f"{PAGE}/devices/{{subscription_id}}/remove")
def remove_device(subscription_id: RowId, request: Request, session: SessionDep,
                  csrf: str = Form("")) -> Response:
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse(f"/login?next={PAGE}", status_code=303)
    with contextlib.suppress(NotFound):  # removed already (another tab): the list shows the rest
        unsubscribe(session, viewer.id, subscription_id)
    return RedirectResponse(PAGE, status_code=303)


@router.post(f"{PAGE}/switches")
def save_switches(request: Request, session: SessionDep, csrf: str = Form(""),
                  push: Annotated[list[str] | None, Form()] = None,
                  mail: Annotated[list[str] | None, Form()] = None) -> Response:
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse(f"/login?next={PAGE}", status_code=303)
    pushed, mailed = set(push or []), set(mail or [])
    changes: dict[str, dict[str, bool]] = {"push": {kind: kind in pushed for kind in KINDS}}
    if mail_enabled(request.app.state.settings):
        changes["mail"] = {kind: kind in mailed for kind in DEFAULTS["mail"]}
    set_preferences(session, viewer.id, changes)
    return RedirectResponse(f"{PAGE}?saved=1", status_code=303)
