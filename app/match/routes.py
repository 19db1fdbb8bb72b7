"""The /api/v1 routes: games catalog, guests, matches and moves."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import TypeAdapter

from app.accounts import create_guest as new_guest
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.caching import NOT_MODIFIED, conditional
from app.http.doors import Challenger, Player, PublicDoor, Reader, SignedInReader
from app.http.errors import ERROR_RESPONSES
from app.http.ratelimit import moves_limited, rate_limit
from app.match import playban, schemas
from app.match.bots import bot_levels_by_user, seat_bots
from app.match.deps import Matches
from app.match.offers import OfferService
from app.match.payloads import MatchPayload, match_payload, move_answer
from app.match.playban import PlaybanJSON
from games import registry

ERRORS = ERROR_RESPONSES  # declared app-wide too (app/http/errors.py); kept for the routers' imports

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", responses=ERRORS)

OfferKind = Literal["draw", "end", "takeback", "rematch"]
MATCH_OUT = TypeAdapter(schemas.MatchOut)
MOVES_OUT = TypeAdapter(list[schemas.MoveRecordOut])
"""The conditional routes' response models: they encode their answers themselves, to tag them."""


@router.get("/games", response_model=list[schemas.GameOut], tags=["games"], dependencies=[PublicDoor])
def list_games() -> list[dict[str, Any]]:
    """Every game with its player counts and options (JSON schema and defaults)."""
    return [game.describe() for game in registry.all_games()]


@router.post("/guests", response_model=schemas.GuestOut, status_code=201, tags=["identity"],
             dependencies=[Depends(rate_limit("guests")), PublicDoor])
def create_guest(body: schemas.GuestIn, session: SessionDep) -> dict[str, Any]:
    """A guest identity and its bearer token; no sign-up needed to play."""
    user, token = new_guest(session, body.name)
    return {"token": token, "user": user.public()}


@router.get("/me", response_model=schemas.UserOut, tags=["identity"])
def who_am_i(user: SignedInReader) -> dict[str, Any]:
    return user.public()


@router.get("/me/playban", response_model=schemas.PlaybanStatusOut, tags=["identity"])
def my_playban(user: SignedInReader, session: SessionDep) -> dict[str, PlaybanJSON | None]:
    """Your wait before the next rated game, if abandoning rated games earned you one (every
    door that starts a rated game answers 403 `playban` with `until` meanwhile)."""
    return {"playban": playban.current_json(session, user.id)}


@router.post("/matches", response_model=schemas.MatchOut, status_code=201, tags=["matches"],
             dependencies=[Depends(rate_limit("matches"))])
def create_match(body: schemas.MatchCreate, user: Challenger, matches: Matches) -> MatchPayload:
    """Create a match and take a seat; it starts when every seat is filled."""
    record = matches.create(user, body.game, body.options, body.seat, body.players,
                            body.time_control)
    if body.bot:
        record = seat_bots(matches, record.id, user, body.bot)
    return match_payload(record, user.id)


@router.post("/matches/{match_id}/bots", response_model=schemas.MatchOut, tags=["matches"])
def add_bots(match_id: str, body: schemas.BotsIn, user: Challenger,
             matches: Matches) -> MatchPayload:
    """Fill the empty seats of your waiting match with built-in bots; the match starts."""
    return match_payload(seat_bots(matches, match_id, user, body.level), user.id)


@router.get("/matches/{match_id}", response_model=schemas.MatchOut, tags=["matches"],
            responses=NOT_MODIFIED)
def get_match(match_id: str, viewer: Reader, matches: Matches, request: Request) -> Response:
    """The match as the caller may see it (players: their seat's view; others: spectator view).
    A duplicate round's table is sealed to everyone not seated at it until the round ends
    (403 `match_sealed`). With its `ETag` in `If-None-Match`, 304 while it is unchanged (a
    finished match always is)."""
    viewer_id = viewer.id if viewer else None
    payload = match_payload(matches.get_for(match_id, viewer_id), viewer_id)
    return conditional(request, MATCH_OUT.dump_json(MATCH_OUT.validate_python(payload)),
                       "application/json")


