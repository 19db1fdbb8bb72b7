"""What luck did in a finished Town game, over the API. Thin: ``LuckService`` reads it."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Reader
from app.luck.service import LuckJSON, LuckService

router = APIRouter(route_class=OneHopRoute, tags=["matches"])


class LuckSeatOut(BaseModel):
    seat: int
    start_card: int | None = Field(description="The seat's start card (public once the game "
                                   "is over).")
    scored: int = Field(description="What the seat scored in the game.")
    full_sight: int = Field(description="What a bot that sees every secret (both deck orders "
                            "and every start card) scored from this seat of the same deal, "
                            "easy bots in the other seats.")
    difference: int = Field(description="`scored` − `full_sight`.")


class LuckOut(BaseModel):
    match_id: str
    status: Literal["pending", "done", "failed"] = Field(
        description="`pending` while the worker computes it (a few seconds to a minute after "
                    "the game ends).")
    iterations: int | None = Field(description="Search iterations per move of the bot that "
                                   "sees every secret.")
    opponent: Literal["easy"] | None = Field(description="The bot level in the other seats.")
    seats: list[LuckSeatOut] | None


@router.get("/matches/{match_id}/luck", response_model=LuckOut)
def match_luck(match_id: str, viewer: Reader, session: SessionDep) -> LuckJSON:
    """What luck did in a finished Town of Stairs game: per seat, what the seat scored beside
    what a bot that sees every secret scored from the same seat of the same deal. Computed in
    the background once the game ends (`status` `pending` until then). 409 `match_not_over`
    before the game ends, 409 `no_luck_report` for another game or one ended by resignation or
    time-out; 403 `match_sealed` while the game is sealed (a duplicate table or a daily deal
    until its day ends), to everyone: the report replays the deal."""
    return LuckService(session).read(match_id, viewer.id if viewer else None)
