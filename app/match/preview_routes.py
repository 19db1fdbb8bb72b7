"""``POST /api/v1/matches/{id}/preview``: what a move would do, before it is played (thin)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Player
from app.http.ratelimit import rate_limit
from app.match import preview
from app.match.openapi import GAME_VIEW

router = APIRouter(route_class=OneHopRoute, tags=["matches"])


class PreviewIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str = Field(min_length=1, max_length=40, examples=["b3-c4", "c3", "P3@c2"],
                      description="The move, in the game's notation (any spelling a move takes).")
    ply: StrictInt | None = Field(default=None, ge=0, description=(
        "The match's current ply, as a move sends it: another one answers 409 `stale_ply`."))


class ChangeOut(BaseModel):
    """One consequence of the move."""

    kind: str = Field(examples=["lands"], description=(
        "What happens, a snake_case word of the game's (docs/api.md lists them per game)."))
    message: str = Field(description="The change in a sentence, in your language.")
    targets: list[str] = Field(examples=[["c3", "d4"]], description=(
        "The board cells or positions it concerns, named as the game's notation names them."))
    params: dict[str, Any] = Field(examples=[{"from": "c3", "to": "d4", "height": 2}],
                                   description="Its typed values (per kind: docs/api.md).")


class PreviewOut(BaseModel):
    ply: int = Field(ge=0, description="The ply the preview was computed at: send it with the "
                                       "move to play it.")
    move: str = Field(description="The move, as the game writes it.")
    view: dict[str, Any] = Field(json_schema_extra={GAME_VIEW: True}, description=(
        "Your view after the move, as `GET /matches/{id}` would give it (the moves the rules then "
        "make by themselves played). Town of Stairs: up to a card's draw — a card the move turns "
        "up is null in `offer`, and a seat whose walk it begins shows no start card and no walk."))
    changes: list[ChangeOut] = Field(description="The move's consequences, in order.")


@router.post("/matches/{match_id}/preview", response_model=PreviewOut,
             dependencies=[Depends(rate_limit("previews"))])
def preview_move(match_id: str, body: PreviewIn, user: Player, request: Request,
                 session: SessionDep) -> Response:
    """What `move` would do if you played it now: the view you would get after it and its
    consequences, worded in your language. Changes nothing. The seat to move only (403
    `not_a_player` / `not_your_turn`); a move the match would refuse answers the same 422
    `illegal_move` with its reason. Computed from what your seat may see: it never shows a card
    of a deck or another seat's start card."""
    encoded = preview.preview_move(session, request.app.state.preview_cache, match_id, user,
                                   body.move, body.ply)
    return Response(encoded, media_type="application/json")  # a PreviewOut, encoded once
