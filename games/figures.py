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
from typing import Any

from games import registry
from games.base import State

GAMES_DIR = Path(registry.__file__).resolve().parent


class UnknownDiagram(KeyError):
    """No diagram with that id in the game's diagrams.json."""


@dataclass(frozen=True)
class Diagram:
    """One figure: where its position comes from, what to mark, what its caption claims."""

    game: str
    id: str
    number: int
    spec: dict[str, Any]

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
        start = self.spec.get("start", {})
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
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Diagram(game_id, spec["id"], number, spec)
        for number, spec in enumerate(data["diagrams"], start=1)
    )


def diagram(game_id: str, diagram_id: str) -> Diagram:
    for found in diagrams(game_id):
        if found.id == diagram_id:
            return found
    raise UnknownDiagram(f"{game_id}/{diagram_id}")


