"""Scalas figures: the board as a height map (top colour, height as a numeral), seen from above.

Marks (all optional): ``focus`` (the square a cube goes on, outlined gold), ``path`` (arrows along a
descent, green), ``after`` (also draw the board after the cube on ``focus``, with ``path_after``),
``fails_before`` / ``fails_after`` (red crosses with a one-word reason), ``forced`` (squares outlined
orange: forced targets), ``pair`` (the two equal squares that create them, joined by a dotted line).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from games.diagram import Diagram
from games.figures_svg import FOCUS, MUTED, NO, OK, arrow, cross, el, markers, svg, text

CELL = 46
LEFT, TOP = 22, 28
FILES = "abcdefg"
COLOUR = {0: "#d4443a", 1: "#3572cc"}
EMPTY = "#efe6d2"
FORCED = "#e07b00"
WORDS = {
    "en": {"before": "Before", "after": "After"},
    "ja": {"before": "置く前", "after": "置いた後"},
}


def _board(
    view: dict[str, Any], x0: float, size: int, marks: dict[str, Any], prefix: str, after: bool
) -> list[str]:
    def centre(name: str) -> tuple[float, float]:
        file, rank = FILES.index(name[0]), int(name[1:]) - 1
        return x0 + file * CELL + CELL / 2, TOP + (size - 1 - rank) * CELL + CELL / 2

    parts = []
    for square in view["squares"]:
        x, y = centre(square["name"])
        fill = EMPTY if square["top"] is None else COLOUR[square["top"]]
        parts.append(el("rect", x=x - CELL / 2 + 1, y=y - CELL / 2 + 1, width=CELL - 2, height=CELL - 2,
                        rx=4, fill=fill, stroke="#b7a888", stroke_width=1))
        if square["height"]:
            parts.append(text(x, y + 6, str(square["height"]), text_anchor="middle", font_size=17,
                              font_weight=700, fill="#fff"))
    focus = marks.get("focus")
    if focus:
        x, y = centre(focus)
        parts.append(el("rect", x=x - CELL / 2 + 2.5, y=y - CELL / 2 + 2.5, width=CELL - 5,
                        height=CELL - 5, rx=5, fill="none", stroke=FOCUS, stroke_width=4,
                        stroke_dasharray=None if after else "6 4"))
    for square in marks.get("forced", []):
        x, y = centre(square)
        parts.append(el("rect", x=x - CELL / 2 + 2.5, y=y - CELL / 2 + 2.5, width=CELL - 5,
                        height=CELL - 5, rx=5, fill="none", stroke=FORCED, stroke_width=4))
    if "pair" in marks:
        (x1, y1), (x2, y2) = (centre(s) for s in marks["pair"])
        parts.append(el("line", x1=x1, y1=y1 - 12, x2=x2, y2=y2 - 12, stroke="#fff", stroke_width=2.5,
                        stroke_dasharray="3 4"))
    path = marks.get("path_after" if after else "path", [])
    for a, b in pairwise(path):
        parts.append(arrow(*centre(a), *centre(b), OK, f"{prefix}-ok", shorten=9, width=3.5))
    for key in ("fails_before", "fails_after"):
        for square in marks.get(key, []):
            x, y = centre(square)
            parts.append(cross(x + 13, y - 13, 5.5, NO))
    for i in range(size):
        parts.append(text(x0 + i * CELL + CELL / 2, TOP + size * CELL + 15, FILES[i],
                          text_anchor="middle", font_size=17, fill=MUTED, font_weight=600))
        parts.append(text(x0 - 11, TOP + (size - 1 - i) * CELL + CELL / 2 + 5, str(i + 1),
                          text_anchor="middle", font_size=17, fill=MUTED, font_weight=600))
    return parts


def draw(diagram: Diagram, language: str) -> str:
    words = WORDS.get(language, WORDS["en"])
    state = diagram.state()
    view = state.view(None)
    size = view["size"]
    marks = diagram.marks
    prefix = f"sc-{diagram.id}"
    board_width = size * CELL
    parts = [markers(prefix)]
    parts.extend(_board(view, LEFT, size, marks, prefix, after=False))
    width = LEFT + board_width + 6
    if marks.get("after"):
        parts.append(text(LEFT + board_width / 2, 18, words["before"], text_anchor="middle",
                          font_size=17, font_weight=700, fill="#3a3330"))
        x0 = LEFT * 2 + board_width + 16
        parts.extend(_board(state.play(marks["focus"]).view(None), x0, size, marks, prefix, after=True))
        parts.append(text(x0 + board_width / 2, 18, words["after"], text_anchor="middle",
                          font_size=17, font_weight=700, fill="#3a3330"))
        width = x0 + board_width + 6
    return svg(width, TOP + size * CELL + 22, parts, f"Scalas {diagram.id}")
