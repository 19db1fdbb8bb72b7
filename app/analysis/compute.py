"""What runs in a worker process: evaluating one position, a hint, the preferred move's picture.

Everything here takes and returns plain data (game id, state JSON, moves) so it crosses process
boundaries; it builds states with the game's own ``from_json`` and never touches the database.
Worker processes lower their scheduling priority (``lower_priority``) so analysis, which may
keep the cores busy for seconds, yields to the web server and to bots playing live games.
"""

from __future__ import annotations

import contextlib
import os
import random
import zlib
from typing import Any

from games import registry
from games.bots.analysis import evaluate
from games.bots.levels import choose_move
from games.bots.policies import game_policy

HINT_LEVEL = "medium"
NICENESS = 10


def budget_for(game_id: str) -> int:
    """Search iterations per position: the game's own ``analysis_budget``."""
    return registry.get(game_id).analysis_budget


def lower_priority() -> None:
    """Hint pool initializer: below the web server, but not idle-only — a player is waiting for
    the hint, and on a busy machine an idle-only process might not run at all."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)


def position_seed(key: str, ply: int) -> int:
    """The same search seed for the same position of the same game, on every machine."""
    return zlib.crc32(f"{key}:{ply}".encode())


def evaluate_position(game_id: str, snapshot: dict[str, Any], iterations: int,
                      seed: int) -> dict[str, Any]:
    """The search's verdict on one position, as plain data (see ``values.PositionValue``)."""
    state = registry.get(game_id).from_json(snapshot)
    result = evaluate(state, random.Random(seed), iterations, game_policy)
    return {"values": list(result.values), "best": result.best, "proven": result.proven,
            "to_move": state.to_move, "moves": len(state.legal_moves())}


def hint(game_id: str, snapshot: dict[str, Any], seed: int) -> str:
    """A good move for the seat to move (the medium bot's choice, searching only what that seat
    knows)."""
    state = registry.get(game_id).from_json(snapshot)
    assert state.to_move is not None
    return choose_move(state, state.to_move, HINT_LEVEL, seed)


def preferred_view(game_id: str, snapshot: dict[str, Any], move: str) -> dict[str, Any] | None:
    """The public view after ``move`` instead of the move played (None if it is not legal)."""
    state = registry.get(game_id).from_json(snapshot)
    if move not in state.legal_moves():
        return None
    return state.play(move).view(None)
