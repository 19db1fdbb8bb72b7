"""Helpers for a game's bot playout hint (``State.playout_move``): a greedy pick, often enough.

A hint plays its greedy choice with probability ``GREEDY`` and a uniformly random move otherwise,
so playouts stay varied; ties between the best moves are broken at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

GREEDY = 0.75


def explore(moves: list[str], rng: random.Random) -> str | None:
    """A uniformly random move when the hint should not be greedy this time (or has no choice)."""
    if len(moves) == 1 or rng.random() >= GREEDY:
        return moves[rng.randrange(len(moves))]
    return None


def best(moves: Sequence[str], scores: Sequence[float], rng: random.Random) -> str:
    """One of the moves with the top score, chosen at random."""
    top = max(scores)
    tied = [m for m, s in zip(moves, scores, strict=True) if s == top]
    return tied[rng.randrange(len(tied))]
