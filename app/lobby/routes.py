"""Lobby API: seeks, quick play, challenges."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from app.db.one_hop import OneHopRoute
from app.http.doors import Challenger, Reader, SignedInReader
from app.http.ratelimit import rate_limit
from app.lobby.deps import Lobby
from app.match import MATCH_ERRORS as ERRORS
from app.match import ChallengeIn, QuickPlayIn, SeekIn, SeekOut

router = APIRouter(route_class=OneHopRoute, prefix="/api/v1", tags=["lobby"], responses=ERRORS)


@router.get("/seeks", response_model=list[SeekOut])
def list_seeks(viewer: Reader, lobby: Lobby) -> list[dict[str, Any]]:
    """Open seeks (challenges only when they involve you). Live: `WS /api/v1/lobby/ws`."""
    return lobby.visible_to(lobby.open_seeks(), viewer.id if viewer else None)


@router.post("/seeks", response_model=SeekOut, status_code=201,
             dependencies=[Depends(rate_limit("seeks"))])
def create_seek(body: SeekIn, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    """Post a seek in the lobby. It expires if you stay disconnected from the lobby/match sockets."""
    return lobby.create_seek(user, body.game, body.options, body.players, body.rated,
                             body.time_control, body.seat)


@router.post("/seeks/{seek_id}/accept", response_model=SeekOut)
def accept_seek(seek_id: str, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    """Take a seat; when the last seat fills, `match_id` is set and every player is notified."""
    return lobby.accept(seek_id, user)


@router.delete("/seeks/{seek_id}", response_model=SeekOut)
def cancel_seek(seek_id: str, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    """Cancel your seek (or leave a multi-seat seek you joined)."""
    return lobby.cancel(seek_id, user)


@router.post("/quick-play", response_model=SeekOut, dependencies=[Depends(rate_limit("seeks"))])
def quick_play(body: QuickPlayIn, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    """Be paired with the waiting player of the closest rating, or wait for one
    (status `matched` + `match_id` when paired at once, else `open`)."""
    return lobby.quick_play(user, body.game)


@router.post("/challenges", response_model=SeekOut, status_code=201,
             dependencies=[Depends(rate_limit("challenges"))])
def challenge(body: ChallengeIn, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    return lobby.challenge(user, body.user, body.game, body.options, body.rated, body.time_control,
                           body.seat)


@router.get("/challenges", response_model=list[SeekOut])
def my_challenges(user: SignedInReader, lobby: Lobby) -> list[dict[str, Any]]:
    """Open challenges you sent or received."""
    return lobby.pending_for(user)


@router.post("/challenges/{seek_id}/accept", response_model=SeekOut)
def accept_challenge(seek_id: str, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    return lobby.accept(seek_id, user)


@router.post("/challenges/{seek_id}/decline", response_model=SeekOut)
def decline_challenge(seek_id: str, user: Challenger, lobby: Lobby) -> dict[str, Any]:
    return lobby.decline(seek_id, user)
