"""Tournaments: create, list, read, join, withdraw, enter a bot; live changes on a socket.

Thin: each route calls ``TournamentService``; the background job does the pairing."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Challenger, Player, PublicDoor, Reader, declared
from app.http.errors import ERROR_RESPONSES
from app.http.paging import PAGED, PageRequest, link_next, paging
from app.http.ratelimit import rate_limit
from app.http.scopes import PUBLIC
from app.http.socket_door import accept, entered
from app.kernel.errors import Invalid
from app.match import GAME_RULES, Matches, TimeControl, UserOut
from app.protocol import TournamentMessage
from app.realtime.connection import answer_pings, run_jobs
from app.realtime.messages import forwarded, send
from app.tournaments.service import (
    LIST_CHANNEL,
    MAX_MINUTES,
    MAX_ROUNDS,
    TournamentJSON,
    TournamentLists,
    TournamentService,
    tournament_channel,
)

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", responses=ERROR_RESPONSES,
                   tags=["tournaments"])


class TournamentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={GAME_RULES: True})

    name: str = Field(default="", max_length=60, examples=["Friday Sight Swiss"])
    kind: Literal["swiss", "arena", "duplicate"] = Field(
        description="`swiss` (fixed rounds, two-player games), `arena` (a time window, "
                    "two-player games), `duplicate` (Town of Stairs: one deal per round at every table).")
    game: str = Field(examples=["sight"])
    options: dict[str, Any] = Field(default_factory=dict)
    time_control: TimeControl | None = None
    starts_at: datetime | None = Field(default=None, description="ISO time (UTC when no offset); "
                                       "omitted = now.")
    rounds: StrictInt | None = Field(default=None, ge=1, le=MAX_ROUNDS,
                                     description="Swiss and duplicate: the number of rounds.")
    minutes: float | None = Field(default=None, ge=0.1, le=MAX_MINUTES,
                                  description="Arena: how long it lasts.")
    rated: bool = False


class BotEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Literal["easy", "medium", "hard"] = "easy"


class TournamentSeatOut(BaseModel):
    seat: int | None = Field(description="0 moves first; null for a bye.")
    user: UserOut
    result: float | None = Field(description="1 win, 0.5 draw, 0 loss (duplicate: rank points).")
    points: float | None = Field(description="What the game adds to the standings.")
    berserk: bool = Field(default=False, description="Arena: went berserk (half the clock, no "
                          "increment; a win with 7+ own moves scores a point more).")


class TournamentGameOut(BaseModel):
    round: int = Field(description="0 in an arena.")
    board: int
    status: Literal["playing", "finished", "bye", "void"]
    match_id: str | None = Field(description="Null for a bye, or a duplicate table of a round "
                                 "still in play that you do not sit at.")
    url: str | None
    seats: list[TournamentSeatOut]


class StandingOut(BaseModel):
    rank: int
    user: UserOut
    score: float
    withdrawn: bool
    paused: bool = Field(default=False, description="Arena: not paired until they join again.")
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    games: int | None = None
    on_fire: bool | None = Field(default=None, description="Arena: the next win counts double.")


class RoundOut(BaseModel):
    number: int
    finished: bool
    deal: dict[str, Any] | None = Field(description="Duplicate: the round's deal, once every "
                                        "table has finished.")


class YouOut(BaseModel):
    joined: bool
    withdrawn: bool
    paused: bool = Field(default=False, description="Arena: you are not paired until you join "
                         "again (you pressed pause, or did not start your last game).")
    creator: bool


class TournamentSummaryOut(BaseModel):
    id: str
    name: str
    kind: str
    game: str
    options: dict[str, Any]
    time_control: dict[str, Any] | None
    rated: bool
    rounds: int | None
    minutes: int | None
    starts_at: str | None
    ends_at: str | None
    status: Literal["upcoming", "running", "finished"]
    round: int
    version: int
    created_by: UserOut | None
    url: str
    players: int = 0


class TournamentOut(TournamentSummaryOut):
    standings: list[StandingOut]
    games: list[TournamentGameOut]
    rounds_info: list[RoundOut]
    you: YouOut | None


class TournamentListOut(BaseModel):
    upcoming: list[TournamentSummaryOut]
    running: list[TournamentSummaryOut]
    finished: list[TournamentSummaryOut]


def _service(request: Request, session: SessionDep) -> TournamentService:
    return TournamentService(session, request.app.state.bus.publish)


@router.post("/tournaments", response_model=TournamentOut, status_code=201,
             dependencies=[Depends(rate_limit("matches"))])
def create_tournament(body: TournamentCreate, user: Challenger, request: Request,
                      session: SessionDep) -> TournamentJSON:
    """Create a tournament (accounts only; 403 `accounts_only`). Swiss and duplicate need
    `rounds`, an arena `minutes`; duplicate is for games whose deal can be fixed (Town of
    Stairs) and is never rated. Pairing starts at `starts_at`."""
    control = body.time_control.model_dump(exclude_none=True) if body.time_control else None
    return _service(request, session).create(
        user, name=body.name, kind=body.kind, game=body.game, options=body.options,
        time_control=control, starts_at=body.starts_at, rounds=body.rounds,
        minutes=body.minutes, rated=body.rated)


@router.get("/tournaments", response_model=TournamentListOut, dependencies=[PublicDoor],
            responses=PAGED)
def list_tournaments(request: Request, session: SessionDep, response: Response,
                     page: Annotated[PageRequest, Depends(paging())]) -> TournamentLists:
    """Upcoming (soonest first), running, and finished (latest first) tournaments, at most
    `limit` of each. The finished ones go on page after page: `Link` is the next page, which
    has the following finished tournaments alone (`upcoming` and `running` empty).
    Live changes: `WS /api/v1/tournaments/ws`."""
    after = page.after
    if after is not None and (len(after) != 2 or not all(isinstance(p, str) for p in after)):
        raise Invalid("That cursor belongs to another list.", code="invalid_cursor")
    lists = _service(request, session).list(page.limit + 1, (str(after[0]), str(after[1]))
                                            if after is not None else None)
    finished = lists["finished"]
    if len(finished) > page.limit:
        last = finished[page.limit - 1]
        link_next(request, response, (last["starts_at"] or "", last["id"]))
    lists["upcoming"], lists["running"] = lists["upcoming"][:page.limit], lists["running"][:page.limit]
    lists["finished"] = finished[:page.limit]
    return lists


@router.get("/tournaments/{tournament_id}", response_model=TournamentOut)
def get_tournament(tournament_id: str, viewer: Reader, request: Request,
                   session: SessionDep) -> TournamentJSON:
    """Standings (Swiss: score, Buchholz, Sonneborn–Berger; arena and duplicate: points) and
    every game with its link. Live changes: `WS /api/v1/tournaments/{id}/ws`."""
    return _service(request, session).get(tournament_id, viewer.id if viewer else None)


@router.post("/tournaments/{tournament_id}/join", response_model=TournamentOut)
def join_tournament(tournament_id: str, user: Challenger, request: Request,
                    session: SessionDep) -> TournamentJSON:
    """Enter (or re-enter after withdrawing, or come back after a pause). 409 `already_joined`,
    `tournament_finished`, `tournament_closed` (the last round is paired); 403
    `rated_needs_account`."""
    return _service(request, session).join(tournament_id, user)


@router.post("/tournaments/{tournament_id}/withdraw", response_model=TournamentOut)
def withdraw_from_tournament(tournament_id: str, user: Challenger, request: Request,
                             session: SessionDep) -> TournamentJSON:
    """Leave: before the start you are removed; after it you are paired no more (your games
    so far count). 409 `not_joined`."""
    return _service(request, session).withdraw(tournament_id, user)


@router.post("/tournaments/{tournament_id}/pause", response_model=TournamentOut)
def pause_in_tournament(tournament_id: str, user: Challenger, request: Request,
                        session: SessionDep) -> TournamentJSON:
    """Arena: step away. Your game in play goes on; you are paired again once you `join` again.
    A player whose arena game was aborted because they never made its first move is paused the
    same way. 409 `not_joined`, `not_an_arena`, `tournament_finished`."""
    return _service(request, session).pause(tournament_id, user)


@router.post("/tournaments/{tournament_id}/berserk", response_model=TournamentOut)
def berserk(tournament_id: str, user: Player, request: Request, session: SessionDep,
            matches: Matches) -> TournamentJSON:
    """Arena: go berserk in your game in play, before your first move: your clock is halved and
    has no increment; a win with at least 7 of your own moves scores one point more.
    409 `not_an_arena`, `no_game_in_play`, `cannot_berserk` (no real-time clock, moved already,
    or berserk already)."""
    return _service(request, session).berserk(tournament_id, user, matches)


@router.post("/tournaments/{tournament_id}/start", response_model=TournamentOut)
def start_tournament(tournament_id: str, user: Challenger, request: Request,
                     session: SessionDep) -> TournamentJSON:
    """The creator starts an upcoming tournament now instead of at its start time (an arena
    keeps its length). 403 `not_creator`, 409 `already_started`."""
    return _service(request, session).start_now(tournament_id, user)


@router.post("/tournaments/{tournament_id}/bots", response_model=TournamentOut)
def enter_bot(tournament_id: str, body: BotEntry, user: Challenger, request: Request,
              session: SessionDep) -> TournamentJSON:
    """The creator enters a built-in bot (each level is one player). 403 `not_creator`."""
    return _service(request, session).add_bot(tournament_id, user, body.level)


async def _forward(websocket: WebSocket, channel: str) -> None:
    """Send each change on ``channel`` (`{"type": "tournament", id, status, round, version}`);
    the client reads the tournament again."""
    async with entered(websocket, PUBLIC) as live:
        if live is not None:
            await _forward_changes(websocket, channel)


async def _forward_changes(websocket: WebSocket, channel: str) -> None:
    async with websocket.app.state.bus.subscribe(channel) as changes:
        if not await accept(websocket):
            return

        async def forward() -> None:
            async for message in changes:
                if message.get("type") == "tournament":  # after a resync: on the next change
                    await send(websocket, forwarded(message, TournamentMessage))

        await run_jobs(websocket, forward, lambda: answer_pings(websocket))


@router.websocket("/tournaments/ws", dependencies=[Depends(declared(PUBLIC))])
async def tournaments_socket(websocket: WebSocket) -> None:
    """Every tournament change, for the list page."""
    await _forward(websocket, LIST_CHANNEL)


@router.websocket("/tournaments/{tournament_id}/ws", dependencies=[Depends(declared(PUBLIC))])
async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
    """One tournament's changes: a player joined or left, a game ended, a round was paired."""
    await _forward(websocket, tournament_channel(tournament_id))


