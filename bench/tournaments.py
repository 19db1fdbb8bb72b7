"""Swiss pairing quality and speed over simulated events, and the arena's pairing speed.

Each event: players rated around 1500 (σ 300); every game's result follows the Elo expectation
with draws (more between close ratings); some players withdraw after a round, a few join late
(before round 2, with 0 points). Rounds: 5 for 7 players, up to 9 for large fields. Per round
it reports, averaged over the events of a size:

- **floated**: games between players of unequal scores, beside the **ideal**: the naive exact
  score-group pairing of the same standings (the ranked field paired in order, a group's odd
  player meeting the next group's best, the last player taking the bye; who met before and
  seats ignored) — a lower bound for any pairing that gives the bye to the lowest-ranked;
- **score diff**: the mean score difference over the round's games, beside the same ideal;
- **seat balance**: the mean |first seats − second seats| of the players who have played,
  beside its ideal (0 after an even number of games, 1 after an odd one); **absolute**: players
  given a third same seat in a row or a balance past ±2 (the FIDE absolute colour rules);
  **denied wishes**: players per game not given the seat they should have (FIDE's colour
  preference, whatever its strength); **repeats**: pairings played before (a last resort);
- **pairing time**: CPU seconds per round (``time.process_time``: other processes on the
  machine do not count); target: 256 players in under 1 s every round.

``--engine PATH`` also drives the same simulated events (same ratings, same random stream)
with an external Dutch-system engine that reads a TRF file as JaVaFo does (``PATH --dutch
in.trf -p out.txt``, e.g. bbpPairings; its CPU time counted too), and has Stepwell pair the
engine's standings each round without playing them ("stepwell on the engine's standings"): the
matchings compared on identical standings. No engine is shipped or built here.

Run: ``.venv/bin/python bench/tournaments.py [--sizes 7,16,33,64,128,256] [--events 4]
[--seed 1] [--engine PATH] [--totals]``.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.tournaments.pairing import (
    ArenaPlayer,
    Board,
    SwissPlayer,
    SwissRecord,
    pair_arena,
    pair_swiss,
    ranked,
    record_board,
    swiss_players,
)

Pairer = Callable[[list[SwissPlayer], "Event"], list[Board]]
DRAW_RATE = 0.3
"""Draw probability between equal ratings (less as the expectation moves away from ½)."""
WITHDRAW_RATE = 0.02
"""Each player still in withdraws after a round (not the last two) with this probability."""


def rounds_for(players: int) -> int:
    return min(9, max(5, math.ceil(math.log2(players)) + 2))


@dataclass
class Event:
    """One simulated event: the entrants (with the round they join) and its random stream."""

    size: int
    rounds: int
    seed: int
    ratings: dict[int, int] = field(default_factory=dict)
    joins: dict[int, int] = field(default_factory=dict)  # id -> first round played (1-based)
    records: dict[int, SwissRecord] = field(default_factory=dict)
    withdrawn: dict[int, int] = field(default_factory=dict)  # id -> last round before leaving

    @classmethod
    def new(cls, size: int, seed: int) -> Event:
        rng = random.Random(seed)
        event = cls(size, rounds_for(size), seed)
        late = max(1, size // 20)
        for player in range(1, size + late + 1):
            event.ratings[player] = max(800, min(2800, round(rng.gauss(1500, 300))))
            event.joins[player] = 1 if player <= size else 2
        return event

    def active(self, number: int) -> list[int]:
        return [p for p in self.ratings if self.joins[p] <= number and p not in self.withdrawn]


@dataclass
class RoundStats:
    games: int = 0
    floated: int = 0
    diff: float = 0.0
    ideal_floated: int = 0
    ideal_diff: float = 0.0
    balance: float = 0.0
    ideal_balance: float = 0.0
    absolute: int = 0
    denied: int = 0
    repeats: int = 0
    seconds: float = 0.0


def cpu_seconds() -> float:
    """This process's CPU time and its finished children's (an external engine)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def ideal_pairing(order: list[SwissPlayer]) -> tuple[int, float, int]:
    """The naive exact score-group pairing of a ranked field: (games between unequal scores,
    the sum of the score differences, games). The lowest player takes the bye when odd."""
    field_ = order[:len(order) - len(order) % 2]
    floated, diff = 0, 0.0
    for a, b in zip(field_[0::2], field_[1::2], strict=True):
        if a.score != b.score:
            floated += 1
            diff += a.score - b.score
    return floated, diff, len(field_) // 2


