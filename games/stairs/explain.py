"""Why a Stairs position is won: the squares the three-step decision looks at.

The winner rules (engine.score_now) look only at the stacks of the greatest height; the match page
shows those squares, per seat, beside each step of the decision (highest piece, then more pieces
at that height, then who reached it first). Pure: plain tuples in, lists of square names out.
"""

from __future__ import annotations

from collections.abc import Sequence


def top_squares(
    squares: Sequence[str],
    heights: Sequence[int],
    tops: Sequence[int],
    seat_colours: Sequence[int],
) -> list[list[str]]:
    """For each seat, the squares of greatest height whose top piece is that seat's colour."""
    top = max(heights)
    return [
        [square for square, height, colour in zip(squares, heights, tops, strict=True)
         if height == top and colour == seat_colour]
        for seat_colour in seat_colours
    ]
