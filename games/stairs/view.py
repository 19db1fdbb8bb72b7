"""The Stairs view (``StairsState.view``): a public position, the same for every seat."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.views import GameView

Colour = Literal["light", "dark"]


class StairsViewOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    swap: bool = Field(description="The pie rule is on.")


class StairsView(GameView):
    """A Stairs position. Squares are named file letter + rank number (`a1` … `f6`); a move is
    `from-to` (`c3-d4`), or `pass` / `swap` when those are the legal moves."""

    game: Literal["stairs"]
    size: int = Field(ge=1, description="Squares per side.")
    squares: list[str] = Field(description=(
        "Square names in board order: `a1`, `b1` … then `a2` …; index i is file i % size, "
        "rank i // size."))
    board: list[list[Literal["L", "D"]]] = Field(description=(
        "Each square's stack in `squares` order, bottom first: `L` light, `D` dark."))
    heights: list[int] = Field(description="Each square's stack height, in `squares` order.")
    colours: list[Colour] = Field(description="Each seat's colour (a swap exchanges them).")
    colour_to_move: Colour | None
    movable: dict[str, list[str]] = Field(description="A piece's square -> where it may move.")
    clicks: dict[str, dict[str, str]] = Field(description=(
        "A piece's square -> a destination -> the move that plays it."))
    must_pass: bool = Field(description="The only legal move is `pass`.")
    can_swap: bool = Field(description="`swap` is legal (the pie rule, after light's first move).")
    last_move: str | None
    max_height: int = Field(ge=0, description="The tallest stack's height.")
    max_height_counts: list[int] = Field(description=(
        "Per seat: how many of the tallest stacks its colour tops."))
    leader: int = Field(ge=0, description="The seat that would win if the game ended now.")
    options: StairsViewOptions
    is_over: bool
    your_colour: Colour | None = Field(description="This seat's colour; null: a spectator.")
