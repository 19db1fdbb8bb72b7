"""A rated tournament pairs nobody who is waiting out a playban (app/match/playban.py), nor a
closed account, and refuses such a person at its door; a casual one pairs them. A Swiss round
waits while fewer than two entrants may play."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Playban, User
from app.kernel import timesource
from app.kernel.errors import Forbidden
from app.kernel.identity import Identity
from app.tournaments.service import TournamentService
from tests.tournaments.conftest import Events, advance, create, make_users, view

REALTIME = {"kind": "realtime", "minutes": 1, "increment": 0}


def _ban(factory: sessionmaker[Session], user: Identity, minutes: int = 10) -> None:
    moment = timesource.now()
    with factory() as session:
        session.add(Playban(user_id=user.id, reason="sitting", minutes=minutes, started_at=moment,
                            ends_at=moment + timedelta(minutes=minutes), last_outcome_id=0))
        session.commit()


def _paired(factory: sessionmaker[Session], tournament_id: str) -> set[int]:
    return {s["user"]["id"] for g in view(factory, tournament_id)["games"]
            if g["status"] == "playing" for s in g["seats"]}


@pytest.mark.parametrize("kind", ["arena", "swiss"])
def test_a_rated_event_leaves_out_a_playbanned_entrant_and_a_closed_account(
        factory: sessionmaker[Session], events: Events, kind: str) -> None:
    clock = timesource.FakeClock()
    with timesource.use(clock):
        (host,) = make_users(factory, 1, kind="account", prefix="host")
        players = make_users(factory, 6, kind="account")
        extra = {"minutes": 30} if kind == "arena" else {"rounds": 3}
        tournament_id = create(factory, host, players, kind=kind, game="sight", rated=True,
                               time_control=REALTIME, **extra)
        _ban(factory, players[0])
        with factory() as session:
            session.execute(update(User).where(User.id == players[1].id)
                            .values(closed_at=timesource.now()))
            session.commit()
        advance(factory, events)
        assert _paired(factory, tournament_id) == {p.id for p in players[2:]}


def test_a_casual_event_pairs_a_playbanned_entrant(factory: sessionmaker[Session],
                                                   events: Events) -> None:
    (host,) = make_users(factory, 1, kind="account", prefix="host")
    players = make_users(factory, 2, kind="account")
    tournament_id = create(factory, host, players, kind="arena", game="sight", minutes=30,
                           time_control=REALTIME)
    _ban(factory, players[0])
    advance(factory, events)
    assert _paired(factory, tournament_id) == {p.id for p in players}


def test_a_swiss_round_waits_for_two_who_may_play(factory: sessionmaker[Session],
                                                  events: Events) -> None:
    clock = timesource.FakeClock()
    with timesource.use(clock):
        (host,) = make_users(factory, 1, kind="account", prefix="host")
        players = make_users(factory, 2, kind="account")
        tournament_id = create(factory, host, players, kind="swiss", game="sight", rounds=2,
                               rated=True, time_control=REALTIME)
        _ban(factory, players[0])
        advance(factory, events)
        assert _paired(factory, tournament_id) == set()
        assert view(factory, tournament_id)["status"] != "finished"
        clock.advance(600)
        advance(factory, events)
        assert _paired(factory, tournament_id) == {p.id for p in players}


def test_a_playbanned_person_cannot_join_a_rated_event(factory: sessionmaker[Session]) -> None:
    (host,) = make_users(factory, 1, kind="account", prefix="host")
    (player,) = make_users(factory, 1, kind="account")
    rated = create(factory, host, [], kind="arena", game="sight", minutes=30, rated=True,
                   time_control=REALTIME)
    casual = create(factory, host, [], kind="arena", game="sight", minutes=30,
                    time_control=REALTIME)
    _ban(factory, player)
    with factory() as session:
        service = TournamentService(session)
        with pytest.raises(Forbidden) as refused:
            service.join(rated, player)
        assert refused.value.code == "playban" and "until" in refused.value.extra
        service.join(casual, player)
