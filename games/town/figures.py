"""Town of Stairs figures: the town (compact cards, readable at phone width), a walk, card faces.

Cards are drawn small (62 units) so the whole 7-column town fits a phone screen with every label at
least 10 CSS px. Marks (all optional): ``slots`` (empty slots outlined green: where ``card`` may go),
``refused`` (empty slots crossed red), ``walk`` (a seat whose walk is numbered step by step),
``cards`` (a row of card faces instead of a town, for the legend figure).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from games.diagram import Diagram
from games.figures_svg import MUTED, NO, OK, cross, el, svg, text

COLS, ROWS = 7, 4
W = 62  # card size
PITCH = W + 4
LEFT = 22
TOP = 34  # room for the lighthouse band
SEA = 30
LABEL = 14.5  # smallest font size: 10 CSS px when the figure shrinks to a 340 px phone column
COLUMNS = "abcdefg"
SEAT = {"red": "#d2423b", "blue": "#2f6bd0", "green": "#2a9456", "yellow": "#e2ad12"}
TINT = {
    "cafe": "#f0dcc6", "bakery": "#f7e6b5", "cat": "#e4e1dc", "flowers": "#f8d6e2",
    "shrine": "#f6d0c6", "books": "#e2d8c8", "gallery": "#dfe3f3", "market": "#dcefd9",
    "music": "#e8dcf3", "view": "#d6ecf2",
}
EVENT_WORDS = {
    "en": {"cafe": "Café", "bakery": "Bakery", "cat": "Cats", "flowers": "Florist", "shrine": "Shrine",
           "books": "Books", "gallery": "Gallery", "market": "Market", "music": "Music",
           "view": "View", "sunset": "Sunset"},
}
WORDS = {
    "en": {"lighthouse": "Lighthouse", "stairs": "stairs", "path": "path", "event": "event",
           "UR": "UR: climb up-right, walk on right", "UL": "UL: climb up-left, walk on left",
           "skip": "skip: this colour may go straight on", "rev": "rev: this colour turns round"},
    "ja": {"lighthouse": "灯台", "stairs": "階段", "path": "通路", "event": "出来事",
           "UR": "右上移動（UR）：右上へ上り、右へ", "UL": "左上移動（UL）：左上へ上り、左へ",
           "skip": "見逃し（skip）：その色は直進してよい", "rev": "引き返し（rev）：その色は向きを変える"},
}
KEY = (("UR", "UR"), ("UL", "UL"), ("skip:green", "skip"), ("rev:red", "rev"))


def event_name(event: str, names: dict[str, str], language: str) -> str:
    """English short names here; Japanese ones are the card data's own (cards.json)."""
    if language == "ja":
        return names.get(event, event)
    return EVENT_WORDS["en"].get(event, event)


def _icon(x: float, y: float, icon: str) -> str:
    """A corner icon: UR/UL arrows in a white disc, skip a coloured square, rev a coloured disc."""
    kind, _, colour = icon.partition(":")
    if icon in ("UR", "UL"):
        d = "M-4 4L4 -4M-0.5 -4.5H4.5V0.5" if icon == "UR" else "M4 4L-4 -4M0.5 -4.5H-4.5V0.5"
        return el("g", [el("circle", r=8.5, fill="#fffdf6", stroke="#2b2b2b", stroke_width=1.4),
                        el("path", d=d, fill="none", stroke="#2b2b2b", stroke_width=2,
                           stroke_linecap="round", stroke_linejoin="round")],
                  transform=f"translate({x} {y})")
    fill = SEAT[colour]
    if kind == "skip":
        return el("g", [el("rect", x=-8.5, y=-8.5, width=17, height=17, rx=4, fill=fill),
                        el("path", d="M-5 0H5M-2.5 -2.5L-5 0L-2.5 2.5M2.5 -2.5L5 0L2.5 2.5",
                           fill="none", stroke="#fff", stroke_width=1.8, stroke_linecap="round")],
                  transform=f"translate({x} {y})")
    return el("g", [el("circle", r=8.5, fill=fill),
                    el("path", d="M3 5V-1a3 3 0 0 0-6 0v3M-5.5 1L-3 4L-0.5 1", fill="none",
                       stroke="#fff", stroke_width=1.8, stroke_linecap="round",
                       stroke_linejoin="round")],
              transform=f"translate({x} {y})")


