"""The Scalas view (``ScalasState.view``): a public position, the same for every seat."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.views import GameView


class ScalasSquare(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    file: int = Field(ge=0)
    rank: int = Field(ge=0)
    height: int = Field(ge=0)
    column: list[int] = Field(description="The cubes' seats, bottom first.")
    top: int | None = Field(description="The seat whose cube is on top; null: empty.")


class ScalasLastMove(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str
    seat: int = Field(ge=0)


class ScalasView(GameView):
    """A Scalas position. A move is the square a cube goes on (`c2`), or `pass`. After a
    placement that forces more (`phase` `forced`), the same seat places again: `to_move` stays
    on it until `to_place` is 0."""

    game: Literal["scalas"]
    size: int = Field(ge=1, description="Squares per side.")
    colours: list[Literal["red", "blue"]] = Field(description="Each seat's colour.")
    squares: list[ScalasSquare] = Field(description="Every square, a1 first, by rank then file.")
    hands: list[int] = Field(description="Cubes left in each seat's hand.")
    phase: Literal["normal", "forced"] = Field(description=(
        "`forced`: the seat to move must place on the `pending` squares."))
    pending: list[str] = Field(description="Squares a forced placement must fill.")
    empty_squares_closed: bool = Field(description=(
        "The other hand is empty: the seat to move may not start a new stack."))
    legal_squares: list[str] = Field(description="The legal moves that place a cube.")
    clicks: dict[str, str] = Field(description="A square -> the move a click plays.")
    to_place: int = Field(ge=0, description="Forced cubes the seat to move still places.")
    bottom_level: int = Field(ge=0, description="The lowest stack's height.")
    last_move: ScalasLastMove | None
    score: list[int] = Field(description="Per seat: the stacks it tops now.")
    is_over: bool
