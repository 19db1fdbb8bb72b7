"""Rules-figure data: each game keeps its diagrams in ``games/<id>/diagrams.json`` — a start
(players, options, seed) and moves the engine replays, the marks to draw, the claims the caption
makes (checked against the engine by tests) and the caption in every language — and draws them in
``games/<id>/figures.py`` (``draw(diagram, language) -> str``, plain SVG text). Pure: no web code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Required, TypedDict

from games import registry
from games.base import State

GAMES_DIR = Path(registry.__file__).resolve().parent


class UnknownDiagram(KeyError):
    """No diagram with that id in the game's diagrams.json."""


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
        game = registry.get(self.game)
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


@cache
def diagrams(game_id: str) -> tuple[Diagram, ...]:
    """The game's diagrams in page order (their figure numbers)."""
    path = GAMES_DIR / game_id / "diagrams.json"
    specs: list[DiagramSpec] = json.loads(path.read_text(encoding="utf-8"))["diagrams"]
    return tuple(
        Diagram(game_id, spec["id"], number, spec) for number, spec in enumerate(specs, start=1)
    )


def diagram(game_id: str, diagram_id: str) -> Diagram:
    for found in diagrams(game_id):
        if found.id == diagram_id:
            return found
    raise UnknownDiagram(f"{game_id}/{diagram_id}")


