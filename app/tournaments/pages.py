"""Tournament pages: the list (upcoming, running, finished; accounts create from it) and one
tournament (live standings, pairings with links, join and withdraw). The pages are drawn by
static/js/tournament*.js from the API, so the socket's changes redraw them the same way."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.kernel import i18n
from app.tournaments.service import TournamentService, deal_options
from app.web.forms import page_viewer
from app.web.templating import render
from games import registry

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])

KIND_LABELS = {"swiss": i18n.N_("Swiss"), "arena": i18n.N_("Arena"),
               "duplicate": i18n.N_("Duplicate")}


def _games_by_kind() -> dict[str, list[str]]:
    """Which games each kind of tournament can use (for the create form)."""
    two = [g.id for g in registry.all_games() if g.min_players <= 2]
    return {"swiss": two, "arena": two,
            "duplicate": [g.id for g in registry.all_games() if deal_options(g.id)]}


@router.get("/tournaments")
def tournaments_page(request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    return render(request, "tournaments.html",
                  tournaments=TournamentService(session).list(),
                  kinds={k: i18n.gettext(v) for k, v in KIND_LABELS.items()},
                  games_by_kind=_games_by_kind(),
                  can_create=viewer is not None and viewer.kind == "account")


@router.get("/tournaments/{tournament_id}")
def tournament_page(tournament_id: str, request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    tournament = TournamentService(session).get(tournament_id, viewer.id if viewer else None)
    return render(request, "tournament.html", tournament=tournament,
                  kinds={k: i18n.gettext(v) for k, v in KIND_LABELS.items()})
