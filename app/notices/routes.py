"""`GET /api/v1/me/games`: the caller's matches in play, theirs to move first — what the header's
"my games" count and list show (live changes come as `yourTurn` on the account event stream)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import SignedInReader
from app.http.paging import PAGED, PageRequest, link_next, page_of, paging
from app.people import GameInPlay, GameInPlayOut, games_in_play, in_play_key

router = APIRouter(route_class=OneHopRoute, tags=["identity"])  # included under /api/v1


@router.get("/me/games", response_model=list[GameInPlayOut], responses=PAGED)
def my_games(user: SignedInReader, session: SessionDep, request: Request, response: Response,
             page: Annotated[PageRequest, Depends(paging())]) -> list[GameInPlay]:
    """Your matches waiting or in play: `{id, game, status, your_turn, opponents, updated_at}`,
    the ones waiting for your move first, then the most recently changed; a page at a time
    (`Link` to the next)."""
    games, following = page_of(games_in_play(session, user.id, limit=None), in_play_key, page)
    link_next(request, response, following)
    return games
