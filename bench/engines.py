"""Random playouts per second, plies per second and MCTS iterations per second (the bots' search,
with the game's playout policy, from the initial position) for each game, printed as a table.

Run by hand: ``.venv/bin/python bench/engines.py [--seconds 3] [--game stairs]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry
from games.bots.mcts import search
from games.bots.policies import policy_for

SETUPS = {
    "stairs": [("stairs", 2, {})],
    "sight": [("sight", 2, {})],
    "scalas": [("scalas 5x5", 2, {"size": 5}), ("scalas 7x7", 2, {"size": 7})],
    "town": [("town 2p", 2, {}), ("town 4p", 4, {})],
}


def measure(game_id: str, players: int, options: dict, seconds: float) -> tuple[float, float]:
    """(playouts/s, plies/s) of uniformly random games from the initial position."""
    game = registry.get(game_id)
    rng = random.Random(1)
    playouts = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(players=players, options=options, seed=rng.randrange(2**31))
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            plies += 1
        playouts += 1
    elapsed = time.perf_counter() - start
    return playouts / elapsed, plies / elapsed


def measure_mcts(game_id: str, players: int, options: dict, seconds: float) -> float:
    """MCTS iterations per second for the first seat's move in the initial position."""
    state = registry.get(game_id).new_state(players=players, options=options, seed=1)
    stats = search(
        state, 0, random.Random(1), time_limit=seconds, policy=policy_for(state), early_stop=False
    )
    return stats.iterations / stats.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=sorted(SETUPS), action="append")
    args = parser.parse_args()
    print(f"{'setup':<12} {'playouts/s':>11} {'plies/s':>10} {'mcts it/s':>10}")
    for game_id in args.game or registry.ids():
        for label, players, options in SETUPS.get(game_id, [(game_id, 2, {})]):
            per_s, plies_s = measure(game_id, players, options, args.seconds)
            mcts_s = measure_mcts(game_id, players, options, args.seconds)
            print(f"{label:<12} {per_s:>11.1f} {plies_s:>10.0f} {mcts_s:>10.0f}")


if __name__ == "__main__":
    main()
