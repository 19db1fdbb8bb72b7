"""The bot pool's worker processes, readied before they are needed.

A spawned process imports the engines and the bots on its first job, a second's work on a
small machine; a stand-by worker that spawned its pool only on takeover kept the bots silent
that much longer after a failover. :func:`warm_bot_process` runs in each process as it starts.
"""

from __future__ import annotations

import contextlib
import os


def warm_bot_process() -> None:
    """Pool initializer: import what a bot move needs, and build each game once."""
    from app.match import bot_move  # noqa: F401  # imported for its side effect: warm
    from games import registry

    for game in registry.all_games():
        with contextlib.suppress(Exception):  # warming is a courtesy: a game is built anyway
            game.new_state(players=game.min_players, options={}, seed=0)


def process_id() -> int:
    """A job that only shows the pool answers (each process runs its initializer first)."""
    return os.getpid()
