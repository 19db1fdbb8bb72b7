"""Tournament fixtures: a migrated database with a session factory, players, and bots that play
every tournament game to its end through the match service (the built-in bot engine)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match, User
from app.db.session import make_engine, make_session_factory
from app.kernel.identity import Identity
from app.tournaments.models import TournamentGame
from app.tournaments.scheduler import advance_all
from app.tournaments.service import TournamentService
from games.bots import choose_move
from tests.databases import sqlite_database
from tests.playing import play_out as play_to_end
from tests.playing import random_moves


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return sqlite_database(tmp_path / "tournaments.db")


@pytest.fixture
def factory(sqlite_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(sqlite_url)
    yield make_session_factory(engine)
    engine.dispose()


class Events:
    """Everything published: match records and bus messages."""

    def __init__(self) -> None:
        self.records: list[Any] = []
        self.messages: list[tuple[str, dict[str, Any]]] = []

    def record(self, record: Any) -> None:
        self.records.append(record)

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.messages.append((channel, message))


@pytest.fixture
def events() -> Events:
    return Events()


def make_users(factory: sessionmaker[Session], count: int, kind: str = "bot",
               prefix: str = "p") -> list[Identity]:
    with factory() as session:
        users = [User(name=f"{prefix}{i}", kind=kind, username=f"{prefix}{i}-{random.random():.9f}")
                 for i in range(1, count + 1)]
        session.add_all(users)
        session.commit()
        return [Identity(id=u.id, name=u.name, kind=u.kind) for u in users]


def create(factory: sessionmaker[Session], creator: Identity, players: list[Identity],
           **fields: Any) -> str:
    fields = {"name": "Test", "options": {}, "time_control": None, "starts_at": None,
              "rounds": None, "minutes": None, "rated": False, **fields}
    with factory() as session:
        service = TournamentService(session)
        tournament_id = service.create(creator, **fields)["id"]
        for player in players:
            service.join(tournament_id, player)
    return tournament_id


def tournament_matches(factory: sessionmaker[Session], tournament_id: str,
                       status: str = "active") -> list[str]:
    with factory() as session:
        return list(session.scalars(
            select(Match.id).join(TournamentGame, TournamentGame.match_id == Match.id)
            .where(TournamentGame.tournament_id == tournament_id, Match.status == status)
            .order_by(Match.id)))


def play_out(factory: sessionmaker[Session], match_id: str, events: Events,
             level: str | None = "easy", max_plies: int = 2000) -> None:
    """Plays the match to its end: the bot engine at ``level`` for each seat (None: random)."""
    choose = ((lambda state, seat, ply: choose_move(state, seat, level, ply)) if level
              else random_moves(match_id))
    play_to_end(factory, match_id, choose, events.record, max_plies)


def advance(factory: sessionmaker[Session], events: Events) -> int:
    return advance_all(factory, events.record, events.publish)


def view(factory: sessionmaker[Session], tournament_id: str, viewer: int | None = None
         ) -> dict[str, Any]:
    with factory() as session:
        return TournamentService(session).get(tournament_id, viewer)
