"""An arena pairs only the players who are there (as Lichess): one who never made the
first move of their game (the game is aborted at the first-move limit) is paused, as is one who
pressed pause; a paused player is not paired again until they join again. Their opponent, and a
player whose game the opponent called off, stay in. SQLite and PostgreSQL, fake clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session, sessionmaker

from app.db.session import make_engine, make_session_factory
from app.kernel import timesource
from app.kernel.errors import Conflict
from app.kernel.identity import Identity
from app.match.service import MatchService
from app.match.timeouts import flag_overdue
from app.tournaments.service import TournamentService
from tests.tournaments.conftest import Events, advance, create, make_users, play_out, view

REALTIME = {"kind": "realtime", "minutes": 1, "increment": 0}


@pytest.fixture
def factory(database_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(database_url)
    yield make_session_factory(engine)
    engine.dispose()


def _playing(factory: sessionmaker[Session], tournament_id: str) -> list[tuple[str, list[int]]]:
    """(match id, seated user ids) of each arena game in play."""
    return [(g["match_id"], [s["user"]["id"] for s in g["seats"]])
            for g in view(factory, tournament_id)["games"] if g["status"] == "playing"]


def _standing(factory: sessionmaker[Session], tournament_id: str) -> dict[int, dict]:
    return {row["user"]["id"]: row for row in view(factory, tournament_id)["standings"]}


def _arena(factory: sessionmaker[Session], events: Events) -> tuple[str, list[Identity]]:
    (creator,) = make_users(factory, 1, kind="account", prefix="host")
    players = make_users(factory, 4, kind="account")
    tournament_id = create(factory, creator, players, kind="arena", game="sight", minutes=30,
                           time_control=REALTIME)
    advance(factory, events)
    assert len(_playing(factory, tournament_id)) == 2
    return tournament_id, players


def test_a_player_who_never_starts_is_paused_until_they_come_back(factory, events: Events
                                                                    ) -> None:  # type: ignore[no-untyped-def]
    clock = timesource.FakeClock()
    with timesource.use(clock):
        tournament_id, players = _arena(factory, events)
        (absent_game, (absent, opponent)), (other_game, _) = _playing(factory, tournament_id)
        play_out(factory, other_game, events, level=None)
        clock.advance(61)  # the first player of the first game never moves
        assert absent_game in flag_overdue(factory, lambda record: None)
        advance(factory, events)
        standing = _standing(factory, tournament_id)
        assert standing[absent]["paused"] and not standing[opponent]["paused"]
        assert sum(row["paused"] for row in standing.values()) == 1
        playing = _playing(factory, tournament_id)
        assert len(playing) == 1 and absent not in playing[0][1] and opponent in playing[0][1]
        for _ in range(3):  # games end, the others are paired again: never the absent one
            for match_id, _seated in _playing(factory, tournament_id):
                play_out(factory, match_id, events, level=None)
            clock.advance(5)
            advance(factory, events)
            assert all(absent not in seated for _, seated in _playing(factory, tournament_id))

        with factory() as session:  # back: joining again lifts the pause
            back = TournamentService(session).join(tournament_id, players[[p.id for p in players]
                                                                          .index(absent)])
        assert back["you"] == {"joined": True, "withdrawn": False, "paused": False,
                               "creator": False}
        for match_id, _seated in _playing(factory, tournament_id):
            play_out(factory, match_id, events, level=None)
        clock.advance(5)
        advance(factory, events)
        assert any(absent in seated for _, seated in _playing(factory, tournament_id))


def test_pause_keeps_the_game_in_play_and_an_opponents_abort_pauses_nobody(
        factory, events: Events) -> None:  # type: ignore[no-untyped-def]
    clock = timesource.FakeClock()
    with timesource.use(clock):
        tournament_id, players = _arena(factory, events)
        by_id = {p.id: p for p in players}
        (first_game, (pauser, _)), (second_game, (mover, caller)) = _playing(factory, tournament_id)
        with factory() as session:
            paused = TournamentService(session).pause(tournament_id, by_id[pauser])
            assert paused["you"]["paused"] and paused["you"]["joined"]
            assert MatchService.read_only(session).get(first_game).status == "active"  # it goes on
            silent = MatchService(session, lambda record: None)  # no listener in this test
            silent.abort(second_game, by_id[caller])  # before the first move
        play_out(factory, first_game, events, level=None)
        clock.advance(5)
        advance(factory, events)
        standing = _standing(factory, tournament_id)
        assert [user for user, row in standing.items() if row["paused"]] == [pauser]
        playing = _playing(factory, tournament_id)
        assert len(playing) == 1 and pauser not in playing[0][1]
        assert {mover, caller} & set(playing[0][1])


def test_only_an_arena_pauses_and_only_its_players(factory) -> None:  # type: ignore[no-untyped-def]
    (creator,) = make_users(factory, 1, kind="account", prefix="host")
    players = make_users(factory, 2, kind="account")
    swiss = create(factory, creator, players, kind="swiss", game="sight", rounds=1)
    arena = create(factory, creator, players[:1], kind="arena", game="sight", minutes=5,
                   time_control=REALTIME)
    with factory() as session:
        service = TournamentService(session)
        with pytest.raises(Conflict) as not_arena:
            service.pause(swiss, players[0])
        assert not_arena.value.code == "not_an_arena"
        with pytest.raises(Conflict) as outsider:
            service.pause(arena, players[1])
        assert outsider.value.code == "not_joined"
        service.pause(arena, players[0])
        with pytest.raises(Conflict) as twice:  # paused players come back by joining
            service.pause(arena, creator)
        assert twice.value.code == "not_joined"
