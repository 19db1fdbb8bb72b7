"""Stairs figures: the 6×6 board seen from light's side, every stack a pile of discs with its height.

Marks (all optional): ``focus`` (a square outlined in gold), ``targets`` (green arrows from
``focus``: where it may go), ``not`` (red arrows from ``focus``: where it may not), ``movable``
(squares outlined green: pieces that may move now), ``blocked`` (squares crossed red: pieces that
could climb but may not move now), ``top`` (squares outlined gold: pieces at the greatest height).
"""

from __future__ import annotations

from games.diagram import Diagram
from games.figures_svg import (
    DARK,
    FOCUS,
    LIGHT,
    MUTED,
    NO,
    OK,
    arrow,
    cross,
    el,
    markers,
    svg,
    text,
)

SIZE = 6
CELL = 56
LEFT, TOP = 24, 6
FILES = "abcdef"
SQUARE = ("#e8dcc3", "#c9b89a")
EDGE = {"L": "#9a8f7a", "D": "#111"}
FILL = {"L": LIGHT, "D": DARK}


def centre(square: str) -> tuple[float, float]:
    file, rank = FILES.index(square[0]), int(square[1:]) - 1
    return LEFT + file * CELL + CELL / 2, TOP + (SIZE - 1 - rank) * CELL + CELL / 2


def _stack(x: float, y: float, stack: list[str]) -> list[str]:
    parts = []
    step = min(5.0, 22 / max(len(stack), 1))
    base = y + 9
    for level, piece in enumerate(stack):
        parts.append(el("ellipse", cx=x, cy=round(base - level * step, 1), rx=18, ry=8.5,
                        fill=FILL[piece], stroke=EDGE[piece], stroke_width=1.1))
    if stack:
        top = stack[-1]
        parts.append(text(x, base - (len(stack) - 1) * step + 5, str(len(stack)), text_anchor="middle",
                          font_size=14, font_weight=700, fill=DARK if top == "L" else LIGHT))
    return parts


def _outline(square: str, colour: str, dash: str | None = None) -> str:
    x, y = centre(square)
    return el("rect", x=x - CELL / 2 + 3, y=y - CELL / 2 + 3, width=CELL - 6, height=CELL - 6, rx=6,
              fill="none", stroke=colour, stroke_width=3.5, stroke_dasharray=dash)


def draw(diagram: Diagram, language: str) -> str:
    view = diagram.state().view(None)
    marks = diagram.marks
    prefix = f"st-{diagram.id}"
    parts = [markers(prefix)]
    for square in view["squares"]:
        file, rank = FILES.index(square[0]), int(square[1:]) - 1
        left, top = LEFT + file * CELL, TOP + (SIZE - 1 - rank) * CELL
        parts.append(el("rect", x=left, y=top, width=CELL, height=CELL, fill=SQUARE[(file + rank + 1) % 2]))
    for square in marks.get("top", []):
        parts.append(_outline(square, FOCUS))
    for square in marks.get("movable", []):
        parts.append(_outline(square, OK))
    if "focus" in marks:
        parts.append(_outline(marks["focus"], FOCUS))
    for square, stack in zip(view["squares"], view["board"], strict=True):
        parts.extend(_stack(*centre(square), stack))
    for square in marks.get("blocked", []):
        x, y = centre(square)
        parts.append(cross(x + 17, y - 17, 6))
    if "focus" in marks:
        x1, y1 = centre(marks["focus"])
        for key, colour, name in (("targets", OK, "ok"), ("not", NO, "no")):
            for square in marks.get(key, []):
                x2, y2 = centre(square)
                parts.append(arrow(x1, y1, x2, y2, colour, f"{prefix}-{name}", shorten=14))
    for i in range(SIZE):
        parts.append(text(LEFT + i * CELL + CELL / 2, TOP + SIZE * CELL + 16, FILES[i],
                          text_anchor="middle", font_size=13, fill=MUTED, font_weight=600))
        parts.append(text(LEFT - 12, TOP + (SIZE - 1 - i) * CELL + CELL / 2 + 5, str(i + 1),
                          text_anchor="middle", font_size=13, fill=MUTED, font_weight=600))
    width, height = LEFT + SIZE * CELL + 6, TOP + SIZE * CELL + 24
    return svg(width, height, parts, f"Stairs {diagram.id}")
