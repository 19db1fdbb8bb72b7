"""Arena berserk (optional; as Lichess): before their first move a player halves
their clock and plays without increment; a win with at least 7 of their own moves then scores
one point more. Once per game, never after moving, only in an arena. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session, sessionmaker

from app.db.session import make_engine, make_session_factory
from app.kernel import timesource
from app.kernel.errors import Conflict
from app.kernel.identity import Identity
from app.match.service import MatchService
from app.tournaments.service import TournamentService
from games import registry
from games.bots import choose_move
from tests.tournaments.conftest import Events, advance, create, make_users, view

CLOCK = {"kind": "realtime", "minutes": 2, "increment": 3}


@pytest.fixture
def factory(database_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(database_url)
    yield make_session_factory(engine)
    engine.dispose()


def _berserk(factory: sessionmaker[Session], tournament_id: str, user: Identity) -> dict:
    with factory() as session:
        quiet = MatchService(session, lambda record: None)  # nobody listens here
        return TournamentService(session).berserk(tournament_id, user, quiet)


def _play(factory: sessionmaker[Session], match_id: str, user_of: dict[int, Identity],
          clock: timesource.FakeClock) -> None:
    """The easy bot's move for the seat to move, a second after the last."""
    clock.advance(1)
    with factory() as session:
        service = MatchService(session, lambda record: None)  # nobody listens here
        record = service.get(match_id)
        state = registry.get(record.game).from_json(record.snapshot)
        seat = state.to_move
        assert seat is not None, (record.status, record.ply, record.result)
        service.play(match_id, user_of[seat], choose_move(state, seat, "easy", record.ply),
                     record.ply)


def test_a_berserk_win_halves_the_clock_and_scores_a_point_more(factory, events: Events
                                                                  ) -> None:  # type: ignore[no-untyped-def]
    clock = timesource.FakeClock()
    with timesource.use(clock):
        (creator,) = make_users(factory, 1, kind="account", prefix="host")
        players = make_users(factory, 2, kind="account")
        tournament_id = create(factory, creator, players, kind="arena", game="sight", minutes=30,
                               time_control=CLOCK)
        advance(factory, events)
        (game,) = view(factory, tournament_id)["games"]
        match_id = game["match_id"]
        user_of = {s["seat"]: next(p for p in players if p.id == s["user"]["id"])
                   for s in game["seats"]}
        berserker, other = user_of[1], user_of[0]  # the second player, before their first move

        answered = _berserk(factory, tournament_id, berserker)
        seats = {s["user"]["id"]: s for s in answered["games"][0]["seats"]}
        assert seats[berserker.id]["berserk"] and not seats[other.id]["berserk"]
        with factory() as session:
            remaining = MatchService.read_only(session).get(match_id).clock["remaining_ms"]
        assert remaining == [120_000, 60_000]
        with pytest.raises(Conflict) as twice:
            _berserk(factory, tournament_id, berserker)
        assert twice.value.code == "cannot_berserk"

        _play(factory, match_id, user_of, clock)  # seat 0, then seat 1: the clocks run
        _play(factory, match_id, user_of, clock)
        with pytest.raises(Conflict) as moved:  # seat 0 has moved: too late for them
            _berserk(factory, tournament_id, other)
        assert moved.value.code == "cannot_berserk"
        for _ in range(14):  # seven more moves each; each move takes a second
            _play(factory, match_id, user_of, clock)
        with factory() as session:
            after = MatchService.read_only(session).get(match_id).clock["remaining_ms"]
        # the clocks run from the second player's first move: seven timed moves of a second
        assert after[1] == 60_000 - 7 * 1_000  # berserk: no increment
        assert after[0] == 120_000 + 7 * (3_000 - 1_000)
        with factory() as session:
            MatchService(session, lambda record: None).resign(match_id, other)
        advance(factory, events)
        (finished,) = [g for g in view(factory, tournament_id)["games"] if g["status"] == "finished"]
    points = {s["user"]["id"]: s["points"] for s in finished["seats"]}
    assert points == {berserker.id: 3.0, other.id: 0.0}  # a win is 2, berserk adds 1


def test_no_bonus_under_seven_moves_and_only_in_an_arena(factory, events: Events
                                                          ) -> None:  # type: ignore[no-untyped-def]
    clock = timesource.FakeClock()
    with timesource.use(clock):
        (creator,) = make_users(factory, 1, kind="account", prefix="host")
        players = make_users(factory, 2, kind="account")
        swiss = create(factory, creator, players, kind="swiss", game="sight", rounds=1,
                       time_control=CLOCK)
        with pytest.raises(Conflict) as not_arena:
            _berserk(factory, swiss, players[0])
        assert not_arena.value.code == "not_an_arena"
        arena = create(factory, creator, players, kind="arena", game="sight", minutes=30,
                       time_control=CLOCK)
        with pytest.raises(Conflict) as not_yet:
            _berserk(factory, arena, players[0])
        assert not_yet.value.code == "no_game_in_play"
        advance(factory, events)
        game = next(g for g in view(factory, arena)["games"] if g["status"] == "playing")
        user_of = {s["seat"]: next(p for p in players if p.id == s["user"]["id"])
                   for s in game["seats"]}
        _berserk(factory, arena, user_of[0])
        _play(factory, game["match_id"], user_of, clock)
        with factory() as session:
            MatchService(session, lambda record: None).resign(game["match_id"], user_of[1])
        advance(factory, events)
        (finished,) = [g for g in view(factory, arena)["games"] if g["status"] == "finished"]
    points = {s["seat"]: s["points"] for s in finished["seats"]}
    assert points == {0: 2.0, 1: 0.0}  # a quick berserk win: no bonus
