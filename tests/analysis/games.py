"""Games the analysis tests and bench/analysis.py share (engine only: no app, no pytest)."""

from __future__ import annotations

import random

from games import registry

BLUNDER_GAME = [
    "b6-a5", "c6-d5", "d2-c3", "a4-b3", "a1-b1", "f5-f6", "e3-f2", "e4-e5", "c5-b4", "d1-c1",
    "d4-d3", "c4-b5", "b2-a3", "f3-f4", "d6-e6", "f1-e1", "b4-b3", "f6-e6", "a5-b5", "a6-a5",
    "f2-e1", "e2-f2", "d3-c3", "d3-c2", "b1-c2", "a2-b1", "c2-b3", "e5-f4", "f6-e5", "b1-c1",
    "e5-d5", "e6-d5",
]
"""A Stairs game (random-ish play) in which light, at ply 29, had a won position (the search
proves it: e5-f6 wins) and played f6-e5, after which dark has a forced win; dark missed it."""
BLUNDER_PLY = 29

SIGHT_BLUNDER_GAME = [
    "c3", "c5", "a2", "b5", "e1", "c5-d5", "c3-d3", "c2", "e4", "d2", "e1-d1", "c2-b2", "b1",
    "b5-a5", "d1-c1", "e5", "b1-a1", "d5-d4", "a2-a3", "c5-b4", "c3-b3", "d4-e3", "a3-a4", "d2-e2",
    "c4",
]
"""A Sight game (random play, seed 0) in which dark, at ply 22, had a won position (proven: a5-a4
wins) and played d4-e3, after which light has a forced win, and took it."""
SIGHT_BLUNDER_PLY = 22

SCALAS_BLUNDER_GAME = [
    "a4", "d2", "d5", "d4", "d3", "e1", "d3", "a1", "e3", "e4", "a3", "d5", "c4", "c5", "e2", "e4",
    "b1", "b5", "e1", "b4", "c3", "b3", "d3", "b2", "c2", "d2", "c3", "b5", "c5", "b4", "c1", "b1",
    "d5", "d4", "d3", "c4", "e4", "b5", "c5", "a5", "b2", "b4", "b3", "b2", "b3", "b4", "c1", "c1",
    "a4", "b3",
]
"""A two-player Scalas game (random play, seed 12) in which the first player, at ply 48, had a won
position (proven: a5 wins) and played c1, after which the second player has a forced win, and
took it. Both throw-aways are proven by 100 iterations under any of 30 search seeds tried."""
SCALAS_BLUNDER_PLY = 48

STAIRS_60 = [
    "f6-f5", "e6-d6", "a5-a6", "c6-b6", "e1-f1", "a2-a1", "c1-b1", "a4-b5", "a3-b2", "f3-f2",
    "f4-e5", "e4-d5", "b4-c5", "b3-c4", "e3-d4", "d1-e2", "d2-c3", "c2-d3", "f5-e5", "b6-a6",
    "f1-f2", "d3-e2", "b1-a1", "c4-b5", "c3-b2", "d3-c4", "c5-c4", "d6-d5", "b6-c5", "d5-c4",
    "c5-d5", "e2-f2", "d6-c5", "a6-b5", "c5-d4", "c4-b5", "d4-e5", "pass", "b2-a1", "pass",
    "c4-d5", "c4-d4", "c5-c4", "pass", "d5-e5", "d4-d5", "d4-c4", "pass", "d4-c3", "pass",
    "b2-c3", "b1-b2", "c3-c4", "b2-c3", "c4-d5", "c3-c4", "d5-e5", "d5-c4", "pass", "c4-b5",
]
"""A finished Stairs game of exactly 60 plies (6 of them forced passes), for the issue's target
"analysis of a 60-ply Stairs game in ≤ 20 s". Random play ends after 30–46 plies; this one came
from a beam search keeping the positions with the most legal moves (width 200, seed 1)."""


def stairs_game_with_passes(seed: int = 115) -> list[str]:
    """A long Stairs game: random moves, preferring those that leave the opponent only a pass
    (seed 115: 46 plies, 4 of them passes the rules force)."""
    rng = random.Random(seed)
    state = registry.get("stairs").new_state(2, {}, 0)
    moves = []
    while not state.is_over:
        legal = state.legal_moves()
        passing = [m for m in legal if state.play(m).legal_moves() == ["pass"]]
        move = rng.choice(passing) if passing and rng.random() < 0.9 else rng.choice(legal)
        moves.append(move)
        state = state.play(move)
    return moves
