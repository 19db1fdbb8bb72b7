"""Accounts, users, leaderboards, live games and replays."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse

from app.accounts import authenticate, identities, register_account
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.caching import NOT_MODIFIED, PRIVATE, conditional, etag_of, json_body, not_modified
from app.http.doors import Anyone, PublicDoor, Reader, SignedInReader
from app.http.openapi import ndjson_response
from app.http.paging import PAGED, PageRequest, link_next, page_of, paging
from app.http.ratelimit import login_guard, rate_limit
from app.kernel import i18n
from app.mail import clean_address, require_mail, set_address
from app.match import MATCH_ERRORS as ERRORS
from app.match import (
    AccountIn,
    GameRecordOut,
    LeaderRow,
    LeaderRowOut,
    LiveItem,
    LiveMatchOut,
    LoginIn,
    Matches,
    ReplayStepOut,
    SessionOut,
    find_user_id,
    live_item,
    rating_leaderboard,
    seat_ratings,
    validate_setup,
)
from app.people import archive, head_to_head, history, profiles
from app.people.schemas import (
    FoundUserOut,
    GameHistoryOut,
    HeadToHeadOut,
    ProfileOut,
    RecentGameOut,
)

MAX_MS = 10**14
"""Beyond any time a game was played (the year 5138), below what a date can hold."""

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", responses=ERRORS)


@router.post("/accounts", response_model=SessionOut, status_code=201, tags=["identity"],
             dependencies=[Depends(rate_limit("accounts"))])
def register(body: AccountIn, session: SessionDep, viewer: Anyone,
             request: Request) -> dict[str, Any]:
    """Create an account. Called with a guest's token (or cookie), the guest becomes the account
    and keeps its games. With `email` (on a server that sends mail), a confirmation mail is
    queued to it (see `PUT /api/v1/account/email`)."""
    if body.email:
        require_mail(request.app.state.settings)
        clean_address(body.email)
    user, token = register_account(session, body.username, body.password, body.name, viewer)
    if body.email:
        set_address(session, user.id, body.email, i18n.current_language.get())
    identities(request).forget_user(user.id)
    return {"token": token, "user": user.public()}


@router.post("/login", response_model=SessionOut, tags=["identity"], dependencies=[PublicDoor])
def login(body: LoginIn, session: SessionDep, request: Request) -> dict[str, Any]:
    """A fresh bearer token for an account. Attempts are limited per address and per account;
    repeated failures lock the account for growing times (429 `rate_limited`, `Retry-After`)."""
    with login_guard(request, body.username):
        user, token = authenticate(session, body.username, body.password)
    return {"token": token, "user": user.public()}


@router.get("/users", tags=["people"], dependencies=[PublicDoor],
            response_model=list[FoundUserOut])
def search_users(session: SessionDep,
                 q: Annotated[str, Query(max_length=50, description="Part of a username or name")] = ""
                 ) -> list[profiles.FoundUser]:
    """Accounts and bots whose username or name contains `q` (case-insensitive), exact and prefix
    matches first, at most 20: find someone to challenge (`POST /api/v1/challenges`)."""
    return profiles.search_users(session, q)


@router.get("/users/{name}", tags=["people"], response_model=ProfileOut)
def user_profile(name: str, session: SessionDep, viewer: Anyone) -> profiles.Profile:
    """Profile by username or id: ratings per game, games played, recent games (a duplicate
    round's sealed table only for its own players until the round ends)."""
    return profiles.profile(session, find_user_id(session, name),
                            viewer.id if viewer else None)


NDJSON = "application/x-ndjson"


@router.get("/users/{name}/games", tags=["people"], response_class=StreamingResponse, responses={
    **ndjson_response(GameRecordOut, "NDJSON: one game record a line (`GET /matches/{id}/export`'s "
                                     "JSON), newest first."), **NOT_MODIFIED})
def export_games(
        name: str, session: SessionDep, viewer: Reader, request: Request,
        since: Annotated[int | None, Query(ge=0, le=MAX_MS, description=(
            "Only games created at or after this time, in milliseconds since the epoch."))] = None,
        until: Annotated[int | None, Query(ge=0, le=MAX_MS, description=(
            "Only games created at or before this time, in milliseconds since the epoch."))] = None,
        most: Annotated[int | None, Query(alias="max", ge=1, description=(
            "At most this many games (the newest)."))] = None,
        game: Annotated[str | None, Query(max_length=20, description=(
            "Only games of this game id (`GET /api/v1/games`)."))] = None) -> Response:
    """A person's finished games, newest first, as a stream of game records (one JSON object
    a line, the record of `GET /api/v1/matches/{id}/export`): an archive to download and keep in
    step. `since` and `until` filter on when each game was created; with neither, every game.
    The answer's `ETag` changes only when the games it lists do: send it back in
    `If-None-Match` to get 304 when nothing is new. A duplicate round's sealed table is left out
    for everyone not seated at it until the round ends."""
    if game is not None:
        validate_setup(game, None)  # 404 no_game
    user_id = find_user_id(session, name)
    viewer_id = viewer.id if viewer else None
    query = archive.ArchiveQuery(since, until, most, game)
    chosen = archive.archived(session, user_id, viewer_id, query)
    etag = etag_of(str(user_id), str(viewer_id), repr(query),
                   ",".join(f"{match_id}.{version}" for match_id, version in chosen))
    if not_modified(request, etag):
        return Response(status_code=304, headers={**PRIVATE, "ETag": etag})
    lines = archive.record_lines(request.app.state.session_factory,
                                 [match_id for match_id, _ in chosen], viewer_id)
    return StreamingResponse(lines, media_type=NDJSON, headers={
        **PRIVATE, "ETag": etag,
        "Content-Disposition": f'attachment; filename="stepwell-{user_id}-games.ndjson"'})


@router.get("/users/{name}/rating-history", tags=["people"], response_model=list[GameHistoryOut])
def rating_history(
        name: str, session: SessionDep, viewer: Reader,
        game: Annotated[str | None, Query(max_length=20, description=(
            "Only this game id (`GET /api/v1/games`)."))] = None
) -> list[history.GameHistory]:
    """A person's rating after each rated game, per game (oldest first), with their best win
    (the highest-rated opponent beaten) and worst loss (the lowest-rated opponent lost to).
    A game they never played rated is left out. A duplicate round's sealed table is left out
    for everyone not seated at it until the round ends."""
    if game is not None:
        validate_setup(game, None)  # 404 no_game
    return history.rating_history(session, find_user_id(session, name),
                                  viewer.id if viewer else None, game)


@router.get("/users/{name}/head-to-head/{other}", tags=["people"], response_model=HeadToHeadOut)
def head_to_head_of(name: str, other: str, session: SessionDep,
                    viewer: Reader) -> head_to_head.HeadToHead:
    """How `name` fared against `other` in their finished games together, rated or not: wins,
    draws and losses per game and in all (in a game of three or four, the one placed higher
    won), and their last five games, newest first. 422 `same_person` for one person twice. A
    duplicate round's sealed table counts only for a caller seated at it until the round
    ends."""
    return head_to_head.head_to_head(session, find_user_id(session, name),
                                     find_user_id(session, other), viewer.id if viewer else None)


@router.get("/leaderboards/{game}", tags=["people"], dependencies=[PublicDoor],
            response_model=list[LeaderRowOut], responses=PAGED)
def leaderboard(game: str, session: SessionDep, request: Request, response: Response,
                page: Annotated[PageRequest, Depends(paging())]) -> list[LeaderRow]:
    """Rated players of a game; established players (not provisional) first, a page at a time
    (`Link` to the next)."""
    validate_setup(game, None)
    rows, following = page_of(rating_leaderboard(session, game, limit=None),
                              lambda row: (row["rank"],), page)
    link_next(request, response, following)
    return rows


@router.get("/live", tags=["watch"], dependencies=[PublicDoor],
            response_model=list[LiveMatchOut])
def live_matches(request: Request, matches: Matches, session: SessionDep) -> list[LiveItem]:
    """Matches in play with their public view, players' ratings and spectator counts.
    Live updates: `WS /api/v1/live/ws`."""
    presence = request.app.state.presence
    counts = presence.spectator_counts()

    def attended(match_id: str) -> bool:  # a player still at the board, on any instance
        return bool(presence.match_presence(match_id)["online_seats"])

    return [live_item(record, seat_ratings(session, record), counts.get(record.id, 0))
            for record in matches.live(attended=attended)]


@router.get("/matches/{match_id}/replay", tags=["matches"], response_model=list[ReplayStepOut],
            responses=NOT_MODIFIED)
def replay(match_id: str, matches: Matches, viewer: Reader, request: Request) -> Response:
    """The public view after every ply (ply 0 = the start), for stepping through a game
    (403 `match_sealed`: see `GET /matches/{id}`). `ETag` and `If-None-Match` as for the
    match."""
    matches.get_for(match_id, viewer.id if viewer else None)
    return conditional(request, json_body(matches.replay(match_id)), "application/json")


@router.get("/me/matches", tags=["identity"], response_model=list[RecentGameOut], responses=PAGED)
def my_matches(user: SignedInReader, session: SessionDep, request: Request, response: Response,
               page: Annotated[PageRequest, Depends(paging(profiles.RECENT_GAMES))]
               ) -> list[profiles.RecentGame]:
    """Your matches in play or finished, the most recently changed first, a page at a time
    (`Link` to the next; a match that changes while you page moves to the front). Every
    finished game as records: `GET /api/v1/users/{name}/games`."""
    games, following = profiles.recent_games(session, user.id, page)
    link_next(request, response, following)
    return games


