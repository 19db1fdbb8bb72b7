"""Bot strength: win rates of one level against others over seeded games, printed as a table.

Run by hand: ``.venv/bin/python bench/strength.py [--games 40] [--game town3] [--jobs 2]
[--hard-iterations 1000] [--pairing hard:random]``. In a pairing ``A:B`` one seat plays level A and
every other seat level B (Town with 3 or 4 players: one A against two or three Bs); A's seat
rotates every game so it plays each seat equally. Each setup also prints ``random:random``, the
random baseline (what a seat wins by luck and seat order: 50 % in two-player games, about 1/n in
Town), measured in the same run.

Two figures per pairing, both A's:

- ``win rate`` (the headline, what the targets are stated in): outright first place; a win shared
  by k seats counts 1/k. Against three opponents this asks A to beat the best of them.
- ``pairwise``: the share of opponents A finished ahead of, a tie counting half (in two-player
  games the same figure as the win rate). It shows how A does against a typical opponent, and it
  is less noisy, but it is not the target.

Budgets: ``--hard-iterations N`` replaces hard's clock (2 s a move) by exactly N MCTS iterations a
move, so a run is reproducible on a loaded machine (a seeded search with an iteration budget
chooses the same move every time); ``--hard-seconds`` only shortens the clock. The level
``hard-halving`` is hard's budget spent, in Town, on sequential halving over common sampled worlds
(``games.bots.halving``): N playouts a move where hard has N iterations (1,500 by its clock), for a
pairing (``--pairing hard-halving:easy --baseline hard``). ``--baseline LEVEL``
adds LEVEL (``hard-plain``: hard's budget with uniformly random playouts, i.e. without the games'
playout hints) as a second challenger against the same opponents, so every figure sits beside its
baseline measured in the same run. ``cpu s/move`` is the CPU time the first level spent on each
move it chose among two or more (CPU, not wall: on a loaded machine wall time says little);
``p50``/``p99`` are the median and 99th percentile of those times, for the first level and, after
the slash, for the second.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import Result, registry
from games.bots import LEVELS, Level, choose_move

SETUPS: dict[str, tuple[str, str, int, dict]] = {
    "stairs": ("stairs", "stairs", 2, {}),
    "sight": ("sight", "sight", 2, {}),
    "scalas": ("scalas 5x5", "scalas", 2, {"size": 5}),
    "town": ("town 2p", "town", 2, {}),
    "town3": ("town 3p", "town", 3, {}),
    "town4": ("town 4p", "town", 4, {}),
}
PAIRINGS = [("hard", "random"), ("hard", "easy")]
HALVING_PLAYOUTS = 1500  # a halving search's budget that fits hard's 2 s clock in Town


def play_game(
    game_id: str, players: int, options: dict, seats: tuple[Level, ...], seed: int
) -> tuple[Result, float, int, list[list[float]]]:
    """One game, ``seats[i]`` playing seat i: (result, seconds, plies, the CPU seconds each seat
    spent on each move it chose among two or more)."""
    game = registry.get(game_id)
    state = game.new_state(players=players, options=options, seed=seed)
    start = time.perf_counter()
    plies = 0
    thought: list[list[float]] = [[] for _ in range(players)]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        clock = time.process_time()
        move = choose_move(state, seat, seats[seat], seed * 1000 + plies)
        if len(state.legal_moves()) > 1:
            thought[seat].append(time.process_time() - clock)
        state = state.play(move)
        plies += 1
    assert state.result is not None
    return state.result, time.perf_counter() - start, plies, thought


def win_share(result: Result, seat: int, players: int) -> float:
    """``seat``'s share of first place: 1/k when k seats share it (a draw: every seat)."""
    winners = result.winners or tuple(range(players))
    return 1 / len(winners) if seat in winners else 0.0


def pairwise(result: Result, seat: int, players: int) -> float:
    """The share of the other seats that ``seat`` finished ahead of, a tie counting half."""
    place = {s: rank for rank, group in enumerate(result.ranking) for s in group}
    others = [s for s in range(players) if s != seat]
    return sum(1.0 if place[seat] < place[s] else 0.5 if place[seat] == place[s] else 0.0
               for s in others) / len(others)


