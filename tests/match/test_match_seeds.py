"""A match's deal comes from a 128-bit secret seed drawn from the OS generator and expanded by the
cryptographic generator (``games.chance``); the seed survives the database exactly, on SQLite and
PostgreSQL, and a Town match stored under an older rules version still replays exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.db.migrate import alembic_config
from app.db.models import Match
from app.db.session import make_engine, make_session_factory
from app.match.service import MatchService
from games import registry
from games.chance import DealRandom
from games.town.cards import EVENT_IDS, PATH_IDS
from tests.databases import postgres_schema

TOWN = registry.get("town")


def _deal(snapshot: dict) -> list:
    return [snapshot["offer"], snapshot["path_deck"], snapshot["event_deck"],
            snapshot["start_cards"]]


def _shuffled(rng: random.Random, players: int) -> list:
    path, event = list(PATH_IDS), list(EVENT_IDS)
    rng.shuffle(path)
    rng.shuffle(event)
    return [[path[0], event[0]], path[1:], event[1:], rng.sample(range(1, 8), players)]


def test_every_new_match_draws_its_own_128_bit_seed(session: Session) -> None:
    """Forty seeds, all different, none above 128 bits, and the largest uses (almost) all 128 —
    a 31-bit seed would fail this with certainty, a true 128-bit one with chance 2**-320."""
    service = MatchService(session, lambda record: None)  # nobody listens here
    creator = create_guest(session, "A")[0]
    ids = [service.create(creator, game_id, seat=0).id
           for game_id in ("town", "stairs", "sight", "scalas") * 10]
    session.expire_all()
    seeds = [session.get(Match, match_id).seed for match_id in ids]  # type: ignore[union-attr]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= seed < 2**128 for seed in seeds)
    assert max(seed.bit_length() for seed in seeds) >= 120
    assert sum(seed.bit_length() > 64 for seed in seeds) >= 35


def test_a_new_town_deal_comes_from_the_hash_generator_not_the_mersenne_twister(
        session: Session) -> None:
    service = MatchService(session, lambda record: None)  # nobody listens here
    creator = create_guest(session, "A")[0]
    for _ in range(5):
        record = service.create(creator, "town", seat=0, players=3)
        session.expire_all()
        stored = session.get(Match, record.id)
        assert stored is not None and stored.rules_version == 3
        deal = _deal(stored.snapshot)
        assert deal == _shuffled(DealRandom(stored.seed), 3)
        assert deal != _shuffled(random.Random(stored.seed), 3)
        *_, (_, replayed) = service.replayed_states(stored)
        assert replayed.to_json() == stored.snapshot


def _insert_old_match(url: str, game: str, seed: int, snapshot: dict, version: int,
                      log: list[str]) -> None:
    """Match 'old1' and its moves, written as the code before revision 0014 wrote them."""
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO matches (id, game, options, seed, num_seats, status, rated, eliminated,"
            " version, ply, snapshot, created_at, updated_at, rules_version, sealed) VALUES"
            " ('old1', :game, '{}', :seed, 2, 'finished', false, '[]', 0, :ply, :snapshot,"
            " '2026-11-01 10:00:00', '2026-11-01 10:00:00', :version, false)"),
            {"game": game, "seed": seed, "ply": len(log), "snapshot": json.dumps(snapshot),
             "version": version})
        for ply, move in enumerate(log, start=1):
            connection.execute(sa.text(
                "INSERT INTO moves (match_id, ply, seat, move, time_spent_ms, created_at) VALUES"
                " ('old1', :ply, 0, :move, 0, '2026-11-01 10:00:00')"), {"ply": ply, "move": move})
    engine.dispose()


@pytest.mark.parametrize("version", [1, 2])
def test_a_town_match_stored_under_an_old_version_replays_exactly_after_the_migration(
        tmp_path: Path, version: int) -> None:
    """A match written by the old code (31-bit seed in a BIGINT column, rules version 1 or 2,
    played to its end) is read back after 0014 with the same seed and rebuilt move by move to
    exactly its stored snapshot."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = alembic_config(url)
    command.upgrade(config, "0012")
    seed = 1_987_654_321
    rng = random.Random(4)
    state = TOWN.replay_start(version, 2, None, seed)
    log = []
    while not state.is_over:
        log.append(rng.choice(state.legal_moves()))
        state = state.play(log[-1])
    _insert_old_match(url, "town", seed, state.to_json(), version, log)
    command.upgrade(config, "head")
    engine = make_engine(url)
    with make_session_factory(engine)() as session:
        stored = session.get(Match, "old1")
        assert stored is not None and stored.seed == seed and stored.rules_version == version
        *_, (_, replayed) = MatchService.read_only(session).replayed_states(stored)
        assert replayed.to_json() == stored.snapshot == state.to_json()
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_at_0012(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database migrated only up to the revision before the seed became text."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'seeds.db'}"
        command.upgrade(alembic_config(url), "0012")
        yield url
        return
    with postgres_schema(request.getfixturevalue("postgres_base_url"), migrated=False) as url:
        command.upgrade(alembic_config(url), "0012")
        yield url


def test_the_seed_column_keeps_old_seeds_and_holds_128_bit_ones(database_at_0012: str) -> None:
    url = database_at_0012
    _insert_old_match(url, "stairs", 2147483646, {}, 1, [])
    command.upgrade(alembic_config(url), "head")
    big = 2**128 - 1
    engine = make_engine(url)
    with make_session_factory(engine)() as session:
        old = session.get(Match, "old1")
        assert old is not None and old.seed == 2147483646
        creator = create_guest(session, "A")[0]
        record = MatchService(session, lambda record: None).create(creator, "town", seat=0)
        new = session.get(Match, record.id)
        assert new is not None
        new.seed = big
        session.commit()
    with make_session_factory(engine)() as session:
        assert session.get(Match, record.id).seed == big  # type: ignore[union-attr]
    engine.dispose()
