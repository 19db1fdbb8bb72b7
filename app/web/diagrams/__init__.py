"""Rules-page diagrams drawn from engine positions, so a figure cannot drift from the rules.

Each game keeps its diagrams as data in ``games/<id>/diagrams.json``: a start (players, options,
seed) and a list of moves the engine replays, the marks to draw, the claims the caption makes (which
``tests/games/test_diagrams.py`` checks against the engine) and the caption in every language. One
drawing serves both languages; only the words are translated.

Drawn here, on the server, as inline SVG: the live boards are interactive ES modules that need a
match, a seat and a browser, while a figure must read the same without JavaScript, in print and in
tests. Each game's drawer is ``games/<id>/figures.py``; the data and ``Diagram`` are in games/figures.py.
"""

from __future__ import annotations

import html
from functools import cache
from importlib import import_module

from markupsafe import Markup

from games.figures import Diagram, UnknownDiagram, diagram, diagrams

FIGURE_WORD = {"en": "Figure", "ja": "図"}
__all__ = ["Diagram", "UnknownDiagram", "diagram", "diagrams", "figure"]


@cache
def _svg(game_id: str, diagram_id: str, language: str) -> str:
    found = diagram(game_id, diagram_id)
    drawer = import_module(f"games.{game_id}.figures")
    svg: str = drawer.draw(found, language)  # the figures hook's contract (docs/adding-a-game.md)
    return svg


def figure(game_id: str, diagram_id: str, language: str) -> Markup:
    """The ``<figure>``: the drawing and its numbered caption in ``language`` (English fallback).

    Captions are the project's own trusted text and may hold ``<code>`` and ``<strong>``."""
    found = diagram(game_id, diagram_id)
    caption = found.captions.get(language) or found.captions["en"]
    word = FIGURE_WORD.get(language, FIGURE_WORD["en"])
    label = f"{word}{found.number}" if language == "ja" else f"{word} {found.number}"
    return Markup(
        f'<figure class="diagram" id="fig-{html.escape(found.id)}">'
        f"{_svg(game_id, diagram_id, language)}"
        f"<figcaption>{label} — {caption}</figcaption></figure>"
    )
