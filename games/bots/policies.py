"""The playout policy bots use: each game's own hint, reached through the State.

Games keep their heuristics beside their rules (``State.playout_move``); this module names no
game and reads no game's fields.
"""

from __future__ import annotations

import random

from games.base import State
from games.bots.mcts import PlayoutPolicy


def game_policy(state: State, moves: list[str], rng: random.Random) -> str:
    """The game's own playout hint for ``state`` (uniformly random unless the game has one)."""
    return state.playout_move(moves, rng)


def policy_for(state: State) -> PlayoutPolicy:
    """The playout policy for ``state``'s game (kept for callers that ask per state)."""
    return game_policy