def card(x: float, y: float, face: dict[str, Any], names: dict[str, str], language: str) -> list[str]:
    """One card face at (x, y): stairs silhouette or event name, corner icons along the bottom."""
    parts = []
    if face["event"]:
        parts.append(el("rect", x=x, y=y, width=W, height=W, rx=6, fill=TINT[face["event"]],
                        stroke="#5b5140", stroke_width=1.2))
        parts.append(text(x + W / 2, y + 39, event_name(face["event"], names, language),
                          text_anchor="middle", font_size=LABEL, font_weight=700, fill="#4a3a2a"))
    else:
        parts.append(el("rect", x=x, y=y, width=W, height=W, rx=6,
                        fill="#efe6d2" if face["stairs"] else "#d9d6d0", stroke="#5b5140",
                        stroke_width=1.2))
        if face["stairs"]:
            up_right = bool(face["bl"]) or not face["br"]
            steps = [(x + 8 + i * 11.5, y + 40 - i * 8) for i in range(4)]
            if not up_right:
                steps = [(x + W - 8 - (i + 1) * 11.5, y + 40 - i * 8) for i in range(4)]
            for sx, sy in steps:
                parts.append(el("rect", x=round(sx, 1), y=round(sy, 1), width=11.5,
                                height=round(y + 48 - sy, 1), fill="#b59c74"))
        else:
            parts.append(el("rect", x=x + 4, y=y + 20, width=W - 8, height=12, fill="#8f8a82"))
    for corner, icons in (("bl", face["bl"]), ("br", face["br"])):
        for i, icon in enumerate(icons):
            offset = 11 + i * 19
            ix = x + offset if corner == "bl" else x + W - offset
            parts.append(_icon(ix, y + W - 10, icon))
    return parts


def slot_xy(col: int, row: int) -> tuple[float, float]:
    """Top-left corner of the slot in column ``col`` (0–6), row ``row`` (1–4)."""
    return LEFT + col * PITCH, TOP + (ROWS - row) * PITCH


def _legend(diagram: Diagram, language: str) -> str:
    view = diagram.state().view(None)
    words = WORDS.get(language, WORDS["en"])
    parts = []
    for i, card_id in enumerate(diagram.marks["cards"]):
        face = view["cards"][card_id]
        x = 8 + i * (W + 30)
        parts.extend(card(x, 8, face, view["events"], language))
        kind = "event" if face["event"] else "stairs" if face["stairs"] else "path"
        parts.append(text(x + W / 2, W + 28, f"{card_id} {words[kind]}", text_anchor="middle",
                          font_size=LABEL, fill="#3a3330", font_weight=600))
    for i, (icon, word) in enumerate(KEY):
        y = W + 58 + i * 25
        parts.append(_icon(18, y, icon))
        parts.append(text(34, y + 5, words[word], font_size=LABEL, fill="#3a3330"))
    count = len(diagram.marks["cards"])
    return svg(8 + count * (W + 30) - 22, W + 58 + len(KEY) * 25, parts,
               f"Town of Stairs {diagram.id}")


