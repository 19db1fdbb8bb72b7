"""The Stairs board: square names, neighbours and colours, precomputed once.

The board is a flat tuple of 36 stacks, index ``rank * 6 + file`` (a1, b1, …, f1, a2, …, f6).
"""

from __future__ import annotations

SIZE = 6
FILES = "abcdef"
SQUARES = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}

LIGHT, DARK, EMPTY = 0, 1, -1
COLOUR_NAMES = ("light", "dark")


def _neighbours(index: int) -> tuple[int, ...]:
    """The up to 8 squares touching ``index``, in ascending square order."""
    file, rank = index % SIZE, index // SIZE
    return tuple(
        r * SIZE + f
        for r in range(rank - 1, rank + 2)
        for f in range(file - 1, file + 2)
        if (f, r) != (file, rank) and 0 <= f < SIZE and 0 <= r < SIZE
    )


NEIGHBOURS = tuple(_neighbours(i) for i in range(SIZE * SIZE))
