"""The 5×5 Alquerque board of Sight: point names, lines, neighbours and rays, all precomputed.

Points are indexed ``file * 5 + rank`` (both from 0), so index order is alphabetical order
(``a1, a2, … a5, b1, … e5``) and sorting indices sorts names. Every point has the four orthogonal
lines; a point whose coordinates sum to an even number also has the four diagonals.
"""

from __future__ import annotations

SIZE = 5
FILES = "abcde"
COLOURS = ("light", "dark")
SIGNS = (1, -1)
"""A board holds signed heights: ``+h`` a light stack of height ``h`` (seat 0), ``-h`` dark."""
POINT_COUNT = SIZE * SIZE

POINT_NAMES: tuple[str, ...] = tuple(
    f"{FILES[i // SIZE]}{i % SIZE + 1}" for i in range(POINT_COUNT)
)
POINT_INDEX: dict[str, int] = {name: i for i, name in enumerate(POINT_NAMES)}

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (file step, rank step): N, E, S, W
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))  # NE, SE, SW, NW


def is_even_point(point: int) -> bool:
    """Even points (file + rank even) carry the diagonal lines."""
    return (point // SIZE + point % SIZE) % 2 == 0


def _ray(point: int, step: tuple[int, int]) -> tuple[int, ...]:
    """The points met walking from ``point`` (excluded) along ``step`` to the board's edge."""
    file, rank = divmod(point, SIZE)
    out = []
    file, rank = file + step[0], rank + step[1]
    while 0 <= file < SIZE and 0 <= rank < SIZE:
        out.append(file * SIZE + rank)
        file, rank = file + step[0], rank + step[1]
    return tuple(out)


def _rays(point: int) -> tuple[tuple[int, ...], ...]:
    steps = ORTHOGONAL + DIAGONAL if is_even_point(point) else ORTHOGONAL
    return tuple(ray for ray in (_ray(point, step) for step in steps) if ray)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(p) for p in range(POINT_COUNT))
"""For each point, its non-empty rays (up to 4 or 8 directions), nearest point first."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(ray[0] for ray in RAYS[p])) for p in range(POINT_COUNT)
)
"""For each point, the points adjacent along a board line, in index (alphabetical) order."""

EDGES: tuple[tuple[int, int], ...] = tuple(
    (p, q) for p in range(POINT_COUNT) for q in NEIGHBOURS[p] if p < q
)
"""Every line segment of the board once, for drawing it."""

STEP_NAMES: dict[tuple[int, int], str] = {
    (p, q): f"{POINT_NAMES[p]}-{POINT_NAMES[q]}" for p in range(POINT_COUNT) for q in NEIGHBOURS[p]
}
"""Canonical notation of every step between neighbours, e.g. ``c3-d4``."""

MOVE_BY_NAME: dict[str, tuple[int, int]] = {
    **{name: (-1, i) for i, name in enumerate(POINT_NAMES)},
    **{name: step for step, name in STEP_NAMES.items()},
}
"""Canonical notation -> (source or -1 for a placement, target): the fast path of parsing."""
