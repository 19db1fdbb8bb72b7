"""Computer analysis, the analysis board and hints, under /api/v1 (app/match/routes.py
includes this router). Thin: the rules live in app/analysis/."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from app.analysis import board, compute, pool, signed
from app.analysis.hints import hint_position
from app.analysis.service import ANALYSIS_CHANNEL, AnalysisJSON, AnalysisService, event
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Player, PublicDoor, Reader
from app.http.errors import ERROR_RESPONSES
from app.http.ratelimit import rate_limit
from app.http.schemas import Alternative, one_of
from app.kernel.errors import Conflict, Invalid
from app.match import GAME_RULES, GAME_VIEW, PreviewAnswer, PreviewOut, parse_seed
from app.realtime.bus import match_channel

SEED_DESCRIPTION = (
    "The seed that deals the start (games with chance): a decimal string of up to 78 digits "
    "(seeds reach 2**256; a match's is 128 bits, too large for a JSON number), or an integer up "
    "to 2**53. Answers always write a seed as a decimal string.")

router = APIRouter(route_class=OneHopRoute, responses=ERROR_RESPONSES,
                   tags=["analysis"])


class AnalysisOut(BaseModel):
    match_id: str
    status: str = Field(description="queued | running | done | failed")
    progress: int = Field(description="positions evaluated so far")
    total: int = Field(description="positions to evaluate (moves + 1)")
    budget: int = Field(description="search iterations per position")
    runs: int = Field(description="how many times a job started this analysis (1 normally)")
    result: dict[str, Any] | None = Field(
        description="once done: {game, positions: [{ply, to_move, values, value, proven, best}], "
                    "moves: [{ply, seat, move, drop, mark, best, best_view?}], counts}")


STATE_EXCLUDES = ("match", "players", "options", "seed", "rules_version")
"""What a signed state replaces (``moves`` too): sent with one, they are refused."""
MATCH_EXCLUDES = ("players", "options", "seed", "rules_version")
"""What a match's start fixes itself: sent with ``match``, they are refused."""


class BoardIn(BaseModel):
    """A position: a match's start (``match``) or a described one (``game``, ``players``,
    ``options``, ``seed``), then ``moves``; or a ``state`` the server signed (every answer
    carries one), alone or with ``game`` (which must be the token's). ``move`` is played on top
    when given."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda schema: one_of(schema, [
        Alternative("BoardFromState", needs=("state",), leaves_out=STATE_EXCLUDES,
                    fixes={"moves": {"type": "array", "items": {"type": "string"}, "maxItems": 0}}),
        Alternative("BoardFromMatch", needs=("match",), leaves_out=("state", *MATCH_EXCLUDES)),
        Alternative("BoardFromGame", needs=("game",), leaves_out=("state", "match"),
                    marks={GAME_RULES: True})]))

    game: str | None = Field(default=None, max_length=20, examples=["stairs"])
    players: StrictInt | None = Field(default=None, ge=1, le=8)
    options: dict[str, Any] | None = None
    seed: Annotated[StrictInt, Field(ge=0, le=2**53)] | Annotated[
        str, Field(pattern=r"^[0-9]{1,78}$")] | None = Field(
        default=None, description=SEED_DESCRIPTION, examples=["340282366920938463463374607431768211455"])
    rules_version: StrictInt | None = Field(
        default=None, ge=1, le=1000, description="The game's rules version the described start "
        "is played under (a game record's `Rules` tag); default: the current rules.")
    match: str | None = Field(default=None, max_length=12)
    moves: list[str] = Field(default_factory=list, max_length=board.MAX_MOVES)
    move: str | None = Field(default=None, min_length=1, max_length=40)
    state: str | None = Field(default=None, min_length=1, max_length=signed.MAX_TOKEN,
                              description="a signed state from an earlier answer, instead of "
                                          "match/players/options/seed/rules_version/moves")

    @field_validator("seed")
    @classmethod
    def _seed_in_range(cls, seed: int | str | None) -> int | None:
        return parse_seed(seed) if isinstance(seed, str) else seed


class BoardOut(BaseModel):
    game: str
    players: int
    moves: list[str]
    ply: int = Field(ge=0)
    to_move: int | None
    your_seat: int | None
    status: str
    view: dict[str, Any] = Field(json_schema_extra={GAME_VIEW: True},
                                 description="The game's position (spectator view).")
    legal_moves: list[str]
    result: dict[str, Any] | None
    last_move: dict[str, Any] | None
    state: str = Field(description="this position, signed: send it back as ``state`` (with a "
                                   "``move``) instead of the move list")


class HintOut(BaseModel):
    move: str


class ImportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=100_000)


class ImportOut(BaseModel):
    game: str
    players: int
    options: dict[str, Any]
    seed: str = Field(description="The record's seed as a decimal string (0 without a Seed "
                                  "tag); send it back to the board as it is.")
    rules_version: int | None
    moves: list[str]


@router.post("/matches/{match_id}/analysis", response_model=AnalysisOut,
             dependencies=[Depends(rate_limit("analysis"))],
             responses={202: {"model": AnalysisOut, "description": "Queued now."}})
def request_analysis(match_id: str, request: Request, response: Response, viewer: Reader,
                     session: SessionDep) -> AnalysisJSON:
    """Ask for the computer analysis of a finished match (anyone may; once per match: asking
    again, or together with others, answers the same analysis). Progress: GET, or ``analysis`` events
    on the match socket."""
    found, created = AnalysisService(session).request(
        match_id, viewer, request.app.state.settings.analysis_budget)
    if created:
        response.status_code = 202
        bus = request.app.state.bus
        bus.publish(ANALYSIS_CHANNEL, {"type": "requested", "match_id": match_id})
        bus.publish(match_channel(match_id), event(found))
    return found


@router.get("/matches/{match_id}/analysis", response_model=AnalysisOut, dependencies=[PublicDoor])
def get_analysis(match_id: str, session: SessionDep) -> AnalysisJSON:
    """The match's analysis: its status and progress, and the result once done."""
    return AnalysisService(session).get(match_id)


