"""`GET /api/v1/me/games`: the caller's matches in play, theirs to move first — what the header's
"my games" count and list show (live changes come as `yourTurn` on the account event stream)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import SignedInReader
from app.people import games_in_play

router = APIRouter(route_class=OneHopRoute, tags=["identity"])  # included under /api/v1


@router.get("/me/games")
def my_games(user: SignedInReader, session: SessionDep) -> list[dict[str, Any]]:
    """Your matches waiting or in play: `{id, game, status, your_turn, opponents}`, the ones
    waiting for your move first."""
    return games_in_play(session, user.id)
