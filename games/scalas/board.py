"""Scalas board geometry and the staircase principle, as pure functions over a flat height list.

Squares are indexed row-major from a1: index = rank * size + file, so ``a1`` is 0 and ``b1`` is 1.
The tables are built once per board size at import time and never change.
"""

from __future__ import annotations

SIZES = (5, 6, 7)
FILES = "abcdefg"
COLOURS = ("red", "blue")
"""Seat 0's colour, then seat 1's (red moves first)."""

Heights = list[int] | tuple[int, ...]
Neighbours = tuple[tuple[int, ...], ...]


def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for index in range(size * size):
        rank, file = divmod(index, size)
        around = []
        for d_rank, d_file in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            r, f = rank + d_rank, file + d_file
            if 0 <= r < size and 0 <= f < size:
                around.append(r * size + f)
        table.append(tuple(around))
    return tuple(table)


def _forced_pairs(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square, the (between, two-away) pairs along each orthogonal line that fits the board."""
    table = []
    for index in range(size * size):
        rank, file = divmod(index, size)
        pairs = []
        for d_rank, d_file in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            r, f = rank + 2 * d_rank, file + 2 * d_file
            if 0 <= r < size and 0 <= f < size:
                pairs.append(((rank + d_rank) * size + file + d_file, r * size + f))
        table.append(tuple(pairs))
    return tuple(table)


NEIGHBOURS = {size: _neighbours(size) for size in SIZES}
FORCED_PAIRS = {size: _forced_pairs(size) for size in SIZES}
NAMES = {
    size: tuple(f"{FILES[i % size]}{i // size + 1}" for i in range(size * size)) for size in SIZES
}
INDEX = {size: {name: i for i, name in enumerate(NAMES[size])} for size in SIZES}


def descent_set(heights: Heights, size: int) -> list[bool]:
    """Which squares have a descent to the bottom level, by one reverse search from the bottom.

    A step s -> t is allowed when h(t) is h(s) or h(s) - 1, so walking it backwards from t reaches
    the neighbours of height h(t) or h(t) + 1: one flood from every bottom square covers the board.
    """
    neighbours = NEIGHBOURS[size]
    bottom = min(heights)
    reached = [h == bottom for h in heights]
    stack = [i for i, h in enumerate(heights) if h == bottom]
    while stack:
        t = stack.pop()
        ht = heights[t]
        for u in neighbours[t]:
            if not reached[u]:
                hu = heights[u]
                if hu == ht or hu == ht + 1:
                    reached[u] = True
                    stack.append(u)
    return reached


def staircase_squares(heights: Heights, size: int) -> list[int]:
    """Squares (ascending index) where a normal placement obeys the staircase principle.

    Before: the square is in the descent set. After: see :func:`_descends_after`, which settles
    almost every square by a local look and falls back to a search only when it must.
    """
    neighbours = NEIGHBOURS[size]
    bottom = min(heights)
    reached = descent_set(heights, size)
    bottoms = heights.count(bottom)
    legal = []
    for s in range(len(heights)):
        if not reached[s]:
            continue
        h = heights[s]
        if h == bottom and bottoms == 1:
            legal.append(s)  # it rises with the new bottom level: a descent of no steps
        elif _descends_after(s, h, heights, bottom, reached, neighbours):
            legal.append(s)
    return legal


def _is_exit(x: int, heights: Heights, reached: list[bool], neighbours: Neighbours) -> bool:
    """Whether x steps straight down onto a square with a descent (that path stays below x)."""
    below = heights[x] - 1
    return any(heights[y] == below and reached[y] for y in neighbours[x])


def _descends_after(
    s: int, h: int, heights: Heights, bottom: int, reached: list[bool], neighbours: Neighbours
) -> bool:
    """Whether s, raised to h + 1, still has a descent when the bottom level stays ``bottom``.

    A shortest descent never revisits s, so it leaves s to a neighbour at h or h + 1 and then uses
    only unchanged squares. The quick certificates reach, in one or two steps, a bottom square or a
    square that steps down onto the descent set (whose paths lie below h and so avoid s).
    """
    for u in neighbours[s]:
        hu = heights[u]
        if hu == h:
            if h == bottom or _is_exit(u, heights, reached, neighbours):
                return True
        elif hu == h + 1:
            for x in neighbours[u]:
                if (
                    x != s
                    and heights[x] == h
                    and (h == bottom or _is_exit(x, heights, reached, neighbours))
                ):
                    return True
    return _search_after(s, h, heights, bottom, neighbours)


def _search_after(s: int, h: int, heights: Heights, bottom: int, neighbours: Neighbours) -> bool:
    """The exhaustive after-check: a depth-first descent from s (now h + 1) avoiding s itself."""
    seen = {s}
    stack = []
    for u in neighbours[s]:
        if heights[u] == h or heights[u] == h + 1:
            seen.add(u)
            stack.append(u)
    while stack:
        v = stack.pop()
        hv = heights[v]
        if hv == bottom:
            return True
        for w in neighbours[v]:
            if w not in seen:
                hw = heights[w]
                if hw == hv or hw == hv - 1:
                    seen.add(w)
                    stack.append(w)
    return False
