"""Vacation through the API (``/api/v1/me/vacation``) and the account page's form
(``POST /account/vacation``); the rules are in app/match/vacation.py."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor, Player, SignedInReader
from app.kernel.errors import Conflict
from app.match import vacation
from app.match.vacation import VacationJSON
from app.web.forms import check_csrf, page_viewer

router = APIRouter(route_class=OneHopRoute, tags=["identity"])
page_router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])


class VacationOut(BaseModel):
    on_vacation: bool
    since: str | None = Field(description="When the running vacation started.")
    ends_at: str | None = Field(description=(
        "When the running vacation ends by itself: the year's allowance is used up then."))
    used_days: float = Field(description="Days used this calendar year (the running one included).")
    allowance_days: float = Field(description="Days of vacation a year.")
    left_days: float


def _days(request: Request) -> float:
    return float(request.app.state.settings.vacation_days_per_year)


@router.get("/me/vacation", response_model=VacationOut)
def get_vacation(request: Request, user: SignedInReader, session: SessionDep) -> VacationJSON:
    """Your vacation: while it runs your correspondence clocks stand still (your opponents see
    a `vacation` marker on your seat)."""
    return vacation.status(session, user.id, _days(request)).to_json()


@router.post("/me/vacation", response_model=VacationOut)
def start_vacation(request: Request, user: Player, session: SessionDep) -> VacationJSON:
    """Go on vacation: your correspondence clocks stop until you come back or this year's days
    are used up (409 `already_on_vacation`, `no_vacation_left`)."""
    publish = request.app.state.match_publisher
    return vacation.start(session, publish, user.id, _days(request)).to_json()


@router.delete("/me/vacation", response_model=VacationOut)
def end_vacation(request: Request, user: Player, session: SessionDep) -> VacationJSON:
    """Come back from vacation: your clocks run on from where they stood (409
    `not_on_vacation`)."""
    publish = request.app.state.match_publisher
    return vacation.end(session, publish, user.id, _days(request)).to_json()


@page_router.post("/account/vacation")
def vacation_form(request: Request, session: SessionDep, csrf: str = Form(""),
                  action: str = Form("")) -> Response:
    """The account page's start/end button; back to the account page either way."""
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse("/login?next=/account/tokens", status_code=303)
    publish = request.app.state.match_publisher
    try:
        if action == "start":
            vacation.start(session, publish, viewer.id, _days(request))
        elif action == "end":
            vacation.end(session, publish, viewer.id, _days(request))
    except Conflict:
        pass  # already as asked (a second tab, a double click): the page shows the state
    return RedirectResponse("/account/tokens#vacation", status_code=303)