def expected(rating: int, other: int) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def play(rng: random.Random, white: int, black: int) -> float:
    """The first seat's result, from the Elo expectation with draws."""
    e = expected(white, black)
    draw = DRAW_RATE * (1 - abs(2 * e - 1))
    roll = rng.random()
    return 1.0 if roll < e - draw / 2 else 0.5 if roll < e + draw / 2 else 0.0


def wish(colours: tuple[int, ...]) -> int | None:
    """The seat a player should get next (FIDE's colour preference, whatever its strength)."""
    if not colours:
        return None
    balance = colours.count(0) - colours.count(1)
    if balance:
        return 1 if balance > 0 else 0
    return 1 - colours[-1]


def measure(boards: list[Board], field_: list[SwissPlayer], row: RoundStats) -> None:
    """The round's games, floated games, score differences and denied seat wishes."""
    row.repeats += check(boards, field_)
    by_id = {p.id: p for p in field_}
    for board in boards:
        if board.black is None:
            continue
        white, black = by_id[board.white], by_id[board.black]
        row.games += 1
        gap = abs(white.score - black.score)
        row.floated += gap > 0
        row.diff += gap
        row.denied += (wish(white.colours) == 1) + (wish(black.colours) == 0)


def run_event(event: Event, pair: Pairer, shadow: Pairer | None = None
              ) -> tuple[list[RoundStats], list[RoundStats]]:
    """The event driven by ``pair``; ``shadow`` pairs the same standings each round, unplayed."""
    rng = random.Random(event.seed * 7919 + 1)
    event.records = {p: SwissRecord(p, rating=r) for p, r in event.ratings.items()}
    event.withdrawn = {}
    stats: list[RoundStats] = []
    shadows: list[RoundStats] = []
    for number in range(1, event.rounds + 1):
        field_ = swiss_players(event.records[p] for p in event.active(number))
        order = ranked(field_)
        ideal = ideal_pairing(order)[:2]
        if shadow is not None:
            started = cpu_seconds()
            other = shadow(field_, event)
            shadows.append(RoundStats(seconds=cpu_seconds() - started))
            shadows[-1].ideal_floated, shadows[-1].ideal_diff = ideal
            measure(other, field_, shadows[-1])
        started = cpu_seconds()
        boards = pair(field_, event)
        row = RoundStats(seconds=cpu_seconds() - started)
        row.ideal_floated, row.ideal_diff = ideal
        measure(boards, field_, row)
        for board in boards:
            result = None if board.black is None else play(
                rng, event.ratings[board.white], event.ratings[board.black])
            record_board(event.records, board, result)
        played = [p for p in swiss_players(event.records[q] for q in event.active(number))
                  if p.colours]
        for p in played:
            balance = abs(p.colours.count(0) - p.colours.count(1))
            row.balance += balance
            row.ideal_balance += len(p.colours) % 2
            row.absolute += balance > 2 or (len(p.colours) >= 3 and len(set(p.colours[-3:])) == 1)
        row.balance /= max(1, len(played))
        row.ideal_balance /= max(1, len(played))
        if number < event.rounds - 1:
            for p in event.active(number):
                if rng.random() < WITHDRAW_RATE:
                    event.withdrawn[p] = number
        stats.append(row)
    return stats, shadows


def check(boards: list[Board], field_: list[SwissPlayer]) -> int:
    """Everyone paired once; returns how many boards repeat a pairing (the last resort)."""
    seated = [b.white for b in boards] + [b.black for b in boards if b.black is not None]
    assert sorted(seated) == sorted(p.id for p in field_), "not everyone paired once"
    by_id = {p.id: p for p in field_}
    return sum(1 for b in boards if b.black is not None and b.black in by_id[b.white].opponents)


