"""How much a move cost its mover, and the mark that earns (pure: no database, no engine).

A position's value for a seat is its expected reward in [0, 1] (1 = first place, 0 = last; a
two-player draw is 0.5), i.e. a win probability in two-player games. A move's **drop** is the
mover's value before the move minus the mover's value in the position it led to, both from the
search. The thresholds are Lichess's, on win probability: a drop of at least 0.10 is an
inaccuracy, 0.20 a mistake, 0.30 a blunder. A move the search itself prefers is never marked
(the difference is then the search's noise, not the player's error); nor is a forced move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.30), ("mistake", 0.20),
                                             ("inaccuracy", 0.10))
"""(mark, smallest drop that earns it), worst first."""
MARKS = tuple(name for name, _ in THRESHOLDS)


@dataclass(frozen=True)
class PositionValue:
    """The search's verdict on one position (after ``ply`` moves)."""

    ply: int
    to_move: int | None
    values: tuple[float, ...]
    best: str | None
    proven: bool
    moves: int  # how many legal moves the mover had


def mark_for(drop: float) -> str | None:
    for name, threshold in THRESHOLDS:
        if drop >= threshold - 1e-9:
            return name
    return None


def outcome(value: float, proven: bool) -> str | None:
    """``win`` / ``loss`` / ``draw`` when the search proved the position, else None."""
    if not proven:
        return None
    if value >= 1.0 - 1e-9:
        return "win"
    if value <= 1e-9:
        return "loss"
    return "draw" if abs(value - 0.5) < 1e-9 else None


def judge(positions: Sequence[PositionValue], played: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The analysis document: one entry per position, one per move, and marks counted per seat.

    ``positions[k]`` is the position after ``k`` moves; ``played[k]`` the move made there
    (``{"ply": k + 1, "seat", "move"}``), so ``len(positions) == len(played) + 1``.
    """
    out_positions = []
    for position in positions:
        mover_value = None if position.to_move is None else position.values[position.to_move]
        out_positions.append({
            "ply": position.ply,
            "to_move": position.to_move,
            "values": [round(v, 4) for v in position.values],
            "value": None if mover_value is None else round(mover_value, 4),
            "proven": outcome(mover_value, position.proven) if mover_value is not None else None,
            "best": position.best,
        })
    out_moves = []
    seats = len(positions[0].values) if positions else 0
    counts = [{name: 0 for name in MARKS} for _ in range(seats)]
    for index, entry in enumerate(played):
        before, after = positions[index], positions[index + 1]
        seat = int(entry["seat"])
        drop = before.values[seat] - after.values[seat]
        preferred = before.best
        mark = None
        if entry["move"] != preferred and before.moves > 1:
            mark = mark_for(drop)
        if mark is not None:
            counts[seat][mark] += 1
        out_moves.append({"ply": index + 1, "seat": seat, "move": entry["move"],
                          "drop": round(drop, 4), "mark": mark, "best": preferred})
    return {"positions": out_positions, "moves": out_moves, "counts": counts}
