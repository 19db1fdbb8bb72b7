"""Bot strength: win rates of one level against another over seeded games, printed as a table.

Run by hand: ``.venv/bin/python bench/strength.py [--games 20] [--game stairs] [--jobs 2]
[--hard-seconds 2.0] [--pairing hard:random]``. Each pairing plays N games per game; the two sides
swap seats every game so each plays each seat equally. A shared win counts half a win; the rate is
the first level's. ``--hard-seconds`` shortens hard's clock for quick runs (the real budget is 2 s).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry
from games.bots import LEVELS, Level, choose_move

SETUPS = {
    "stairs": ("stairs", 2, {}),
    "sight": ("sight", 2, {}),
    "scalas": ("scalas 5x5", 2, {"size": 5}),
    "town": ("town 2p", 2, {}),
}
PAIRINGS = [("hard", "random"), ("hard", "easy"), ("hard", "medium")]


def play_game(
    game_id: str, options: dict, seats: tuple[Level, Level], seed: int
) -> tuple[tuple[float, float], float, int]:
    """One game between ``seats[0]`` (seat 0) and ``seats[1]``: (score per seat, seconds, plies)."""
    game = registry.get(game_id)
    state = game.new_state(players=2, options=options, seed=seed)
    start = time.perf_counter()
    plies = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.play(choose_move(state, seat, seats[seat], seed * 1000 + plies))
        plies += 1
    result = state.result
    assert result is not None
    share = 1 / len(result.winners) if result.winners else 0.5
    winners = result.winners or (0, 1)
    scores = (share if 0 in winners else 0.0, share if 1 in winners else 0.0)
    return scores, time.perf_counter() - start, plies


def run_match(args: tuple[str, dict, Level, Level, int]) -> tuple[float, float, int]:
    """Game ``index`` of a pairing; sides alternate seats: (first level's score, seconds, plies)."""
    game_id, options, first, second, index = args
    seats = (first, second) if index % 2 == 0 else (second, first)
    scores, seconds, plies = play_game(game_id, options, seats, seed=index)
    return scores[index % 2], seconds, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per pairing per game")
    parser.add_argument("--game", choices=sorted(SETUPS), action="append")
    parser.add_argument("--pairing", action="append", help="e.g. hard:random (default: all three)")
    parser.add_argument("--hard-seconds", type=float, default=None)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
    levels = dict(LEVELS)
    if args.hard_seconds is not None:
        levels["hard"] = dataclasses.replace(levels["hard"], seconds=args.hard_seconds)
    pairings = [tuple(p.split(":")) for p in args.pairing] if args.pairing else PAIRINGS
    hard = levels["hard"]
    print(f"hard = {hard.seconds} s / {hard.max_iterations} iterations a move; {args.games} games")
    print(f"{'setup':<12} {'pairing':<16} {'win rate':>9} {'score':>9} {'s/game':>7} {'plies':>6}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game_id in args.game or list(SETUPS):
            label, _, options = SETUPS[game_id]
            for first, second in pairings:
                jobs = [
                    (game_id, options, levels[first], levels[second], i) for i in range(args.games)
                ]
                outcomes = list(pool.map(run_match, jobs))
                won = sum(score for score, _, _ in outcomes)
                seconds = sum(s for _, s, _ in outcomes) / len(outcomes)
                plies = sum(p for _, _, p in outcomes) / len(outcomes)
                print(
                    f"{label:<12} {first + ' v ' + second:<16} {won / len(outcomes):>8.0%} "
                    f"{won:>4.1f}/{len(outcomes):<4d} {seconds:>7.1f} {plies:>6.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
