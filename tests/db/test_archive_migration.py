"""Migration 0028 on a database that already has games: every finished match gets its archive
rows (each seat's outcome from the stored result), on both databases; matches in play or
aborted get none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from app.db.migrate import alembic_config
from tests import databases

BEFORE = "0026"
MATCH = ("insert into matches (id, game, options, seed, num_seats, status, rated, eliminated, "
         "version, announced_version, sealed, rules_version, ply, snapshot, result, created_at, "
         "finished_at, updated_at) values (:id, 'stairs', '{}', '1', 2, :status, :rated, '[]', 1, "
         "1, :sealed, 1, 3, '{}', :result, '2026-01-01', :finished, '2026-01-02')")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    with databases.postgres_schema(request.getfixturevalue("postgres_base_url"),
                                   migrated=False) as url:
        yield url


def test_finished_matches_get_their_archive_rows(empty_database: str) -> None:
    command.upgrade(alembic_config(empty_database), BEFORE)
    engine = create_engine(empty_database)
    with engine.begin() as connection:
        for user in (1, 2):
            connection.execute(text(
                "insert into users (id, name, kind, is_moderator, created_at, last_seen_at) "
                "values (:id, :name, 'guest', false, '2026-01-01', '2026-01-01')"),
                {"id": user, "name": f"P{user}"})
        for match_id, status, result, finished, sealed in [
                ("won", "finished", '{"winners": [1], "ranking": [[1], [0]], "reason": "resigned"}',
                 "2026-01-02 10:00:00", False),
                ("drawn", "finished", '{"winners": [], "ranking": [[0, 1]], "reason": "draw_agreed"}',
                 "2026-01-03 10:00:00", True),
                ("playing", "active", None, None, False),
                ("aborted", "aborted", None, "2026-01-04 10:00:00", False)]:
            connection.execute(text(MATCH), {"id": match_id, "status": status, "rated": False,
                                             "sealed": sealed, "result": result,
                                             "finished": finished})
            for seat, user in ((0, 1), (1, 2)):
                connection.execute(text(
                    "insert into match_players (match_id, seat, user_id, joined_at) "
                    "values (:m, :s, :u, '2026-01-01')"), {"m": match_id, "s": seat, "u": user})
    command.upgrade(alembic_config(empty_database), "head")
    with engine.connect() as connection:
        rows = sorted((r.match_id, r.seat, r.user_id, r.outcome, r.game, str(r.finished_at)[:16])
                      for r in connection.execute(text("select * from archive_entries")))
    engine.dispose()
    assert rows == [("drawn", 0, 1, "draw", "stairs", "2026-01-03 10:00"),
                    ("drawn", 1, 2, "draw", "stairs", "2026-01-03 10:00"),
                    ("won", 0, 1, "loss", "stairs", "2026-01-02 10:00"),
                    ("won", 1, 2, "win", "stairs", "2026-01-02 10:00")]
