"""The puzzle pages: ``/puzzles`` (Stairs first), ``/puzzles/<game>`` (the next puzzle of a
game) and ``/puzzle/<id>``. The page's first render carries the position and never the
solution: the script asks the attempts API move by move, and for the solution only when the
person asks for it or has finished."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.kernel import i18n
from app.kernel.errors import NotFound
from app.puzzles.mine import puzzle_game
from app.puzzles.service import RATED_KIND, PuzzleService, puzzle_json
from app.web.forms import page_viewer
from app.web.templating import render
from games import registry

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])
PUZZLE_GAMES = ("stairs", "sight", "scalas")


def _game(game_id: str) -> str:
    if puzzle_game(game_id) is None:
        raise NotFound(i18n.gettext("There is no such game."), code="no_game")
    return game_id


@router.get("/puzzles")
def puzzles_index() -> Response:
    return RedirectResponse(f"/puzzles/{PUZZLE_GAMES[0]}", status_code=303)


@router.get("/puzzles/{game_id}")
def next_puzzle_page(game_id: str, request: Request, session: SessionDep,
                     after: int | None = None) -> Response:
    viewer = page_viewer(request, session)
    found = PuzzleService(session).next_for(_game(game_id), viewer, after)
    return RedirectResponse(f"/puzzle/{found['id']}", status_code=303)


@router.get("/puzzle/{puzzle_id}")
def puzzle_page(puzzle_id: int, request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    service = PuzzleService(session)
    puzzle = puzzle_json(service.get(puzzle_id), solution=False)
    game = registry.get(puzzle["game"])
    rating = (service.rating(viewer.id, game.id)
              if viewer is not None and viewer.kind == RATED_KIND else None)
    return render(request, "puzzle.html", puzzle=puzzle, game=game.describe(), rating=rating,
                  games=[registry.get(g).describe() for g in PUZZLE_GAMES])