@router.post("/matches/{match_id}/join", response_model=schemas.MatchOut, tags=["matches"])
def join_match(match_id: str, user: Challenger, matches: Matches,
               body: schemas.MatchJoin | None = None) -> MatchPayload:
    record = matches.join(match_id, user, body.seat if body else None)
    return match_payload(record, user.id)


@router.post("/matches/{match_id}/moves", response_model=schemas.MatchOut, tags=["matches"],
             dependencies=[Depends(moves_limited())])
def play_move(match_id: str, body: schemas.MoveIn, user: Player,
              matches: Matches) -> MatchPayload:
    """Play a move; `ply` must be the match's current ply (409 `stale_ply` otherwise). Refused
    moves are limited per player per match (`STEPWELL_RATE_MOVES`): a move played on your turn
    never counts, so a program may play as fast as it likes in as many matches as it likes."""
    record = matches.play(match_id, user, body.move, body.ply)
    return move_answer(record, user.id)


@router.post("/matches/{match_id}/resign", response_model=schemas.MatchOut, tags=["matches"])
def resign(match_id: str, user: Player, matches: Matches) -> MatchPayload:
    record = matches.resign(match_id, user)
    return match_payload(record, user.id)


@router.post("/matches/{match_id}/abort", response_model=schemas.MatchOut, tags=["matches"])
def abort(match_id: str, user: Player, matches: Matches) -> MatchPayload:
    """Call the match off before every seat has moved: no result, no rating."""
    return match_payload(matches.abort(match_id, user), user.id)


@router.post("/matches/{match_id}/offers/{kind}", response_model=schemas.MatchOut,
             tags=["matches"])
def make_offer(match_id: str, kind: OfferKind, user: Player,
               matches: Matches) -> MatchPayload:
    """Offer `draw` (games that can draw), `end` (agree to end and score the position:
    games whose `can_score_early` is true),
    `takeback` (casual games) or `rematch` (after the game). If the others already offered
    the same, this accepts it."""
    return match_payload(OfferService(matches).offer(match_id, user, kind), user.id)


@router.post("/matches/{match_id}/offers/{kind}/accept", response_model=schemas.MatchOut,
             tags=["matches"])
def accept_offer(match_id: str, kind: OfferKind, user: Player,
                 matches: Matches) -> MatchPayload:
    return match_payload(OfferService(matches).accept(match_id, user, kind), user.id)


@router.post("/matches/{match_id}/offers/{kind}/decline", response_model=schemas.MatchOut,
             tags=["matches"])
def decline_offer(match_id: str, kind: OfferKind, user: Player,
                  matches: Matches) -> MatchPayload:
    """Decline another player's offer, or withdraw your own."""
    return match_payload(OfferService(matches).decline(match_id, user, kind), user.id)


@router.post("/matches/{match_id}/claim-victory", response_model=schemas.MatchOut,
             tags=["matches"])
def claim_victory(match_id: str, user: Player, matches: Matches,
                  request: Request) -> MatchPayload:
    """In a real-time game, win when your opponents have been offline longer than the limit."""
    record = matches.get(match_id)
    presence = request.app.state.presence
    built_in = bot_levels_by_user(matches.session)  # the server itself: never away
    away = {s.seat: presence.away_seconds(match_id, s.user_id)
            for s in record.seats if s.user_id is not None and s.user_id not in built_in}
    settings = request.app.state.settings
    return match_payload(matches.claim_victory(match_id, user, away, settings.claim_after_seconds),
                         user.id)


@router.get("/matches/{match_id}/moves", response_model=list[schemas.MoveRecordOut],
            tags=["matches"], responses=NOT_MODIFIED)
def list_moves(match_id: str, matches: Matches, viewer: Reader, request: Request) -> Response:
    """The move record, ply by ply, with the time each move took (403 `match_sealed`: see
    `GET /matches/{id}`). `ETag` and `If-None-Match` as for the match."""
    matches.get_for(match_id, viewer.id if viewer else None)
    return conditional(request, MOVES_OUT.dump_json(MOVES_OUT.validate_python(
        matches.moves(match_id))), "application/json")
