"""The puzzles' REST API under ``/api/v1/puzzles``: the next puzzle of a game, the daily one,
a puzzle by id (with its move list from the start and its solution tree), a hint, and an
attempt. Anyone may solve; an attempt rates only an account whose credential may play (a
browser session, or a token with the ``play`` scope): a read-only token's attempts are judged,
never rated."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http import scopes
from app.http.doors import Reader
from app.http.ratelimit import rate_limit
from app.kernel.errors import NotFound
from app.kernel.identity import Identity
from app.puzzles.service import AttemptJSON, PuzzleJSON, PuzzleService, puzzle_json

router = APIRouter(route_class=OneHopRoute, tags=["puzzles"])
MAX_LINE = 64


class PuzzleOut(BaseModel):
    """A puzzle: the position is `game`, `options` and `moves` played from the start; `seat`
    is the side to move (the solver). `solution` (by id only): the whole proof — a node is
    `{"move", "next"}` (the solver's move; `"forced": true` when the rules play it),
    `{"replies": {defence: node}}` (every defence, each answered) or `{}` (the goal)."""

    id: int
    game: str
    options: dict[str, Any]
    players: int
    rules_version: int
    moves: list[str]
    seat: int
    goal: str = Field(description="`win`: a forced win; `gain`: a decisive gain of the score")
    plies: int = Field(description="plies of choice the proof needs (both sides')")
    themes: list[str]
    rating: float
    attempts: int
    solved: int
    source: str = Field(description="`game` (mined from a finished match) or `selfplay`")
    match_id: str | None
    solution: dict[str, Any] | None = None


class PuzzleAttemptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    moves: list[str] = Field(max_length=MAX_LINE, description=(
        "every ply played from the puzzle's position: the solver's moves, the defences and "
        "forced moves the server answered (any defence of the solution may be played instead)"))
    gave_up: bool = Field(False, description="the solution was asked for: a failed attempt")


class PuzzleRatingChangeOut(BaseModel):
    before: float
    after: float
    change: float


class PuzzleAttemptOut(BaseModel):
    status: str = Field(description="`continue` (your move), `correct` or `incorrect`")
    reply: list[str] = Field(description="plies the server plays next: append them to `moves`")
    rated: bool
    rating: PuzzleRatingChangeOut | None = Field(description="your puzzle rating in this game")
    puzzle_rating: PuzzleRatingChangeOut | None


class PuzzleHintIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    moves: list[str] = Field(max_length=MAX_LINE)


class PuzzleHintOut(BaseModel):
    square: str = Field(description="the square the next move starts from (or is played on)")


def may_rate(viewer: Identity | None) -> Identity | None:
    """The viewer when their credential may change their rating (the ``play`` scope)."""
    if viewer is None or (viewer.scopes is not None and scopes.PLAY not in viewer.scopes):
        return None
    return viewer


@router.get("/puzzles/next", response_model=PuzzleOut)
def next_puzzle(session: SessionDep, viewer: Reader,
                game: str = Query(..., description="stairs, sight or scalas"),
                after: int | None = Query(None, description="not this puzzle again")) -> PuzzleJSON:
    """A puzzle of `game` (no solution): for an account, one it has not tried, near its rating."""
    return PuzzleService(session).next_for(game, may_rate(viewer), after)


@router.get("/puzzles/daily", response_model=PuzzleOut)
def daily_puzzle(session: SessionDep, viewer: Reader) -> PuzzleJSON:
    """Today's puzzle (UTC), the same for everyone; no solution."""
    puzzle = PuzzleService(session).daily()
    if puzzle is None:
        raise NotFound("There is no puzzle yet.", code="no_puzzle")
    return puzzle_json(puzzle, solution=False)


@router.get("/puzzles/{puzzle_id}", response_model=PuzzleOut)
def get_puzzle(puzzle_id: int, session: SessionDep, viewer: Reader) -> PuzzleJSON:
    """A puzzle with its move list from the start and its whole solution tree."""
    return PuzzleService(session).show(puzzle_id, solution=True)


@router.post("/puzzles/{puzzle_id}/attempts", response_model=PuzzleAttemptOut,
             dependencies=[Depends(rate_limit("board"))])
def attempt(puzzle_id: int, body: PuzzleAttemptIn, session: SessionDep, viewer: Reader) -> AttemptJSON:
    """Judge the moves played; a finished first attempt moves both ratings (accounts only)."""
    return PuzzleService(session).attempt(puzzle_id, body.moves, may_rate(viewer), body.gave_up)


@router.post("/puzzles/{puzzle_id}/hint", response_model=PuzzleHintOut,
             dependencies=[Depends(rate_limit("board"))])
def hint(puzzle_id: int, body: PuzzleHintIn, session: SessionDep, viewer: Reader) -> dict[str, str]:
    """Where the solver's next move starts, after `moves`."""
    return {"square": PuzzleService(session).hint(puzzle_id, body.moves)}