def _position(request: Request, session: Any, body: BoardIn
              ) -> tuple[board.Start, Any, board.Line]:
    if body.state is not None:
        given = [name for name in STATE_EXCLUDES if getattr(body, name)
                 is not None] + (["moves"] if body.moves else [])
        if given:
            raise Invalid(f"Give a signed state or a position, not both ({', '.join(given)}).",
                          code="invalid_request")
        settings = request.app.state.settings
        opened = signed.open_token(signed.key_from(settings.secret_key), body.state,
                                   settings.board_state_max_age, body.game)
        line, state = opened.line, opened.state
        if body.move is not None:
            state = board.finish_line(board.play_on(state, line, body.move), line)
        return opened.start, state, line
    if body.match is not None:
        given = [name for name in MATCH_EXCLUDES if getattr(body, name) is not None]
        if given:
            raise Invalid(f"A match's start has its own {', '.join(given)}: do not give them.",
                          code="invalid_request")
        start = board.match_start(session, body.match)
    else:
        if body.game is None:
            raise Invalid("Name a game or a match.", code="invalid_request")
        assert not isinstance(body.seed, str)  # _seed_in_range turned a written seed into a number
        start = board.described_start(body.game, body.players, body.options, body.seed,
                                      body.rules_version)
    moves = [*body.moves, body.move] if body.move is not None else body.moves
    state, played = board.replay(start, moves)
    return start, state, played


@router.post("/analysis/board", response_model=BoardOut,
             dependencies=[Depends(rate_limit("board")), PublicDoor])
def board_position(body: BoardIn, request: Request, session: SessionDep) -> dict[str, Any]:
    """The analysis board: the position after ``moves`` (or the signed ``state``), + ``move``,
    with its legal moves and its own signed state. Stateless; nothing is stored and no match
    changes."""
    start, state, played = _position(request, session, body)
    key = signed.key_from(request.app.state.settings.secret_key)
    return {**board.position(start, state, played),
            "state": signed.sign(key, start, state, played)}


@router.post("/analysis/board/preview", response_model=PreviewOut,
             dependencies=[Depends(rate_limit("previews")), PublicDoor])
def board_preview(body: BoardIn, request: Request, session: SessionDep) -> PreviewAnswer:
    """What ``move`` would do on the analysis board's position (``moves``, a signed ``state`` or
    a match's start, as for ``/analysis/board``): the view the board would show after it and
    the move's consequences, worded in your language (``POST /matches/{id}/preview``'s answer).
    ``ply`` is the position's. Stateless; a refused move is 422 ``illegal_move``."""
    if body.move is None:
        raise Invalid("Name the move to preview.", code="invalid_request")
    start, state, played = _position(request, session, body.model_copy(update={"move": None}))
    return board.preview(start, state, played, body.move)


@router.post("/analysis/hint", response_model=HintOut,
             dependencies=[Depends(rate_limit("hints")), PublicDoor])
async def board_hint(body: BoardIn, request: Request) -> dict[str, Any]:
    """A good move in an analysis-board position (the medium bot's choice)."""
    def load() -> tuple[str, dict[str, Any], int]:
        with request.app.state.session_factory() as session:
            start, state, line = _position(request, session, body)
        if state.is_over:
            raise Conflict("The game is over.", code="game_over")
        return start.game, state.to_json(), len(line.moves)

    game, snapshot, ply = await asyncio.to_thread(load)
    move = await pool.run_in_pool(request.app, compute.hint, game, snapshot, ply)
    return {"move": move}


@router.post("/matches/{match_id}/hint", response_model=HintOut,
             dependencies=[Depends(rate_limit("hints"))])
async def match_hint(match_id: str, request: Request, user: Player) -> dict[str, Any]:
    """"Show a good move" in your casual game against built-in bots, on your turn. Refused in
    rated games (403 ``hints_rated``), in tournament games (403 ``hints_tournament``) and in games
    with other people (403 ``hints_people``)."""
    def load() -> tuple[str, dict[str, Any]]:
        with request.app.state.session_factory() as session:
            return hint_position(session, match_id, user)

    game, snapshot = await asyncio.to_thread(load)
    move = await pool.run_in_pool(request.app, compute.hint, game, snapshot, 0)
    return {"move": move}


@router.post("/analysis/import", response_model=ImportOut,
             dependencies=[Depends(rate_limit("board")), PublicDoor])
def import_record(body: ImportIn) -> dict[str, Any]:
    """Read a game record in the export text format into the analysis board's terms."""
    return board.imported(body.text)
