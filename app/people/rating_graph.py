"""A rating history drawn as an inline SVG, on the server: no script, no chart library.

The graph is a line over the rated games in order (the x axis counts them), with rating ticks,
axis titles, and a ``<title>`` and ``<desc>`` that say in words what the line shows, so a screen
reader reads a summary rather than shapes. Its colours are the page's CSS variables (classes
``rating-graph…`` in static/css/site.css), so it follows the light and dark themes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

from app.kernel import i18n
from app.people.history import RatingPoint

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 42, 12, 28, 46
MOST_POINTS = 400
"""A longer history is thinned to this many points, evenly (the first and last kept)."""
MOST_DOTS = 60
"""Up to this many games, each has a dot with its own tooltip."""


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """About ``count`` round values (steps of 1, 2 or 5 times a power of ten) covering
    [low, high]."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks, value = [], first
    while value < high + step / 2:
        ticks.append(round(value, 6))
        value += step
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 6))
    return ticks


def _thinned(points: Sequence[RatingPoint]) -> list[tuple[int, RatingPoint]]:
    """(game number from 1, point), at most MOST_POINTS of them."""
    numbered = list(enumerate(points, start=1))
    if len(numbered) <= MOST_POINTS:
        return numbered
    stride = (len(numbered) - 1) / (MOST_POINTS - 1)
    return [numbered[round(index * stride)] for index in range(MOST_POINTS)]


def _number(value: float) -> str:
    return f"{value:.1f}"


def _signed(value: float) -> str:
    return f"{value:+.1f}"


def describe(points: Sequence[RatingPoint]) -> str:
    """The line in words: how many games, when, from what to what, the highest and lowest."""
    ratings = [p["rating"] for p in points]
    return i18n.ngettext(
        "%(count)s rated game, on %(first)s: rating %(start)s to %(end)s.",
        "%(count)s rated games from %(first)s to %(last)s: rating %(start)s to %(end)s, "
        "highest %(high)s, lowest %(low)s.", len(points)) % {
        "count": len(points), "first": points[0]["at"][:10], "last": points[-1]["at"][:10],
        "start": _number(ratings[0] - points[0]["delta"]), "end": _number(ratings[-1]),
        "high": _number(max(ratings)), "low": _number(min(ratings))}


def _line(kind: str, x1: float, y1: float, x2: float, y2: float) -> str:
    return (f'<line class="rating-graph-{kind}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
            f'y2="{y2:.1f}"/>')


def _text(kind: str, x: float, y: float, anchor: str, words: object) -> str:
    return (f'<text class="rating-graph-{kind}" x="{x:.1f}" y="{y:.1f}" '
            f'text-anchor="{anchor}">{escape(words)}</text>')


class _Frame:
    """Where ratings and game numbers fall in the drawing."""

    def __init__(self, games: int, low: float, high: float) -> None:
        self.games, self.low, self.high = games, low, high
        self.width, self.height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(self, number: float) -> float:
        return LEFT + self.width * number / max(self.games, 1)

    def y(self, rating: float) -> float:
        return TOP + self.height * (self.high - rating) / (self.high - self.low)


def _axes(frame: _Frame, y_ticks: list[float]) -> list[str]:
    """Grid lines with their ratings, game numbers, both axes and their titles."""
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    parts = []
    for tick in y_ticks:
        parts.append(_line("grid", LEFT, frame.y(tick), right, frame.y(tick)))
        parts.append(_text("tick", LEFT - 6, frame.y(tick) + 4, "end", f"{tick:g}"))
    for number in sorted({int(v) for v in nice_ticks(0, frame.games, 5)
                          if v == int(v) and v <= frame.games}):
        parts.append(_text("tick", frame.x(number), bottom + 16, "middle", number))
    parts.append(_line("axis", LEFT, TOP, LEFT, bottom))
    parts.append(_line("axis", LEFT, bottom, right, bottom))
    parts.append(_text("label", LEFT, TOP - 10, "start", i18n.gettext("Rating")))
    parts.append(_text("label", LEFT + frame.width / 2, HEIGHT - 8, "middle",
                       i18n.gettext("Rated games")))
    return parts


def _dot(frame: _Frame, number: int, point: RatingPoint) -> str:
    tip = i18n.gettext("Game %(number)s: %(rating)s (%(delta)s), %(date)s") % {
        "number": number, "rating": _number(point["rating"]),
        "delta": _signed(point["delta"]), "date": point["at"][:10]}
    return (f'<circle class="rating-graph-dot" cx="{frame.x(number):.1f}" '
            f'cy="{frame.y(point["rating"]):.1f}" r="3.5" '
            f'data-rating="{_number(point["rating"])}"><title>{escape(tip)}</title></circle>')


def rating_svg(points: Sequence[RatingPoint], game_title: str, key: str) -> Markup:
    """The history of one game as an ``<svg>`` element; ``key`` makes its ids unique on the
    page (the game id)."""
    if not points:
        return Markup("")
    shown = _thinned(points)
    start = points[0]["rating"] - points[0]["delta"]
    values = [start, *(p["rating"] for _, p in shown)]
    y_ticks = nice_ticks(min(values), max(values))
    frame = _Frame(len(points), y_ticks[0], y_ticks[-1])
    title = i18n.gettext("Rating history: %(game)s") % {"game": game_title}
    ident = escape(f"rating-graph-{key}")
    line = " ".join(f"{frame.x(n):.1f},{frame.y(rating):.1f}"
                    for n, rating in [(0, start), *((n, p["rating"]) for n, p in shown)])
    parts = [
        f'<svg class="rating-graph" id="{ident}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" data-games="{len(points)}">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(describe(points))}</desc>',
        *_axes(frame, y_ticks),
        f'<polyline class="rating-graph-line" points="{line}"/>',
    ]
    if len(points) <= MOST_DOTS:
        parts.extend(_dot(frame, number, point) for number, point in shown)
    parts.append("</svg>")
    return Markup("".join(parts))