def stepwell(field_: list[SwissPlayer], _event: Event) -> list[Board]:
    return pair_swiss(field_)


# -- an external engine through a TRF file ---------------------------------------------------------

def engine_pairer(path: str) -> Pairer:
    """Pairs through ``path --dutch in.trf -p out.txt``: the event so far as a TRF file (pairing
    numbers by rating, then id; the first seat is white, the top board's white first)."""
    def pair(field_: list[SwissPlayer], event: Event) -> list[Board]:
        numbers = {p: n for n, p in enumerate(
            sorted(event.ratings, key=lambda q: (-event.ratings[q], q)), start=1)}
        by_number = {n: p for p, n in numbers.items()}
        playing = {p.id for p in field_}
        played_rounds = max((len(r.games) for r in event.records.values()), default=0)
        lines = ["012 Simulated event", f"XXR {event.rounds}", "XXC white1"]
        for player in sorted(event.ratings, key=numbers.__getitem__):
            record = event.records[player]
            history = ["0000 - Z"] * min(event.joins[player] - 1, played_rounds)  # not in yet
            for opponent, result, seat in record.games:
                if opponent is None:
                    history.append("0000 - U")
                else:
                    mark = "1" if result == 1 else "=" if result == 0.5 else "0"
                    history.append(f"{numbers[opponent]:4d} {'wb'[seat or 0]} {mark}")
            history += ["0000 - Z"] * (played_rounds - len(history))  # after withdrawing
            if player not in playing:
                history.append("0000 - Z")
            line = list(" " * 89)  # a round's columns start at 92: "  0123 w 1" each
            line[0:3] = "001"
            line[4:8] = f"{numbers[player]:4d}"
            line[14:14 + 10] = f"P{player:<9d}"
            line[48:52] = f"{event.ratings[player]:4d}"
            line[80:84] = f"{record.score:4.1f}"
            line[85:89] = f"{numbers[player]:4d}"
            lines.append("".join(line) + "".join(f"  {h}" for h in history).rstrip())
        with tempfile.TemporaryDirectory() as folder:
            trf, out = Path(folder) / "in.trf", Path(folder) / "out.txt"
            trf.write_text("\n".join(lines) + "\n")
            done = subprocess.run([path, "--dutch", str(trf), "-p", str(out)],
                                  capture_output=True, text=True, check=False)
            if done.returncode:
                raise RuntimeError(f"engine failed ({done.returncode}): {done.stderr}\n{trf.read_text()}")
            rows = out.read_text().split("\n")[1:]
        boards = []
        for row in rows:
            if row.strip():
                white, black = (int(x) for x in row.split())
                boards.append(Board(by_number[white], by_number[black] if black else None))
        return boards
    return pair


# -- report ----------------------------------------------------------------------------------------

def summarise(runs: list[list[RoundStats]]) -> list[dict[str, float]]:
    """Per round, over the events: mean floated games, mean score difference per game, mean
    seat balance, denied wishes per game, absolute-rule breaches (a total), worst CPU time."""
    rows = []
    for number in range(len(runs[0])):
        rounds = [run[number] for run in runs]
        games = sum(r.games for r in rounds) or 1
        rows.append({
            "round": number + 1,
            "floated": statistics.mean(r.floated for r in rounds),
            "ideal_floated": statistics.mean(r.ideal_floated for r in rounds),
            "diff": sum(r.diff for r in rounds) / games,
            "ideal_diff": sum(r.ideal_diff for r in rounds) / games,
            "denied": sum(r.denied for r in rounds) / games,
            "balance": statistics.mean(r.balance for r in rounds),
            "ideal_balance": statistics.mean(r.ideal_balance for r in rounds),
            "absolute": sum(r.absolute for r in rounds),
            "repeats": sum(r.repeats for r in rounds),
            "max_s": max(r.seconds for r in rounds),
        })
    return rows


