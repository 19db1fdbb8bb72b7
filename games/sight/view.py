"""The Sight view (``SightState.view``): a public position, the same for every seat."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.views import GameView

Colour = Literal["light", "dark"]


class SightStack(BaseModel):
    model_config = ConfigDict(extra="forbid")

    colour: Colour
    height: int = Field(ge=1)


class SightViewOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    priority: Literal["absolute", "movable"]


class SightView(GameView):
    """A Sight position. Points are named `a1` … `e5`; a placement is a point (`c3`), a move
    is `from-to` (`c1-d2`). Seat 0 plays light."""

    game: Literal["sight"]
    colours: list[Colour] = Field(description="Each seat's colour.")
    points: list[str] = Field(description="Every point of the board.")
    edges: list[list[str]] = Field(description="The lines between points, as pairs.")
    board: dict[str, SightStack | None] = Field(description="Point -> its stack, or null.")
    phase: Literal["place", "move"] | None = Field(description="Null once the game is over.")
    tallest: list[str] = Field(description="The stacks the priority rule picks from.")
    sources: dict[str, list[str]] = Field(description="A movable stack's point -> empty targets.")
    clicks: dict[str, str | dict[str, str]] = Field(description=(
        "What a click plays: a point -> a placement, or a stack's point -> a target -> a move."))
    growth: dict[str, list[str]] = Field(description="A legal move -> the points it would grow.")
    sight: dict[str, list[str]] = Field(description="A point -> the occupied points it sees.")
    last_move: str | None
    last_grown: list[str] = Field(description="The points the last move grew.")
    options: SightViewOptions
    is_over: bool
