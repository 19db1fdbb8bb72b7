"""The archive search in the API: ``GET /api/v1/games/search`` (a page of summaries, ``Link`` to
the next) and ``GET /api/v1/games/export`` (every game found, as game records, one download)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.caching import PRIVATE
from app.http.doors import Reader
from app.http.openapi import ndjson_response
from app.http.paging import PAGED, PageRequest, link_next, paging
from app.http.ratelimit import rate_limit
from app.match import MATCH_ERRORS as ERRORS
from app.match import GameRecordOut
from app.people import archive_search
from app.people.archive_search import ArchiveGame, SearchInput
from app.people.schemas import ArchiveGameOut

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", responses=ERRORS,
                   tags=["people"])

NDJSON = "application/x-ndjson"


def search_input(
        player: Annotated[str | None, Query(max_length=40, description=(
            "Games this person (username or id) played."))] = None,
        opponent: Annotated[str | None, Query(max_length=40, description=(
            "…against this person (needs `player`)."))] = None,
        game: Annotated[str | None, Query(max_length=20, description=(
            "Only this game (`GET /api/v1/games`)."))] = None,
        option: Annotated[list[str] | None, Query(description=(
            "`name=value` of one of the game's options (needs `game`; repeat for several); "
            "options that fix hidden information cannot be searched on."))] = None,
        rated: Annotated[bool | None, Query(description=(
            "`true`: rated games only; `false`: casual only."))] = None,
        result: Annotated[Literal["win", "loss", "draw"] | None, Query(description=(
            "The player's result (needs `player`)."))] = None,
        reason: Annotated[str | None, Query(max_length=40, description=(
            "The end reason's code (`resigned`, `time_out`, a game's own…)."))] = None,
        start: Annotated[date | None, Query(alias="from", description=(
            "Games that ended on or after this day (UTC, `YYYY-MM-DD`)."))] = None,
        end: Annotated[date | None, Query(alias="to", description=(
            "Games that ended on or before this day (UTC)."))] = None) -> SearchInput:
    return SearchInput(player, opponent, game, tuple(option or ()), rated, result, reason,
                       start, end)


Search = Annotated[SearchInput, Depends(search_input)]


@router.get("/games/search", response_model=list[ArchiveGameOut], responses=PAGED)
def search_games(asked: Search, session: SessionDep, viewer: Reader, request: Request,
                 response: Response, page: Annotated[PageRequest, Depends(paging(20))]
                 ) -> list[ArchiveGame]:
    """Finished games, newest first (by when they ended), a page at a time (`Link` to the next):
    by player, opponent, game, options, rated or casual, the player's result, the end reason
    and the days they ended. Each game links to its replay (`replay_url`). A duplicate round's
    sealed table is left out for everyone not seated at it. 404 `no_user` / `no_game`; 422
    `player_needed`, `game_needed`, `bad_option`, `bad_reason`, `bad_range`."""
    search = archive_search.check(session, asked)
    games, following = archive_search.search(session, search, viewer.id if viewer else None,
                                             page)
    link_next(request, response, following)
    response.headers.update(PRIVATE)
    return games


@router.get("/games/export", response_class=StreamingResponse,
            dependencies=[Depends(rate_limit("exports"))], responses={
                **ndjson_response(GameRecordOut, "`format=json`: NDJSON, one game record a line "
                                                 "(`GET /matches/{id}/export`'s JSON), newest "
                                                 "first. `format=text`: the text records, a "
                                                 "blank line between.")})
def export_found_games(asked: Search, session: SessionDep, viewer: Reader, request: Request,
                 format: Annotated[Literal["json", "text"], Query(description=(
                     "`json`: NDJSON game records; `text`: PGN-like text records."))] = "json"
                 ) -> Response:
    """Every game `GET /api/v1/games/search` finds with the same filters, as one download
    (`Content-Disposition: attachment`): the records the archive stream
    (`GET /api/v1/users/{name}/games`) gives. Rate-limited (setting `rate_exports`: 429
    `rate_limited` with `Retry-After`)."""
    search = archive_search.check(session, asked)
    lines = archive_search.export_lines(request.app.state.session_factory, search,
                                        viewer.id if viewer else None, format)
    suffix = "txt" if format == "text" else "ndjson"
    media = "text/plain; charset=utf-8" if format == "text" else NDJSON
    return StreamingResponse(lines, media_type=media, headers={
        **PRIVATE, "Content-Disposition": f'attachment; filename="stepwell-games.{suffix}"'})
