"""The moderators' page: reported chat lines with their match, newest first.

Only accounts with ``users.is_moderator`` see it (grant it with
``python -m app.chat.reports grant <username>``); everyone else gets 403.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.chat.reports import recent_reports
from app.chat.service import is_moderator
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.kernel.errors import Forbidden
from app.web.forms import page_viewer
from app.web.templating import render

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])


@router.get("/mod/reports")
def reports_page(request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    if viewer is None or not is_moderator(session, viewer.id):
        raise Forbidden("This page is for moderators.", code="not_a_moderator")
    return render(request, "moderation.html", reports=recent_reports(session))
