"""``POST /api/v1/matches/{id}/why``: why a tapped square or slot is not a legal move (thin)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import SignedInReader
from app.http.ratelimit import rate_limit
from app.match import why
from app.match.why import WhyAnswer

router = APIRouter(route_class=OneHopRoute, tags=["matches"])


class WhyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str = Field(min_length=1, max_length=40, examples=["b3-c4", "b3", "P3@c2"],
                      description="A move, or the first part of a two-tap move (a piece).")


class ReasonOut(BaseModel):
    code: str = Field(examples=["lower_piece_first"])
    params: dict[str, Any] = Field(examples=[{"squares": "b2"}])


class WhyOut(BaseModel):
    legal: bool
    move: str
    code: str | None = Field(default=None, description="`illegal_move` when not legal.")
    message: str | None = Field(default=None, description="The reason in your language.")
    reason: ReasonOut | None = Field(default=None, description="The reason's code and values: "
                                     "the game's words give its wording in any language.")


@router.post("/matches/{match_id}/why", response_model=WhyOut, response_model_exclude_none=True,
             dependencies=[Depends(rate_limit("moves"))])
def why_not(match_id: str, body: WhyIn, user: SignedInReader, session: SessionDep) -> WhyAnswer:
    """Would `move` be legal for you now, and if not, why (in your language)? Changes nothing;
    the answer for a move the match would refuse is the same reason a refused move carries.
    Only the player to move may ask (403 `not_a_player` / `not_your_turn`)."""
    return why.why_not(session, match_id, user, body.move)
