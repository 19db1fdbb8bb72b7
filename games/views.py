"""What every game's view shares, as pydantic models. Each game describes its ``State.view`` in
its own ``view.py`` with these (``Game.view_model``): the API publishes the models with a real
example each for engine authors, and the engine contract checks real views against them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ResultView(BaseModel):
    """How a finished game ended (``games.base.Result``)."""

    model_config = ConfigDict(extra="forbid")

    winners: list[int] = Field(description="Seats that won (several: a shared win; none: a draw).")
    ranking: list[list[int]] = Field(description="Groups of seats, best first; ties share a group.")
    scores: list[float] | None = Field(description="One number per seat where the game scores.")
    reason: str = Field(description="A result reason code of the game (`GET /api/v1/games`).")
    details: dict[str, Any] = Field(description="Whatever else the game tells about the end.")


class GameView(BaseModel):
    """A game's position as one seat may see it: the fields every game has. A game's view
    model lists every field its view has (a view with a field more fails the contract)."""

    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(ge=0, description="The seat this view is for; null: a spectator.")
    to_move: int | None = Field(ge=0, description=(
        "The seat whose decision it is; null once the game is over. Not always the other seat: "
        "in Scalas the same seat may place several cubes in a row, and in Town of Stairs a "
        "walker makes every choice of its walk in a row."))
    ply: int = Field(ge=0, description="Moves made so far.")
    legal_moves: list[str] = Field(description=(
        "Every legal move of the seat to move, in the game's notation (the match's own "
        "`legal_moves` has them only for your seat, on your turn)."))
    last_marks: list[str] = Field(description="Squares the last move marked, for highlighting.")
    result: ResultView | None = Field(description="Set once the game is over.")
