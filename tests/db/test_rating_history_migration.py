"""Migration 0029 on a database with rated games already played: each seat's change stored in a
finished rated match's result becomes a step of the rating history (sigma unknown); casual
games, unfinished ones and results without changes leave none. On both databases (the result is
JSON text on SQLite, a json value on PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from app.db.migrate import alembic_config
from tests import databases


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
    else:
        with databases.postgres_schema(request.getfixturevalue("postgres_base_url"),
                                       migrated=False) as url:
            yield url


MATCH = ("insert into matches (id, game, options, seed, num_seats, status, rated, eliminated, "
         "version, announced_version, sealed, rules_version, ply, snapshot, result, created_at, "
         "finished_at, updated_at) values (:id, :game, '{}', '1', 2, :status, :rated, '[]', 1, 1, "
         ":sealed, 1, 0, '{}', :result, '2026-01-01', :finished, '2026-01-01')")


def test_stored_rating_changes_become_history_steps(empty_url: str) -> None:
    command.upgrade(alembic_config(empty_url), "0026")
    engine = create_engine(empty_url)
    with engine.begin() as connection:
        for name in ("aiko", "ben"):
            connection.execute(text(
                "insert into users (name, kind, username, is_moderator, created_at, "
                "last_seen_at) values (:name, 'account', :name, false, '2026-01-01', "
                "'2026-01-01')"), {"name": name})
        ids = dict(connection.execute(text("select username, id from users")).all())

        def result(changes: list[tuple[int, float, float]] | None) -> str:
            body: dict[str, object] = {"winners": [0], "ranking": [[0], [1]],
                                       "reason": "resigned"}
            if changes is not None:
                body["rating_changes"] = [{"seat": s, "before": b, "after": a,
                                           "delta": round(a - b, 1)} for s, b, a in changes]
            return json.dumps(body)

        for match_id, rated, status, changes, finished in [
                ("second", True, "finished", [(0, 27.6, 29.1), (1, 22.4, 21.0)],
                 "2026-01-03 10:00:00"),
                ("first", True, "finished", [(0, 25.0, 27.6), (1, 25.0, 22.4)],
                 "2026-01-02 10:00:00"),
                ("casual", False, "finished", None, "2026-01-04 10:00:00"),
                ("older", True, "finished", None, "2026-01-01 10:00:00"),
                ("playing", True, "active", None, None)]:
            connection.execute(text(MATCH), {
                "id": match_id, "game": "stairs", "status": status, "rated": rated,
                "sealed": False, "result": result(changes) if status == "finished" else None,
                "finished": finished})
            for seat, user in enumerate(("aiko", "ben")):
                connection.execute(text(
                    "insert into match_players (match_id, seat, user_id, joined_at) "
                    "values (:match, :seat, :user, '2026-01-01')"),
                    {"match": match_id, "seat": seat, "user": ids[user]})
    command.upgrade(alembic_config(empty_url), "head")
    with engine.connect() as connection:
        rows = connection.execute(text(
            "select user_id, game, match_id, mu_before, mu, sigma, at from rating_history "
            "order by user_id, at")).all()
    engine.dispose()
    assert [(r.user_id, r.match_id, r.mu_before, r.mu, r.sigma) for r in rows] == [
        (ids["aiko"], "first", 25.0, 27.6, None), (ids["aiko"], "second", 27.6, 29.1, None),
        (ids["ben"], "first", 25.0, 22.4, None), (ids["ben"], "second", 22.4, 21.0, None)]
    assert {r.game for r in rows} == {"stairs"}
    assert str(rows[0].at).startswith("2026-01-02 10:00:00")
