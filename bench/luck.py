"""Luck reports: the CPU one report takes, and how much the bot that sees every secret scores
beside an honest bot with the same budget (it sees only its own seat) on the same deals.

Run by hand: ``.venv/bin/python bench/luck.py [--deals 6] [--players 2 4] [--iterations 1500]``.
For each deal and seat both bots play that seat from the start against easy bots (the report's
replay, ``app/luck/compute.py``); the honest bot is the baseline, measured in the same run. The
gap between the two is what knowing the cards is worth to a bot, i.e. how far the report's
``full_sight`` sits above what skill alone could expect.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.luck.compute import full_sight_move, play_seat
from games import registry
from games.base import State
from games.bots.mcts import search
from games.bots.policies import policy_for


def honest_move(state: State, seat: int, iterations: int, seed: int) -> str:
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    return search(state, seat, random.Random(seed), max_iterations=iterations,
                  policy=policy_for(state), early_stop=False).move


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--iterations", type=int, default=1500)
    args = parser.parse_args()
    game = registry.get("town")
    print(f"{'players':>7} {'bot':>10} {'mean score':>10} {'CPU s/report':>12}")
    for players in args.players:
        for sighted in (False, True):
            scores: list[int] = []
            clock = time.process_time()
            for deal in range(args.deals):
                start = game.new_state(players=players, seed=deal)
                scores += [play_seat(start, seat, f"bench{deal}", args.iterations,
                                     full_sight_move if sighted else honest_move)
                           for seat in range(players)]
            cpu = (time.process_time() - clock) / args.deals
            name = "full sight" if sighted else "honest"
            print(f"{players:>7} {name:>10} {statistics.mean(scores):>10.2f} {cpu:>12.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