def draw(diagram: Diagram, language: str) -> str:
    if "cards" in diagram.marks:
        return _legend(diagram, language)
    words = WORDS.get(language, WORDS["en"])
    view = diagram.state().view(None)
    marks = diagram.marks
    width = LEFT + COLS * PITCH
    sea_top = TOP + ROWS * PITCH
    parts = [el("rect", x=LEFT, y=4, width=COLS * PITCH - 4, height=TOP - 10, rx=6, fill="#ffd9a8",
                stroke="#d9a066"),
             text(LEFT + COLS * PITCH - 12, 24, words["lighthouse"], text_anchor="end",
                  font_size=LABEL, font_weight=700, fill="#8a4a12")]
    for row in range(1, ROWS + 1):
        parts.append(text(9, slot_xy(0, row)[1] + W / 2 + 5, str(row), text_anchor="middle",
                          font_size=LABEL, fill=MUTED, font_weight=600))
        for col in range(COLS):
            x, y = slot_xy(col, row)
            card_id = view["grid"][row - 1][col]
            if card_id is None:
                parts.append(el("rect", x=x + 1, y=y + 1, width=W - 2, height=W - 2, rx=6,
                                fill="none", stroke="#b7a888", stroke_dasharray="4 4"))
            else:
                parts.extend(card(x, y, view["cards"][card_id], view["events"], language))
    for col in range(COLS):
        x = LEFT + col * PITCH
        parts.append(el("rect", x=x, y=sea_top, width=W, height=SEA - 4, rx=5, fill="#6fb0d2"))
        parts.append(text(x + W / 2, sea_top + 19, str(col + 1), text_anchor="middle",
                          font_size=LABEL, font_weight=700, fill="#fff"))
        parts.append(text(x + W / 2, sea_top + SEA + 14, COLUMNS[col], text_anchor="middle",
                          font_size=LABEL, fill=MUTED, font_weight=600))
    for slot in marks.get("slots", []):
        x, y = slot_xy(COLUMNS.index(slot[0]), int(slot[1:]))
        parts.append(el("rect", x=x + 2, y=y + 2, width=W - 4, height=W - 4, rx=6,
                        fill="#1e7b4622", stroke=OK, stroke_width=3.5))
    for slot in marks.get("refused", []):
        x, y = slot_xy(COLUMNS.index(slot[0]), int(slot[1:]))
        parts.append(cross(x + W / 2, y + W / 2, 10, NO))
    if "walk" in marks:
        parts.extend(_walk(view, marks["walk"]))
    return svg(width, sea_top + SEA + 20, parts, f"Town of Stairs {diagram.id}")


def _walk(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's walk: a line through the cards it entered and a number on each."""
    colour = SEAT[view["colours"][seat]]
    points: list[tuple[float, float]] = []
    visits: dict[tuple[int, int], int] = {}
    x: float
    y: float
    for step in view["walks"][seat]:
        col, row = step["col"], step["row"]
        if row == 0:
            x, y = LEFT + col * PITCH + W / 2, TOP + ROWS * PITCH + 12
        elif row > ROWS:
            x, y = LEFT + col * PITCH + W / 2, 17
        else:
            sx, sy = slot_xy(col, row)
            seen = visits.get((col, row), 0)
            visits[(col, row)] = seen + 1
            x, y = sx + 14 + 34 * (seen % 2), sy + 13 + 26 * (seen // 2)  # later visits beside
        points.append((x, y))
    parts = []
    for (x1, y1), (x2, y2) in pairwise(points):
        if abs(x2 - x1) > PITCH * 1.5:  # the edge wraps round: draw the two ends as stubs
            out = PITCH * 0.6 * (1 if x2 < x1 else -1)
            parts.append(el("line", x1=x1, y1=y1, x2=x1 + out, y2=y1 + (y2 - y1) / 2, stroke=colour,
                            stroke_width=4, stroke_linecap="round", opacity=0.8))
            parts.append(el("line", x1=x2 - out, y1=y1 + (y2 - y1) / 2, x2=x2, y2=y2, stroke=colour,
                            stroke_width=4, stroke_linecap="round", opacity=0.8))
        else:
            parts.append(el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=4,
                            stroke_linecap="round", opacity=0.8))
    for number, (x, y) in enumerate(points[1:], start=1):
        parts.append(el("circle", cx=x, cy=y, r=11, fill=colour, stroke="#fff", stroke_width=1.5))
        parts.append(text(x, y + 5, str(number), text_anchor="middle", font_size=LABEL,
                          font_weight=700, fill="#fff"))
    return parts
