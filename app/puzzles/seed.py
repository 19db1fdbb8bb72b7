"""``python -m app.puzzles.seed --game stairs --count 50``: start the collection from the bot's
games against itself (seeded, so a run is reproducible), stored in the configured database.

Games are played and mined until ``--count`` new puzzles are stored or ``--games`` games were
tried; ``--from`` picks the first seed (a second run continues with new games)."""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.orm import Session, sessionmaker

from app.db.session import make_engine, make_session_factory
from app.kernel.settings import Settings
from app.puzzles.mine import mine_line, puzzle_game, self_play_line
from app.puzzles.service import PuzzleService


def seed(session_factory: sessionmaker[Session], game_id: str, count: int, first: int = 0,
         games: int | None = None, report: bool = False) -> int:
    """Store up to ``count`` new puzzles of ``game_id`` from seeded self-play; how many."""
    game = puzzle_game(game_id)
    if game is None:
        raise ValueError(f"{game_id} has no puzzles")
    stored = 0
    seed_number = first
    limit = games if games is not None else count * 10
    while stored < count and seed_number < first + limit:
        moves = self_play_line(game_id, seed_number)
        found = mine_line(game_id, {}, game.min_players, game.rules_version, moves)
        with session_factory() as session:
            stored += PuzzleService(session).store(found[: count - stored], "selfplay")
        if report:
            print(f"game {seed_number}: {len(moves)} plies, {len(found)} found, {stored} stored",
                  flush=True)
        seed_number += 1
    return stored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True, choices=["stairs", "sight", "scalas"])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--from", dest="first", type=int, default=0)
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args(argv)
    settings = Settings()
    factory = make_session_factory(make_engine(settings.database_url, settings.db_pool_size))
    stored = seed(factory, args.game, args.count, args.first, args.games, report=True)
    print(f"{stored} puzzles stored")
    return 0


if __name__ == "__main__":
    sys.exit(main())
