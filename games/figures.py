"""Rules-figure data: each game keeps its diagrams in ``games/<id>/diagrams.json`` — a start
(players, options, seed) and moves the engine replays, the marks to draw, the claims the caption
makes (checked against the engine by tests) and the caption in every language — and draws them in
``games/<id>/figures.py`` (``draw(diagram, language) -> str``, plain SVG text). Pure: no web code.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from games import registry
from games.diagram import Diagram, DiagramSpec, DiagramStart

__all__ = ["Diagram", "DiagramSpec", "DiagramStart", "UnknownDiagram", "diagram", "diagrams"]

GAMES_DIR = Path(registry.__file__).resolve().parent


class UnknownDiagram(KeyError):
    """No diagram with that id in the game's diagrams.json."""


@cache
def diagrams(game_id: str) -> tuple[Diagram, ...]:
    """The game's diagrams in page order (their figure numbers)."""
    path = GAMES_DIR / game_id / "diagrams.json"
    specs: list[DiagramSpec] = json.loads(path.read_text(encoding="utf-8"))["diagrams"]
    engine = registry.get(game_id)
    return tuple(Diagram(game_id, spec["id"], number, spec, engine)
                 for number, spec in enumerate(specs, start=1))


def diagram(game_id: str, diagram_id: str) -> Diagram:
    for found in diagrams(game_id):
        if found.id == diagram_id:
            return found
    raise UnknownDiagram(f"{game_id}/{diagram_id}")
