"""The analysis board page, /analysis/<game>. Everything it shows comes from the
stateless board API (app/analysis/routes.py); the query string is the shareable position:
``?moves=c3-d4,e5-d4`` plus ``players``, ``seed``, ``options`` (JSON) or ``match``."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse

from app.accounts import board_confirm_moves
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.kernel import i18n
from app.kernel.errors import NotFound
from app.web.forms import page_viewer
from app.web.templating import render
from games import registry

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])


@router.get("/analysis")
def analysis_index() -> Response:
    return RedirectResponse(f"/analysis/{registry.first().id}", status_code=303)


@router.get("/analysis/{game_id}")
def analysis_page(game_id: str, request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(i18n.gettext("There is no such game."), code="no_game") from None
    return render(request, "analysis.html", game=game.describe(),
                  games=[g.describe() for g in registry.all_games()],
                  confirm_moves=board_confirm_moves(session, viewer))
