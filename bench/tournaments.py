"""How long a Swiss round takes to pair, for a field of N (default 256) over R rounds of random
results, printed beside a baseline measured in the same run: one maximum-weight matching over
the whole field (every pair of players an edge), which is what the bracket-by-bracket pairing
of app/tournaments/pairing.py replaces. Also the arena pairing of everyone waiting at once.

Run by hand: ``.venv/bin/python bench/tournaments.py [--players 256] [--rounds 9] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.tournaments import pairing
from app.tournaments.pairing import (
    ArenaPlayer,
    SwissRecord,
    pair_arena,
    pair_swiss,
    record_board,
    swiss_players,
)


def whole_field_matching(players: list[pairing.SwissPlayer]) -> None:
    """The baseline: one graph with every pair, the same weights, one matching."""
    order = pairing.ranked(players)
    rank = {p.id: i for i, p in enumerate(order)}
    pairing._match(order, rank, pairing._group_sizes(order), True, allow_repeats=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline-rounds", type=int, default=3,
                        help="rounds timed for the (slow) whole-field baseline")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = {i: SwissRecord(i, rating=rng.uniform(1000, 2000)) for i in range(1, args.players + 1)}
    ours: list[float] = []
    baseline: list[float] = []
    print(f"Swiss, {args.players} players, random results (win/draw/loss equally likely)")
    print(f"{'round':>5} {'brackets (s)':>13} {'whole field (s)':>16}")
    for number in range(1, args.rounds + 1):
        field = swiss_players(records.values())
        started = time.perf_counter()
        boards = pair_swiss(field)
        ours.append(time.perf_counter() - started)
        whole = ""
        if number <= args.baseline_rounds:
            started = time.perf_counter()
            whole_field_matching(field)
            baseline.append(time.perf_counter() - started)
            whole = f"{baseline[-1]:.3f}"
        print(f"{number:>5} {ours[-1]:>13.3f} {whole:>16}")
        for board in boards:
            record_board(records, board, rng.choice([1.0, 0.5, 0.0]))
    print(f"brackets: median {statistics.median(ours):.3f} s, max {max(ours):.3f} s "
          f"(target < 1 s); whole field: median {statistics.median(baseline):.3f} s")
    waiting = [ArenaPlayer(i, rng.randint(0, 30), rng.uniform(1000, 2000)) for i in range(args.players)]
    started = time.perf_counter()
    pair_arena(waiting, players_in=args.players)
    print(f"arena: {args.players} players waiting at once paired in {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
