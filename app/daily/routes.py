"""The daily duplicate deal over the API: today's deals with their standings, and playing one.

Thin: each route calls ``DailyService``; the background job reveals the deals."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.daily.service import DailyJSON, DailyService, DealJSON
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Player, Reader
from app.http.errors import ERROR_RESPONSES
from app.http.ratelimit import rate_limit

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", responses=ERROR_RESPONSES,
                   tags=["daily"])


class DailyPlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: StrictInt = Field(ge=2, le=4, description="2, 3 or 4: one deal a day for each.")
    seat: StrictInt = Field(default=0, ge=0, le=3, description="Your seat (0 moves first); the "
                            "others are easy bots.")


class DailyYouOut(BaseModel):
    match_id: str
    seat: int
    status: str = Field(description="Your match's status: `active`, `finished`, `aborted`.")
    score: int | None
    counted: bool = Field(description="Whether your game counts: it ended before the day did.")
    rank: int | None = Field(description="1 + how many counted players scored more.")
    percentile: float | None = Field(description="The share of the other counted players you "
                                     "beat, a tie counting half, in percent (null: nobody else "
                                     "yet).")


class DailyPlayerOut(BaseModel):
    id: int
    name: str
    kind: str


class DailyEntryOut(BaseModel):
    rank: int
    user: DailyPlayerOut
    seat: int
    score: int
    match_id: str | None = Field(description="The game, once the day has ended (yours at once).")


class DailyScoreCountOut(BaseModel):
    score: int
    players: int


class DailyRevealedOut(BaseModel):
    path_deck: list[str]
    event_deck: list[str]
    start_cards: list[int] = Field(description="Seat by seat.")
    seed: str


class DailyDealOut(BaseModel):
    game: Literal["town"]
    day: str = Field(examples=["2026-11-26"])
    players: int
    ends_at: str
    revealed: bool = Field(description="The day has ended: the deal and every game are open.")
    entries: int
    finished: int
    you: DailyYouOut | None
    distribution: list[DailyScoreCountOut] | None = Field(
        description="How many counted players made each score; null until you have finished "
                    "(or the day has ended).")
    standings: list[DailyEntryOut] | None = Field(description="Counted games, best first; "
                                                  "null as `distribution`.")
    deal: DailyRevealedOut | None = Field(description="The cards, once revealed.")


class DailyOut(BaseModel):
    game: Literal["town"]
    day: str
    ends_at: str
    deals: list[DailyDealOut]


def _service(request: Request, session: SessionDep) -> DailyService:
    return DailyService(session, request.app.state.match_publisher)


@router.get("/daily/town", response_model=DailyOut)
def daily_town(viewer: Reader, request: Request, session: SessionDep,
               day: str | None = Query(default=None, pattern=r"^\d{4}-\d{2}-\d{2}$",
                                       description="A past UTC day (default: today).")
               ) -> DailyJSON:
    """Today's daily duplicate Town deals, one per player count (2–4): how many have played,
    your game, and — once you have finished yours, or for everyone once the day ends (UTC) —
    the score distribution and the standings with your rank and percentile. Every game of a
    deal is sealed (403 `match_sealed` to all but its player) until the day ends; then the deal
    and the games are revealed."""
    return _service(request, session).day(viewer.id if viewer else None, day)


@router.post("/daily/town/play", response_model=DailyDealOut, status_code=201,
             dependencies=[Depends(rate_limit("matches"))])
def play_daily_town(body: DailyPlayIn, user: Player, request: Request,
                    session: SessionDep) -> DealJSON:
    """Start your game on today's deal for `players`, from `seat`, against easy bots (who
    answer the same position the same way at every table). One attempt per person, day and
    player count: 409 `daily_played`. 422 `invalid_seat` for a seat past the table. The match
    (`you.match_id`) is played as any other."""
    return _service(request, session).play(user, body.players, body.seat)
