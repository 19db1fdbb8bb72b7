"""A match records the rules version it is played under, so a stored match replays exactly after a
game changes its rules (Town of Stairs, version 2: the repeated-entry rule and card P13)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.db.migrate import alembic_config
from app.db.models import Match
from app.match.service import MatchService
from games import registry


def test_a_new_match_records_the_rules_version_of_its_game(session: Session) -> None:
    service = MatchService(session, lambda record: None)  # nobody listens here
    first = create_guest(session, "A")[0]
    for game_id, version in (("town", 3), ("stairs", 1)):
        record = service.create(first, game_id, seat=0)
        stored = session.get(Match, record.id)
        assert stored is not None
        assert stored.rules_version == version == registry.get(game_id).rules_version
        assert stored.snapshot.get("rules_version", 1) == version


def test_migration_0005_marks_every_stored_match_as_rules_version_one(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = alembic_config(url)
    command.upgrade(config, "0004")
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO matches (id, game, options, seed, num_seats, status, rated, eliminated,"
            " version, ply, snapshot, created_at, updated_at) VALUES ('old1', 'town', '{}', 7, 2,"
            " 'active', 0, '[]', 0, 0, '{}', '2026-11-01 10:00:00', '2026-11-01 10:00:00')"))
    command.upgrade(config, "head")
    with engine.connect() as connection:
        version = connection.execute(
            sa.text("SELECT rules_version FROM matches WHERE id = 'old1'")).scalar_one()
    engine.dispose()
    assert version == 1


def test_a_match_played_under_rules_version_one_replays_to_its_snapshot(session: Session) -> None:
    """A Town match stored before version 2 (its row says 1, its snapshot has no version) still
    rebuilds from its seed and move log to exactly the snapshot it was played to."""
    service = MatchService(session, lambda record: None)  # nobody listens here
    first, second = create_guest(session, "A")[0], create_guest(session, "B")[0]
    record = service.create(first, "town", seat=0)
    stored = session.get(Match, record.id)
    assert stored is not None
    game = registry.get("town")
    stored.rules_version = 1
    stored.snapshot = game.replay_start(1, stored.num_seats, stored.options, stored.seed).to_json()
    session.commit()
    session.expunge(stored)  # from here on the service alone loads and saves the match
    record = service.join(record.id, second, 1)
    people = [first, second]
    for _ in range(12):
        state = game.from_json(record.snapshot)
        record = service.play(record.id, people[state.to_move], state.legal_moves()[0], record.ply)
    session.expire_all()
    *_, (_, replayed) = service.replayed_states(session.get(Match, record.id))
    assert "rules_version" not in record.snapshot
    assert replayed.to_json() == record.snapshot
