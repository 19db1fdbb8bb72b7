"""One rules figure: where its position comes from, what it marks and what its caption claims.

Depends on the engines' base only, so each game's ``figures.py`` (which draws its diagrams) can
use it without importing the registry that imports the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Required, TypedDict

from games.base import Game, State


class DiagramStart(TypedDict, total=False):
    """How the replay begins; each key falls back to the game's default."""

    players: int
    options: dict[str, Any]
    seed: int


class DiagramSpec(TypedDict, total=False):
    """One entry of ``diagrams.json``, as the figure code and the caption tests read it."""

    id: Required[str]
    caption: Required[dict[str, str]]  # language -> text
    start: DiagramStart
    moves: list[str]
    marks: dict[str, Any]  # per game: what its figures.py draws
    claims: dict[str, Any]  # per game: what the tests check against the engine


@dataclass(frozen=True)
class Diagram:
    """One figure: where its position comes from, what to mark, what its caption claims."""

    game: str
    id: str
    number: int
    spec: DiagramSpec
    engine: Game
    """The game's rules, which replay the diagram's moves."""

    @property
    def captions(self) -> dict[str, str]:
        return self.spec["caption"]

    @property
    def marks(self) -> dict[str, Any]:
        return self.spec.get("marks", {})

    @property
    def claims(self) -> dict[str, Any]:
        return self.spec.get("claims", {})

    def states(self, options: dict[str, Any] | None = None) -> list[State]:
        """Every position from the start through the diagram's moves (the last is the one shown).

        ``options`` replaces the start's options (a diagram may show one position under two
        variants)."""
        start: DiagramStart = self.spec.get("start", {})
        game = self.engine
        state = game.new_state(
            players=start.get("players", game.min_players),
            options=start.get("options") if options is None else options,
            seed=start.get("seed", 0),
        )
        states = [state]
        for move in self.spec.get("moves", []):
            state = state.play(move)
            states.append(state)
        return states

    def state(self) -> State:
        return self.states()[-1]
