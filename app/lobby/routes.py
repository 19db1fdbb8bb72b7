"""Lobby API: seeks, quick play, challenges."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from app.db.one_hop import OneHopRoute
from app.http.doors import Challenger, Reader, SignedInReader
from app.http.paging import PAGED, Key, PageRequest, link_next, moment, page_of, paging
from app.http.ratelimit import rate_limit
from app.lobby.deps import Lobby
from app.lobby.service import SeekJSON
from app.match import MATCH_ERRORS as ERRORS
from app.match import ChallengeIn, DeclineIn, QuickPlayIn, SeekIn, SeekOut

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", tags=["lobby"], responses=ERRORS)


def _by_age(seek: SeekJSON) -> Key:
    return moment(seek["created_at"]), seek["id"]


@router.get("/seeks", response_model=list[SeekOut], responses=PAGED)
def list_seeks(viewer: Reader, lobby: Lobby, request: Request, response: Response,
               page: Annotated[PageRequest, Depends(paging())]) -> list[SeekJSON]:
    """Open seeks (challenges only when they involve you), oldest first, a page at a time
    (`Link` to the next). Live: `WS /api/v1/lobby/ws`."""
    seeks, following = page_of(lobby.visible_to(lobby.open_seeks(), viewer.id if viewer else None),
                               _by_age, page)
    link_next(request, response, following)
    return seeks


@router.post("/seeks", response_model=SeekOut, status_code=201,
             dependencies=[Depends(rate_limit("seeks"))])
def create_seek(body: SeekIn, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Post a seek in the lobby. It expires if you stay disconnected from the lobby/match sockets."""
    return lobby.create_seek(user, body.game, body.options, body.players, body.rated,
                             body.time_control, body.seat)


@router.post("/seeks/{seek_id}/accept", response_model=SeekOut)
def accept_seek(seek_id: str, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Take a seat; when the last seat fills, `match_id` is set and every player is notified."""
    return lobby.accept(seek_id, user)


@router.delete("/seeks/{seek_id}", response_model=SeekOut)
def cancel_seek(seek_id: str, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Cancel your seek (or leave a multi-seat seek you joined)."""
    return lobby.cancel(seek_id, user)


@router.post("/quick-play", response_model=SeekOut, dependencies=[Depends(rate_limit("seeks"))])
def quick_play(body: QuickPlayIn, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Be paired with the waiting player of the closest rating, or wait for one
    (status `matched` + `match_id` when paired at once, else `open`). Accounts and bots play
    rated, guests casual; the wait lasts while you keep a socket or the event stream open."""
    return lobby.quick_play(user, body.game)


@router.post("/challenges", response_model=SeekOut, status_code=201,
             dependencies=[Depends(rate_limit("challenges"))])
def challenge(body: ChallengeIn, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Challenge a named player (`user`), or several (`users`: a 3- or 4-player Town match has
    one seat for you and one per name). Each gets `challenge` on their event stream and accepts
    or declines; the match starts when every one accepted (`gameStart`), and any decline ends
    the challenge for everyone (`challengeDeclined`, with its reason). Built-in bots accept at
    once."""
    return lobby.challenge(user, body.invited, body.game, body.options, body.rated,
                           body.time_control, body.seat)


@router.get("/challenges", response_model=list[SeekOut], responses=PAGED)
def my_challenges(user: SignedInReader, lobby: Lobby, request: Request, response: Response,
                  page: Annotated[PageRequest, Depends(paging())]) -> list[SeekJSON]:
    """Open challenges you sent or are invited to, oldest first, a page at a time."""
    challenges, following = page_of(lobby.pending_for(user), _by_age, page)
    link_next(request, response, following)
    return challenges


@router.post("/challenges/{seek_id}/accept", response_model=SeekOut)
def accept_challenge(seek_id: str, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Accept a challenge you are invited to; the last acceptance starts the match (`match_id`)."""
    return lobby.accept(seek_id, user)


@router.post("/challenges/{seek_id}/decline", response_model=SeekOut)
def decline_challenge(seek_id: str, user: Challenger, lobby: Lobby,
                      body: DeclineIn | None = None) -> SeekJSON:
    """Decline a challenge you are invited to, with a reason code (default `generic`); it ends
    for everyone in it (`challengeDeclined` on their event streams)."""
    return lobby.decline(seek_id, user, body.reason if body else "generic")


@router.post("/challenges/{seek_id}/cancel", response_model=SeekOut)
def cancel_challenge(seek_id: str, user: Challenger, lobby: Lobby) -> SeekJSON:
    """Withdraw a challenge you sent (403 `not_your_seek` for anyone else: an invited player
    declines instead); everyone in it gets `challengeCanceled`."""
    return lobby.cancel(seek_id, user, only_challenges=True)
