"""Optional per-game playout policies: cheap, slightly greedy move pickers for MCTS playouts.

Each policy plays its greedy pick with probability ``GREEDY`` and a uniformly random move
otherwise, so playouts stay varied. Policies know their engine (they read its position fields for
speed); a game without an entry here gets uniformly random playouts.
"""

from __future__ import annotations

import random

from games.base import State
from games.bots.mcts import PlayoutPolicy, random_policy
from games.scalas.board import FORCED_PAIRS, INDEX
from games.sight.board import MOVE_BY_NAME, RAYS
from games.stairs.engine import SQUARE_INDEX

GREEDY = 0.75


def _best(moves: list[str], scores: list[float], rng: random.Random) -> str:
    top = max(scores)
    best = [m for m, s in zip(moves, scores, strict=True) if s == top]
    return best[rng.randrange(len(best))]


def stairs_policy(state: State, moves: list[str], rng: random.Random) -> str:
    """Prefer climbing to (or past) the current greatest height: that is what wins Stairs."""
    if len(moves) == 1 or rng.random() >= GREEDY:
        return moves[rng.randrange(len(moves))]
    heights = state._heights  # type: ignore[attr-defined]
    top = max(heights)
    scores = []
    for move in moves:
        target = SQUARE_INDEX.get(move[3:])
        scores.append(0.0 if target is None else min(heights[target] + 1 - top, 1))
    return _best(moves, scores, rng)


def sight_policy(state: State, moves: list[str], rng: random.Random) -> str:
    """Prefer the move that grows the most friendly pieces (first occupied point on each line)."""
    if len(moves) == 1 or rng.random() >= GREEDY:
        return moves[rng.randrange(len(moves))]
    board = state._board  # type: ignore[attr-defined]
    sign = 1 if state.to_move == 0 else -1
    scores = []
    for move in moves:
        source, target = MOVE_BY_NAME[move]
        grown = 0
        for ray in RAYS[target]:
            for point in ray:
                height = board[point]
                if height:
                    if height * sign > 0 and point != source:
                        grown += 1
                    break
        scores.append(grown)
    return _best(moves, scores, rng)


def scalas_policy(state: State, moves: list[str], rng: random.Random) -> str:
    """Prefer placements that force further placements for the mover (each one tops a square)
    and that cover an opponent's top."""
    if len(moves) == 1 or rng.random() >= GREEDY:
        return moves[rng.randrange(len(moves))]
    size = state.size  # type: ignore[attr-defined]
    heights = state.heights  # type: ignore[attr-defined]
    columns = state.columns  # type: ignore[attr-defined]
    mark = str(state.to_move)
    index = INDEX[size]
    pairs = FORCED_PAIRS[size]
    scores = []
    for move in moves:
        square = index.get(move)
        if square is None:
            scores.append(0.0)
            continue
        height = heights[square] + 1
        score = 0.5 if columns[square] and columns[square][-1] != mark else 0.0
        for _between, far in pairs[square]:
            if heights[far] == height and columns[far][-1] == mark:
                score += 1
        scores.append(score)
    return _best(moves, scores, rng)


POLICIES: dict[str, PlayoutPolicy] = {
    "stairs": stairs_policy,
    "sight": sight_policy,
    "scalas": scalas_policy,
}


def game_id_of(state: State) -> str | None:
    """The registry id of the game a state belongs to, from its engine package (games.<id>.…)."""
    parts = type(state).__module__.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "games" else None


def policy_for(state: State) -> PlayoutPolicy:
    return POLICIES.get(game_id_of(state) or "", random_policy)
