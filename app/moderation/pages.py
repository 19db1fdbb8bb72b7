"""The moderators' page (``/mod/reports``: the queue of reports with each line in context, the
acts on a line or its author, the log) and the page where a person reads the acts that concern
them (``/account/moderation``).

The moderators' page and its forms pass the ``ModeratorPageDoor``: a browser session whose
person is a moderator, asked of the database on every request (403 otherwise); its forms are
CSRF-checked by the door like every cookie write.
"""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.chat import OPEN, RESOLVED
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import ModeratorPageDoor, PageDoor
from app.http.schemas import RowId
from app.kernel import i18n
from app.kernel.identity import Identity
from app.match import Matches
from app.moderation.routes import moderation_service
from app.moderation.service import ACTION_LABELS, MAX_MUTE_MINUTES, notices_for
from app.web.forms import form_int, page_viewer
from app.web.templating import render

router = APIRouter(route_class=OneHopRoute, include_in_schema=False,
                   dependencies=[ModeratorPageDoor])
person_router = APIRouter(route_class=OneHopRoute, include_in_schema=False,
                          dependencies=[PageDoor])

BACK = "/mod/reports"
MUTE_CHOICES = ((10, i18n.N_("10 minutes")), (60, i18n.N_("1 hour")),
                (24 * 60, i18n.N_("1 day")), (7 * 24 * 60, i18n.N_("7 days")))
"""How long a mute may last, as the page offers it: (minutes, label)."""
RESOLVED_SHOWN = 20
LOG_SHOWN = 50


def _back() -> Response:
    return RedirectResponse(BACK, status_code=303)


def _moderator(request: Request, session: SessionDep) -> Identity:
    viewer = page_viewer(request, session)
    assert viewer is not None  # the door refuses anonymous callers
    return viewer


@router.get("/mod/reports")
def moderation_page(request: Request, session: SessionDep, matches: Matches) -> Response:
    page_viewer(request, session)
    service = moderation_service(request, session, matches)
    return render(request, "moderation.html", reports=service.queue(OPEN),
                  resolved=service.queue(RESOLVED)[:RESOLVED_SHOWN],
                  log=service.log(limit=LOG_SHOWN), mute_choices=MUTE_CHOICES,
                  action_labels=ACTION_LABELS)


@router.post("/mod/lines/{line_id}/hide")
def hide_from_form(line_id: RowId, request: Request, session: SessionDep, matches: Matches,
                   reason: str = Form("")) -> Response:
    moderation_service(request, session, matches).hide_line(_moderator(request, session),
                                                            line_id, reason)
    return _back()


@router.post("/mod/reports/{report_id}/dismiss")
def dismiss_from_form(report_id: RowId, request: Request, session: SessionDep, matches: Matches,
                      reason: str = Form("")) -> Response:
    moderation_service(request, session, matches).dismiss(_moderator(request, session),
                                                          report_id, reason)
    return _back()


@router.post("/mod/users/{user_id}/mute")
def mute_from_form(user_id: RowId, request: Request, session: SessionDep, matches: Matches,
                   reason: str = Form(""), minutes: str = Form("")) -> Response:
    chosen = form_int(minutes, minimum=1) or 0
    moderation_service(request, session, matches).mute(
        _moderator(request, session), user_id, min(chosen, MAX_MUTE_MINUTES), reason)
    return _back()


@router.post("/mod/users/{user_id}/unmute")
def unmute_from_form(user_id: RowId, request: Request, session: SessionDep, matches: Matches,
                     reason: str = Form("")) -> Response:
    moderation_service(request, session, matches).unmute(_moderator(request, session), user_id,
                                                         reason)
    return _back()


@router.post("/mod/users/{user_id}/close")
def close_from_form(user_id: RowId, request: Request, session: SessionDep, matches: Matches,
                    reason: str = Form("")) -> Response:
    moderation_service(request, session, matches).close(_moderator(request, session), user_id,
                                                        reason)
    return _back()


@person_router.get("/account/moderation")
def my_notices_page(request: Request, session: SessionDep) -> Response:
    """The moderators' acts that concern the visitor: what, why, when."""
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse("/login?next=/account/moderation", status_code=303)
    return render(request, "account_moderation.html", notices=notices_for(session, viewer.id),
                  action_labels=ACTION_LABELS)