def line(size: int, name: str, number: str, row: dict[str, float], seats: bool = True) -> str:
    balance = (f"{row['balance']:.2f} ({row['ideal_balance']:.2f}) | {row['absolute']:.0f}"
               if seats else "– | –") + f" | {row['repeats']:.0f}"
    return (f"| {size} | {name} | {number} | {row['floated']:.2f} ({row['ideal_floated']:.2f}) "
            f"| {row['diff']:.3f} ({row['ideal_diff']:.3f}) | {row['denied']:.2f} | {balance} "
            f"| {row['max_s']:.3f} |")


def total_of(rows: list[dict[str, float]]) -> dict[str, float]:
    total = {key: statistics.mean(r[key] for r in rows) for key in
             ("floated", "ideal_floated", "diff", "ideal_diff", "denied", "balance",
              "ideal_balance")}
    total["absolute"] = sum(r["absolute"] for r in rows)
    total["repeats"] = sum(r["repeats"] for r in rows)
    total["max_s"] = max(r["max_s"] for r in rows)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="7,16,33,64,128,256")
    parser.add_argument("--events", type=int, default=4, help="simulated events per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", help="an external Dutch-system engine to compare with")
    parser.add_argument("--totals", action="store_true", help="only a line per size")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    engine = engine_pairer(args.engine) if args.engine else None
    totals: dict[tuple[str, int], dict[str, float]] = {}
    print(f"Swiss over simulated events ({args.events} per size, seed {args.seed}): Elo-expected "
          f"results, draws, withdrawals ({WITHDRAW_RATE:.0%} a round), late joins before round 2. "
          "Per round, averaged over the events: floated games (ideal), mean score difference "
          "(ideal), seat wishes denied per game, mean |seat balance| (ideal), absolute-rule "
          "breaches and repeated pairings (totals), worst CPU seconds.")
    print()
    print("| size | pairing | round | floated (ideal) | score diff (ideal) | denied wishes "
          "| seat balance (ideal) | absolute | repeats | max CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        events = [args.seed * 1000 + size * 10 + e for e in range(args.events)]
        driven = {"stepwell": [run_event(Event.new(size, seed), stepwell)[0] for seed in events]}
        shadow: list[list[RoundStats]] = []
        if engine is not None:
            both = [run_event(Event.new(size, seed), engine, stepwell) for seed in events]
            driven["engine"] = [run for run, _ in both]
            shadow = [run for _, run in both]
        for name, runs in driven.items():
            rows = summarise(runs)
            for row in [] if args.totals else rows:
                print(line(size, name, str(row["round"]), row))
            totals[(name, size)] = total_of(rows)
            print(line(size, f"**{name}**", "all", totals[(name, size)]), flush=True)
        if shadow:
            rows = summarise(shadow)
            for row in [] if args.totals else rows:
                print(line(size, "stepwell on the engine's standings", str(row["round"]), row,
                           seats=False))
            totals[("shadow", size)] = total_of(rows)
            print(line(size, "**stepwell on the engine's standings**", "all",
                       totals[("shadow", size)], seats=False), flush=True)
    if engine is not None:
        print()
        print("| size | floated: stepwell / engine | score diff: stepwell / engine "
              "| on the same standings: floated, score diff |")
        print("|---|---|---|---|")
        for size in sizes:
            ours, theirs = totals[("stepwell", size)], totals[("engine", size)]
            same = totals[("shadow", size)]
            print(f"| {size} | {ratio(ours['floated'], theirs['floated'])} "
                  f"| {ratio(ours['diff'], theirs['diff'])} "
                  f"| {ratio(same['floated'], theirs['floated'])}, "
                  f"{ratio(same['diff'], theirs['diff'])} |")
    rng = random.Random(args.seed)
    waiting = [ArenaPlayer(i, rng.randint(0, 30), rng.uniform(1000, 2000)) for i in range(256)]
    started = time.process_time()
    pair_arena(waiting, players_in=256)
    print(f"\narena: 256 players waiting at once paired in {time.process_time() - started:.3f} s CPU")


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs else ("1.00" if not ours else "∞")


if __name__ == "__main__":
    main()
