"""Bot levels and the single entry point the app calls: ``choose_move(state, seat, level, seed)``.

A level is a search budget: iterations and/or seconds of MCTS per move, with the game's playout
playout hint (``State.playout_move``). ``random`` plays a uniformly random legal move (benchmarks).
A level with a ``playouts`` budget searches the games that ask for it (``State.flat_search``:
Town) by sequential halving on common sampled worlds (``halving``) instead of a tree, within its
clock. No built-in level has one yet: in Town it measured level with hard's tree so far
(``bench/strength.py``'s ``hard-halving``; bench/results/bot-strength.md).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.base import State
from games.bots.halving import halving
from games.bots.mcts import random_policy, search
from games.bots.policies import policy_for


@dataclass(frozen=True)
class Level:
    """A search budget; ``None`` means no limit of that kind (at least one must be set)."""

    name: str
    max_iterations: int | None
    seconds: float | None
    heuristics: bool = True
    playouts: int | None = None
    """The playout budget of a halving search, for the games that ask for one (with the
    heuristics); ``None``: every game gets the tree search."""


LEVELS: dict[str, Level] = {
    "random": Level("random", 0, None, heuristics=False),
    "easy": Level("easy", 80, 0.5, heuristics=False),
    "medium": Level("medium", 20_000, 0.3),
    "hard": Level("hard", 200_000, 2.0),
}


def choose_move(state: State, seat: int, level: str | Level = "medium", seed: int = 0) -> str:
    """The move the bot at ``level`` plays for ``seat`` (whose turn it must be).

    Searches only determinizations of what ``seat`` knows. A single legal move is returned at once,
    and so is a move the game settles exactly (``settled_move``; not for the levels without
    heuristics, ``random`` and ``easy``).
    """
    budget = LEVELS[level] if isinstance(level, str) else level
    moves = state.legal_moves()
    if state.to_move != seat or not moves:
        raise ValueError(f"it is not seat {seat}'s turn to choose a move")
    rng = random.Random(seed)
    if len(moves) == 1:
        return moves[0]
    if budget.max_iterations == 0:
        return moves[rng.randrange(len(moves))]
    if budget.heuristics:
        settled = state.settled_move()
        if settled is not None:
            return settled
        if budget.playouts is not None and state.flat_search:
            deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
            return halving(state, seat, rng, playouts=budget.playouts, policy=policy_for(state),
                           deadline=deadline).move
    return search(
        state,
        seat,
        rng,
        max_iterations=budget.max_iterations,
        time_limit=budget.seconds,
        policy=policy_for(state) if budget.heuristics else random_policy,
    ).move
