"""GET /api/v1/matches/{id}/export: a match as a game record, JSON or PGN-like text."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.caching import NOT_MODIFIED, conditional, json_body
from app.http.doors import Reader
from app.match.game_records import build_record, export_text
from app.match.schemas import GameRecordOut

router = APIRouter(route_class=OneHopRoute, tags=["matches"])

TEXT_EXAMPLE = """[Format "stepwell-record 1"]
[Site "Stepwell"]
[Match "Ab12Cd34"]
[Game "stairs"]
[Title "Stairs"]
[Date "2026.11.23"]
[Seats "2"]
[Seat0 "Aiko"]
[Seat0Kind "account"]
[Seat0Rating "27.4"]
[Seat1 "Bot (easy)"]
[Seat1Kind "BOT"]
[Options "{\\"swap\\": false}"]
[Seed "1234"]
[Rated "no"]
[TimeControl "5+3"]
[Status "finished"]
[Result "1-0"]
[Ranking "0 > 1"]
[Reason "highest piece"]

1. c3-d4 2. f6-e5 3. d4-e5
"""


@router.get("/matches/{match_id}/export", responses={200: {
    "model": GameRecordOut,
    "description": "The game record: JSON (`format=json`) or text (`format=text`).",
    "content": {"text/plain": {"schema": {"type": "string"}, "example": TEXT_EXAMPLE}}},
    **NOT_MODIFIED})
def export_match(match_id: str, session: SessionDep, viewer: Reader, request: Request,
                 format: Literal["json", "text"] = Query("json", description=(
                     "`json`: tags and moves as data; `text`: PGN-like tag pairs and numbered "
                     "moves, readable and re-importable."))) -> Response:
    """The match as a game record: game, options (secret ones left out), players, ratings,
    date, time control, result and reason, and every move in canonical notation. The seed that
    fixes shuffles is given once the match is over (or always for games without chance), as a
    decimal string in JSON (`"seed": "3402…"`: 128 bits do not fit a JSON number).
    403 `match_sealed`: see `GET /matches/{id}`. With the answer's `ETag` in `If-None-Match`,
    304 while the record is unchanged (a finished match's never changes)."""
    record: dict[str, Any] = build_record(session, match_id, viewer.id if viewer else None)
    filename = f"stepwell-{record['game']}-{record['match_id']}"
    if format == "text":
        return conditional(request, export_text(record).encode(), "text/plain; charset=utf-8",
                           {"Content-Disposition": f'inline; filename="{filename}.txt"'})
    return conditional(request, json_body(record), "application/json")
