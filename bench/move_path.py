"""The move use case alone, in one process: every move read from the database (cold) against moves
on this process's warm copy of the match (app/match/warm.py), on SQLite and PostgreSQL.

Why a bench of its own: the socket benchmarks (bench/load.py) measure the whole server, and on
this shared 2-core machine their absolute figures drift by a third from one minute to the next.
Here both ways of playing run in the same process, game by game in turn (cold, warm, cold,
warm …), so drift hits both alike, and the figures that matter are the ratios. Cold is the
baseline: the same ``MatchService.play`` with no warm map, exactly the path before warm matches.

Per move: CPU time of the process (the Python work: SQLAlchemy, the driver, the engine, the
record) and wall time (that plus the database's round trips), over every move. (The statements
a move sends are checked by tests/match/test_statement_counts.py.)

Run by hand: ``.venv/bin/python bench/move_path.py [--games 20] [--db both]``. Random legal
Stairs moves from a fixed seed; a new pair of guests and a new match per game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.accounts.identity import create_guest
from app.db.session import make_engine, make_session_factory
from app.match.records import MatchRecord
from app.match.service import MatchService
from app.match.warm import WarmMatches
from bench.load_servers import Database


def unheard(record: MatchRecord) -> None:
    """The bare move path: nothing is published (the bench measures the service, not the bus)."""


def play_game(factory, warm: WarmMatches | None, rng: random.Random,  # type: ignore[no-untyped-def]
              cpu: list[float], wall: list[float]) -> int:
    """One whole Stairs game between two new guests; appends each move's CPU and wall time."""
    with factory() as session:
        first, _ = create_guest(session, "A")
        second, _ = create_guest(session, "B")
    with factory() as session:
        record = MatchService(session, unheard).create(first, "stairs", seat=0)
    with factory() as session:
        record = MatchService(session, unheard).join(record.id, second)
    players = [first, second]
    moves = 0
    while record.status == "active":
        state = record.state
        assert state.to_move is not None
        move = rng.choice(state.legal_moves())
        clock, start = time.process_time(), time.perf_counter()
        with factory() as session:
            record = MatchService(session, unheard, warm).play(record.id, players[state.to_move],
                                                            move, record.ply)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - clock)
        moves += 1
    return moves


def measure(kind: str, games: int, seed: int) -> dict[str, dict[str, float]]:
    database = Database.fresh(kind)
    engine = make_engine(database.url)
    factory = make_session_factory(engine)
    timings: dict[str, tuple[list[float], list[float]]] = {"cold": ([], []), "warm": ([], [])}
    moves = {"cold": 0, "warm": 0}
    try:
        play_game(factory, None, random.Random(seed), [], [])  # warm up the pools and caches
        for game in range(games):
            for way in ("cold", "warm"):  # the same seed: the same game both ways
                moves[way] += play_game(factory, WarmMatches() if way == "warm" else None,
                                        random.Random(seed + game), *timings[way])
    finally:
        engine.dispose()
        database.drop()
    out = {}
    for way, (cpu, wall) in timings.items():
        cpu.sort()
        wall.sort()
        out[way] = {"moves": moves[way], "cpu50": statistics.median(cpu) * 1e3,
                    "cpu_mean": statistics.fmean(cpu) * 1e3,
                    "wall50": statistics.median(wall) * 1e3,
                    "wall99": wall[int(len(wall) * 0.99)] * 1e3}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    print("database  way   moves  CPU ms/move (median, mean)  wall ms/move (median, p99)")
    for kind in kinds:
        figures = measure(kind, args.games, args.seed)
        for way in ("cold", "warm"):
            f = figures[way]
            print(f"{kind:9} {way:5} {f['moves']:6}  {f['cpu50']:6.3f} {f['cpu_mean']:6.3f}"
                  f"              {f['wall50']:6.3f} {f['wall99']:7.3f}")
        cold, warm = figures["cold"], figures["warm"]
        print(f"{kind:9} warm ÷ cold: CPU {warm['cpu_mean'] / cold['cpu_mean']:.2f}, "
              f"wall median {warm['wall50'] / cold['wall50']:.2f}, "
              f"wall p99 {warm['wall99'] / cold['wall99']:.2f}")


if __name__ == "__main__":
    main()
