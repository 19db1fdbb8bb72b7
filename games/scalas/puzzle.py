"""Scalas puzzles: a forced win, or a decisive gain — the solver's lead in topped squares grows
by three or more and still stands when the opponent has answered — within four plies of choice.

A forced placement is a ply of the same player, so a short chain of them is what makes a gain
of three squares in one turn; four plies cover a turn with its forced cubes and the answer."""

from typing import Protocol, cast

from games.base import PuzzleRules, State

DECISIVE_GAIN = 3


class _Topped(Protocol):
    def tops(self) -> list[int]: ...


def lead(state: State, seat: int) -> int:
    """``seat``'s topped squares minus the opponent's (a Scalas state counts its tops)."""
    tops = cast(_Topped, state).tops()
    return tops[seat] - tops[1 - seat]


PUZZLES = PuzzleRules(depth=4, margin=lead, gain=DECISIVE_GAIN)
