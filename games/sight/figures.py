"""Sight figures: the 5×5 Alquerque board, pieces with their heights, and what a move would do.

Marks (all optional): ``even`` (the even points in gold), ``move`` (a placement or a step shown
before it is played: the arriving piece as a ghost, its lines of sight, ``+1`` on every piece the
engine says would grow, a red cross on friendly pieces hidden behind another piece), ``sources``
(points outlined green: the stacks that may move now), ``stuck`` (points crossed red: stacks that
may not move).
"""

from __future__ import annotations

from games.diagram import Diagram
from games.figures_svg import FOCUS, MUTED, NO, OK, arrow, cross, el, markers, svg, text
from games.sight.board import EDGES, FILES, POINT_INDEX, POINT_NAMES, RAYS, SIZE, is_even_point

GAP = 64
MARGIN = 44
SIGHT = "#2f6bd0"
PIECE = {"light": "#f4eee1", "dark": "#3a3330"}
EDGE = {"light": "#9a8f7a", "dark": "#000"}
PIECE_INK = {"light": "#3a3330", "dark": "#f4eee1"}


def at(point: int) -> tuple[float, float]:
    file, rank = divmod(point, SIZE)
    return MARGIN + file * GAP, MARGIN + (SIZE - 1 - rank) * GAP


def _piece(point: int, colour: str, height: int, ghost: bool = False) -> list[str]:
    x, y = at(point)
    parts = [el("ellipse", cx=x, cy=y, rx=19, ry=12, fill=PIECE[colour], stroke=EDGE[colour],
                stroke_width=1.4, opacity=0.55 if ghost else None)]
    if not ghost:
        parts.append(text(x, y + 5, str(height), text_anchor="middle", font_size=15, font_weight=700,
                          fill=PIECE_INK[colour]))
    return parts


def draw(diagram: Diagram, language: str) -> str:
    state = diagram.state()
    view = state.view(None)
    board = view["board"]
    marks = diagram.marks
    prefix = f"si-{diagram.id}"
    occupied = {POINT_INDEX[name]: cell for name, cell in board.items() if cell}
    size = MARGIN * 2 + GAP * (SIZE - 1)
    parts = [markers(prefix),
             el("rect", x=4, y=4, width=size - 8, height=size - 8, rx=14, fill="#e9d9b4",
                stroke="#a88a5c", stroke_width=2)]
    for p, q in EDGES:
        (x1, y1), (x2, y2) = at(p), at(q)
        parts.append(el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#7a6244", stroke_width=1.6))
    for point in range(SIZE * SIZE):
        x, y = at(point)
        gold = marks.get("even") and is_even_point(point)
        parts.append(el("circle", cx=x, cy=y, r=7 if gold else 3.5, fill=FOCUS if gold else "#7a6244"))
    move = marks.get("move")
    grown: list[str] = view["growth"].get(move, []) if move else []
    lines: list[str] = []  # drawn under the pieces
    overlay: list[str] = []  # drawn over them
    if move:
        source, _, target = move.rpartition("-")
        t = POINT_INDEX[target]
        mover = "light" if state.to_move == 0 else "dark"
        tx, ty = at(t)
        for ray in RAYS[t]:
            seen = next((p for p in ray if p in occupied), None)
            if seen is None:
                continue
            sx, sy = at(seen)
            name = POINT_NAMES[seen]
            if name in grown:
                lines.append(el("line", x1=tx, y1=ty, x2=sx, y2=sy, stroke=SIGHT, stroke_width=4,
                                  stroke_linecap="round", opacity=0.85))
            else:
                lines.append(el("line", x1=tx, y1=ty, x2=sx, y2=sy, stroke="#555", stroke_width=2,
                                  stroke_dasharray="5 5"))
                behind = [p for p in ray[ray.index(seen) + 1:]
                          if p in occupied and occupied[p]["colour"] == mover]
                for hidden in behind[:1]:
                    hx, hy = at(hidden)
                    overlay.append(cross(hx + 18, hy - 16, 6))
        if source:
            sx, sy = at(POINT_INDEX[source])
            overlay.append(arrow(sx, sy, tx, ty, FOCUS, f"{prefix}-focus", shorten=16, width=5))
        overlay.append(el("circle", cx=tx, cy=ty, r=24, fill="none", stroke=SIGHT, stroke_width=3))
    parts.extend(lines)
    for point, cell in occupied.items():
        parts.extend(_piece(point, cell["colour"], cell["height"]))
    for name in marks.get("sources", []):
        x, y = at(POINT_INDEX[name])
        parts.append(el("circle", cx=x, cy=y, r=24, fill="none", stroke=OK, stroke_width=3.5))
    for name in marks.get("stuck", []):
        x, y = at(POINT_INDEX[name])
        parts.append(cross(x + 18, y - 16, 6, NO))
    parts.extend(overlay)
    if move:
        parts.extend(_piece(POINT_INDEX[move.rpartition("-")[2]], mover, 1, ghost=True))
        for name in grown:
            x, y = at(POINT_INDEX[name])
            parts.append(el("circle", cx=x + 18, cy=y - 15, r=12.5, fill=SIGHT))
            parts.append(text(x + 18, y - 10.5, "+1", text_anchor="middle", font_size=13,
                              font_weight=700, fill="#fff"))
    for i in range(SIZE):
        parts.append(text(MARGIN + i * GAP, size - 8, FILES[i], text_anchor="middle", font_size=13,
                          fill=MUTED, font_weight=600))
        parts.append(text(14, MARGIN + (SIZE - 1 - i) * GAP + 5, str(i + 1), text_anchor="middle",
                          font_size=13, fill=MUTED, font_weight=600))
    return svg(size, size, parts, f"Sight {diagram.id}")
