"""``/api/v1/matches/{id}/conditional``: a seat's own conditional moves (app/match/conditionals.py).

Through the gate with the ``play`` scope; only the seat's holder reads or changes them (anyone
else: 403 ``not_a_player``), so they never reach the opponent or a spectator.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Player
from app.http.ratelimit import rate_limit
from app.match import conditionals

router = APIRouter(route_class=OneHopRoute, tags=["matches"])

Move = Annotated[str, Field(min_length=1, max_length=40)]
Line = Annotated[list[Move], Field(min_length=1, max_length=conditionals.MAX_PLIES)]


class ConditionalIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ply: StrictInt = Field(ge=0, description=(
        "The match's current ply: the lines are checked from that position (409 `stale_ply` "
        "if the match moved on)."))
    lines: list[Line] = Field(
        max_length=conditionals.MAX_LINES, examples=[[["d1-c1", "a1-b1"], ["d1-e1", "c1-d1"]]],
        description=(
            f"Each line: the opponent's move, your reply, and so on (2 to "
            f"{conditionals.MAX_PLIES} plies, ending with your reply), in the game's notation. "
            "An empty list removes them all."))


class ConditionalOut(BaseModel):
    ply: int = Field(ge=0, description="The ply the lines start from (the match's current ply).")
    lines: list[list[str]] = Field(description="Your lines, in canonical notation.")


@router.get("/matches/{match_id}/conditional", response_model=ConditionalOut)
def get_conditional(match_id: str, user: Player, session: SessionDep) -> dict[str, Any]:
    """Your conditional moves in this correspondence game (Stairs, Sight, Scalas): private,
    never shown to anyone else. Lines the game has left are gone."""
    return conditionals.read(session, match_id, user)


@router.put("/matches/{match_id}/conditional", response_model=ConditionalOut,
            dependencies=[Depends(rate_limit("moves"))])
def put_conditional(match_id: str, body: ConditionalIn, user: Player,
                    session: SessionDep) -> dict[str, Any]:
    """Replace your conditional moves: "if they play X, I reply Y", a few plies deep. Each line
    is checked move by move from the current position (422 `illegal_conditional` with the line
    and the reason; `conflicting_conditionals` when two lines answer the same moves
    differently). Only while your opponent is to move (409 `your_turn`). When the opponent plays
    a line's move, its reply is played at once in the same commit; lines the game leaves are
    dropped, and all of them on a takeback or at the end of the game."""
    return conditionals.write(session, match_id, user, body.ply, body.lines)


@router.delete("/matches/{match_id}/conditional", response_model=ConditionalOut)
def delete_conditional(match_id: str, user: Player, session: SessionDep) -> dict[str, Any]:
    """Remove all your conditional moves in this match."""
    return conditionals.write_empty(session, match_id, user)