def run_match(args: tuple[str, int, dict, Level, Level, int]) -> tuple[float, float, float, int,
                                                                        list[float], list[float]]:
    """Game ``index`` of a pairing: the first level sits at seat ``index % players``, the second
    level everywhere else: (first level's win share, its pairwise score, seconds, plies, the CPU
    seconds of each move with a choice the first level made, and the second level's)."""
    game_id, players, options, first, second, index = args
    mine = index % players
    seats = tuple(first if seat == mine else second for seat in range(players))
    result, seconds, plies, thought = play_game(game_id, players, options, seats, seed=index)
    others = [t for seat in range(players) if seat != mine for t in thought[seat]]
    return (win_share(result, mine, players), pairwise(result, mine, players), seconds, plies,
            thought[mine], others)


def percentile(times: list[float], share: float) -> float:
    """The ``share`` quantile of ``times`` (nearest rank; 0 when empty)."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def levels_for(args: argparse.Namespace) -> dict[str, Level]:
    levels = dict(LEVELS)
    hard = levels["hard"]
    if args.hard_iterations is not None:
        hard = dataclasses.replace(hard, max_iterations=args.hard_iterations, seconds=None)
    elif args.hard_seconds is not None:
        hard = dataclasses.replace(hard, seconds=args.hard_seconds)
    levels["hard"] = hard
    levels["hard-plain"] = dataclasses.replace(hard, name="hard-plain", heuristics=False)
    playouts = HALVING_PLAYOUTS if hard.seconds is not None else hard.max_iterations
    levels["hard-halving"] = dataclasses.replace(hard, name="hard-halving", playouts=playouts)
    return levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per pairing per setup")
    parser.add_argument("--game", choices=sorted(SETUPS), action="append")
    parser.add_argument("--pairing", action="append", help="e.g. hard:random (default: hard "
                        "against random and against easy)")
    parser.add_argument("--hard-seconds", type=float, default=None)
    parser.add_argument("--hard-iterations", type=int, default=None)
    parser.add_argument("--baseline", default=None, help="a second challenger, e.g. hard-plain")
    parser.add_argument("--no-random-baseline", action="store_true")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
    levels = levels_for(args)
    pairings = [tuple(p.split(":")) for p in args.pairing] if args.pairing else PAIRINGS
    if args.baseline:
        pairings = [pair for first, second in pairings
                    for pair in ((first, second), (args.baseline, second))]
    if not args.no_random_baseline:
        pairings = [("random", "random"), *pairings]
    hard = levels["hard"]
    budget = (f"{hard.max_iterations} iterations" if hard.seconds is None
              else f"{hard.seconds} s / {hard.max_iterations} iterations")
    print(f"hard = {budget} a move; {args.games} games a pairing")
    print(f"{'setup':<12} {'pairing':<20} {'win rate':>9} {'score':>11} {'pairwise':>9} "
          f"{'s/game':>7} {'plies':>6} {'cpu s/move':>10} {'p50 (s)':>13} {'p99 (s)':>13}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for key in args.game or list(SETUPS):
            label, game_id, players, options = SETUPS[key]
            for first, second in pairings:
                jobs = [(game_id, players, options, levels[first], levels[second], i)
                        for i in range(args.games)]
                outcomes = list(pool.map(run_match, jobs))
                won = sum(o[0] for o in outcomes)
                ahead = sum(o[1] for o in outcomes) / len(outcomes)
                seconds = sum(o[2] for o in outcomes) / len(outcomes)
                plies = sum(o[3] for o in outcomes) / len(outcomes)
                mine = [t for o in outcomes for t in o[4]]
                theirs = [t for o in outcomes for t in o[5]]
                per_move = sum(mine) / max(1, len(mine))
                p50 = f"{percentile(mine, 0.5):.3f}/{percentile(theirs, 0.5):.3f}"
                p99 = f"{percentile(mine, 0.99):.3f}/{percentile(theirs, 0.99):.3f}"
                print(
                    f"{label:<12} {first + ' v ' + second:<20} {won / len(outcomes):>8.1%} "
                    f"{won:>5.1f}/{len(outcomes):<5d} {ahead:>8.1%} {seconds:>7.1f} "
                    f"{plies:>6.1f} {per_move:>10.3f} {p50:>13} {p99:>13}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
