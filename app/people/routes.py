"""Accounts, users, leaderboards, live games and replays."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.accounts import authenticate, identities, register_account
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Anyone, PublicDoor, Reader, SignedInReader
from app.http.ratelimit import login_guard, rate_limit
from app.match import MATCH_ERRORS as ERRORS
from app.match import (
    AccountIn,
    LoginIn,
    Matches,
    SessionOut,
    find_user_id,
    live_item,
    rating_leaderboard,
    seat_ratings,
    validate_setup,
)
from app.people import profiles

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", responses=ERRORS)


@router.post("/accounts", response_model=SessionOut, status_code=201, tags=["identity"],
             dependencies=[Depends(rate_limit("accounts"))])
def register(body: AccountIn, session: SessionDep, viewer: Anyone,
             request: Request) -> dict[str, Any]:
    """Create an account. Called with a guest's token (or cookie), the guest becomes the account
    and keeps its games."""
    user, token = register_account(session, body.username, body.password, body.name, viewer)
    identities(request).forget_user(user.id)
    return {"token": token, "user": user.public()}


@router.post("/login", response_model=SessionOut, tags=["identity"], dependencies=[PublicDoor])
def login(body: LoginIn, session: SessionDep, request: Request) -> dict[str, Any]:
    """A fresh bearer token for an account. Attempts are limited per address and per account;
    repeated failures lock the account for growing times (429 `rate_limited`, `Retry-After`)."""
    with login_guard(request, body.username):
        user, token = authenticate(session, body.username, body.password)
    return {"token": token, "user": user.public()}


@router.get("/users", tags=["people"], dependencies=[PublicDoor])
def search_users(session: SessionDep,
                 q: Annotated[str, Query(max_length=50, description="Part of a username or name")] = ""
                 ) -> list[dict[str, Any]]:
    """Accounts and bots whose username or name contains `q` (case-insensitive), exact and prefix
    matches first, at most 20: find someone to challenge (`POST /api/v1/challenges`)."""
    return profiles.search_users(session, q)


@router.get("/users/{name}", tags=["people"])
def user_profile(name: str, session: SessionDep, viewer: Anyone) -> dict[str, Any]:
    """Profile by username or id: ratings per game, games played, recent games (a duplicate
    round's sealed table only for its own players until the round ends)."""
    return profiles.profile(session, find_user_id(session, name),
                            viewer.id if viewer else None)


@router.get("/leaderboards/{game}", tags=["people"], dependencies=[PublicDoor])
def leaderboard(game: str, session: SessionDep) -> list[dict[str, Any]]:
    """Rated players of a game; established players (not provisional) first."""
    validate_setup(game, None)
    return rating_leaderboard(session, game)


@router.get("/live", tags=["watch"], dependencies=[PublicDoor])
def live_matches(request: Request, matches: Matches, session: SessionDep) -> list[dict[str, Any]]:
    """Matches in play with their public view, players' ratings and spectator counts.
    Live updates: `WS /api/v1/live/ws`."""
    counts = request.app.state.presence.spectator_counts()
    return [live_item(record, seat_ratings(session, record), counts.get(record.id, 0))
            for record in matches.live()]


@router.get("/matches/{match_id}/replay", tags=["matches"])
def replay(match_id: str, matches: Matches, viewer: Reader) -> list[dict[str, Any]]:
    """The public view after every ply (ply 0 = the start), for stepping through a game
    (403 `match_sealed`: see `GET /matches/{id}`)."""
    matches.get_for(match_id, viewer.id if viewer else None)
    return matches.replay(match_id)


@router.get("/me/matches", tags=["identity"])
def my_matches(user: SignedInReader, session: SessionDep) -> list[dict[str, Any]]:
    recent: list[dict[str, Any]] = profiles.profile(session, user.id, user.id)["recent"]
    return recent


