"""The daily deal's page: today's Town deals by player count, your game, your rank and percentile
and the score distribution once you have finished, yesterday's revealed deals; its form starts a
game (a visitor becomes a guest with a name, as on the home page)."""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.accounts import ensure_user
from app.daily.service import DailyService, day_of
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.ratelimit import limiter_for
from app.kernel import timesource
from app.kernel.errors import Invalid
from app.web.forms import check_csrf, form_int, page_viewer
from app.web.templating import render

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])


@router.get("/daily")
def daily_page(request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    service = DailyService(session, request.app.state.match_publisher)
    viewer_id = viewer.id if viewer else None
    today = service.day(viewer_id)
    yesterday = service.day(viewer_id, day_of(timesource.now() - timedelta(days=1)))
    return render(request, "daily.html", today=today,
                  yesterday=[d for d in yesterday["deals"] if d["entries"]])


@router.post("/daily/play")
def play_from_form(request: Request, session: SessionDep, csrf: str = Form(""),
                   name: str = Form(""), players: str = Form("4"),
                   seat: str = Form("0")) -> Response:
    check_csrf(request, csrf)
    user = ensure_user(request, session, name)
    count = form_int(players, minimum=2)
    chosen = form_int(seat, minimum=0)
    if count is None or chosen is None:
        raise Invalid("Choose the players and your seat.", code="invalid_options")
    limiter_for(request.app).enforce("matches", f"u:{user.id}", request)
    deal = DailyService(session, request.app.state.match_publisher).play(user, count, chosen)
    assert deal["you"] is not None
    return RedirectResponse(f"/m/{deal['you']['match_id']}", status_code=303)
